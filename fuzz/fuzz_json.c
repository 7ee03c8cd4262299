/* libFuzzer harness for the fast JSON reader: sht_json_read must give exactly what jansson's
 * json_loadb gives (the same values in the same order, or a refusal with the same message), and
 * so must sht_json_read_request once its move and dead lists are put back where they were. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Puts a list back where it was read from: member `key` of its owner, which must hold null
 * and be `at`; aborts when it is anywhere else. */
static void
put_back(json_t *v, json_t *at, const char *key, const struct sht_move_list *list)
{
	json_t *items;

	if (list->owner == NULL)
		return;
	if (v == NULL || at != list->owner || !json_is_null(json_object_get(at, key)) ||
	    (items = json_array()) == NULL)
		abort();
	for (size_t i = 0; i < list->n; i++)
		if (json_array_append_new(items, json_string(list->moves[i])) != 0)
			abort();
	/* Set in place: the key keeps its position in the object's order. */
	if (json_object_set_new(at, key, items) != 0)
		abort();
}

/* The request reader's value with its lists back where they were read from: params.game.moves
 * and params.dead. */
static json_t *
with_lists_back(json_t *v, const struct sht_move_list *moves, const struct sht_move_list *dead)
{
	json_t *params = json_object_get(v, "params");

	put_back(v, json_object_get(params, "game"), "moves", moves);
	put_back(v, params, "dead", dead);
	return v;
}

/* Both readers on one text with one set of flags (list: the request reader, whose flags are
 * always JSON_REJECT_DUPLICATES); aborts where they differ. */
static void
same_as_jansson(const char *text, size_t len, size_t flags, bool list)
{
	json_error_t want_err, got_err;
	json_t *want = json_loadb(text, len, flags, &want_err);
	struct sht_move_list moves, dead;
	json_t *got = list ? with_lists_back(sht_json_read_request(text, len, &got_err, &moves,
	    &dead), &moves, &dead) : sht_json_read(text, len, flags, &got_err);

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
	if (list) {
		sht_move_list_free(&moves);
		sht_move_list_free(&dead);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	same_as_jansson((const char *)data, size, 0, false);
	same_as_jansson((const char *)data, size, JSON_REJECT_DUPLICATES, false);
	same_as_jansson((const char *)data, size, JSON_REJECT_DUPLICATES, true);
	return 0;
}
