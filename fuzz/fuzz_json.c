/* libFuzzer harness for the fast JSON reader: sht_json_read must give exactly what jansson's
 * json_loadb gives (the same values in the same order, or a refusal with the same message), and
 * so must sht_json_read_request once its move list is put back in the place it left. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The request reader's value with its move list back where it was read from: game.moves, which
 * must hold null in the list's game object; aborts when it is anywhere else. */
static json_t *
with_list_back(json_t *v, const struct sht_move_list *list)
{
	json_t *game = json_object_get(json_object_get(v, "params"), "game");
	json_t *moves;

	if (list->game == NULL)
		return v;
	if (v == NULL || game != list->game || !json_is_null(json_object_get(game, "moves")) ||
	    (moves = json_array()) == NULL)
		abort();
	for (size_t i = 0; i < list->n; i++)
		if (json_array_append_new(moves, json_string(list->moves[i])) != 0)
			abort();
	/* Set in place: the key keeps its position in the object's order. */
	if (json_object_set_new(game, "moves", moves) != 0)
		abort();
	return v;
}

/* Both readers on one text with one set of flags (list: the request reader, whose flags are
 * always JSON_REJECT_DUPLICATES); aborts where they differ. */
static void
same_as_jansson(const char *text, size_t len, size_t flags, bool list)
{
	json_error_t want_err, got_err;
	json_t *want = json_loadb(text, len, flags, &want_err);
	struct sht_move_list moves;
	json_t *got = list ? with_list_back(sht_json_read_request(text, len, &got_err, &moves),
	    &moves) : sht_json_read(text, len, flags, &got_err);

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
	if (list)
		sht_move_list_free(&moves);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	same_as_jansson((const char *)data, size, 0, false);
	same_as_jansson((const char *)data, size, JSON_REJECT_DUPLICATES, false);
	same_as_jansson((const char *)data, size, JSON_REJECT_DUPLICATES, true);
	return 0;
}
