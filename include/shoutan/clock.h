/* Game clocks: one state machine per player for each time control, exact to the millisecond. */
#ifndef SHOUTAN_CLOCK_H
#define SHOUTAN_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "shoutan/export.h"

#ifdef __cplusplus
extern "C" {
#endif

enum sht_clock_kind {
	SHT_CLOCK_ABSOLUTE = 1,   /* main time only */
	SHT_CLOCK_BYOYOMI = 2,    /* Japanese byo-yomi: main time, then `periods` periods of
	                           * `period_ms`; a move inside a period keeps it */
	SHT_CLOCK_CANADIAN = 3,   /* main time, then `moves` moves in each `period_ms` */
	SHT_CLOCK_FISCHER = 4,    /* main time, `increment_ms` added after each move; the first
	                           * `delay_ms` of a move are free (simple delay) */
	SHT_CLOCK_DUMIAO = 5,     /* Chinese 读秒: main time, then a reserve of `periods` minutes;
	                           * in it a move under a minute costs nothing and each full minute
	                           * costs one; time is lost at the 60th second of the last */
	SHT_CLOCK_MINUTES = 6,    /* Japanese title-match minute counting: main time in whole
	                           * minutes, a move under a minute costs nothing and each full
	                           * minute costs one; the seconds are read once `remainder_ms`
	                           * (whole minutes) is left; lost at the 60th second of the last */
};

struct sht_clock_spec {
	int kind;                 /* enum sht_clock_kind */
	int64_t main_ms;
	int periods;              /* byo-yomi periods; 读秒 reserve minutes */
	int64_t period_ms;        /* byo-yomi and Canadian periods */
	int moves;                /* Canadian: moves per period */
	int64_t increment_ms;     /* Fischer */
	int64_t delay_ms;         /* Fischer */
	int64_t remainder_ms;     /* minute counting: reading starts with this much left */
};

/* One player's clock. */
struct sht_clock_state {
	int64_t main_ms;          /* main time left (minute counting: whole minutes, in ms) */
	int periods;              /* byo-yomi periods or 读秒 minutes left */
	int64_t period_left_ms;   /* Canadian: time left in the current period */
	int moves_left;           /* Canadian: moves still to make in it */
	bool overtime;            /* the main time is spent */
	int64_t used_ms;          /* thinking time, all moves together */
	int moves;                /* moves made */
	bool flagged;             /* lost on time */
};

/* What a referee (or timekeeper) says during a move. */
enum sht_call_kind {
	SHT_CALL_SECONDS = 1,      /* value seconds of the current minute are gone ("30秒") */
	SHT_CALL_COUNT = 2,        /* the last seconds, counted aloud: value 1 ... 9 */
	SHT_CALL_MINUTES_LEFT = 3, /* a minute is spent; value minutes are left ("还剩X分钟") */
	SHT_CALL_PERIODS_LEFT = 4, /* a byo-yomi period is spent; value periods are left */
	SHT_CALL_OVERTIME = 5,     /* the main time is over; value: periods or minutes to come */
	SHT_CALL_TIME_LOST = 6,    /* the flag falls ("10，超时判负") */
};

struct sht_clock_call {
	int64_t at_ms;            /* into the move */
	int kind;                 /* enum sht_call_kind */
	int value;
};

/* Checks a spec: NULL when it is usable, else what is wrong with it. */
SHT_EXPORT const char *sht_clock_spec_problem(const struct sht_clock_spec *spec);

/* A player's clock before the first move. */
SHT_EXPORT void sht_clock_start(const struct sht_clock_spec *spec, struct sht_clock_state *st);

/*
 * Runs one move that took duration_ms on the player's clock st.  The calls made during it go to
 * calls[0 .. max) in time order; *ncalls is how many there were (more than max means some were
 * left out).  Returns true when the move was in time; false when the flag fell first, with
 * *flag_ms set to when, into the move (the state is then the moment of the fall).  A flagged
 * clock takes no more moves.
 */
SHT_EXPORT bool sht_clock_move(const struct sht_clock_spec *spec, struct sht_clock_state *st,
    int64_t duration_ms, struct sht_clock_call *calls, int max, int *ncalls, int64_t *flag_ms);

#ifdef __cplusplus
}
#endif

#endif
