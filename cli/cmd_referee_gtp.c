/* shoutan referee-gtp: a match between two GTP engines, refereed under a ruleset, each game written as SGF. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "gtp_engine.h"
#include "render.h"
#include "shoutan/tally.h"
#include "version.h"

/*
 * The referee is the host's (host/referee.c): every answer of an engine becomes an event that
 * it rules on under the ruleset, with the clocks, and the count at the end is the judge's.
 * This file runs the engines: it keeps their boards in step with the referee's (play, undo,
 * or a fresh clear_board and the game replayed), turns what they say into events, and writes
 * each game down.  An engine that crashes, hangs or answers nonsense loses the game it was
 * playing, with the reason in the record; it is started again for the next one.
 */

#define ENGINES 2
/* How long an engine may take over anything but genmove (boardsize, play, ...). */
#define SETUP_TIMEOUT_MS 30000
/* Beyond a clock's last possible second: an engine this late has hung, not thought. */
#define GRACE_MS 2000

struct played {
	int color;
	int point;             /* SHT_PASS for a pass or a void move */
	char comment[240];     /* the referee's ruling, when there was one worth writing */
	bool clocked;
	int64_t left_ms;       /* the mover's time left, for BL/WL */
	int overtime_count;    /* in overtime: byo-yomi periods or Canadian moves left (OB/OW) */
	bool in_overtime;
};

struct game_result {
	int black;             /* the engine (0 or 1) that had Black */
	struct sht_score_result result;
	const char *how;       /* "counting", "resignation", "forfeit", ... */
	char reason[320];      /* a forfeit's cause, or how the dead stones were agreed */
	int moves;
	char sgf_path[1100];
	json_t *dead;          /* the dead stones counted, as vertices */
};

struct match {
	struct cli *cli;
	const struct sht_ruleset *rs;
	int size, games, handicap, max_moves;
	bool alternate;
	int komi;              /* half points */
	bool timed;
	struct sht_clock_spec clock;
	int64_t move_timeout_ms;
	const char *sgf_prefix;
	struct gtp_engine engines[ENGINES];
	char *engine_argv[ENGINES][64];
};

static const char *
color_letter(int c)
{
	return c == SHT_BLACK ? "B" : "W";
}

static const char *
color_word(int c)
{
	return c == SHT_BLACK ? "black" : "white";
}

/* The vertex GTP speaks ("D4", "pass"). */
static const char *
vertex(const struct sht_board *b, int point, char *buf, size_t len)
{
	return sht_vertex_format(b, point, buf, len);
}

/* ---- the game record ---- */

/* SGF text: ']' and '\' escaped. */
static void
sgf_text(FILE *f, const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == ']' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
}

static void
sgf_point(FILE *f, const struct sht_board *b, int point)
{
	int x, y;

	if (point == SHT_PASS || !sht_board_xy(b, point, &x, &y))
		return;
	fprintf(f, "%c%c", 'a' + x, 'a' + y);
}

static void
write_sgf(const struct match *m, const struct sht_referee *ref, const struct game_result *res,
    const struct played *moves, int nmoves, const int *handicap_points, int nhandicap,
    const char *closing)
{
	FILE *f = fopen(res->sgf_path, "w");
	const struct sht_board *b = ref->replay.board;
	const struct gtp_engine *black = &m->engines[res->black];
	const struct gtp_engine *white = &m->engines[1 - res->black];
	char date[16], komi[16];
	time_t now = time(NULL);
	struct tm tm;

	if (f == NULL) {
		fprintf(stderr, "shoutan referee-gtp: cannot write %s\n", res->sgf_path);
		return;
	}
	gmtime_r(&now, &tm);
	strftime(date, sizeof(date), "%Y-%m-%d", &tm);
	fprintf(f, "(;GM[1]FF[4]CA[UTF-8]AP[shoutan:%s]SZ[%d]KM[%s]RU[", SHT_VERSION, m->size,
	    sht_half_points_text(m->komi, komi, sizeof(komi)));
	sgf_text(f, m->rs->name);
	fprintf(f, "]DT[%s]PB[", date);
	sgf_text(f, black->name);
	fprintf(f, "]PW[");
	sgf_text(f, white->name);
	fprintf(f, "]RE[%s]", res->result.re);
	if (m->timed) {
		/* TM, and OT as servers write it ("5x30 byo-yomi", "25/600 Canadian"), which the
		 * referee method reads back. */
		fprintf(f, "TM[%.3f]", (double)m->clock.main_ms / 1000.0);
		if (m->clock.kind == SHT_CLOCK_BYOYOMI)
			fprintf(f, "OT[%dx%.3f byo-yomi]", m->clock.periods,
			    (double)m->clock.period_ms / 1000.0);
		else if (m->clock.kind == SHT_CLOCK_CANADIAN)
			fprintf(f, "OT[%d/%.3f Canadian]", m->clock.moves,
			    (double)m->clock.period_ms / 1000.0);
		else if (m->clock.kind != SHT_CLOCK_ABSOLUTE)
			fprintf(f, "OT[%s]", sht_clock_kind_name(m->clock.kind));
	}
	if (nhandicap > 0) {
		fprintf(f, "HA[%d]AB", nhandicap);
		for (int i = 0; i < nhandicap; i++) {
			fputc('[', f);
			sgf_point(f, b, handicap_points[i]);
			fputc(']', f);
		}
	}
	/* The ruleset's seated stones as setup, so that any reader has the position. */
	for (int c = SHT_BLACK; c <= SHT_WHITE && nhandicap == 0; c++) {
		bool any = false;

		for (int i = 0; i < m->rs->setup.nseated; i++) {
			if (m->rs->setup.seated[i].color != c)
				continue;
			fprintf(f, "%s[", any ? "" : c == SHT_BLACK ? "AB" : "AW");
			sgf_point(f, b, sht_board_point(b, m->rs->setup.seated[i].x,
			    m->rs->setup.seated[i].y));
			fputc(']', f);
			any = true;
		}
	}
	if (nmoves > 0 && moves[0].color == SHT_WHITE)
		fprintf(f, "PL[W]");
	fprintf(f, "C[");
	sgf_text(f, "Refereed by shoutan referee-gtp under ");
	sgf_text(f, m->rs->name);
	fprintf(f, ".]\n");
	for (int i = 0; i < nmoves; i++) {
		const struct played *p = &moves[i];

		fprintf(f, ";%s[", color_letter(p->color));
		sgf_point(f, b, p->point);
		fputc(']', f);
		if (p->clocked)
			fprintf(f, "%s[%.3f]", p->color == SHT_BLACK ? "BL" : "WL",
			    (double)p->left_ms / 1000.0);
		if (p->clocked && p->in_overtime)
			fprintf(f, "%s[%d]", p->color == SHT_BLACK ? "OB" : "OW", p->overtime_count);
		if (p->comment[0] != '\0' || (i == nmoves - 1 && closing[0] != '\0')) {
			fprintf(f, "C[");
			sgf_text(f, p->comment);
			if (i == nmoves - 1 && closing[0] != '\0') {
				if (p->comment[0] != '\0')
					fputc('\n', f);
				sgf_text(f, closing);
			}
			fputc(']', f);
		}
		fputc('\n', f);
	}
	if (nmoves == 0 && closing[0] != '\0') {
		fprintf(f, ";C[");
		sgf_text(f, closing);
		fputc(']', f);
	}
	fprintf(f, ")\n");
	if (fclose(f) != 0)
		fprintf(stderr, "shoutan referee-gtp: cannot write %s\n", res->sgf_path);
}

/* ---- keeping the engines' boards in step ---- */

/* Asks an engine something it must accept; false (the engine's fault written into why) when
 * it does not. */
static bool
must_accept(struct gtp_engine *e, const char *command, char *why, size_t len)
{
	char answer[256];
	enum gtp_status st = gtp_engine_ask(e, command, SETUP_TIMEOUT_MS, answer, sizeof(answer),
	    NULL);

	if (st == GTP_OK)
		return true;
	if (st == GTP_REFUSED) {
		char shown[96];

		gtp_printable(shown, sizeof(shown), answer[0] ? answer : "no reason");
		snprintf(why, len, "refused '%.100s' (%s)", command, shown);
	}
	else if (st == GTP_TIMEOUT)
		snprintf(why, len, "did not answer '%s' within %d s and was killed", command,
		    SETUP_TIMEOUT_MS / 1000);
	else
		snprintf(why, len, "%s at '%s'", e->exit_text[0] ? e->exit_text :
		    "stopped answering", command);
	return false;
}

/* The game so far on an engine's board from scratch: clear_board, handicap, seated stones,
 * and every move (void ones as passes). */
static bool
engine_replay(const struct match *m, struct gtp_engine *e, const struct sht_board *b,
    const int *handicap_points, int nhandicap, const struct played *moves, int nmoves,
    char *why, size_t len)
{
	char cmd[512], v[8];
	int used;

	if (!must_accept(e, "clear_board", why, len))
		return false;
	if (nhandicap > 0) {
		used = snprintf(cmd, sizeof(cmd), "set_free_handicap");
		for (int i = 0; i < nhandicap && used < (int)sizeof(cmd) - 8; i++)
			used += snprintf(cmd + used, sizeof(cmd) - (size_t)used, " %s",
			    vertex(b, handicap_points[i], v, sizeof(v)));
		if (!must_accept(e, cmd, why, len))
			return false;
	}
	for (int i = 0; i < m->rs->setup.nseated && nhandicap == 0; i++) {
		const struct sht_rules_seated *s = &m->rs->setup.seated[i];

		snprintf(cmd, sizeof(cmd), "play %s %s", color_word(s->color),
		    vertex(b, sht_board_point(b, s->x, s->y), v, sizeof(v)));
		if (!must_accept(e, cmd, why, len))
			return false;
	}
	for (int i = 0; i < nmoves; i++) {
		snprintf(cmd, sizeof(cmd), "play %s %s", color_word(moves[i].color),
		    vertex(b, moves[i].point, v, sizeof(v)));
		if (!must_accept(e, cmd, why, len))
			return false;
	}
	return true;
}

/* The GTP time settings closest to the clock (GTP has main time and Canadian overtime; KGS's
 * extension has byo-yomi). */
static void
send_time_settings(const struct match *m, struct gtp_engine *e)
{
	const struct sht_clock_spec *c = &m->clock;
	long main_s = (long)(c->main_ms / 1000);
	char cmd[128], answer[128];

	switch (c->kind) {
	case SHT_CLOCK_CANADIAN:
		snprintf(cmd, sizeof(cmd), "time_settings %ld %ld %d", main_s,
		    (long)(c->period_ms / 1000), c->moves);
		break;
	case SHT_CLOCK_BYOYOMI:
	case SHT_CLOCK_DUMIAO:
	case SHT_CLOCK_MINUTES: {
		/* 读秒 and minute counting spend whole minutes: periods of sixty seconds. */
		long period = c->kind == SHT_CLOCK_BYOYOMI ? (long)(c->period_ms / 1000) : 60;
		int periods = c->kind == SHT_CLOCK_MINUTES ? 1 : c->periods;

		if (gtp_engine_knows(e, "kgs-time_settings"))
			snprintf(cmd, sizeof(cmd), "kgs-time_settings byoyomi %ld %ld %d", main_s, period,
			    periods);
		else
			snprintf(cmd, sizeof(cmd), "time_settings %ld %ld 1", main_s, period);
		break;
	}
	default: /* absolute; Fischer, which GTP cannot say, as main time told by time_left */
		snprintf(cmd, sizeof(cmd), "time_settings %ld 0 0", main_s);
		break;
	}
	if (gtp_engine_knows(e, "time_settings") || gtp_engine_knows(e, "kgs-time_settings"))
		(void)gtp_engine_ask(e, cmd, SETUP_TIMEOUT_MS, answer, sizeof(answer), NULL);
}

/* The longest a move may take before the flag must have fallen: main time, every period,
 * and a grace. */
static int64_t
time_to_flag(const struct match *m, const struct sht_clock_state *st)
{
	const struct sht_clock_spec *c = &m->clock;
	int64_t t = st->main_ms + GRACE_MS;

	switch (c->kind) {
	case SHT_CLOCK_CANADIAN:
		t += st->overtime ? st->period_left_ms : c->period_ms;
		break;
	case SHT_CLOCK_BYOYOMI:
		t += (int64_t)st->periods * c->period_ms;
		break;
	case SHT_CLOCK_DUMIAO:
		/* The reserve's minutes; the last is lost at its 60th second. */
		t += (int64_t)st->periods * 60000;
		break;
	case SHT_CLOCK_FISCHER:
		/* The delay is free time before the main time runs. */
		t += c->delay_ms;
		break;
	default: /* absolute; minute counting, whose main time is all there is */
		break;
	}
	return t;
}

static void
send_time_left(const struct match *m, struct gtp_engine *e, int color,
    const struct sht_clock_state *st)
{
	char cmd[96], answer[64];
	long seconds = (long)(st->main_ms / 1000);
	int stones = 0;

	if (!gtp_engine_knows(e, "time_left"))
		return;
	/* Minute counting's "overtime" is only the seconds being read: its main time is all. */
	if (st->overtime && m->clock.kind != SHT_CLOCK_MINUTES) {
		if (m->clock.kind == SHT_CLOCK_CANADIAN) {
			seconds = (long)(st->period_left_ms / 1000);
			stones = st->moves_left;
		} else if (m->clock.kind == SHT_CLOCK_BYOYOMI) {
			seconds = (long)(m->clock.period_ms / 1000);
			stones = st->periods;
		} else {
			seconds = 60;
			stones = st->periods;
		}
	}
	snprintf(cmd, sizeof(cmd), "time_left %s %ld %d", color_word(color), seconds, stones);
	(void)gtp_engine_ask(e, cmd, SETUP_TIMEOUT_MS, answer, sizeof(answer), NULL);
}

/*
 * The time left as SGF records it after a move (BL/WL, with OB/OW in overtime), as the
 * referee method reads it back: main time left; in byo-yomi the time that was left in the
 * period the move ended in, and the periods left; in Canadian the period's time and moves left.
 */
static void
record_clock(const struct match *m, const struct sht_clock_state *before,
    const struct sht_clock_state *after, int64_t elapsed, struct played *p)
{
	p->clocked = true;
	p->left_ms = after->main_ms;
	if (!after->overtime)
		return;
	if (m->clock.kind == SHT_CLOCK_BYOYOMI) {
		int64_t rest = elapsed - (before->overtime ? 0 : before->main_ms) -
		    (int64_t)(before->overtime ? before->periods - after->periods :
		    m->clock.periods - after->periods) * m->clock.period_ms;

		p->in_overtime = true;
		p->overtime_count = after->periods;
		p->left_ms = m->clock.period_ms - (rest > 0 ? rest : 0);
	} else if (m->clock.kind == SHT_CLOCK_CANADIAN) {
		p->in_overtime = true;
		if (after->moves_left == m->clock.moves) {
			/* The move completed its period, and the clock has begun the next: the record
			 * says what was left of the period it ended, and no moves owed (OB[0]). */
			int64_t period = before->overtime ? before->period_left_ms : m->clock.period_ms;
			int64_t used = elapsed - (before->overtime ? 0 : before->main_ms);

			p->overtime_count = 0;
			p->left_ms = period - used > 0 ? period - used : 0;
		} else {
			p->overtime_count = after->moves_left;
			p->left_ms = after->period_left_ms;
		}
	}
}

/* The timekeeper's calls that change a player's situation (overtime begun, a period or
 * minute spent, the flag), after the move's ruling in its comment; the seconds read aloud
 * are left out. */
static void
clock_calls_comment(const struct match *m, const struct sht_referee_ruling *ruling,
    struct played *p)
{
	for (int i = 0; ruling->clocked && i < ruling->ncalls; i++) {
		const struct sht_clock_call *call = &ruling->calls[i];
		size_t used = strlen(p->comment);
		char text[96];

		if (call->kind == SHT_CALL_SECONDS || call->kind == SHT_CALL_COUNT)
			continue;
		sht_clock_call_text(m->clock.kind, call, text, sizeof(text));
		snprintf(p->comment + used, sizeof(p->comment) - used, "%sClock: %s.", used ? " " :
		    "", text);
	}
}

/* ---- one game ---- */

/* The game is lost by `loser`'s engine, decided as a forfeit: `brief` for the result's text
 * ("White's engine crashed"), `why` in full for the reason. */
static void
forfeit(struct match *m, struct sht_referee *ref, int loser, const char *brief,
    const char *why, struct game_result *res)
{
	sht_judge_decide(m->rs, SHT_DECISION_VIOLATION, loser, brief, &res->result);
	res->how = "forfeit";
	snprintf(res->reason, sizeof(res->reason), "%s", why);
	ref->over = true;
}

/* The result text's few words for what went wrong with an engine's answer. */
static const char *
brief_of(enum gtp_status st)
{
	switch (st) {
	case GTP_REFUSED: return "its engine refused to move";
	case GTP_TIMEOUT: return "its engine hung";
	case GTP_GARBLED: return "its engine spoke no GTP";
	default: return "its engine crashed";
	}
}

/* The dead stones: what both engines say (final_status_list dead) when they agree, else the
 * judge's.  *agreed says which. */
static void
dead_stones(struct match *m, struct gtp_engine *const e[3], struct sht_referee *ref,
    struct sht_dead_spec *dead, char *how, size_t len)
{
	char *lists[3] = { NULL, NULL, NULL };
	struct sht_dead_spec spec[3];
	bool ok = true;

	memset(dead, 0, sizeof(*dead));
	dead->mode = SHT_DEAD_AUTO;
	for (int c = SHT_BLACK; c <= SHT_WHITE; c++) {
		struct sht_error err;
		const char *words[SHT_MAX_SIZE * SHT_MAX_SIZE];
		int n = 0;

		lists[c] = malloc(GTP_ANSWER_MAX);
		if (lists[c] == NULL || !gtp_engine_knows(e[c], "final_status_list") ||
		    gtp_engine_ask(e[c], "final_status_list dead", m->move_timeout_ms, lists[c],
		    GTP_ANSWER_MAX, NULL) != GTP_OK) {
			ok = false;
			continue;
		}
		for (char *save = NULL, *w = strtok_r(lists[c], " \t\n", &save);
		    w != NULL && n < SHT_MAX_SIZE * SHT_MAX_SIZE; w = strtok_r(NULL, " \t\n", &save))
			words[n++] = w;
		memset(&spec[c], 0, sizeof(spec[c]));
		if (n == 0)
			spec[c].mode = SHT_DEAD_NONE;
		else if (!sht_dead_parse_list(ref->replay.board, words, n, &spec[c], &err))
			ok = false;
	}
	if (ok) {
		/* The same set of points: both lists sorted are equal. */
		uint8_t *in[3];
		int cap = sht_board_capacity(ref->replay.board);

		in[1] = calloc((size_t)cap, 1);
		in[2] = calloc((size_t)cap, 1);
		ok = in[1] != NULL && in[2] != NULL;
		for (int c = SHT_BLACK; ok && c <= SHT_WHITE; c++)
			for (int i = 0; i < spec[c].npoints; i++)
				in[c][spec[c].points[i]] = 1;
		for (int p = 0; ok && p < cap; p++)
			ok = in[1][p] == in[2][p];
		free(in[1]);
		free(in[2]);
	}
	if (ok) {
		*dead = spec[SHT_BLACK];
		if (dead->npoints == 0)
			dead->mode = SHT_DEAD_NONE;
		snprintf(how, len, "Dead stones as both engines listed them (final_status_list "
		    "dead).");
	} else {
		snprintf(how, len, "Dead stones judged by shoutan: the engines' final_status_list "
		    "dead disagreed or was not given.");
	}
	free(lists[1]);
	free(lists[2]);
}

/* Starts each engine that is not running; false with the loser and why when one cannot be. */
static bool
engines_ready(struct gtp_engine *const e[3], int *loser, char *why, size_t len)
{
	for (int c = SHT_BLACK; c <= SHT_WHITE; c++) {
		char err[256];

		if (gtp_engine_running(e[c]))
			continue;
		if (!gtp_engine_start(e[c], SETUP_TIMEOUT_MS, err, sizeof(err))) {
			*loser = c;
			snprintf(why, len, "%s engine could not be started: %s", c == SHT_BLACK ?
			    "Black's" : "White's", err);
			return false;
		}
	}
	return true;
}

/* The game's opening on both engines: board, komi, clock, handicap and seated stones. */
static bool
engines_open(struct match *m, struct gtp_engine *const e[3], int *handicap_points,
    int *nhandicap, int *loser, char *why, size_t len)
{
	char cmd[128], answer[512], reason[200];

	*nhandicap = 0;
	for (int c = SHT_BLACK; c <= SHT_WHITE; c++) {
		snprintf(cmd, sizeof(cmd), "boardsize %d", m->size);
		if (!must_accept(e[c], cmd, reason, sizeof(reason)) ||
		    !must_accept(e[c], "clear_board", reason, sizeof(reason))) {
			*loser = c;
			snprintf(why, len, "%s engine %s", c == SHT_BLACK ? "Black's" : "White's",
			    reason);
			return false;
		}
		snprintf(cmd, sizeof(cmd), "komi %s", sht_half_points_text(m->komi, answer, 16));
		(void)gtp_engine_ask(e[c], cmd, SETUP_TIMEOUT_MS, answer, sizeof(answer), NULL);
		if (m->timed)
			send_time_settings(m, e[c]);
	}
	if (m->handicap >= 2) {
		/* GTP's fixed placement, asked of Black's engine and told to White's. */
		struct sht_board_options o;
		struct sht_board *b;
		char set[256] = "set_free_handicap";

		snprintf(cmd, sizeof(cmd), "fixed_handicap %d", m->handicap);
		if (gtp_engine_ask(e[SHT_BLACK], cmd, SETUP_TIMEOUT_MS, answer, sizeof(answer),
		    NULL) != GTP_OK) {
			*loser = SHT_BLACK;
			gtp_printable(reason, sizeof(reason), answer[0] ? answer : "no answer");
			snprintf(why, len, "Black's engine did not place %d handicap stones (%.100s)",
			    m->handicap, reason);
			return false;
		}
		sht_board_options_init(&o, m->size, m->size);
		b = sht_board_new(&o);
		bool bad = b == NULL;

		for (char *save = NULL, *w = strtok_r(answer, " \t\n", &save); !bad && w != NULL;
		    w = strtok_r(NULL, " \t\n", &save)) {
			int p = sht_vertex_parse(b, w);

			/* Every word a point of the board, none twice, no more than asked. */
			bad = p == SHT_NO_POINT || p == SHT_PASS || *nhandicap == m->handicap ||
			    sht_board_at(b, p) != SHT_EMPTY;
			if (!bad) {
				sht_board_setup(b, SHT_BLACK, p);
				handicap_points[(*nhandicap)++] = p;
				snprintf(set + strlen(set), sizeof(set) - strlen(set), " %s", w);
			}
		}
		sht_board_free(b);
		if (bad || *nhandicap != m->handicap) {
			*loser = SHT_BLACK;
			*nhandicap = 0;
			snprintf(why, len, "Black's engine did not name %d distinct points of the board "
			    "for fixed_handicap %d", m->handicap, m->handicap);
			return false;
		}
		if (!must_accept(e[SHT_WHITE], set, reason, sizeof(reason))) {
			*loser = SHT_WHITE;
			snprintf(why, len, "White's engine %s", reason);
			return false;
		}
	}
	for (int i = 0; i < m->rs->setup.nseated && *nhandicap == 0; i++) {
		const struct sht_rules_seated *s = &m->rs->setup.seated[i];
		struct sht_board_options o;
		struct sht_board *b;
		char v[8];

		sht_board_options_init(&o, m->size, m->size);
		b = sht_board_new(&o);
		if (b == NULL)
			break;
		snprintf(cmd, sizeof(cmd), "play %s %s", color_word(s->color),
		    vertex(b, sht_board_point(b, s->x, s->y), v, sizeof(v)));
		sht_board_free(b);
		for (int c = SHT_BLACK; c <= SHT_WHITE; c++)
			if (!must_accept(e[c], cmd, reason, sizeof(reason))) {
				*loser = c;
				snprintf(why, len, "%s engine cannot take the ruleset's seated stones: %s",
				    c == SHT_BLACK ? "Black's" : "White's", reason);
				return false;
			}
	}
	return true;
}

/* The referee for a game: the ruleset's board (and seated stones), or the handicap stones. */
static bool
referee_begin(struct match *m, struct sht_referee *ref, const int *handicap_points,
    int nhandicap)
{
	struct sht_error err;
	bool ok;

	if (nhandicap == 0) {
		ok = sht_referee_begin(ref, m->rs, NULL, m->size, m->size, m->max_moves + 8, &m->komi,
		    &err);
	} else {
		struct sht_board_options o;
		struct sht_board *b;
		json_t *black = json_array(), *game;
		struct sht_game g;
		char v[8];

		sht_board_options_init(&o, m->size, m->size);
		b = sht_board_new(&o);
		for (int i = 0; b != NULL && i < nhandicap; i++)
			json_array_append_new(black, json_string(vertex(b, handicap_points[i], v,
			    sizeof(v))));
		sht_board_free(b);
		game = json_pack("{s:i, s:{s:o}, s:i, s:[]}", "size", m->size, "setup", "black",
		    black, "handicap", nhandicap, "moves");
		ok = game != NULL && sht_game_from_json(game, m->size, m->size, &g, &err);
		json_decref(game);
		if (ok) {
			ok = sht_referee_begin(ref, m->rs, &g, m->size, m->size, m->max_moves + 8,
			    &m->komi, &err);
			sht_game_free(&g);
		}
	}
	if (!ok)
		fprintf(stderr, "shoutan referee-gtp: %s\n", err.message);
	else if (m->timed)
		sht_referee_start_clock(ref, &m->clock);
	return ok;
}

/* What an engine's genmove answer is as an event; false (why filled) when it is nonsense. */
static bool
answer_event(const struct sht_board *b, const char *answer, int color,
    struct sht_referee_event *ev, char *why, size_t len)
{
	char lower[16];
	size_t n = strlen(answer);

	memset(ev, 0, sizeof(*ev));
	ev->color = color;
	for (size_t i = 0; i < n && i + 1 < sizeof(lower); i++)
		lower[i] = (char)(answer[i] >= 'A' && answer[i] <= 'Z' ? answer[i] + 32 : answer[i]);
	lower[n < sizeof(lower) ? n : sizeof(lower) - 1] = '\0';
	if (strcmp(lower, "resign") == 0) {
		ev->type = SHT_EVENT_RESIGN;
		return true;
	}
	ev->point = n < sizeof(lower) ? sht_vertex_parse(b, answer) : SHT_NO_POINT;
	if (ev->point == SHT_NO_POINT) {
		char shown[48];

		gtp_printable(shown, sizeof(shown), answer);
		snprintf(why, len, "answered genmove with '%s', which is not a move on this board",
		    shown);
		return false;
	}
	ev->type = ev->point == SHT_PASS ? SHT_EVENT_PASS : SHT_EVENT_MOVE;
	return true;
}

/* Takes a void move back on the engine that played it: undo, or the game replayed. */
static bool
take_back(const struct match *m, struct gtp_engine *e, const struct sht_board *b,
    const int *handicap_points, int nhandicap, const struct played *moves, int nmoves,
    char *why, size_t len)
{
	char answer[128];

	if (gtp_engine_knows(e, "undo") && gtp_engine_ask(e, "undo", SETUP_TIMEOUT_MS, answer,
	    sizeof(answer), NULL) == GTP_OK)
		return true;
	return engine_replay(m, e, b, handicap_points, nhandicap, moves, nmoves, why, len);
}

static void
play_game(struct match *m, int number, struct game_result *res)
{
	struct gtp_engine *e[3];
	struct sht_referee ref;
	struct played *moves = calloc((size_t)m->max_moves + 8, sizeof(*moves));
	int handicap_points[SHT_MAX_SIZE * SHT_MAX_SIZE], nhandicap = 0, nmoves = 0, loser = 0;
	char why[300] = "", closing[600] = "";
	bool referee_ok = false;

	memset(res, 0, sizeof(*res));
	memset(&ref, 0, sizeof(ref));
	res->black = m->alternate && number % 2 == 1 ? 1 : 0;
	e[SHT_BLACK] = &m->engines[res->black];
	e[SHT_WHITE] = &m->engines[1 - res->black];
	snprintf(res->sgf_path, sizeof(res->sgf_path), "%s-%d.sgf", m->sgf_prefix, number + 1);
	res->how = "counting";
	if (moves == NULL)
		return;
	if (!engines_ready(e, &loser, why, sizeof(why)) ||
	    !engines_open(m, e, handicap_points, &nhandicap, &loser, why, sizeof(why))) {
		/* The record shows the board the referee had: no handicap was set up. */
		nhandicap = 0;
		referee_ok = referee_begin(m, &ref, NULL, 0);
		if (referee_ok)
			forfeit(m, &ref, loser, "its engine failed the setup", why, res);
		goto done;
	}
	if (!(referee_ok = referee_begin(m, &ref, handicap_points, nhandicap)))
		goto done;
	while (!ref.over && nmoves < m->max_moves) {
		int c = ref.to_move;
		struct gtp_engine *mover = e[c], *other = e[3 - c];
		struct sht_referee_event ev;
		struct sht_referee_ruling ruling;
		struct played *p = &moves[nmoves];
		struct sht_clock_state before;
		char cmd[64], answer[256], v[8];
		int64_t elapsed = 0, limit = m->move_timeout_ms;
		enum gtp_status st;

		if (m->timed) {
			send_time_left(m, mover, c, &ref.clocks[c]);
			limit = time_to_flag(m, &ref.clocks[c]);
		}
		snprintf(cmd, sizeof(cmd), "genmove %s", color_word(c));
		st = gtp_engine_ask(mover, cmd, limit, answer, sizeof(answer), &elapsed);
		if (st == GTP_TIMEOUT && m->timed) {
			/* Hung past its time: the clock rules on it, as on any late move. */
			memset(&ev, 0, sizeof(ev));
			ev.type = SHT_EVENT_PASS;
			ev.color = c;
			ev.point = SHT_PASS;
			ev.timed = true;
			ev.ms = elapsed;
			sht_referee_rule(&ref, nmoves, &ev, &ruling);
			if (ref.over) {
				res->how = "time";
				snprintf(res->reason, sizeof(res->reason), "%s engine did not answer genmove "
				    "before its flag fell, and was killed", c == SHT_BLACK ? "Black's" :
				    "White's");
				res->result = ref.result;
				break;
			}
		}
		if (st != GTP_OK) {
			char late[64];

			snprintf(late, sizeof(late), "did not answer genmove within %.1f s and was killed",
			    (double)limit / 1000.0);
			snprintf(why, sizeof(why), "%s engine %s at move %d", c == SHT_BLACK ?
			    "Black's" : "White's", st == GTP_REFUSED ? "refused genmove" :
			    st == GTP_TIMEOUT ? late :
			    st == GTP_GARBLED ? "answered genmove with something that is not GTP" :
			    mover->exit_text[0] ? mover->exit_text : "stopped answering", nmoves + 1);
			if (st == GTP_DIED)
				snprintf(why + strlen(why), sizeof(why) - strlen(why), " (crashed)");
			forfeit(m, &ref, c, brief_of(st), why, res);
			break;
		}
		if (!answer_event(ref.replay.board, answer, c, &ev, why, sizeof(why))) {
			char full[300];

			snprintf(full, sizeof(full), "%s engine %.280s", c == SHT_BLACK ? "Black's" :
			    "White's", why);
			forfeit(m, &ref, c, "its engine gave no move", full, res);
			break;
		}
		ev.timed = m->timed;
		ev.ms = elapsed;
		before = ref.clocks[c];
		sht_referee_rule(&ref, nmoves, &ev, &ruling);
		memset(p, 0, sizeof(*p));
		p->color = c;
		p->point = ev.type == SHT_EVENT_MOVE ? ev.point : SHT_PASS;
		if (ruling.clocked)
			record_clock(m, &before, &ruling.clock, elapsed, p);
		if (ev.type == SHT_EVENT_RESIGN) {
			res->how = "resignation";
			res->result = ref.result;
			snprintf(closing, sizeof(closing), "%s resigns.", c == SHT_BLACK ? "Black" :
			    "White");
			break;
		}
		if (ruling.ruling == SHT_RULING_REFUSED) {
			/* Not a move at all (an occupied point): an engine that says so is broken. */
			char *cut = strstr(ruling.reason, ": the player plays again");

			/* The referee would let a person play again; an engine gets no second go. */
			if (cut != NULL)
				*cut = '\0';
			snprintf(why, sizeof(why), "%s engine played %.40s, which is %.200s",
			    c == SHT_BLACK ? "Black's" : "White's", answer, ruling.reason);
			forfeit(m, &ref, c, "its engine played no move", why, res);
			break;
		}
		if (ruling.ruling != SHT_RULING_ACCEPTED)
			snprintf(p->comment, sizeof(p->comment), "%s played %.40s: %s (%.150s).",
			    c == SHT_BLACK ? "Black" : "White", answer, sht_ruling_name(ruling.ruling),
			    ruling.reason);
		clock_calls_comment(m, &ruling, p);
		nmoves++;
		if (ruling.ruling == SHT_RULING_LOSS && ref.over) {
			res->how = ref.decision == SHT_DECISION_TIME ? "time" : "forfeit";
			res->result = ref.result;
			snprintf(res->reason, sizeof(res->reason), "%s", ruling.reason);
			break;
		}
		if (ruling.ruling == SHT_RULING_VOID || ruling.ruling == SHT_RULING_WARNING) {
			/* The mover's engine has the stone on its board: take it back, then both
			 * engines see the turn lost as a pass. */
			p->point = SHT_PASS;
			if (!take_back(m, mover, ref.replay.board, handicap_points, nhandicap, moves,
			    nmoves - 1, why, sizeof(why))) {
				char full[300];

				snprintf(full, sizeof(full), "%s engine cannot take back its void move: %.240s",
				    c == SHT_BLACK ? "Black's" : "White's", why);
				forfeit(m, &ref, c, "its engine lost track of the game", full, res);
				break;
			}
		}
		for (int k = 0; k < 2; k++) {
			struct gtp_engine *tell = k == 0 ? other : mover;
			char reason[200];

			/* The mover already has its own legal move. */
			if (tell == mover && p->point != SHT_PASS)
				continue;
			if (tell == mover && ruling.ruling == SHT_RULING_ACCEPTED)
				continue;
			snprintf(cmd, sizeof(cmd), "play %s %s", color_word(c),
			    vertex(ref.replay.board, p->point, v, sizeof(v)));
			if (!must_accept(tell, cmd, reason, sizeof(reason))) {
				int who = tell == mover ? c : 3 - c;

				snprintf(why, sizeof(why), "%s engine %s", who == SHT_BLACK ? "Black's" :
				    "White's", reason);
				forfeit(m, &ref, who, "its engine lost track of the game", why, res);
				break;
			}
		}
	}
	if (ref.counting_due) {
		struct sht_dead_spec dead;
		char how[200];

		dead_stones(m, e, &ref, &dead, how, sizeof(how));
		sht_referee_count(&ref, &dead, NULL);
		res->result = ref.result;
		res->how = "counting";
		snprintf(res->reason, sizeof(res->reason), "%s", how);
		res->dead = json_array();
		if (ref.scored)
			for (int p = 0; p < sht_board_capacity(ref.replay.board); p++)
				if (ref.count.dead != NULL && ref.count.dead[p])
					json_array_append_new(res->dead, sht_json_vertex(ref.replay.board, p));
	} else if (!ref.over && referee_ok) {
		res->how = "no_result";
		sht_judge_decide(m->rs, SHT_DECISION_NO_RESULT, 0, "the move limit", &res->result);
		snprintf(res->reason, sizeof(res->reason), "no end after %d moves (--max-moves)",
		    m->max_moves);
	} else if (ref.over && res->result.re[0] == '\0') {
		/* A cycle the ruleset ends (a draw, no result). */
		res->how = sht_decision_name(ref.decision);
		res->result = ref.result;
		snprintf(res->reason, sizeof(res->reason), "%s", ref.replay.end_reason);
	}
done:
	res->moves = nmoves;
	if (referee_ok) {
		size_t used = strlen(closing);

		snprintf(closing + used, sizeof(closing) - used, "%sResult %s: %s.%s%s",
		    used ? " " : "", res->result.re, res->result.text, res->reason[0] ? " " : "",
		    res->reason);
		write_sgf(m, &ref, res, moves, nmoves, handicap_points, nhandicap, closing);
		sht_referee_free(&ref);
	}
	free(moves);
}

/* ---- the match ---- */

static json_t *
game_json(const struct match *m, int number, const struct game_result *r)
{
	json_t *o = json_pack("{s:i, s:s, s:s, s:s, s:s, s:s, s:o, s:s, s:i, s:s}", "game",
	    number + 1, "black", m->engines[r->black].name, "white",
	    m->engines[1 - r->black].name, "re", r->result.re, "text", r->result.text, "how",
	    r->how, "margin", sht_json_points(r->result.margin), "reason", r->reason, "moves",
	    r->moves, "sgf", r->sgf_path);

	json_object_set_new(o, "black_engine", json_integer(r->black + 1));
	if (r->dead != NULL)
		json_object_set(o, "dead", r->dead);
	return o;
}

/* The table: each engine's wins, by colour, and its mean margin in counted games. */
static json_t *
print_table(const struct match *m, const struct game_result *res, int n, bool print)
{
	json_t *engines = json_array();

	if (print)
		printf("\n%-3s %-28s %5s %5s %9s %9s %12s\n", "", "engine", "games", "wins",
		    "as Black", "as White", "mean margin");
	for (int k = 0; k < ENGINES; k++) {
		int wins = 0, games[3] = { 0, 0, 0 }, won[3] = { 0, 0, 0 }, counted = 0;
		double margin = 0;
		char b[16], w[16];

		for (int i = 0; i < n; i++) {
			int color = res[i].black == k ? SHT_BLACK : SHT_WHITE;
			bool win = (color == SHT_BLACK && res[i].result.winner == SHT_WINNER_BLACK) ||
			    (color == SHT_WHITE && res[i].result.winner == SHT_WINNER_WHITE);

			games[color]++;
			won[color] += win;
			wins += win;
			if (strcmp(res[i].how, "counting") == 0 && res[i].result.re[0] != '?') {
				counted++;
				margin += (color == SHT_BLACK ? 1 : -1) * res[i].result.margin / 2.0;
			}
		}
		snprintf(b, sizeof(b), "%d/%d", won[SHT_BLACK], games[SHT_BLACK]);
		snprintf(w, sizeof(w), "%d/%d", won[SHT_WHITE], games[SHT_WHITE]);
		if (print) {
			printf("%-3d %-28.28s %5d %5d %9s %9s ", k + 1, m->engines[k].name, n, wins, b, w);
			if (counted > 0)
				printf("%+12.1f\n", margin / counted);
			else
				printf("%12s\n", "-");
		}
		json_array_append_new(engines, json_pack("{s:i, s:s, s:i, s:i, s:i, s:i, s:i, s:i, "
		    "s:o}", "engine", k + 1, "name", m->engines[k].name, "games", n, "wins", wins,
		    "black_games", games[SHT_BLACK], "black_wins", won[SHT_BLACK], "white_games",
		    games[SHT_WHITE], "white_wins", won[SHT_WHITE], "mean_margin", counted > 0 ?
		    json_real(margin / counted) : json_null()));
	}
	return engines;
}

/* Ctrl-C, SIGTERM or SIGHUP: the engines run in process groups of their own, which the
 * signal does not reach, so they are killed before the referee dies of it. */
static void
on_stop_signal(int sig)
{
	gtp_engines_kill_all();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Splits "OPTIONS -- BLACK_CMD... -- WHITE_CMD..." at its two "--". */
static bool
split_commands(int argc, char **argv, int *nopts, char *out[ENGINES][64])
{
	int k = -1, n = 0;

	*nopts = argc;
	for (int a = 1; a < argc; a++) {
		if (strcmp(argv[a], "--") == 0) {
			if (k == -1)
				*nopts = a;
			if (++k >= ENGINES)
				return false;
			n = 0;
			continue;
		}
		if (k < 0)
			continue;
		if (n >= 63)
			return false;
		out[k][n++] = argv[a];
		out[k][n] = NULL;
	}
	return k == ENGINES - 1 && out[0][0] != NULL && out[1][0] != NULL;
}

int
cmd_referee_gtp(struct cli *cli, int argc, char **argv)
{
	struct match m;
	struct cli_args args;
	struct game_result *res;
	int nopts, status;
	char why[SHT_ERR_MAX];
	json_t *games;

	memset(&m, 0, sizeof(m));
	m.cli = cli;
	if (!split_commands(argc, argv, &nopts, m.engine_argv)) {
		/* --help alone is fine without engines. */
		for (int a = 1; a < argc; a++)
			if (strcmp(argv[a], "--help") == 0 || strcmp(argv[a], "-h") == 0) {
				cli_print_help(stdout, argv[0]);
				return CLI_OK;
			}
		cli->command = argv[0];
		return cli_usage_error(cli, "give both engines: -- BLACK_CMD ... -- WHITE_CMD ...");
	}
	if ((status = cli_parse_args(cli, nopts, argv, &args)) >= 0)
		return status;
	if (args.noperands > 0) {
		status = cli_usage_error(cli, "unexpected '%s' before the engines' '--'",
		    args.operands[0]);
		cli_args_free(&args);
		return status;
	}
	if (cli->socket_path != NULL) {
		/* The referee keeps the game between the engines' answers: a daemon request
		 * would replay it from the start at every move. */
		status = cli_usage_error(cli, "referee-gtp referees in-process; it takes no --socket");
		cli_args_free(&args);
		return status;
	}
	cli->registry = sht_registry_load(cli->plugins_dir, cli->rulesets_dir, why, sizeof(why));
	if (cli->registry == NULL) {
		fprintf(stderr, "shoutan referee-gtp: %s\n", why);
		cli_args_free(&args);
		return CLI_FAILED;
	}
	m.rs = sht_registry_find(cli->registry, args.rulesets ? args.rulesets : "chinese");
	if (m.rs == NULL) {
		status = cli_usage_error(cli, "unknown ruleset '%s' (shoutan rulesets lists them)",
		    args.rulesets);
		cli_args_free(&args);
		return status;
	}
	m.size = args.board_size > 0 ? args.board_size : m.rs->setup.width;
	m.games = args.games > 0 ? args.games : 1;
	m.handicap = args.handicap;
	m.alternate = args.alternate;
	m.max_moves = args.max_moves > 0 ? args.max_moves : 3 * m.size * m.size;
	m.move_timeout_ms = args.move_timeout_ms > 0 ? args.move_timeout_ms : 60000;
	m.sgf_prefix = args.sgf_prefix ? args.sgf_prefix : "referee-gtp";
	m.komi = m.rs->setup.komi;
	if (json_object_get(args.params, "komi") != NULL) {
		struct sht_error err;

		if (!sht_game_komi_from_json(json_object_get(args.params, "komi"), &m.komi, &err)) {
			status = cli_usage_error(cli, "%s", err.message);
			cli_args_free(&args);
			return status;
		}
	}
	if (json_object_get(args.params, "clock") != NULL) {
		struct sht_error err;

		if (!sht_clock_spec_from_json(json_object_get(args.params, "clock"), &m.clock, &err)) {
			status = cli_usage_error(cli, "%s", err.message);
			cli_args_free(&args);
			return status;
		}
		m.timed = true;
	}
	if (m.size != m.rs->setup.width && m.rs->setup.nseated > 0) {
		status = cli_usage_error(cli, "ruleset %s seats stones on a %dx%d board; --size %d "
		    "cannot take them", m.rs->name, m.rs->setup.width, m.rs->setup.height, m.size);
		cli_args_free(&args);
		return status;
	}
	/* GTP's fixed placement: boards of 7 lines or more, at most 4 stones on 7x7 and on even
	 * sizes (which have no centre). */
	if (m.handicap == 1 || m.handicap > 9 || (m.handicap > 0 && (m.rs->setup.nseated > 0 ||
	    m.size < 7 || ((m.size == 7 || m.size % 2 == 0) && m.handicap > 4)))) {
		status = cli_usage_error(cli, "--handicap takes 2 to 9 stones at GTP's fixed points: "
		    "a board of 7 lines or more, at most 4 stones on 7x7 and even sizes, and a "
		    "ruleset without seated stones");
		cli_args_free(&args);
		return status;
	}
	/* A dead engine's pipe must not kill the referee. */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, on_stop_signal);
	signal(SIGTERM, on_stop_signal);
	signal(SIGHUP, on_stop_signal);
	for (int k = 0; k < ENGINES; k++) {
		m.engines[k].argv = m.engine_argv[k];
		m.engines[k].to_engine = m.engines[k].from_engine = -1;
		if (!gtp_engine_start(&m.engines[k], SETUP_TIMEOUT_MS, why, sizeof(why))) {
			fprintf(stderr, "shoutan referee-gtp: engine %d: %s\n", k + 1, why);
			for (int j = 0; j < k; j++)
				gtp_engine_free(&m.engines[j]);
			cli_args_free(&args);
			return CLI_FAILED;
		}
	}
	res = calloc((size_t)m.games, sizeof(*res));
	games = json_array();
	for (int g = 0; res != NULL && g < m.games; g++) {
		play_game(&m, g, &res[g]);
		if (!cli->json)
			printf("game %d: %d %s (B) vs %d %s (W): %s by %s, %d move%s; %s%s%s\n", g + 1,
			    res[g].black + 1, m.engines[res[g].black].name, 2 - res[g].black,
			    m.engines[1 - res[g].black].name, res[g].result.re, res[g].how,
			    res[g].moves, res[g].moves == 1 ? "" : "s", res[g].sgf_path,
			    res[g].reason[0] ? "\n    " : "", res[g].reason);
		fflush(stdout);
		json_array_append_new(games, game_json(&m, g, &res[g]));
	}
	if (res != NULL) {
		json_t *engines = print_table(&m, res, m.games, !cli->json);

		if (cli->json) {
			json_t *out = json_pack("{s:s, s:i, s:o, s:o}", "ruleset", m.rs->name, "size",
			    m.size, "games", games, "engines", engines);

			cli_print_json(cli, out);
			json_decref(out);
		} else {
			json_decref(engines);
			json_decref(games);
		}
		for (int g = 0; g < m.games; g++)
			json_decref(res[g].dead);
	} else {
		json_decref(games);
	}
	for (int k = 0; k < ENGINES; k++)
		gtp_engine_free(&m.engines[k]);
	free(res);
	cli_args_free(&args);
	return res != NULL ? CLI_OK : CLI_FAILED;
}
