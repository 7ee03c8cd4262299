/* Method `compare`: one game scored under several rulesets, and whether the winners agree. */
#include <string.h>

#include "method.h"

static json_t *
sht_method_compare(const struct sht_context *ctx, json_t *params, struct sht_error *err)
{
	json_t *names = json_object_get(params, "rulesets"), *g = json_object_get(params, "game");
	json_t *results, *name;
	struct sht_context own;
	const char *winner = NULL;
	bool agree = true;
	size_t i, n;

	if (names != NULL && (!json_is_array(names) || json_array_size(names) == 0))
		return sht_fail(err, SHT_ERROR_BAD_PARAMS, "rulesets must be a non-empty list of "
		    "names");
	if (g == NULL)
		return sht_fail(err, SHT_ERROR_BAD_PARAMS, "game is required");
	json_array_foreach(names, i, name) {
		if (!json_is_string(name))
			return sht_fail(err, SHT_ERROR_BAD_PARAMS, "rulesets[%zu] must be a name", i);
		if (sht_registry_find(ctx->registry, json_string_value(name)) == NULL)
			return sht_fail(err, SHT_ERROR_UNKNOWN_RULESET, "unknown ruleset '%.60s'",
			    json_string_value(name));
	}
	n = names ? json_array_size(names) : (size_t)ctx->registry->nrulesets;
	/* The rulesets judge the one final position alike, most of them: judged once each way. */
	own = *ctx;
	own.judgements = sht_judgements_new();
	ctx = &own;
	results = json_array();
	for (i = 0; i < n; i++) {
		const struct sht_ruleset *rs = names ?
		    sht_registry_find(ctx->registry, json_string_value(json_array_get(names, i))) :
		    ctx->registry->rulesets[i];
		struct sht_game game;
		struct sht_error e;
		json_t *score = NULL;

		/* Each ruleset reads the game for its own board when the game gives none. */
		if (sht_game_from_params(ctx, g, rs->setup.width, rs->setup.height, &game, &e)) {
			score = sht_score_game(ctx, rs, &game, params, &e);
			sht_game_free(&game);
		} else if (e.kind == SHT_ERROR_BAD_SGF || e.kind == SHT_ERROR_BAD_PARAMS) {
			/* The game itself is bad: that is the request's error, not a ruleset's. */
			sht_judgements_free(own.judgements);
			json_decref(results);
			*err = e;
			return NULL;
		}
		if (score == NULL) {
			json_array_append_new(results, json_pack("{s:s, s:{s:i, s:s, s:s}}", "ruleset",
			    rs->name, "error", "code", sht_error_code(&e), "kind",
			    sht_error_kind_name(e.kind), "message", e.message));
			agree = false;
			continue;
		}
		{
			const char *w = json_string_value(json_object_get(score, "winner"));

			if (winner == NULL)
				winner = w;
			else if (strcmp(winner, w) != 0)
				agree = false;
		}
		json_array_append_new(results, score);
	}
	sht_judgements_free(own.judgements);
	return json_pack("{s:o, s:b}", "results", results, "winners_agree", agree);
}

static const char *const compare_params[] = { "rulesets", "game", "dead", "komi", NULL };

const struct sht_method_entry sht_method_compare_entry = {
	.name = "compare",
	.summary = "One game scored under several rulesets, and whether the winners agree.",
	.params = compare_params,
	.usage = "compare FILE|- [-r A,B,...] [--dead auto|auto-thorough|none|V,V,...] "
	    "[--komi X] [--tree N] [--svg FILE] [--json [--compact]]",
	.pure = true,
	.cost = SHT_COST_HEAVY_WHEN_AUTO,
	.run = sht_method_compare,
};
