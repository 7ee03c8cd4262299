/* Game clocks: one state machine per player for each time control, exact to the millisecond. */
#include <stddef.h>

#include "shoutan/clock.h"

#define MINUTE_MS INT64_C(60000)
#define SECOND_MS INT64_C(1000)
#define MAX_TIME_MS (INT64_C(1000) * 3600000)

/* The calls of one move, kept in order up to the caller's room. */
struct calls {
	struct sht_clock_call *v;
	int max, n;
};

static void
say(struct calls *c, int64_t at_ms, int kind, int value)
{
	if (c->n < c->max) {
		c->v[c->n].at_ms = at_ms;
		c->v[c->n].kind = kind;
		c->v[c->n].value = value;
	}
	c->n++;
}

/*
 * Reading one period of `length` that starts `start` into a move ending at `end`, with `left`
 * periods (this one included) to go.  In the last one: the tens of seconds up to ten before
 * its end (30, 40, 50 in a minute), then 1 ... 9 second by second; the flag is the caller's.
 * In the others the Chinese referee calls 30, 40, 50, 55 and 58 seconds of a minute (`minute`),
 * the byo-yomi timekeeper the same as in the last; then, at its end, what is left.  A call at
 * the very moment of the move is made only at a period's end, where the period is spent.
 */
static void
read_period(struct calls *c, int64_t start, int64_t length, int left, int64_t end, bool minute,
    int spent_kind)
{
	static const int chinese[] = { 30, 40, 50, 55, 58 };

	if (left > 1 && minute) {
		for (size_t i = 0; i < sizeof(chinese) / sizeof(chinese[0]); i++)
			if (start + chinese[i] * SECOND_MS < end)
				say(c, start + chinese[i] * SECOND_MS, SHT_CALL_SECONDS, chinese[i]);
	} else {
		for (int64_t t = length - 30 * SECOND_MS; t <= length - 10 * SECOND_MS;
		    t += 10 * SECOND_MS)
			if (t > 0 && start + t < end)
				say(c, start + t, SHT_CALL_SECONDS, (int)(t / SECOND_MS));
		for (int k = 1; k <= 9; k++) {
			int64_t t = length - 10 * SECOND_MS + k * SECOND_MS;

			if (t > 0 && start + t < end)
				say(c, start + t, SHT_CALL_COUNT, k);
		}
	}
	if (left > 1 && start + length <= end)
		say(c, start + length, spent_kind, left - 1);
}

/*
 * Periods of `length` counted from `start` into a move of `duration`, `*left` of them to go, a
 * move inside one keeping it: the calls, the periods spent, and the flag when the last is.
 * `reading_from`: periods with more than this many left are not read aloud (minute counting).
 */
static bool
run_periods(struct calls *c, int64_t start, int64_t duration, int64_t length, int *left,
    int reading_from, bool minute, int spent_kind, int64_t *flag_ms)
{
	int64_t spent = (duration - start) / length;
	/* Periods before the reading begins pass in silence; when it begins, what is left is
	 * said.  Then each period is read; there are at most reading_from of them. */
	int silent = *left > reading_from ? *left - reading_from : 0;

	if (silent > 0 && start + silent * length <= duration)
		say(c, start + silent * length, spent_kind, reading_from);
	for (int j = silent; j < *left && start + j * length < duration; j++)
		read_period(c, start + j * length, length, *left - j, duration, minute, spent_kind);
	if (spent >= *left) {
		*flag_ms = start + *left * length;
		say(c, *flag_ms, SHT_CALL_TIME_LOST, 0);
		*left = 0;
		return false;
	}
	*left -= (int)spent;
	return true;
}

const char *
sht_clock_spec_problem(const struct sht_clock_spec *s)
{
	if (s->main_ms < 0 || s->period_ms < 0 || s->increment_ms < 0 || s->delay_ms < 0 ||
	    s->remainder_ms < 0 || s->periods < 0 || s->moves < 0)
		return "times and counts cannot be negative";
	/* Bounds no game comes near, which keep a move's work (and its calls) bounded. */
	if (s->main_ms > MAX_TIME_MS || s->period_ms > MAX_TIME_MS ||
	    s->increment_ms > MAX_TIME_MS || s->delay_ms > MAX_TIME_MS ||
	    s->remainder_ms > 1000 * MINUTE_MS || s->periods > 1000 || s->moves > 1000)
		return "times are at most 1000 hours, the reading remainder 1000 minutes, and "
		    "counts at most 1000";
	switch (s->kind) {
	case SHT_CLOCK_ABSOLUTE:
	case SHT_CLOCK_FISCHER:
		return s->main_ms > 0 ? NULL : "main time must be more than zero";
	case SHT_CLOCK_BYOYOMI:
		return s->periods >= 1 && s->period_ms >= SECOND_MS ? NULL :
		    "byo-yomi needs at least one period of at least a second";
	case SHT_CLOCK_CANADIAN:
		return s->moves >= 1 && s->period_ms >= SECOND_MS ? NULL :
		    "Canadian overtime needs a number of moves and a period of at least a second";
	case SHT_CLOCK_DUMIAO:
		return s->periods >= 1 ? NULL : "读秒 needs a reserve of at least one minute";
	case SHT_CLOCK_MINUTES:
		return s->main_ms >= MINUTE_MS ? NULL :
		    "minute counting needs at least one minute of main time";
	}
	return "unknown kind of time control";
}

void
sht_clock_start(const struct sht_clock_spec *spec, struct sht_clock_state *st)
{
	st->main_ms = spec->kind == SHT_CLOCK_MINUTES ? spec->main_ms / MINUTE_MS * MINUTE_MS :
	    spec->main_ms;
	st->periods = spec->periods;
	st->period_left_ms = spec->period_ms;
	st->moves_left = spec->moves;
	st->overtime = false;
	st->used_ms = 0;
	st->moves = 0;
	st->flagged = false;
}

bool
sht_clock_move(const struct sht_clock_spec *spec, struct sht_clock_state *st,
    int64_t duration_ms, struct sht_clock_call *calls, int max, int *ncalls, int64_t *flag_ms)
{
	struct calls c = { calls, max, 0 };
	int64_t d = duration_ms < 0 ? 0 : duration_ms, start = 0;
	bool ok = true;

	*flag_ms = -1;
	if (st->flagged) {
		*ncalls = 0;
		return false;
	}
	st->moves++;
	if (spec->kind == SHT_CLOCK_MINUTES) {
		/* Everything is minutes: read once no more than the remainder is left. */
		int left = (int)(st->main_ms / MINUTE_MS);
		int reading = (int)(spec->remainder_ms / MINUTE_MS);

		ok = run_periods(&c, 0, d, MINUTE_MS, &left, reading < 1 ? 1 : reading, true,
		    SHT_CALL_MINUTES_LEFT, flag_ms);
		st->main_ms = left * MINUTE_MS;
		st->overtime = left <= reading;
		goto out;
	}
	if (spec->kind == SHT_CLOCK_FISCHER) {
		int64_t charged = d > spec->delay_ms ? d - spec->delay_ms : 0;

		if (charged >= st->main_ms) {
			*flag_ms = spec->delay_ms + st->main_ms;
			say(&c, *flag_ms, SHT_CALL_TIME_LOST, 0);
			st->main_ms = 0;
			ok = false;
		} else {
			st->main_ms += spec->increment_ms - charged;
		}
		goto out;
	}
	if (!st->overtime) {
		if (d < st->main_ms) {
			st->main_ms -= d;
			goto out;
		}
		if (spec->kind == SHT_CLOCK_ABSOLUTE) {
			*flag_ms = st->main_ms;
			say(&c, *flag_ms, SHT_CALL_TIME_LOST, 0);
			st->main_ms = 0;
			ok = false;
			goto out;
		}
		/* The rest of this move runs in overtime. */
		start = st->main_ms;
		st->main_ms = 0;
		st->overtime = true;
		say(&c, start, SHT_CALL_OVERTIME, spec->kind == SHT_CLOCK_CANADIAN ? spec->moves :
		    spec->periods);
	}
	switch (spec->kind) {
	case SHT_CLOCK_BYOYOMI:
		ok = run_periods(&c, start, d, spec->period_ms, &st->periods, st->periods, false,
		    SHT_CALL_PERIODS_LEFT, flag_ms);
		break;
	case SHT_CLOCK_DUMIAO:
		ok = run_periods(&c, start, d, MINUTE_MS, &st->periods, st->periods, true,
		    SHT_CALL_MINUTES_LEFT, flag_ms);
		break;
	case SHT_CLOCK_CANADIAN:
		if (d - start >= st->period_left_ms) {
			*flag_ms = start + st->period_left_ms;
			say(&c, *flag_ms, SHT_CALL_TIME_LOST, 0);
			st->period_left_ms = 0;
			ok = false;
		} else if (--st->moves_left == 0) {
			/* The period's moves are made: a new period begins. */
			st->period_left_ms = spec->period_ms;
			st->moves_left = spec->moves;
		} else {
			st->period_left_ms -= d - start;
		}
		break;
	}
out:
	st->used_ms += ok ? d : *flag_ms;
	st->flagged = !ok;
	*ncalls = c.n;
	return ok;
}
