/* Unit tests of the daemon's request triage (daemon/triage.c): which requests count as heavy. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_auto_is_heavy),
		cmocka_unit_test(test_explicit_dead_is_light),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
