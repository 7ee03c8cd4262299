/* libFuzzer harness for the YAML ruleset reader, against the Chinese plugin compiled in. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"

const struct sht_ruleset_plugin *shoutan_ruleset_plugin(void);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct sht_registry *
registry(void)
{
	static struct sht_registry r;
	static struct sht_plugin *plugins[1];
	char err[SHT_ERR_MAX];

	if (r.nplugins == 0) {
		plugins[0] = sht_plugin_builtin(shoutan_ruleset_plugin(), err, sizeof(err));
		if (plugins[0] == NULL)
			abort();
		r.plugins = plugins;
		r.nplugins = 1;
	}
	return &r;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[SHT_ERR_MAX];
	struct sht_ruleset *rs = sht_ruleset_parse(registry(), "fuzz.yaml", (const char *)data,
	    size, err, sizeof(err));

	/* Either a ruleset, or an error that says where. */
	if (rs == NULL && strncmp(err, "fuzz.yaml", 9) != 0)
		abort();
	sht_ruleset_free(rs);
	return 0;
}
