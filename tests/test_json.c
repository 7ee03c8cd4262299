/* Unit tests of the fast JSON reader (host/json_parse.cc): the values and the refusals a
 * request's reader relies on, each as jansson's own reader gives them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "host.h"
#include "json_parse.h"

static json_t *
read_text(const char *text, json_error_t *err)
{
	return sht_json_read(text, strlen(text), JSON_REJECT_DUPLICATES, err);
}

/* A request's members, of every JSON type, in the order written. */
static void
test_request_values(void **state)
{
	static const char text[] = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"score\",\"params\":"
	    "{\"game\":{\"sgf\":\"(;SZ[9]C[\\u00e9\\ud83d\\ude00 \\\"q\\\"];B[cc])\"},\"komi\":-6.5,"
	    "\"dead\":[\"C3\",\"D4\"],\"x\":null,\"y\":true,\"z\":[1.0,-0,1E2]}}";
	json_error_t err;
	json_t *v = read_text(text, &err), *want = json_loadb(text, strlen(text), 0, NULL);
	json_t *params = json_object_get(v, "params"), *z = json_object_get(params, "z");
	char *dumped;

	(void)state;
	assert_non_null(v);
	assert_true(json_equal(v, want));
	assert_int_equal(json_integer_value(json_object_get(v, "id")), 7);
	assert_string_equal(json_string_value(json_object_get(json_object_get(params, "game"),
	    "sgf")), "(;SZ[9]C[\xc3\xa9\xf0\x9f\x98\x80 \"q\"];B[cc])");
	assert_true(json_is_real(json_array_get(z, 0)));
	assert_true(json_is_integer(json_array_get(z, 1)));
	assert_true(json_is_real(json_array_get(z, 2)));
	assert_true(json_real_value(json_object_get(params, "komi")) == -6.5);
	assert_true(json_is_null(json_object_get(params, "x")));
	assert_true(json_is_true(json_object_get(params, "y")));
	/* Document order is kept: replies echo what a client wrote in its order. */
	dumped = json_dumps(params, JSON_COMPACT | JSON_PRESERVE_ORDER);
	assert_non_null(strstr(dumped, "{\"game\":"));
	assert_non_null(strstr(dumped, "\"x\":null,\"y\":true"));
	free(dumped);
	json_decref(want);
	json_decref(v);
}

/* What jansson refuses is refused, with jansson's message and place. */
static void
test_refusals_are_jansson_s(void **state)
{
	static const char *const texts[] = {
		"{\"id\":1,\"id\":2}",          /* a key said twice */
		"[\"a\\u0000b\"]",              /* NUL in a string */
		"[9223372036854775808]",        /* past int64 */
		"[1e400]",                      /* past a double */
		"\"a string alone\"",           /* not an object or array */
		"{\"a\":1} trailing",
		"{\"a\":\"\xff\"}",             /* not UTF-8 */
		"[\"\\ud800\"]",                /* a lone surrogate */
		"",
		"{\"a\":[1,2}",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		json_error_t got, want;
		json_t *v = read_text(texts[i], &got);

		assert_null(json_loadb(texts[i], strlen(texts[i]), JSON_REJECT_DUPLICATES, &want));
		if (v != NULL)
			fail_msg("accepted: %s", texts[i]);
		assert_string_equal(got.text, want.text);
		assert_int_equal(got.line, want.line);
		assert_int_equal(got.column, want.column);
	}
}

/* A text longer than the parser kept between requests (64 KB) is read (by jansson) to the same
 * value; and a short one after it still reads. */
static void
test_long_text(void **state)
{
	size_t n = 200000;
	char *text = malloc(n + 32);
	json_t *v, *want;

	(void)state;
	/* Returning on NULL, not only asserting: GCC's -Warray-bounds under the sanitizers
	 * reads past a possibly-null malloc otherwise (a false report that failed the build). */
	if (text == NULL) {
		fail();
		return;
	}
	strcpy(text, "{\"sgf\":\"");
	memset(text + 8, 'a', n);
	strcpy(text + 8 + n, "\",\"n\":[1,2]}");
	v = read_text(text, NULL);
	want = json_loads(text, 0, NULL);
	assert_non_null(v);
	assert_true(json_equal(v, want));
	assert_int_equal(json_string_length(json_object_get(v, "sgf")), n);
	json_decref(v);
	json_decref(want);
	free(text);
	v = read_text("[true]", NULL);
	assert_true(json_is_true(json_array_get(v, 0)));
	json_decref(v);
}

/* Without JSON_REJECT_DUPLICATES the last of two equal keys is kept, as jansson keeps it. */
static void
test_duplicates_allowed_keep_the_last(void **state)
{
	json_t *v = sht_json_read("{\"a\":1,\"a\":2}", 13, 0, NULL);

	(void)state;
	assert_non_null(v);
	assert_int_equal(json_integer_value(json_object_get(v, "a")), 2);
	json_decref(v);
}

/* The game of a request read both ways: its move list straight from the text into
 * sht_game_from_params, and every value into jansson for sht_game_from_json.  The same events,
 * or the same error; `direct` says whether the list was read straight. */
static void
same_game_both_ways(const char *text, bool direct)
{
	struct sht_move_list list, dead;
	struct sht_context ctx = { .moves = &list };
	json_t *req = sht_json_read_request(text, strlen(text), NULL, &list, &dead);
	json_t *want = json_loads(text, 0, NULL);
	const json_t *g = json_object_get(json_object_get(req, "params"), "game");
	struct sht_game a, b;
	struct sht_error ea, eb;
	bool ok_a, ok_b;

	assert_non_null(req);
	assert_int_equal(list.owner != NULL, direct);
	ok_a = sht_game_from_params(&ctx, g, 19, 19, &a, &ea);
	ok_b = sht_game_from_json(json_object_get(json_object_get(want, "params"), "game"), 19, 19,
	    &b, &eb);
	assert_int_equal(ok_a, ok_b);
	if (!ok_a) {
		assert_int_equal(ea.kind, eb.kind);
		assert_string_equal(ea.message, eb.message);
	} else {
		assert_int_equal(a.g.width, b.g.width);
		assert_int_equal(a.g.height, b.g.height);
		assert_int_equal(a.g.nevents, b.g.nevents);
		assert_int_equal(a.g.nmoves, b.g.nmoves);
		assert_memory_equal(a.g.events, b.g.events, sizeof(*a.g.events) *
		    (size_t)a.g.nevents);
		sht_game_free(&a);
		sht_game_free(&b);
	}
	json_decref(req);
	json_decref(want);
	sht_move_list_free(&list);
	sht_move_list_free(&dead);
}

/* A move list read straight from the request gives what jansson's values give, every error
 * message included (the protocol's tests check them word for word). */
static void
test_move_list_read_directly(void **state)
{
	static const char *const direct[] = {
		("{\"params\":{\"game\":{\"size\":9,\"moves\":[\"B E5\",\"W pass\",\"black C3\","
		    "\"white  dd\",\"b J9\",\"W j10\"]}}}"),
		"{\"params\":{\"game\":{\"size\":9,\"moves\":[\"B E5\",\"W Z9\"]}}}",
		"{\"params\":{\"game\":{\"moves\":[\"B D4\",\"X D5\"]}}}",
		"{\"params\":{\"game\":{\"moves\":[\"BD4\"]}}}",
		"{\"params\":{\"game\":{\"moves\":[\"B \"]}}}",
		"{\"params\":{\"game\":{\"moves\":[\"B D4\"],\"size\":[5,30]}}}",
		"{\"params\":{\"game\":{\"moves\":[\"B D4\"],\"colour\":1}}}",
		"{\"params\":{\"game\":{\"moves\":[\"B D4\"],\"sgf\":\"(;SZ[5])\"}}}",
		"{\"params\":{\"game\":{\"moves\":[],\"setup\":{\"black\":[\"C3\"]}}}}",
		"{\"params\":{\"game\":{\"size\":5,\"moves\":[\"B \\u00e9\",\"W C3\"]}}}",
	};
	static const char *const converted[] = {
		"{\"params\":{\"game\":{\"moves\":[\"B D4\",7]}}}",
		"{\"params\":{\"game\":{\"moves\":\"B D4\"}}}",
		"{\"params\":{\"game\":{\"moves\":[\"B D4\",null]}}}",
		"{\"params\":{\"other\":{\"moves\":[\"B D4\"]},\"game\":{\"moves\":[[\"B D4\"]]}}}",
	};
	struct sht_move_list list, dead;
	json_t *req;
	struct sht_game game;
	struct sht_error err;
	static const char plain[] = "{\"id\":1,\"params\":{\"game\":{\"moves\":[\"B D4\","
	    "\"W pass\"],\"size\":9},\"moves\":[\"x\"]}}";
	static const char twice[] = "{\"params\":{\"game\":{\"moves\":[\"B D4\"]}},\"a\":1,"
	    "\"a\":2}";

	(void)state;
	for (size_t i = 0; i < sizeof(direct) / sizeof(direct[0]); i++)
		same_game_both_ways(direct[i], true);
	for (size_t i = 0; i < sizeof(converted) / sizeof(converted[0]); i++)
		same_game_both_ways(converted[i], false);
	/* The list holds the strings; the game object holds null in their place, so that a
	 * reader not given the list refuses the game.  Only params.game.moves is read so. */
	req = sht_json_read_request(plain, strlen(plain), NULL, &list, &dead);
	assert_non_null(req);
	assert_ptr_equal(list.owner, json_object_get(json_object_get(req, "params"), "game"));
	assert_int_equal(list.n, 2);
	assert_string_equal(list.moves[0], "B D4");
	assert_string_equal(list.moves[1], "W pass");
	assert_true(json_is_null(json_object_get(list.owner, "moves")));
	assert_true(json_is_array(json_object_get(json_object_get(req, "params"), "moves")));
	assert_false(sht_game_from_json(list.owner, 19, 19, &game, &err));
	assert_string_equal(err.message, "game.moves must be a list such as [\"B D4\", \"W pass\"]");
	sht_move_list_free(&list);
	assert_null(list.owner);
	json_decref(req);
	/* A text simdjson does not read is jansson's, list and all. */
	req = sht_json_read_request(twice, strlen(twice), NULL, &list, &dead);
	assert_null(req);
	assert_null(list.owner);
	assert_null(dead.owner);
}

/* params.dead, a list of strings, is read straight from the text as the moves are: params
 * holds null in its place.  Anything else stays jansson's values. */
static void
test_dead_list_read_directly(void **state)
{
	static const char listed[] = "{\"id\":1,\"params\":{\"game\":{\"sgf\":\"(;SZ[9])\"},"
	    "\"dead\":[\"C3\",\"d4\",\"\\u00e9\"],\"x\":{\"dead\":[\"A1\"]}},\"dead\":[\"B2\"]}";
	static const char *const not_lists[] = {
		"{\"params\":{\"dead\":\"auto\"}}",
		"{\"params\":{\"dead\":[\"C3\",4]}}",
		"{\"params\":{\"dead\":[[\"C3\"]]}}",
	};
	struct sht_move_list moves, dead;
	json_t *req, *params;

	(void)state;
	req = sht_json_read_request(listed, strlen(listed), NULL, &moves, &dead);
	assert_non_null(req);
	params = json_object_get(req, "params");
	assert_null(moves.owner);
	assert_ptr_equal(dead.owner, params);
	assert_int_equal(dead.n, 3);
	assert_string_equal(dead.moves[0], "C3");
	assert_string_equal(dead.moves[1], "d4");
	assert_string_equal(dead.moves[2], "\xc3\xa9");
	assert_true(json_is_null(json_object_get(params, "dead")));
	assert_true(json_is_array(json_object_get(json_object_get(params, "x"), "dead")));
	assert_true(json_is_array(json_object_get(req, "dead")));
	assert_string_equal(json_string_value(json_object_get(json_object_get(params, "game"),
	    "sgf")), "(;SZ[9])");
	json_decref(req);
	sht_move_list_free(&dead);
	assert_null(dead.owner);
	for (size_t i = 0; i < sizeof(not_lists) / sizeof(not_lists[0]); i++) {
		json_t *want = json_loads(not_lists[i], 0, NULL);
		char *a, *b;

		req = sht_json_read_request(not_lists[i], strlen(not_lists[i]), NULL, &moves,
		    &dead);
		assert_non_null(req);
		assert_null(dead.owner);
		a = json_dumps(want, JSON_COMPACT | JSON_PRESERVE_ORDER);
		b = json_dumps(req, JSON_COMPACT | JSON_PRESERVE_ORDER);
		assert_string_equal(a, b);
		free(a);
		free(b);
		json_decref(want);
		json_decref(req);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_request_values),
		cmocka_unit_test(test_refusals_are_jansson_s),
		cmocka_unit_test(test_long_text),
		cmocka_unit_test(test_duplicates_allowed_keep_the_last),
		cmocka_unit_test(test_move_list_read_directly),
		cmocka_unit_test(test_dead_list_read_directly),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
