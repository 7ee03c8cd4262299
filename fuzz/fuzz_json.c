/* libFuzzer harness for the fast JSON reader: sht_json_read must give exactly what jansson's
 * json_loadb gives (the same values in the same order, or a refusal with the same message). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Both readers on one text with one set of flags; aborts where they differ. */
static void
same_as_jansson(const char *text, size_t len, size_t flags)
{
	json_error_t want_err, got_err;
	json_t *want = json_loadb(text, len, flags, &want_err);
	json_t *got = sht_json_read(text, len, flags, &got_err);

	if ((want == NULL) != (got == NULL))
		abort();
	if (want == NULL) {
		if (strcmp(want_err.text, got_err.text) != 0 || want_err.line != got_err.line ||
		    want_err.column != got_err.column)
			abort();
	} else {
		/* Dumped in document order, reals to the last digit: equal values, equal order. */
		size_t dump = JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY |
		    JSON_REAL_PRECISION(17);
		char *a = json_dumps(want, dump), *b = json_dumps(got, dump);

		if (a == NULL || b == NULL || strcmp(a, b) != 0)
			abort();
		free(a);
		free(b);
	}
	json_decref(want);
	json_decref(got);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	same_as_jansson((const char *)data, size, 0);
	same_as_jansson((const char *)data, size, JSON_REJECT_DUPLICATES);
	return 0;
}
