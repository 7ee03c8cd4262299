/* Method `rulesets`: every loaded ruleset with its plugin, board, komi and first player. */
#include "method.h"
#include "render.h"

static json_t *
sht_method_rulesets(const struct sht_context *ctx, json_t *params, struct sht_error *err)
{
	json_t *list = json_array();

	/* No params (checked against the entry) and no way to fail. */
	(void)params;
	(void)err;

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

static const char *const rulesets_params[] = { NULL };

const struct sht_method_entry sht_method_rulesets_entry = {
	.name = "rulesets",
	.summary = "Every loaded ruleset with its plugin, board, komi and first player.",
	.params = rulesets_params,
	.usage = "rulesets [--json [--compact]]",
	.pure = true,
	.cost = SHT_COST_LIGHT,
	.run = sht_method_rulesets,
};
