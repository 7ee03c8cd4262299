/* Method `score`: the score object of a game under one ruleset. */
#include "method.h"

static json_t *
sht_method_score(const struct sht_context *ctx, json_t *params, struct sht_error *err)
{
	const struct sht_ruleset *rs;
	struct sht_game game;
	json_t *out;

	if (!sht_params_ruleset_game(ctx, params, &rs, &game, err))
		return NULL;
	out = sht_score_game(ctx, rs, &game, params, err);
	sht_game_free(&game);
	return out;
}

/* The same score object written as text, for the daemon's replies. */
static bool
sht_method_score_write(const struct sht_context *ctx, json_t *params, struct sht_text *out,
    struct sht_error *err)
{
	const struct sht_ruleset *rs;
	struct sht_game game;
	bool ok;

	if (!sht_params_ruleset_game(ctx, params, &rs, &game, err))
		return false;
	ok = sht_score_game_text(ctx, rs, &game, params, out, err);
	sht_game_free(&game);
	return ok;
}

static const char *const score_params[] = { "ruleset", "game", "dead", "komi", NULL };

const struct sht_method_entry sht_method_score_entry = {
	.name = "score",
	.summary = "The score of a game under one ruleset.",
	.params = score_params,
	.usage = "score FILE... [-r RULESET] [--dead auto|auto-thorough|none|V,V,...] [--komi X] "
	    "[--svg FILE] "
	    "[--tree N] [--json [--compact]]",
	.pure = true,
	.cost = SHT_COST_HEAVY_WHEN_AUTO,
	.run = sht_method_score,
	.write = sht_method_score_write,
};
