/* Unit tests of the game clocks (lib/clock.c): every time control, its calls and its flag fall. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "shoutan/clock.h"

#define S(x) ((int64_t)(x) * 1000)
#define MIN(x) ((int64_t)(x) * 60000)

/* The calls of one move as text, "30s@30000 ..." (kind letter, value, time into the move). */
static const char *
calls_text(const struct sht_clock_call *c, int n)
{
	static char buf[2048];
	static const char kinds[] = "?SCMPOL";
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < n; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%c%d@%lld", i ? " " : "",
		    kinds[c[i].kind], c[i].value, (long long)c[i].at_ms);
	return buf;
}

struct run {
	struct sht_clock_spec spec;
	struct sht_clock_state st;
	struct sht_clock_call calls[64];
	int n;
	int64_t flag;
	bool ok;
};

static void
move(struct run *r, int64_t ms)
{
	r->ok = sht_clock_move(&r->spec, &r->st, ms, r->calls, 64, &r->n, &r->flag);
}

static void
test_dumiao_minute_by_minute(void **state)
{
	struct run r = { .spec = { .kind = SHT_CLOCK_DUMIAO, .main_ms = MIN(1), .periods = 3 } };

	(void)state;
	assert_null(sht_clock_spec_problem(&r.spec));
	sht_clock_start(&r.spec, &r.st);
	/* Main time runs out 60 s into the move; 读秒 begins: 30, 40, 50, 55, 58 seconds of its
	 * first minute are called, then the minute is spent: "还剩2分钟" (2 left). */
	move(&r, S(150));
	assert_true(r.ok);
	assert_string_equal(calls_text(r.calls, r.n),
	    "O3@60000 S30@90000 S40@100000 S50@110000 S55@115000 S58@118000 M2@120000");
	assert_int_equal(r.st.periods, 2);
	/* A move under a minute costs nothing. */
	move(&r, S(59));
	assert_true(r.ok);
	assert_int_equal(r.st.periods, 2);
	assert_string_equal(calls_text(r.calls, r.n),
	    "S30@30000 S40@40000 S50@50000 S55@55000 S58@58000");
	/* A full minute costs one; the last minute is then counted 1 ... 9 and the tenth second
	 * loses: time is lost at 60 seconds. */
	move(&r, S(125));
	assert_false(r.ok);
	assert_int_equal(r.flag, S(120));
	assert_string_equal(calls_text(r.calls, r.n),
	    "S30@30000 S40@40000 S50@50000 S55@55000 S58@58000 M1@60000 "
	    "S30@90000 S40@100000 S50@110000 C1@111000 C2@112000 C3@113000 C4@114000 "
	    "C5@115000 C6@116000 C7@117000 C8@118000 C9@119000 L0@120000");
	assert_true(r.st.flagged);
	move(&r, S(1));
	assert_false(r.ok); /* no moves after the flag */
}

static void
test_dumiao_last_minute_in_time(void **state)
{
	struct run r = { .spec = { .kind = SHT_CLOCK_DUMIAO, .main_ms = 0, .periods = 1 } };

	(void)state;
	sht_clock_start(&r.spec, &r.st);
	move(&r, 59999);  /* one millisecond before the flag */
	assert_true(r.ok);
	assert_int_equal(r.st.periods, 1);
	move(&r, S(60));  /* exactly 60 s: lost */
	assert_false(r.ok);
	assert_int_equal(r.flag, S(60));
}

static void
test_byoyomi_period_kept_and_spent(void **state)
{
	struct run r = { .spec = { .kind = SHT_CLOCK_BYOYOMI, .main_ms = S(10), .periods = 3,
	    .period_ms = S(30) } };

	(void)state;
	sht_clock_start(&r.spec, &r.st);
	move(&r, S(4));
	assert_int_equal(r.st.main_ms, S(6));
	move(&r, S(20)); /* main ends at 6 s; 14 s into the first period: kept */
	assert_true(r.ok);
	assert_true(r.st.overtime);
	assert_int_equal(r.st.periods, 3);
	assert_string_equal(calls_text(r.calls, r.n), "O3@6000 S10@16000");
	move(&r, S(29) + 999); /* inside a period: it is kept */
	assert_int_equal(r.st.periods, 3);
	move(&r, S(45)); /* a period spent */
	assert_true(r.ok);
	assert_int_equal(r.st.periods, 2);
	assert_string_equal(calls_text(r.calls, r.n),
	    "S10@10000 S20@20000 C1@21000 C2@22000 C3@23000 C4@24000 C5@25000 C6@26000 "
	    "C7@27000 C8@28000 C9@29000 P2@30000 S10@40000");
	move(&r, S(61)); /* two periods: the flag falls at the end of the last */
	assert_false(r.ok);
	assert_int_equal(r.flag, S(60));
	assert_int_equal(r.st.periods, 0);
}

static void
test_canadian_period_completed_and_missed(void **state)
{
	struct run r = { .spec = { .kind = SHT_CLOCK_CANADIAN, .main_ms = S(60), .moves = 3,
	    .period_ms = S(30) } };

	(void)state;
	sht_clock_start(&r.spec, &r.st);
	move(&r, S(65)); /* 5 s into the first period, which counts it as one of three */
	assert_true(r.st.overtime);
	assert_int_equal(r.st.moves_left, 2);
	assert_int_equal(r.st.period_left_ms, S(25));
	move(&r, S(10));
	move(&r, S(14)); /* the third move inside 30 s: a new period */
	assert_true(r.ok);
	assert_int_equal(r.st.moves_left, 3);
	assert_int_equal(r.st.period_left_ms, S(30));
	move(&r, S(20));
	move(&r, S(11)); /* 31 s for two moves: missed, 10 s into this one */
	assert_false(r.ok);
	assert_int_equal(r.flag, S(10));
}

static void
test_fischer_increment_and_delay(void **state)
{
	struct run r = { .spec = { .kind = SHT_CLOCK_FISCHER, .main_ms = S(60),
	    .increment_ms = S(10) } };

	(void)state;
	sht_clock_start(&r.spec, &r.st);
	move(&r, S(15));
	assert_int_equal(r.st.main_ms, S(55));
	move(&r, S(50));
	assert_int_equal(r.st.main_ms, S(15));
	move(&r, S(14) + 999);
	assert_true(r.ok);
	assert_int_equal(r.st.main_ms, S(10) + 1);
	move(&r, S(12));
	assert_false(r.ok);
	assert_int_equal(r.flag, 10001);
	/* With a 5 s delay the first 5 s of each move are free. */
	r.spec.delay_ms = S(5);
	sht_clock_start(&r.spec, &r.st);
	move(&r, S(4));
	assert_int_equal(r.st.main_ms, S(70));
	move(&r, S(80));
	assert_false(r.ok);
	assert_int_equal(r.flag, S(75));
}

static void
test_absolute_flag(void **state)
{
	struct run r = { .spec = { .kind = SHT_CLOCK_ABSOLUTE, .main_ms = S(90) } };

	(void)state;
	sht_clock_start(&r.spec, &r.st);
	move(&r, S(89));
	assert_true(r.ok);
	move(&r, S(2));
	assert_false(r.ok);
	assert_int_equal(r.flag, S(1));
	assert_string_equal(calls_text(r.calls, r.n), "L0@1000");
	assert_int_equal(r.st.used_ms, S(90));
}

static void
test_minute_counting(void **state)
{
	/* Japanese title match: 12 minutes, counted in whole minutes, read from 10 left. */
	struct run r = { .spec = { .kind = SHT_CLOCK_MINUTES, .main_ms = MIN(12),
	    .remainder_ms = MIN(10) } };

	(void)state;
	sht_clock_start(&r.spec, &r.st);
	move(&r, S(59)); /* under a minute: nothing */
	assert_int_equal(r.st.main_ms, MIN(12));
	assert_int_equal(r.n, 0);
	move(&r, S(150)); /* two minutes, silent; reading starts as 10 are left */
	assert_int_equal(r.st.main_ms, MIN(10));
	assert_string_equal(calls_text(r.calls, r.n), "M10@120000");
	move(&r, S(70));
	assert_int_equal(r.st.main_ms, MIN(9));
	assert_string_equal(calls_text(r.calls, r.n),
	    "S30@30000 S40@40000 S50@50000 S55@55000 S58@58000 M9@60000");
	move(&r, MIN(9));
	assert_false(r.ok);
	assert_int_equal(r.flag, MIN(9));
	assert_int_equal(r.calls[r.n - 1].kind, SHT_CALL_TIME_LOST);
	assert_int_equal(r.calls[r.n - 2].kind, SHT_CALL_COUNT);
	assert_int_equal(r.calls[r.n - 2].value, 9);
}

static void
test_spec_problems(void **state)
{
	struct sht_clock_spec bad = { .kind = SHT_CLOCK_BYOYOMI, .main_ms = S(10), .periods = 0,
	    .period_ms = S(30) };

	(void)state;
	assert_non_null(sht_clock_spec_problem(&bad));
	bad.kind = 99;
	assert_non_null(sht_clock_spec_problem(&bad));
	bad.kind = SHT_CLOCK_ABSOLUTE;
	bad.main_ms = -1;
	assert_non_null(sht_clock_spec_problem(&bad));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dumiao_minute_by_minute),
		cmocka_unit_test(test_dumiao_last_minute_in_time),
		cmocka_unit_test(test_byoyomi_period_kept_and_spent),
		cmocka_unit_test(test_canadian_period_completed_and_missed),
		cmocka_unit_test(test_fischer_increment_and_delay),
		cmocka_unit_test(test_absolute_flag),
		cmocka_unit_test(test_minute_counting),
		cmocka_unit_test(test_spec_problems),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
