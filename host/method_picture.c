/* Method `picture`: the judgement as an SVG picture, of one ruleset's score or of a comparison. */
#include <stdlib.h>
#include <string.h>

#include "method.h"
#include "picture.h"
#include "render.h"

/* With `rulesets` (a list of names, or "all") the comparison's grid and each ruleset's score
 * object (`results`, as compare gives them), else the one ruleset's board and its score object
 * (`score`), as `score` and `compare` take their params: the reply carries the numbers its
 * picture shows, so a page showing both asks once. */
static json_t *
sht_method_picture(const struct sht_context *ctx, json_t *params, struct sht_error *err)
{
	json_t *names = json_object_get(params, "rulesets"), *g = json_object_get(params, "game");
	struct sht_text t;
	json_t *out = NULL, *numbers = NULL;

	/* Nothing allocated until the picture is written: the params' errors return early. */
	sht_text_init(&t, 0);
	if (names == NULL) {
		const struct sht_ruleset *rs;
		struct sht_game game;
		struct sht_replay replay;
		struct sht_score_report rep;
		bool ok;

		if (!sht_params_ruleset_game(ctx, params, &rs, &game, err))
			return NULL;
		ok = sht_score_game_report(ctx, rs, &game, params, &replay, &rep, err);
		sht_game_free(&game);
		if (!ok)
			return NULL;
		sht_picture_score(&t, rs, &replay, &rep);
		numbers = sht_json_score(rs, &replay, &rep);
		sht_score_report_free(&rep);
		sht_replay_free(&replay);
	} else {
		struct sht_picture_panel *panels;
		struct sht_replay *replays;
		struct sht_score_report *reports;
		struct sht_error *errors;
		bool all = json_is_string(names) && strcmp(json_string_value(names), "all") == 0;
		size_t n = all ? (size_t)ctx->registry->nrulesets : json_array_size(names), i;

		if ((!all && !json_is_array(names)) || n == 0 || n > 64)
			return sht_fail(err, SHT_ERROR_BAD_PARAMS, "rulesets must be \"all\" or a list of "
			    "1 to 64 names");
		if (g == NULL)
			return sht_fail(err, SHT_ERROR_BAD_PARAMS, "game is required");
		for (i = 0; i < n && !all; i++)
			if (sht_registry_find(ctx->registry, json_string_value(json_array_get(names,
			    i))) == NULL)
				return sht_fail(err, SHT_ERROR_UNKNOWN_RULESET, "unknown ruleset '%.60s'",
				    json_is_string(json_array_get(names, i)) ?
				    json_string_value(json_array_get(names, i)) : "(not a name)");
		panels = calloc(n, sizeof(*panels));
		replays = calloc(n, sizeof(*replays));
		reports = calloc(n, sizeof(*reports));
		errors = calloc(n, sizeof(*errors));
		if (panels == NULL || replays == NULL || reports == NULL || errors == NULL) {
			free(panels);
			free(replays);
			free(reports);
			free(errors);
			return sht_fail(err, SHT_ERROR_INTERNAL, "out of memory");
		}
		for (i = 0; i < n; i++) {
			const struct sht_ruleset *rs = all ? ctx->registry->rulesets[i] :
			    sht_registry_find(ctx->registry, json_string_value(json_array_get(names, i)));
			struct sht_game game;
			struct sht_error e;

			panels[i].ruleset = rs;
			panels[i].error = errors[i].message;
			if (!sht_game_from_params(ctx, g, rs->setup.width, rs->setup.height, &game, &e)) {
				/* The game itself is bad: the request's error, not a ruleset's. */
				if (e.kind == SHT_ERROR_BAD_SGF || e.kind == SHT_ERROR_BAD_PARAMS) {
					*err = e;
					break;
				}
			} else {
				bool ok = sht_score_game_report(ctx, rs, &game, params, &replays[i],
				    &reports[i], &e);

				sht_game_free(&game);
				if (ok) {
					panels[i].replay = &replays[i];
					panels[i].report = &reports[i];
					continue;
				}
			}
			errors[i] = e;
		}
		if (i == n) {
			sht_picture_compare(&t, panels, (int)n);
			numbers = json_array();
			for (size_t k = 0; k < n; k++)
				json_array_append_new(numbers, panels[k].replay != NULL ?
				    sht_json_score(panels[k].ruleset, &replays[k], &reports[k]) :
				    json_pack("{s:s, s:{s:i, s:s, s:s}}", "ruleset",
				    panels[k].ruleset->name, "error", "code", sht_error_code(&errors[k]),
				    "kind", sht_error_kind_name(errors[k].kind), "message",
				    errors[k].message));
		}
		for (size_t k = 0; k < n; k++)
			if (panels[k].replay != NULL) {
				sht_score_report_free(&reports[k]);
				sht_replay_free(&replays[k]);
			}
		free(panels);
		free(replays);
		free(reports);
		free(errors);
		if (i < n) {
			sht_text_free(&t);
			return NULL;
		}
	}
	if (!t.failed && numbers != NULL)
		out = json_pack("{s:s%, s:o}", "svg", t.s, t.len, names == NULL ? "score" : "results",
		    numbers);
	else
		json_decref(numbers);
	sht_text_free(&t);
	return out != NULL ? out : sht_fail(err, SHT_ERROR_INTERNAL, "out of memory");
}

static const char *const picture_params[] = { "ruleset", "rulesets", "game", "dead", "komi",
	NULL };

const struct sht_method_entry sht_method_picture_entry = {
	.name = "picture",
	.summary = "The judgement as an SVG picture: one ruleset's board, or one board per ruleset.",
	.params = picture_params,
	.usage = NULL,
	.pure = true,
	.cost = SHT_COST_HEAVY_WHEN_AUTO,
	.run = sht_method_picture,
};
