/* Unit tests of the daemon's reply cache (daemon/cache.c): which lines it keys, what it keeps. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cache.h"

static const char *
key_of(const char *line, struct cache_split *s)
{
	return cache_split(line, strlen(line), s) ? line + s->key_off : NULL;
}

static void
test_split_forms(void **state)
{
	struct cache_split s;
	const char *spaced = "{ \"jsonrpc\": \"2.0\", \"id\": 42, \"method\":\"version\"}";
	const char *compact = "{\"jsonrpc\":\"2.0\",\"id\":\"a-1\",\"method\":\"version\"}";

	(void)state;
	/* Whitespace between the opening tokens does not change the key. */
	assert_string_equal(key_of(spaced, &s), " \"method\":\"version\"}");
	assert_int_equal(s.id_len, 2);
	assert_memory_equal(spaced + s.id_off, "42", 2);
	assert_string_equal(key_of(compact, &s), "\"method\":\"version\"}");
	assert_memory_equal(compact + s.id_off, "\"a-1\"", 5);
	assert_non_null(key_of("{\"jsonrpc\":\"2.0\",\"id\":-7,\"method\":\"x\"}", &s));
	assert_non_null(key_of("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"x\"}", &s));
	/* Other forms are simply not cached. */
	assert_null(key_of("{\"id\":1,\"jsonrpc\":\"2.0\",\"method\":\"x\"}", &s));
	assert_null(key_of("{\"jsonrpc\":\"2.0\",\"method\":\"x\"}", &s));
	assert_null(key_of("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"x\"}", &s));
	assert_null(key_of("{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"x\"}", &s));
	assert_null(key_of("{\"jsonrpc\":\"2.0\",\"id\":01,\"method\":\"x\"}", &s));
	assert_null(key_of("{\"jsonrpc\":\"2.0\",\"id\":\"a\\\"b\",\"method\":\"x\"}", &s));
	assert_null(key_of("{\"jsonrpc\":\"2.0\",\"id\":\"\xc3\xa9\",\"method\":\"x\"}", &s));
	assert_null(key_of("{\"jsonrpc\":\"2.0\",\"id\":1}", &s));
	assert_null(key_of("{\"jsonrpc\":\"2.0\",\"id\":\"unterminated", &s));
	assert_null(key_of("{\"jsonrpc\":\"2.0\",\"id\":", &s));
}

/* Stores `reply` for `line`, then asks with `other` (same key, another id). */
static char *
store_then_ask(struct reply_cache *c, const char *line, const char *reply, const char *other,
    bool *is_error)
{
	struct cache_split s1, s2;

	assert_true(cache_split(line, strlen(line), &s1));
	assert_true(cache_split(other, strlen(other), &s2));
	cache_store(c, line, strlen(line), &s1, reply, strlen(reply));
	return cache_lookup(c, other, strlen(other), &s2, is_error);
}

static void
test_reuse_with_the_new_id(void **state)
{
	struct reply_cache *c = cache_new(1 << 20);
	bool is_error = true;
	char *r;

	(void)state;
	r = store_then_ask(c, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"version\"}",
	    "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"version\":\"0.1\"}}\n",
	    "{\"jsonrpc\": \"2.0\", \"id\": \"seven\",\"method\":\"version\"}", &is_error);
	assert_non_null(r);
	assert_string_equal(r, "{\"jsonrpc\":\"2.0\",\"id\":\"seven\",\"result\":{\"version\":\"0.1\"}}\n");
	assert_false(is_error);
	free(r);
	r = store_then_ask(c, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"nope\"}",
	    "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32601}}\n",
	    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"nope\"}", &is_error);
	assert_string_equal(r, "{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32601}}\n");
	assert_true(is_error);
	free(r);
	assert_int_equal(cache_hits(c), 2);
	cache_free(c);
}

static void
test_refuses_what_it_cannot_replay(void **state)
{
	struct reply_cache *c = cache_new(1 << 20);
	const char *line = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"version\",\"id\":2}";
	bool is_error;

	(void)state;
	/* The reply's id is not the request's (a duplicate id, say): never kept. */
	assert_null(store_then_ask(c, line, "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{}}\n", line,
	    &is_error));
	assert_null(store_then_ask(c, line, "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\n", line,
	    &is_error));
	assert_null(store_then_ask(c, line, "garbage", line, &is_error));
	cache_free(c);
	/* A cache of no bytes keeps nothing, and NULL is a cache that holds nothing. */
	c = cache_new(0);
	assert_null(store_then_ask(c, line, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n", line,
	    &is_error));
	cache_free(c);
	assert_null(store_then_ask(NULL, line, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n",
	    line, &is_error));
	assert_int_equal(cache_hits(NULL), 0);
}

static void
test_budget_drops_the_oldest(void **state)
{
	/* Each entry costs about 110 bytes (key, reply suffix, two slots, malloc's overhead): a
	 * 2000-byte budget holds generations of 9, and at most two of them survive. */
	struct reply_cache *c = cache_new(2000);
	char line[80], other[80];
	bool is_error;
	int kept = 0;

	(void)state;
	for (int i = 0; i < 40; i++) {
		char *r;

		snprintf(line, sizeof(line), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m%d\"}", i);
		snprintf(other, sizeof(other), "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"m%d\"}", i);
		r = store_then_ask(c, line, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":0}\n", other,
		    &is_error);
		assert_non_null(r); /* the newest entry is always there */
		free(r);
	}
	for (int i = 0; i < 40; i++) {
		struct cache_split s;
		char *r;

		snprintf(other, sizeof(other), "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"m%d\"}", i);
		assert_true(cache_split(other, strlen(other), &s));
		r = cache_lookup(c, other, strlen(other), &s, &is_error);
		if (r != NULL) {
			kept++;
			assert_true(i >= 40 - 18); /* only the most recent survive */
		}
		free(r);
	}
	assert_true(kept >= 9 && kept <= 18);
	cache_free(c);
}

static void
test_many_entries_all_found(void **state)
{
	/* Far more entries than the table starts with: it grows, keeping every one, and each
	 * line gets its own reply back, never a neighbour's. */
	struct reply_cache *c = cache_new(64 << 20);
	char line[96], reply[96];
	bool is_error;

	(void)state;
	for (int i = 0; i < 5000; i++) {
		struct cache_split s;

		snprintf(line, sizeof(line), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"n\":%d}", i);
		snprintf(reply, sizeof(reply), "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":%d}\n", i);
		assert_true(cache_split(line, strlen(line), &s));
		cache_store(c, line, strlen(line), &s, reply, strlen(reply));
	}
	for (int i = 0; i < 5000; i++) {
		struct cache_split s;
		char *r;

		snprintf(line, sizeof(line), "{\"jsonrpc\":\"2.0\",\"id\":\"q\",\"method\":\"m\",\"n\":%d}", i);
		snprintf(reply, sizeof(reply), "{\"jsonrpc\":\"2.0\",\"id\":\"q\",\"result\":%d}\n", i);
		assert_true(cache_split(line, strlen(line), &s));
		r = cache_lookup(c, line, strlen(line), &s, &is_error);
		assert_non_null(r);
		assert_string_equal(r, reply);
		assert_false(is_error);
		free(r);
	}
	assert_int_equal(cache_hits(c), 5000);
	cache_free(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_forms),
		cmocka_unit_test(test_reuse_with_the_new_id),
		cmocka_unit_test(test_refuses_what_it_cannot_replay),
		cmocka_unit_test(test_budget_drops_the_oldest),
		cmocka_unit_test(test_many_entries_all_found),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
