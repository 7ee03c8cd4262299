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
 * A list of strings read straight from a request's text, without jansson values: its
 * params.game.moves, or its params.dead.  The strings are in order, each ending in NUL, in one
 * block the list owns.  `owner` is the object the list was a member of (the game object for the
 * moves, params for the dead stones), which holds null in its place, so that a reader that is
 * not given the list refuses it rather than read the object without it.
 */
struct sht_move_list {
	const json_t *owner; /* NULL: no list was read */
	size_t n;
	const char **moves;
	void *block;
};

/*
 * sht_json_read(text, len, JSON_REJECT_DUPLICATES, err), except that when simdjson reads the
 * text, the request's params.game.moves, when it is a list of strings, goes to *moves and its
 * params.dead, when it is one, to *dead, the value holding null in their places (list->owner is
 * then the object holding that null).  A list not read so is empty.  Free the lists with
 * sht_move_list_free, after the value or before it.
 */
json_t *sht_json_read_request(const char *text, size_t len, json_error_t *err,
    struct sht_move_list *moves, struct sht_move_list *dead);
void sht_move_list_free(struct sht_move_list *list);

#ifdef __cplusplus
}
#endif

#endif
