/* libFuzzer harness for what referee-gtp reads from an engine: bytes in, GTP answers taken out one by one (or the bytes refused as not GTP), each made printable as whole UTF-8 characters that jansson takes. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "gtp_engine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The engine's buffer holds at most GTP_ANSWER_MAX bytes, carriage returns dropped as
	 * they come, as gtp_engine_ask reads them. */
	static char buf[GTP_ANSWER_MAX + 1];
	char answer[256];
	size_t len = 0;
	bool refused;
	int got;

	for (size_t i = 0; i < size && len < GTP_ANSWER_MAX; i++)
		if (data[i] != '\r')
			buf[len++] = (char)data[i];
	while ((got = gtp_take_answer(buf, &len, answer, sizeof(answer), &refused)) > 0) {
		char shown[48];
		json_t *j;

		if (strlen(answer) >= sizeof(answer))
			abort();
		/* What the report and the record show of an answer must be a JSON string. */
		gtp_printable(shown, sizeof(shown), answer);
		if ((j = json_string(shown)) == NULL)
			abort();
		json_decref(j);
	}
	return 0;
}
