/* The method table, the parameter helpers every method uses, and scoring a loaded game. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "json_parse.h"
#include "method.h"
#include "render.h"

/* One request method, one file, one line here: each file's entry says the rest. */
static const struct sht_method_entry *const methods[] = {
	&sht_method_version_entry,
	&sht_method_rulesets_entry,
	&sht_method_describe_entry,
	&sht_method_replay_entry,
	&sht_method_legal_entry,
	&sht_method_score_entry,
	&sht_method_compare_entry,
	&sht_method_picture_entry,
	&sht_method_clock_entry,
	&sht_method_referee_entry,
	&sht_method_status_entry,
};

const struct sht_method_entry *const *
sht_method_entries(size_t *n)
{
	*n = sizeof(methods) / sizeof(methods[0]);
	return methods;
}

const struct sht_method_entry *
sht_method_find(const char *name)
{
	for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++)
		if (strcmp(methods[i]->name, name) == 0)
			return methods[i];
	return NULL;
}

bool
sht_method_pure(const char *method)
{
	const struct sht_method_entry *e = sht_method_find(method);

	return e != NULL && e->pure;
}

/* The entry of a known method whose params pass its check, or NULL with err. */
static const struct sht_method_entry *
checked_entry(const char *method, json_t *params, bool *unknown, struct sht_error *err)
{
	const struct sht_method_entry *e = sht_method_find(method);

	*unknown = e == NULL;
	if (e == NULL)
		sht_fail(err, SHT_ERROR_BAD_PARAMS, "unknown method '%.60s'", method);
	return e != NULL && sht_params_check(params, e->params, err) ? e : NULL;
}

json_t *
sht_method_call(const struct sht_context *ctx, const char *method, json_t *params, bool *unknown,
    struct sht_error *err)
{
	const struct sht_method_entry *e = checked_entry(method, params, unknown, err);

	return e != NULL ? e->run(ctx, params, err) : NULL;
}

bool
sht_method_write(const struct sht_context *ctx, const char *method, json_t *params,
    bool *unknown, struct sht_text *out, struct sht_error *err)
{
	const struct sht_method_entry *e = checked_entry(method, params, unknown, err);
	size_t before = out->len;
	json_t *result;
	bool ok;

	if (e == NULL)
		return false;
	if (e->write != NULL) {
		ok = e->write(ctx, params, out, err);
	} else {
		if ((result = e->run(ctx, params, err)) == NULL)
			return false;
		ok = sht_text_json(out, result);
		json_decref(result);
		if (!ok)
			sht_fail(err, SHT_ERROR_INTERNAL, "the result could not be written");
	}
	if (ok && out->failed) {
		ok = false;
		sht_fail(err, SHT_ERROR_INTERNAL, "out of memory");
	}
	if (!ok && !out->failed)
		out->len = before;
	return ok;
}

json_t *
sht_fail(struct sht_error *err, enum sht_error_kind kind, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sht_error_vset(err, kind, fmt, ap);
	va_end(ap);
	return NULL;
}

bool
sht_params_check(json_t *params, const char *const *known, struct sht_error *err)
{
	const char *key;
	json_t *v;

	if (params == NULL)
		return true;
	if (!json_is_object(params)) {
		sht_fail(err, SHT_ERROR_BAD_PARAMS, "params must be an object");
		return false;
	}
	json_object_foreach(params, key, v) {
		int i;

		for (i = 0; known[i] != NULL && strcmp(known[i], key) != 0; i++)
			;
		if (known[i] == NULL) {
			char list[200] = "";

			for (i = 0; known[i] != NULL; i++)
				snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				    i ? ", " : "", known[i]);
			sht_fail(err, SHT_ERROR_BAD_PARAMS, "unknown parameter '%.40s' (known: %s)",
			    key, list[0] ? list : "none");
			return false;
		}
	}
	return true;
}

const struct sht_ruleset *
sht_ruleset_for_ru(const struct sht_registry *r, const char *ru)
{
	static const struct { const char *word, *ruleset; } map[] = {
		{ "tromp", "tromp-taylor" }, { "new zealand", "new-zealand" },
		{ "japan", "japanese" }, { "korea", "korean" }, { "chin", "chinese" },
		{ "cwa", "chinese" },
	};
	const struct sht_ruleset *rs;
	char lower[64];
	size_t i;

	if (ru == NULL)
		return NULL;
	if ((rs = sht_registry_find(r, ru)) != NULL)
		return rs;
	for (i = 0; ru[i] != '\0' && i + 1 < sizeof(lower); i++)
		lower[i] = (char)(ru[i] >= 'A' && ru[i] <= 'Z' ? ru[i] - 'A' + 'a' : ru[i]);
	lower[i] = '\0';
	if (strcmp(lower, "nz") == 0 || strcmp(lower, "tt") == 0)
		return sht_registry_find(r, lower[0] == 'n' ? "new-zealand" : "tromp-taylor");
	/* KGS writes RU[AGA]; matched whole, since the letters occur inside other words. */
	if (strcmp(lower, "aga") == 0 || strncmp(lower, "aga ", 4) == 0)
		return sht_registry_find(r, "aga");
	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strstr(lower, map[i].word) != NULL)
			return sht_registry_find(r, map[i].ruleset);
	return NULL;
}

const char *
sht_record_server(const struct sht_sgf_game *g)
{
	static const struct { const char *word, *server; } servers[] = {
		{ "nngs", "NNGS" }, { "no name go server", "NNGS" }, { "pandanet", "IGS" },
		{ "igs", "IGS" }, { "internet go server", "IGS" },
	};
	if (g->place == NULL)
		return NULL;
	/* A word of its own, in any case ("cg_nngs", "IGS-PandaNet"), not letters inside another
	 * ("Twigs"): the characters around it are not letters. */
	for (const char *at = g->place; *at != '\0'; at++) {
		if (at > g->place && isalpha((unsigned char)at[-1]))
			continue;
		for (size_t i = 0; i < sizeof(servers) / sizeof(servers[0]); i++) {
			size_t len = strlen(servers[i].word);

			if (strncasecmp(at, servers[i].word, len) == 0 &&
			    !isalpha((unsigned char)at[len]))
				return servers[i].server;
		}
	}
	return NULL;
}

const struct sht_ruleset *
sht_ruleset_for_record(const struct sht_registry *r, const struct sht_sgf_game *g)
{
	const struct sht_ruleset *by_ru = sht_ruleset_for_ru(r, g->ruleset), *igs;

	/* The servers counted their games their own way whatever RU said of the rules (NNGS's
	 * records write none); only an RU naming other rules than Japanese overrides them. */
	if (sht_record_server(g) != NULL && (g->ruleset == NULL || g->ruleset[0] == '\0' ||
	    (by_ru != NULL && strcmp(by_ru->name, "japanese") == 0)) &&
	    (igs = sht_registry_find(r, "igs")) != NULL)
		return igs;
	return by_ru;
}

bool
sht_params_ruleset_game(const struct sht_context *ctx, json_t *params,
    const struct sht_ruleset **rs, struct sht_game *game, struct sht_error *err)
{
	json_t *name = json_object_get(params, "ruleset"), *g = json_object_get(params, "game");

	*rs = NULL;
	if (name != NULL) {
		if (!json_is_string(name)) {
			sht_fail(err, SHT_ERROR_BAD_PARAMS, "ruleset must be a string");
			return false;
		}
		*rs = sht_registry_find(ctx->registry, json_string_value(name));
		if (*rs == NULL) {
			sht_fail(err, SHT_ERROR_UNKNOWN_RULESET, "unknown ruleset '%.60s' (see method "
			    "rulesets)", json_string_value(name));
			return false;
		}
	}
	if (g == NULL) {
		sht_fail(err, SHT_ERROR_BAD_PARAMS, "game is required: {\"sgf\": \"...\"} or "
		    "{\"size\": 19, \"moves\": [...]}");
		return false;
	}
	if (!sht_game_from_params(ctx, g, *rs ? (*rs)->setup.width : 19, *rs ? (*rs)->setup.height : 19,
	    game, err))
		return false;
	if (*rs == NULL) {
		*rs = sht_ruleset_for_record(ctx->registry, &game->g);
		if (*rs == NULL)
			*rs = sht_registry_find(ctx->registry, "chinese");
		if (*rs == NULL) {
			sht_game_free(game);
			sht_fail(err, SHT_ERROR_UNKNOWN_RULESET, "no ruleset named and no 'chinese' "
			    "ruleset to fall back on");
			return false;
		}
		/* A game object without a size was read for 19x19; read it again for the
		 * ruleset's own board. */
		if (!game->has_size && ((*rs)->setup.width != 19 || (*rs)->setup.height != 19)) {
			sht_game_free(game);
			if (!sht_game_from_params(ctx, g, (*rs)->setup.width, (*rs)->setup.height, game, err))
				return false;
		}
		game->ruleset_unrecognised = game->g.ruleset != NULL &&
		    sht_ruleset_for_ru(ctx->registry, game->g.ruleset) == NULL;
		game->ruleset_by_server = sht_record_server(&game->g) != NULL &&
		    strcmp((*rs)->name, "igs") == 0;
	}
	return true;
}

bool
sht_params_komi(json_t *params, int *komi, bool *given, struct sht_error *err)
{
	json_t *k = json_object_get(params, "komi");

	*given = k != NULL;
	return k == NULL || sht_game_komi_from_json(k, komi, err);
}

/* The one error for a `dead` that is none of its forms, however the list was read. */
static bool
bad_dead(struct sht_error *err)
{
	sht_fail(err, SHT_ERROR_BAD_PARAMS, "dead must be \"auto\", \"auto-thorough\", \"none\" "
	    "or a list of vertices");
	return false;
}

bool
sht_params_dead(const struct sht_context *ctx, json_t *params, const struct sht_ruleset *rs,
    const struct sht_board *b, struct sht_dead_spec *dead, struct sht_error *err)
{
	json_t *d = json_object_get(params, "dead");
	const struct sht_move_list *list = ctx != NULL ? ctx->dead : NULL;
	const char *vertices[SHT_MAX_SIZE * SHT_MAX_SIZE];
	size_t i;
	json_t *v;

	dead->npoints = 0;
	dead->thorough = false;
	dead->judgements = ctx != NULL ? ctx->judgements : NULL;
	dead->mode = (enum sht_dead_mode)rs->default_dead;
	if (d == NULL)
		return true;
	/* Read from the request's text as strings (json_parse.h): params holds null for them. */
	if (list != NULL && list->owner == params) {
		if (list->n > SHT_MAX_SIZE * SHT_MAX_SIZE)
			return bad_dead(err);
		return sht_dead_parse_list(b, list->moves, (int)list->n, dead, err);
	}
	if (json_is_string(d) && (strcmp(json_string_value(d), "auto") == 0 ||
	    strcmp(json_string_value(d), "auto-thorough") == 0)) {
		dead->mode = SHT_DEAD_AUTO;
		dead->thorough = strcmp(json_string_value(d), "auto-thorough") == 0;
		return true;
	}
	if (json_is_string(d) && strcmp(json_string_value(d), "none") == 0) {
		dead->mode = SHT_DEAD_NONE;
		return true;
	}
	if (!json_is_array(d) || json_array_size(d) > SHT_MAX_SIZE * SHT_MAX_SIZE)
		return bad_dead(err);
	json_array_foreach(d, i, v) {
		if (!json_is_string(v)) {
			sht_fail(err, SHT_ERROR_BAD_PARAMS, "dead[%zu] must be a vertex string", i);
			return false;
		}
		vertices[i] = json_string_value(v);
	}
	return sht_dead_parse_list(b, vertices, (int)json_array_size(d), dead, err);
}

bool
sht_score_game_report(const struct sht_context *ctx, const struct sht_ruleset *rs,
    const struct sht_game *game, json_t *params, struct sht_replay *replay,
    struct sht_score_report *rep, struct sht_error *err)
{
	struct sht_dead_spec *dead;
	bool ok;
	int komi = 0;
	bool komi_given;

	if (!sht_params_komi(params, &komi, &komi_given, err))
		return false;
	if (!sht_judge_replay_cached(ctx->replays, rs, game, komi_given ? &komi : NULL, replay,
	    err))
		return false;
	dead = malloc(sizeof(*dead));
	if (dead == NULL) {
		sht_replay_free(replay);
		sht_fail(err, SHT_ERROR_INTERNAL, "out of memory");
		return false;
	}
	ok = sht_params_dead(ctx, params, rs, replay->board, dead, err) &&
	    sht_judge_score(rs, replay, dead, rep, err);
	free(dead);
	if (!ok)
		sht_replay_free(replay);
	return ok;
}

bool
sht_score_game_text(const struct sht_context *ctx, const struct sht_ruleset *rs,
    const struct sht_game *game, json_t *params, struct sht_text *out, struct sht_error *err)
{
	struct sht_replay replay;
	struct sht_score_report rep;

	if (!sht_score_game_report(ctx, rs, game, params, &replay, &rep, err))
		return false;
	sht_text_score(out, rs, &replay, &rep);
	sht_score_report_free(&rep);
	sht_replay_free(&replay);
	return true;
}

json_t *
sht_score_game(const struct sht_context *ctx, const struct sht_ruleset *rs,
    const struct sht_game *game, json_t *params, struct sht_error *err)
{
	struct sht_text t;
	json_t *out = NULL;

	sht_text_init(&t, 4096);
	if (sht_score_game_text(ctx, rs, game, params, &t, err)) {
		/* The score object is written as text (render.c): its value is that text read. */
		if (!t.failed)
			out = sht_json_read(t.s, t.len, 0, NULL);
		if (out == NULL)
			sht_fail(err, SHT_ERROR_INTERNAL, "out of memory");
	}
	sht_text_free(&t);
	return out;
}
