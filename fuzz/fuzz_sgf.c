/* libFuzzer harness for the SGF reader: parse, extract every game, replay it, write it back. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shoutan/board.h"
#include "shoutan/sgf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sht_sgf_error err;
	struct sht_sgf_collection *c = sht_sgf_parse((const char *)data, size, &err);
	size_t len;
	char *text;

	if (c == NULL)
		return 0;
	for (int t = 0; t < c->ntrees && t < 4; t++) {
		struct sht_sgf_game g;
		struct sht_board *b;

		if (!sht_sgf_game(c, t, &g, &err))
			continue;
		b = sht_sgf_replay(&g, NULL, 0, NULL);
		sht_board_free(b);
		sht_sgf_game_free(&g);
	}
	/* What we write must read back. */
	text = sht_sgf_write(c, &len);
	if (text != NULL) {
		struct sht_sgf_collection *again = sht_sgf_parse(text, len, &err);

		if (again == NULL || again->ntrees != c->ntrees)
			abort();
		sht_sgf_free(again);
		free(text);
	}
	sht_sgf_free(c);
	return 0;
}
