/* libFuzzer harness for method params: JSON in, replay/score/legal/compare/picture/clock/referee through a plugin. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"

#include "fuzz_context.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
#ifdef FUZZ_CLOCKS
	/* fuzz-clock: the time controls, timed moves and event logs alone, which the dead-stone
	 * judge's playouts would otherwise slow to a crawl. */
	static const char *const methods[] = { "clock", "referee" };
#else
	static const char *const methods[] = { "replay", "score", "legal", "compare", "picture",
		"clock", "referee" };
#endif
	json_t *params = json_loadb((const char *)data, size, 0, NULL);
	struct sht_error err;
	bool unknown;

	if (params == NULL)
		return 0;
	/* The input is a params object, given to every method. */
	for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++) {
		json_t *r = sht_method_call(fuzz_context(), methods[i], params, &unknown, &err);

		if (r == NULL && err.message[0] == '\0')
			abort(); /* every failure explains itself */
		json_decref(r);
	}
	json_decref(params);
	return 0;
}
