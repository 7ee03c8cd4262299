/* Method `replay`: every move's verdict under a ruleset, how the game ended, the final position. */
#include "method.h"
#include "render.h"

static json_t *
sht_method_replay(const struct sht_context *ctx, json_t *params, struct sht_error *err)
{
	const struct sht_ruleset *rs;
	struct sht_game game;
	struct sht_replay replay;
	json_t *out;
	int komi = 0;
	bool komi_given;

	if (!sht_params_komi(params, &komi, &komi_given, err) ||
	    !sht_params_ruleset_game(ctx, params, &rs, &game, err))
		return NULL;
	if (!sht_judge_replay_cached(ctx->replays, rs, &game, komi_given ? &komi : NULL, &replay,
	    err)) {
		sht_game_free(&game);
		return NULL;
	}
	out = sht_json_replay(rs, &replay);
	sht_replay_free(&replay);
	sht_game_free(&game);
	return out;
}

static const char *const replay_params[] = { "ruleset", "game", "komi", NULL };

const struct sht_method_entry sht_method_replay_entry = {
	.name = "replay",
	.summary = "Every move's verdict under a ruleset, how the game ended, the final position.",
	.params = replay_params,
	.usage = "replay FILE|- [-r RULESET] [--komi X] [--tree N] [--json [--compact]]",
	.pure = true,
	.cost = SHT_COST_LIGHT,
	.run = sht_method_replay,
};
