/* Method `status`: the daemon's counters; in-process, the loaded plugins and rulesets only. */
#include "method.h"

static json_t *
sht_method_status(const struct sht_context *ctx, json_t *params, struct sht_error *err)
{
	json_t *out, *plugins = json_array(), *rulesets = json_array();

	/* No params (checked against the entry) and no way to fail. */
	(void)params;
	(void)err;

	for (int i = 0; i < ctx->registry->nplugins; i++)
		json_array_append_new(plugins, json_pack("{s:s, s:s}", "name",
		    ctx->registry->plugins[i]->desc->family, "path", ctx->registry->plugins[i]->path));
	for (int i = 0; i < ctx->registry->nrulesets; i++)
		json_array_append_new(rulesets, json_string(ctx->registry->rulesets[i]->name));
	out = ctx->status != NULL ? ctx->status(ctx->status_arg) : json_object();
	json_object_set_new(out, "plugins", plugins);
	json_object_set_new(out, "rulesets", rulesets);
	return out;
}

static const char *const status_params[] = { NULL };

const struct sht_method_entry sht_method_status_entry = {
	.name = "status",
	.summary = "The daemon's counters; in-process, the loaded plugins and rulesets only.",
	.params = status_params,
	.usage = NULL,
	.pure = false,
	.cost = SHT_COST_LIGHT,
	.run = sht_method_status,
};
