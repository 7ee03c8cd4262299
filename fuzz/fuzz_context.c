/* The method context the host-level fuzz harnesses share: the Chinese plugin compiled in. */
#include <stdlib.h>

#include "fuzz_context.h"

const struct sht_ruleset_plugin *shoutan_ruleset_plugin(void);

/* A 9x9 board when the game names none: the automatic dead-stone judge on a default 19x19
 * board took most of each run's time; a game can still ask for any size. */
static const char ruleset_yaml[] =
    "plugin: chinese\nparameters:\n  ko: positional\n  suicide: true\n  size: 9\n";

struct sht_context *
fuzz_context(void)
{
	static struct sht_registry r;
	static struct sht_plugin *plugins[1];
	static struct sht_ruleset *rulesets[1];
	static struct sht_context ctx;
	char err[SHT_ERR_MAX];

	if (ctx.registry == NULL) {
		plugins[0] = sht_plugin_builtin(shoutan_ruleset_plugin(), err, sizeof(err));
		r.plugins = plugins;
		r.nplugins = 1;
		rulesets[0] = sht_ruleset_parse(&r, "chinese.yaml", ruleset_yaml,
		    sizeof(ruleset_yaml) - 1, err, sizeof(err));
		if (plugins[0] == NULL || rulesets[0] == NULL)
			abort();
		r.rulesets = rulesets;
		r.nrulesets = 1;
		ctx.registry = &r;
	}
	return &ctx;
}
