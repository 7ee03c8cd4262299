/* Method `version`: the program, its version and the protocol version. */
#include "method.h"
#include "shoutan/protocol.h"
#include "version.h"

json_t *
sht_method_version(const struct sht_context *ctx, json_t *params, struct sht_error *err)
{
	static const char *const known[] = { NULL };

	(void)ctx;
	if (!sht_params_check(params, known, err))
		return NULL;
	return json_pack("{s:s, s:s, s:i, s:i}", "name", "shoutan", "version", SHT_VERSION,
	    "protocol", SHT_PROTOCOL_VERSION, "plugin_abi", SHT_RULESET_ABI_VERSION);
}
