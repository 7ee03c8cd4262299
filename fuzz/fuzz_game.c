/* libFuzzer harness for method params: JSON in, replay/score/legal/compare/clock/referee through a plugin. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"

const struct sht_ruleset_plugin *shoutan_ruleset_plugin(void);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char ruleset_yaml[] =
    "plugin: chinese\nparameters:\n  ko: positional\n  suicide: true\n";

static struct sht_context *
context(void)
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

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
#ifdef FUZZ_CLOCKS
	/* fuzz-clock: the time controls, timed moves and event logs alone, which the dead-stone
	 * judge's playouts would otherwise slow to a crawl. */
	static const char *const methods[] = { "clock", "referee" };
#else
	static const char *const methods[] = { "replay", "score", "legal", "compare", "clock",
		"referee" };
#endif
	json_t *params = json_loadb((const char *)data, size, 0, NULL);
	struct sht_error err;
	bool unknown;

	if (params == NULL)
		return 0;
	/* The input is a params object, given to every method. */
	for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++) {
		json_t *r = sht_method_call(context(), methods[i], params, &unknown, &err);

		if (r == NULL && err.message[0] == '\0')
			abort(); /* every failure explains itself */
		json_decref(r);
	}
	json_decref(params);
	return 0;
}
