/* The referee: a game's events (moves, passes, sealed moves, resignation, infractions at the board, the clock) ruled one at a time under a ruleset, and how the game was decided. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"

static const char *
color_name(int c)
{
	return c == SHT_BLACK ? "Black" : "White";
}

/* The game is over: decided by `decision` against `loser` (0 for a cycle), at event `index`. */
static void
decide(struct sht_referee *ref, int index, int decision, int loser, const char *why)
{
	ref->over = true;
	ref->end_event = index;
	ref->decision = decision;
	sht_judge_decide(ref->rs, decision, loser, why, &ref->result);
}

bool
sht_referee_begin(struct sht_referee *ref, const struct sht_ruleset *rs,
    const struct sht_game *game, int w, int h, int capacity, const int *komi,
    struct sht_error *err)
{
	memset(ref, 0, sizeof(*ref));
	ref->rs = rs;
	ref->calls = malloc(sizeof(*ref->calls) * SHT_MAX_CALLS);
	if (ref->calls == NULL)
		return sht_error_set(err, SHT_ERROR_INTERNAL, "out of memory");
	if (game == NULL) {
		/* An event log: the ruleset's board (or the request's size) and seated stones. */
		if (!sht_judge_begin(rs, w, h, capacity, true, &ref->replay, err))
			goto fail;
		ref->replay.komi = sht_judge_komi(rs, NULL, komi);
		ref->to_move = rs->setup.first_player;
		return true;
	}
	/* A record: its board, setup, handicap, first player and komi, as replay and score read
	 * them, so that the referee and the count see the same game. */
	if (!sht_judge_start(rs, game, komi, capacity, &ref->replay, &ref->to_move,
	    &ref->first_move, err))
		goto fail;
	for (int i = ref->first_move; i < game->g.nevents; i++)
		if (game->g.events[i].kind == SHT_SGF_SETUP) {
			sht_replay_free(&ref->replay);
			sht_error_set(err, SHT_ERROR_BAD_PARAMS, "the record edits the board during play "
			    "(AB, AW or AE after move %d): the referee rules on moves only",
			    game->g.events[i - 1].move_number);
			goto fail;
		}
	return true;
fail:
	free(ref->calls);
	ref->calls = NULL;
	return false;
}

void
sht_referee_start_clock(struct sht_referee *ref, const struct sht_clock_spec *clock)
{
	ref->timed = true;
	ref->clock = *clock;
	sht_clock_start(&ref->clock, &ref->clocks[SHT_BLACK]);
	sht_clock_start(&ref->clock, &ref->clocks[SHT_WHITE]);
}

void
sht_referee_free(struct sht_referee *ref)
{
	free(ref->calls);
	sht_replay_free(&ref->replay);
	if (ref->scored)
		sht_score_report_free(&ref->count);
	memset(ref, 0, sizeof(*ref));
}

/* The clock for a move: false when the flag fell (the game is then over). */
static bool
run_clock(struct sht_referee *ref, int index, const struct sht_referee_event *ev, int color,
    struct sht_referee_ruling *out)
{
	int64_t flag_ms;
	bool in_time;

	out->clocked = true;
	out->game_ms = ref->game_ms;
	in_time = sht_clock_move(&ref->clock, &ref->clocks[color], ev->ms, ref->calls,
	    SHT_MAX_CALLS, &out->ncalls, &flag_ms);
	if (out->ncalls > SHT_MAX_CALLS)
		out->ncalls = SHT_MAX_CALLS;
	out->calls = ref->calls;
	out->clock = ref->clocks[color];
	ref->game_ms += in_time ? ev->ms : flag_ms;
	if (!in_time) {
		char why[64];

		snprintf(why, sizeof(why), "the flag fell %lld ms into the move",
		    (long long)flag_ms);
		out->ruling = SHT_RULING_LOSS;
		snprintf(out->reason, sizeof(out->reason), "the flag fell before the move");
		decide(ref, index, SHT_DECISION_TIME, color, why);
	}
	return in_time;
}

/* A move, pass or sealed move, as the ruleset rules on it. */
static void
rule_move(struct sht_referee *ref, int index, const struct sht_referee_event *ev, int color,
    struct sht_referee_ruling *out)
{
	struct sht_replay *r = &ref->replay;
	int cons, violation;

	cons = sht_judge_move(ref->rs, r, color, ev->point, ++ref->number, false, &ref->to_move);
	violation = r->nmoves > 0 ? r->moves[r->nmoves - 1].violation : 0;
	if (cons == SHT_JUDGE_PLAYED) {
		out->ruling = SHT_RULING_ACCEPTED;
		if (ev->type == SHT_EVENT_SEAL)
			snprintf(out->reason, sizeof(out->reason), "sealed at adjournment; the move "
			    "stands and is revealed when play resumes");
	} else if (cons == SHT_CONSEQUENCE_REJECT || cons == SHT_JUDGE_FULL) {
		/* Not a move at all: it leaves no record and takes no number. */
		ref->number--;
		r->nmoves -= cons == SHT_CONSEQUENCE_REJECT;
		out->ruling = SHT_RULING_REFUSED;
		snprintf(out->reason, sizeof(out->reason), "not a move (%s): the player plays again",
		    cons == SHT_JUDGE_FULL ? "too many moves" : sht_violation_text(violation));
	} else if (r->end == SHT_END_LOSS) {
		out->ruling = SHT_RULING_LOSS;
		snprintf(out->reason, sizeof(out->reason), "%s", r->end_reason);
	} else {
		static const int rulings[] = { SHT_RULING_REFUSED, SHT_RULING_VOID, SHT_RULING_LOSS,
			SHT_RULING_WARNING };

		out->ruling = rulings[cons];
		snprintf(out->reason, sizeof(out->reason), "%s%s", sht_violation_text(violation),
		    violation == SHT_VIOLATION_NOT_YOUR_TURN ? ": the move is taken back" :
		    ": the move is void and the turn is lost");
	}
	/* The judge has recorded how a loss or a cycle decided the game. */
	if (r->decision != SHT_DECISION_COUNT) {
		decide(ref, index, r->decision, r->end_player, r->end_short);
		return;
	}
	sht_judge_check_end(ref->rs, r);
	if (r->end == SHT_END_ENDED) {
		ref->over = true;
		ref->end_event = index;
		ref->counting_due = true;
	}
}

/* A move taken back, or stones disturbed by hand: the position is restored, then the penalty. */
static void
rule_infraction(struct sht_referee *ref, int index, const struct sht_referee_event *ev,
    struct sht_referee_ruling *out)
{
	int violation = ev->type == SHT_EVENT_TAKE_BACK ? SHT_VIOLATION_TAKE_BACK :
	    SHT_VIOLATION_DISTURBED;
	enum sht_consequence cons = sht_ruleset_consequence(ref->rs, violation);
	int lose = ref->rs->setup.warnings_to_lose;
	struct sht_replay *r = &ref->replay;

	if (cons == SHT_CONSEQUENCE_LOSS) {
		out->ruling = SHT_RULING_LOSS;
		snprintf(out->reason, sizeof(out->reason), "%s: the game is lost",
		    sht_violation_text(violation));
		r->end = SHT_END_LOSS;
		r->end_player = ev->color;
		snprintf(r->end_reason, sizeof(r->end_reason), "%.150s", out->reason);
		decide(ref, index, SHT_DECISION_VIOLATION, ev->color, sht_violation_short(violation));
	} else if (cons == SHT_CONSEQUENCE_WARNING) {
		int n = ++r->warnings[ev->color];

		out->ruling = lose > 0 && n >= lose ? SHT_RULING_LOSS : SHT_RULING_WARNING;
		snprintf(out->reason, sizeof(out->reason), "%s: the stones are restored and a "
		    "warning given (%d)", sht_violation_text(violation), n);
		if (lose > 0 && n >= lose) {
			char why[64];

			r->end = SHT_END_LOSS;
			r->end_player = ev->color;
			snprintf(r->end_reason, sizeof(r->end_reason), "%d warnings; the last for %s", n,
			    sht_violation_text(violation));
			snprintf(why, sizeof(why), "%d warnings, the last for %s", n,
			    sht_violation_short(violation));
			decide(ref, index, SHT_DECISION_WARNINGS, ev->color, why);
		}
	} else {
		out->ruling = SHT_RULING_RESTORED;
		snprintf(out->reason, sizeof(out->reason), "%s: the stones are restored; this "
		    "ruleset gives no penalty", sht_violation_text(violation));
	}
}

void
sht_referee_rule(struct sht_referee *ref, int index, const struct sht_referee_event *ev,
    struct sht_referee_ruling *out)
{
	memset(out, 0, sizeof(*out));
	out->color = ev->color ? ev->color : ref->to_move;
	if (ref->over) {
		out->ruling = SHT_RULING_IGNORED;
		snprintf(out->reason, sizeof(out->reason), "the game is over");
	} else if (ev->type == SHT_EVENT_RESIGN) {
		out->ruling = SHT_RULING_ACCEPTED;
		decide(ref, index, SHT_DECISION_RESIGNATION, out->color, "");
	} else if (ev->type == SHT_EVENT_TAKE_BACK || ev->type == SHT_EVENT_DISTURB) {
		struct sht_referee_event at_board = *ev;

		at_board.color = out->color;
		rule_infraction(ref, index, &at_board, out);
	} else if (!ref->timed || !ev->timed || run_clock(ref, index, ev, out->color, out)) {
		rule_move(ref, index, ev, out->color, out);
	}
}

void
sht_referee_count(struct sht_referee *ref, const struct sht_dead_spec *dead,
    const char *refused)
{
	struct sht_error err;

	ref->counting_due = false;
	ref->decision = SHT_DECISION_COUNT;
	if (refused == NULL && sht_judge_score(ref->rs, &ref->replay, dead, &ref->count, &err)) {
		ref->scored = true;
		ref->result = ref->count.result;
		return;
	}
	/* The count could not be made (a dead list that does not fit the final position): the
	 * game is over, its result unknown, and the text says why. */
	memset(&ref->result, 0, sizeof(ref->result));
	ref->result.winner = SHT_WINNER_NONE;
	snprintf(ref->result.re, sizeof(ref->result.re), "?");
	snprintf(ref->result.text, sizeof(ref->result.text), "%.*s",
	    (int)sizeof(ref->result.text) - 1, refused ? refused : err.message);
}

const char *
sht_ruling_name(int ruling)
{
	static const char *const names[] = { "accepted", "refused", "void", "loss", "warning",
		"restored", "ignored" };

	return ruling >= 0 && ruling <= SHT_RULING_IGNORED ? names[ruling] : "refused";
}

bool
sht_referee_events_from_game(const struct sht_referee *ref, const struct sht_game *game,
    const struct sht_timed_move *timed, int ntimed, struct sht_referee_event **evs, int *n,
    struct sht_error *err)
{
	int k = 0;

	*evs = calloc((size_t)game->g.nmoves + 1, sizeof(**evs));
	if (*evs == NULL)
		return sht_error_set(err, SHT_ERROR_INTERNAL, "out of memory");
	*n = 0;
	for (int i = ref->first_move; i < game->g.nevents; i++) {
		const struct sht_sgf_event *e = &game->g.events[i];
		struct sht_referee_event *ev;

		if (e->kind != SHT_SGF_MOVE)
			continue;
		ev = &(*evs)[(*n)++];
		ev->type = e->x < 0 ? SHT_EVENT_PASS : SHT_EVENT_MOVE;
		ev->color = e->color;
		ev->point = e->x < 0 ? SHT_PASS : sht_board_point(ref->replay.board, e->x, e->y);
		if (ev->point == SHT_NO_POINT) {
			free(*evs);
			*evs = NULL;
			return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "move %d (%s) is off the board",
			    e->move_number, color_name(e->color));
		}
		if (timed != NULL && k < ntimed) {
			ev->timed = true;
			ev->ms = timed[k++].ms;
		}
	}
	return true;
}
