/* libFuzzer harness for the direct SGF reader: whatever it reads, the tree reader must read the same. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/sgf_same_game.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct sht_sgf_game zero;
	struct sht_sgf_game direct, tree;
	struct sht_sgf_error err;
	struct sht_sgf_collection *cd = sht_sgf_read_game((const char *)data, size, &direct);
	struct sht_sgf_collection *ct;
	char why[512];
	const char *diff;

	if (cd == NULL) {
		/* Declined: the caller goes on to the tree reader with nothing to free. */
		if (memcmp(&direct, &zero, sizeof(zero)) != 0)
			abort();
		return 0;
	}
	ct = sht_sgf_parse((const char *)data, size, &err);
	if (ct == NULL || !sht_sgf_game(ct, 0, &tree, &err)) {
		fprintf(stderr, "read directly, but the tree reader refuses it: %s\n", err.message);
		abort();
	}
	if ((diff = sgf_game_difference(cd, &direct, ct, &tree, why, sizeof(why))) != NULL) {
		fprintf(stderr, "the readers differ: %s\n", diff);
		abort();
	}
	sht_sgf_game_free(&tree);
	sht_sgf_free(ct);
	sht_sgf_game_free(&direct);
	sht_sgf_free(cd);
	return 0;
}
