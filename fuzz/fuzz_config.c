/* libFuzzer harness for the daemon's configuration reader: YAML bytes in, settings or an error
 * that names the file (and, for a YAML or value error, the line and column). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* config_load reads a path, as the daemon does: the input goes to a scratch file. */
	static char path[] = "/tmp/shoutan-fuzz-config-XXXXXX";
	static int fd = -1;
	struct config c;
	char err[512] = "";
	FILE *f;

	if (fd < 0 && (fd = mkstemp(path)) < 0)
		abort();
	if ((f = fopen(path, "wb")) == NULL)
		abort();
	if (fwrite(data, 1, size, f) != size)
		abort();
	fclose(f);
	config_defaults(&c, "/plugins", "/rulesets");
	if (!config_load(&c, path, err, sizeof(err)) &&
	    (strncmp(err, path, strlen(path)) != 0 || err[strlen(path)] != ':'))
		abort(); /* every refusal names the file */
	config_free(&c);
	return 0;
}
