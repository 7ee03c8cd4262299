/* A test plugin whose initialisation fails: the host must report it and unload it cleanly. */
#include <stdio.h>

#include "shoutan/ruleset.h"

static int
failing_init(const struct sht_host *host, char *err, size_t errlen)
{
	(void)host;
	snprintf(err, errlen, "the test plugin refuses to start");
	return -1;
}

static void *
never_configure(const struct sht_param_value *values, char *err, size_t errlen)
{
	(void)values;
	(void)err;
	(void)errlen;
	return NULL;
}

static void
never_setup(const void *rules, struct sht_rules_setup *out)
{
	(void)rules;
	(void)out;
}

static int
never_score(const void *rules, const struct sht_host *host, const struct sht_position *pos,
    struct sht_score_result *out, char *err, size_t errlen)
{
	(void)rules;
	(void)host;
	(void)pos;
	(void)out;
	(void)err;
	(void)errlen;
	return -1;
}

static const struct sht_ruleset_plugin plugin = {
	.abi_version = SHT_RULESET_ABI_VERSION,
	.size = sizeof(struct sht_ruleset_plugin),
	.family = "failing-init",
	.init = failing_init,
	.configure = never_configure,
	.setup = never_setup,
	.score = never_score,
};

__attribute__((visibility("default"))) const struct sht_ruleset_plugin *shoutan_ruleset_plugin(void);

const struct sht_ruleset_plugin *
shoutan_ruleset_plugin(void)
{
	return &plugin;
}
