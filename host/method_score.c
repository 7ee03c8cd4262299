/* Method `score`: the score object of a game under one ruleset. */
#include "method.h"

json_t *
sht_method_score(const struct sht_context *ctx, json_t *params, struct sht_error *err)
{
	static const char *const known[] = { "ruleset", "game", "dead", "komi", NULL };
	const struct sht_ruleset *rs;
	struct sht_game game;
	json_t *out;

	if (!sht_params_check(params, known, err) ||
	    !sht_params_ruleset_game(ctx, params, &rs, &game, err))
		return NULL;
	out = sht_score_game(rs, &game, params, err);
	sht_game_free(&game);
	return out;
}
