/* A test plugin built for another ABI version on purpose: the host must refuse it. */
#include "shoutan/ruleset.h"

static const struct sht_ruleset_plugin plugin = {
	.abi_version = SHT_RULESET_ABI_VERSION + 98,
	.size = sizeof(struct sht_ruleset_plugin),
	.family = "wrong-abi",
};

__attribute__((visibility("default"))) const struct sht_ruleset_plugin *shoutan_ruleset_plugin(void);

const struct sht_ruleset_plugin *
shoutan_ruleset_plugin(void)
{
	return &plugin;
}
