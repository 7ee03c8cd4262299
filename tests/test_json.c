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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_request_values),
		cmocka_unit_test(test_refusals_are_jansson_s),
		cmocka_unit_test(test_long_text),
		cmocka_unit_test(test_duplicates_allowed_keep_the_last),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
