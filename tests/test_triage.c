/* Unit tests of the daemon's request triage (daemon/triage.c): which requests count as heavy. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "host.h"
#include "triage.h"

static bool
heavy(const char *line)
{
	return triage_heavy(line, strlen(line));
}

static void
test_auto_is_heavy(void **state)
{
	(void)state;
	assert_true(heavy("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"score\",\"params\":"
	    "{\"game\":{\"sgf\":\"(;)\"},\"dead\":\"auto\"}}"));
	assert_true(heavy("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\": \"compare\", \"params\":"
	    "{\"game\":{\"sgf\":\"(;)\"}}}"));  /* the ruleset's default: probably auto */
}

static void
test_explicit_dead_is_light(void **state)
{
	(void)state;
	assert_false(heavy("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"score\",\"params\":"
	    "{\"game\":{\"sgf\":\"(;)\"},\"dead\":[\"C3\"]}}"));
	assert_false(heavy("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"score\",\"params\":"
	    "{\"game\":{\"sgf\":\"(;)\"},\"dead\" : \"none\"}}"));
	assert_false(heavy("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"legal\",\"params\":"
	    "{\"game\":{\"sgf\":\"(;)\"},\"move\":\"B C3\"}}"));
	assert_false(heavy("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"version\"}"));
	assert_false(heavy(""));
}

/* A ruleset whose own dead is none (tromp-taylor's YAML) makes a request without "dead"
 * light, and "dead":"auto" still heavy; other rulesets' defaults stay heavy. */
static void
test_ruleset_default_none_is_light(void **state)
{
	static const char light[] = "tromp-taylor\nnew-zealand-none\nchin";

	(void)state;
	assert_true(heavy("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"score\",\"params\":"
	    "{\"ruleset\":\"tromp-taylor\",\"game\":{\"sgf\":\"(;)\"}}}"));
	assert_true(triage_set_light_rulesets(light, strlen(light)));
	assert_false(heavy("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"score\",\"params\":"
	    "{\"ruleset\": \"tromp-taylor\",\"game\":{\"sgf\":\"(;)\"}}}"));
	assert_true(heavy("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"score\",\"params\":"
	    "{\"ruleset\":\"tromp-taylor\",\"game\":{\"sgf\":\"(;)\"},\"dead\":\"auto\"}}"));
	/* "chin" was cut off (no newline): chinese is not light, nor is the fragment. */
	assert_true(heavy("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"score\",\"params\":"
	    "{\"ruleset\":\"chinese\",\"game\":{\"sgf\":\"(;)\"}}}"));
	assert_true(heavy("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"score\",\"params\":"
	    "{\"ruleset\":\"chin\",\"game\":{\"sgf\":\"(;)\"}}}"));
	/* A prefix of a light name is another ruleset. */
	assert_true(heavy("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"score\",\"params\":"
	    "{\"ruleset\":\"tromp\",\"game\":{\"sgf\":\"(;)\"}}}"));
	/* No ruleset named: the record's RU or chinese decides, which the bytes do not say. */
	assert_true(heavy("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"score\",\"params\":"
	    "{\"game\":{\"sgf\":\"(;RU[Tromp-Taylor])\"}}}"));
	/* compare is light only when every ruleset it names is. */
	assert_false(heavy("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"compare\",\"params\":"
	    "{\"rulesets\":[\"tromp-taylor\", \"new-zealand-none\"],\"game\":{\"sgf\":\"(;)\"}}}"));
	assert_true(heavy("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"compare\",\"params\":"
	    "{\"rulesets\":[\"tromp-taylor\",\"japanese\"],\"game\":{\"sgf\":\"(;)\"}}}"));
	assert_true(heavy("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"compare\",\"params\":"
	    "{\"game\":{\"sgf\":\"(;)\"}}}"));
	/* A reload replaces the list. */
	assert_true(triage_set_light_rulesets("", 0));
	assert_true(heavy("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"score\",\"params\":"
	    "{\"ruleset\":\"tromp-taylor\",\"game\":{\"sgf\":\"(;)\"}}}"));
}

/* Heavy comes from the method's entry, not from words in the request: a method whose entry is
 * light stays light even with "dead":"auto", and the word score elsewhere is not the method. */
static void
test_light_methods(void **state)
{
	size_t n;
	const struct sht_method_entry *const *all = sht_method_entries(&n);
	int heavy_methods = 0;

	(void)state;
	for (size_t i = 0; i < n; i++) {
		char line[300];

		snprintf(line, sizeof(line), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"%s\","
		    "\"params\":{\"game\":{\"sgf\":\"(;)\"},\"dead\":\"auto\"}}", all[i]->name);
		assert_int_equal(heavy(line), all[i]->cost == SHT_COST_HEAVY_WHEN_AUTO);
		heavy_methods += all[i]->cost == SHT_COST_HEAVY_WHEN_AUTO;
	}
	assert_int_equal(heavy_methods, 3); /* score, compare and picture */
	assert_false(heavy("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"replay\",\"params\":"
	    "{\"game\":{\"sgf\":\"(;C[\\\"score\\\" \\\"compare\\\"])\"},\"ruleset\":\"score\"}}"));
	assert_false(heavy("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"legal\",\"params\":"
	    "{\"game\":{\"sgf\":\"(;)\"},\"move\":\"B C3\",\"dead\":\"auto\"}}"));
	assert_false(heavy("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"nonesuch\",\"params\":"
	    "{\"dead\":\"auto\"}}"));
	assert_false(heavy("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"sc\\u006fre\",\"params\":"
	    "{\"dead\":\"auto\"}}"));
}

/* The members are found wherever they fall against the search's 16-byte blocks, past decoys
 * that open like them ("deadline", a quote before a "d" in a string), and in the last bytes. */
static void
test_member_at_every_offset(void **state)
{
	char line[512];

	(void)state;
	for (int pad = 0; pad < 40; pad++) {
		int n = snprintf(line, sizeof(line), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":"
		    "\"score\",\"params\":{\"game\":{\"sgf\":\"(;C[%.*s\\\"d])\"},"
		    "\"deadline\":1,\"dead\":[]}}", pad, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");

		assert_true(n > 0 && (size_t)n < sizeof(line));
		assert_false(triage_heavy(line, (size_t)n));
		/* Without the list, the ruleset's default (auto) makes it heavy: "deadline" is not
		 * "dead". */
		n = snprintf(line, sizeof(line), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":"
		    "\"score\",\"params\":{\"game\":{\"sgf\":\"(;C[%.*s])\"},\"deadline\":1}}",
		    pad, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
		assert_true(triage_heavy(line, (size_t)n));
		/* The key in the last 16 bytes, where the search ends with memmem. */
		n = snprintf(line, sizeof(line), "{\"method\":\"score\",\"x\":\"%.*s\",\"dead\":[]}",
		    pad, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
		assert_false(triage_heavy(line, (size_t)n));
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_auto_is_heavy),
		cmocka_unit_test(test_member_at_every_offset),
		cmocka_unit_test(test_explicit_dead_is_light),
		cmocka_unit_test(test_ruleset_default_none_is_light),
		cmocka_unit_test(test_light_methods),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
