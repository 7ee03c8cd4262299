/* Reading JSON text into jansson values fast (simdjson underneath, host/json_parse.cc). */
#ifndef SHOUTAN_JSON_PARSE_H
#define SHOUTAN_JSON_PARSE_H

#include <jansson.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * json_loadb(text, len, flags, err), with the same result for every text: the value jansson
 * would give, or NULL with jansson's own error in *err.  Texts of at most 64 KB that simdjson
 * reads as jansson would (an object or array, no NUL in a string, integers within int64, no
 * repeated key, flags 0 or JSON_REJECT_DUPLICATES) are read by simdjson; every other text,
 * valid or not, by jansson.
 */
json_t *sht_json_read(const char *text, size_t len, size_t flags, json_error_t *err);

/*
 * A request's params.game.moves read straight from its text, without jansson values: the
 * strings in order, each ending in NUL, in one block the list owns.  `game` is the game object
 * they belong to, which holds null where "moves" was, so that a reader that is not given the
 * list refuses the game rather than read it without its moves.
 */
struct sht_move_list {
	const json_t *game; /* NULL: no list was read */
	size_t n;
	const char **moves;
	void *block;
};

/*
 * sht_json_read(text, len, JSON_REJECT_DUPLICATES, err), except that when simdjson reads the
 * text and the request's params.game.moves is a list of strings, *list takes the strings and
 * the value holds null in their place (list->game is then that game object).  Otherwise *list
 * is empty.  Free the list with sht_move_list_free, after the value or before it.
 */
json_t *sht_json_read_request(const char *text, size_t len, json_error_t *err,
    struct sht_move_list *list);
void sht_move_list_free(struct sht_move_list *list);

#ifdef __cplusplus
}
#endif

#endif
