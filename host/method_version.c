/* Method `version`: the program, its version and the protocol version. */
#include "method.h"
#include "shoutan/protocol.h"
#include "version.h"

static json_t *
sht_method_version(const struct sht_context *ctx, json_t *params, struct sht_error *err)
{
	/* No params (checked against the entry) and no way to fail. */
	(void)ctx;
	(void)params;
	(void)err;
	return json_pack("{s:s, s:s, s:i, s:i}", "name", "shoutan", "version", SHT_VERSION,
	    "protocol", SHT_PROTOCOL_VERSION, "plugin_abi", SHT_RULESET_ABI_VERSION);
}

static const char *const version_params[] = { NULL };

const struct sht_method_entry sht_method_version_entry = {
	.name = "version",
	.summary = "The program, its version, the protocol and plugin ABI versions.",
	.params = version_params,
	.usage = NULL,
	.pure = true,
	.cost = SHT_COST_LIGHT,
	.run = sht_method_version,
};
