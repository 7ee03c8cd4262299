/* Method `rulesets`: every loaded ruleset with its plugin, board, komi and first player. */
#include "method.h"
#include "render.h"

json_t *
sht_method_rulesets(const struct sht_context *ctx, json_t *params, struct sht_error *err)
{
	static const char *const known[] = { NULL };
	json_t *list = json_array();

	if (!sht_params_check(params, known, err)) {
		json_decref(list);
		return NULL;
	}
	for (int i = 0; i < ctx->registry->nrulesets; i++) {
		const struct sht_ruleset *rs = ctx->registry->rulesets[i];

		json_array_append_new(list, json_pack("{s:s, s:s, s:s, s:[i,i], s:o, s:s, s:s}",
		    "name", rs->name, "plugin", rs->plugin->desc->family, "title", rs->title,
		    "board", rs->setup.width, rs->setup.height,
		    "komi", sht_json_points(rs->setup.komi),
		    "first", rs->setup.first_player == SHT_RP_BLACK ? "B" : "W",
		    "summary", rs->summary));
	}
	return json_pack("{s:o}", "rulesets", list);
}
