/* Judging a game under a ruleset: replay with the plugin's consequences, dead stones, scoring. */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "replay_cache.h"
#include "shoutan/area.h"
#include "shoutan/dead.h"
#include "shoutan/settle.h"
#include "shoutan/tally.h"

/* ---- the position a plugin scores, and the host services over it ---- */

/* The tax's groups of a position, counted on first need: sht_area_tax_groups tries cuts on a
 * board copy, many times the cost of the other counts, and only the connected tax reads them. */
struct tax_groups_lazy {
	bool counted;
	struct sht_tax_groups groups;
};

struct sht_position {
	const struct sht_board *board;
	const uint8_t *dead;
	struct sht_counts counts; /* all but tax_groups and tax_seki_groups_eyed */
	struct tax_groups_lazy *tax;
	/* The policy the plugin tallied with, caught for the settle step; NULL: not wanted. */
	struct sht_tally_policy *policy_seen;
	const struct sht_area *area;  /* the area map the counts were made from */
};

/* The position's counts with the tax's groups filled in (0 when memory runs out). */
static void
counts_with_tax_groups(const struct sht_position *pos, struct sht_counts *out)
{
	*out = pos->counts;
	if (!pos->tax->counted) {
		int *label = malloc((size_t)sht_board_capacity(pos->board) * sizeof(*label));

		memset(&pos->tax->groups, 0, sizeof(pos->tax->groups));
		if (label != NULL)
			sht_area_tax_groups(pos->board, pos->dead, label, &pos->tax->groups);
		free(label);
		pos->tax->counted = true;
	}
	for (int c = SHT_BLACK; c <= SHT_WHITE; c++) {
		out->tax_groups[c] = pos->tax->groups.groups[c];
		out->tax_seki_groups_eyed[c] = pos->tax->groups.seki_eyed[c];
	}
}

static void
host_count(const struct sht_position *pos, struct sht_counts *out)
{
	size_t n = out->size < sizeof(*out) ? out->size : sizeof(*out);
	struct sht_counts all;

	if (n == 0)
		n = sizeof(*out);
	/* A plugin built against an older, shorter struct gets the members it knows, and one
	 * that knows the tax's groups gets them counted. */
	if (n > offsetof(struct sht_counts, tax_groups))
		counts_with_tax_groups(pos, &all);
	else
		all = pos->counts;
	memcpy(out, &all, n);
	out->size = n;
}

static int
host_width(const struct sht_position *pos)
{
	return sht_board_width(pos->board);
}

static int
host_height(const struct sht_position *pos)
{
	return sht_board_height(pos->board);
}

static int
host_color_at(const struct sht_position *pos, int x, int y)
{
	int p = sht_board_point(pos->board, x, y);

	return p == SHT_NO_POINT ? SHT_RP_EMPTY : (int)sht_board_at(pos->board, p);
}

static int
host_owner_at(const struct sht_position *pos, int x, int y)
{
	int p = sht_board_point(pos->board, x, y);

	return p == SHT_NO_POINT || pos->area == NULL ? SHT_RP_EMPTY : sht_area_owner(pos->area, p);
}

static void
host_tally(const struct sht_position *pos, const struct sht_tally_policy *policy,
    struct sht_score_result *out)
{
	/* A plugin built against a shorter policy gets zero for the members it does not know. */
	struct sht_tally_policy full;
	size_t n = policy->size < sizeof(full) ? policy->size : sizeof(full);

	memset(&full, 0, sizeof(full));
	memcpy(&full, policy, n);
	full.size = sizeof(full);
	if (pos->policy_seen != NULL)
		*pos->policy_seen = full;
	if (full.tax == SHT_TAX_PER_CONNECTED_GROUP || full.tax == SHT_TAX_EYES_NEEDED_CONNECTED) {
		struct sht_counts all;

		counts_with_tax_groups(pos, &all);
		sht_tally(&all, &full, out);
	} else {
		sht_tally(&pos->counts, &full, out);
	}
}

static const struct sht_host host_table = {
	.abi_version = SHT_RULESET_ABI_VERSION,
	.size = sizeof(struct sht_host),
	.count = host_count,
	.width = host_width,
	.height = host_height,
	.color_at = host_color_at,
	.tally = host_tally,
	.result_texts = sht_result_texts,
	.owner_at = host_owner_at,
};

const struct sht_host *
sht_host_services(void)
{
	return &host_table;
}

/* ---- errors ---- */

static bool judge_error(struct sht_error *err, enum sht_error_kind kind, int move,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static bool
judge_error(struct sht_error *err, enum sht_error_kind kind, int move, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sht_error_vset(err, kind, fmt, ap);
	va_end(ap);
	err->move = move;
	return false;
}

const char *
sht_violation_short(int v)
{
	switch (v) {
	case SHT_VIOLATION_OFF_BOARD: return "a move off the board";
	case SHT_VIOLATION_OCCUPIED: return "a move on a stone";
	case SHT_VIOLATION_SUICIDE: return "suicide";
	case SHT_VIOLATION_KO: return "a ko retaken at once";
	case SHT_VIOLATION_SUPERKO: return "a repeated position";
	case SHT_VIOLATION_NO_STONES: return "a move with no stones left";
	case SHT_VIOLATION_NOT_YOUR_TURN: return "two moves in a row";
	case SHT_VIOLATION_TAKE_BACK: return "a move taken back";
	case SHT_VIOLATION_DISTURBED: return "stones disturbed";
	}
	return "an illegal move";
}

const char *
sht_violation_text(int v)
{
	switch (v) {
	case SHT_VIOLATION_OFF_BOARD: return "point is off the board";
	case SHT_VIOLATION_OCCUPIED: return "point is occupied";
	case SHT_VIOLATION_SUICIDE: return "suicide";
	case SHT_VIOLATION_KO: return "immediate ko recapture";
	case SHT_VIOLATION_SUPERKO: return "repeats an earlier position (superko)";
	case SHT_VIOLATION_NO_STONES: return "no stones left";
	case SHT_VIOLATION_NOT_YOUR_TURN: return "not this player's turn (two moves in a row)";
	case SHT_VIOLATION_TAKE_BACK: return "a move taken back";
	case SHT_VIOLATION_DISTURBED: return "stones moved or removed by hand";
	}
	return "illegal";
}

/* ---- results decided otherwise than by counting ---- */

const char *
sht_decision_name(int decision)
{
	switch (decision) {
	case SHT_DECISION_VIOLATION: return "infraction";
	case SHT_DECISION_WARNINGS: return "forfeit";
	case SHT_DECISION_RESIGNATION: return "resignation";
	case SHT_DECISION_TIME: return "time";
	case SHT_DECISION_DRAW: return "draw";
	case SHT_DECISION_NO_RESULT: return "no_result";
	case SHT_DECISION_REPLAY: return "replay";
	}
	return "counting";
}

/* Whether a plugin's descriptor is long enough to hold `decided` (added after version 1). */
static bool
plugin_has_decided(const struct sht_ruleset_plugin *d)
{
	return d->size >= offsetof(struct sht_ruleset_plugin, decided) + sizeof(d->decided) &&
	    d->decided != NULL;
}

void
sht_judge_decide(const struct sht_ruleset *rs, int decision, int loser, const char *why,
    struct sht_score_result *out)
{
	const struct sht_ruleset_plugin *d = rs->plugin->desc;
	int winner = loser == SHT_BLACK ? SHT_WHITE : SHT_BLACK;
	const char *wname = winner == SHT_BLACK ? "Black" : "White";
	const char *lname = winner == SHT_BLACK ? "White" : "Black";
	char w = winner == SHT_BLACK ? 'B' : 'W';

	/* No count decides these games: a margin would be the count's, and is not the result. */
	out->margin = 0;
	out->native_margin = 0;
	switch (decision) {
	case SHT_DECISION_VIOLATION:
	case SHT_DECISION_WARNINGS:
		out->winner = winner == SHT_BLACK ? SHT_WINNER_BLACK : SHT_WINNER_WHITE;
		snprintf(out->re, sizeof(out->re), "%c+F", w);
		snprintf(out->text, sizeof(out->text), "%s wins by forfeit: %s, %s", wname, lname,
		    why);
		break;
	case SHT_DECISION_RESIGNATION:
		out->winner = winner == SHT_BLACK ? SHT_WINNER_BLACK : SHT_WINNER_WHITE;
		snprintf(out->re, sizeof(out->re), "%c+R", w);
		snprintf(out->text, sizeof(out->text), "%s wins by resignation: %s resigns", wname,
		    lname);
		break;
	case SHT_DECISION_TIME:
		out->winner = winner == SHT_BLACK ? SHT_WINNER_BLACK : SHT_WINNER_WHITE;
		snprintf(out->re, sizeof(out->re), "%c+T", w);
		snprintf(out->text, sizeof(out->text), "%s wins on time: %s, %s", wname, lname, why);
		break;
	case SHT_DECISION_DRAW:
		out->winner = SHT_WINNER_DRAW;
		snprintf(out->re, sizeof(out->re), "0");
		snprintf(out->text, sizeof(out->text), "Draw: %s", why);
		break;
	default: /* no result, or the game is to be replayed */
		out->winner = SHT_WINNER_NONE;
		snprintf(out->re, sizeof(out->re), "Void");
		snprintf(out->text, sizeof(out->text), "%s: %s", decision == SHT_DECISION_REPLAY ?
		    "No result, the game is to be replayed" : "No result", why);
		break;
	}
	/* The native text is the plugin's, in its language; a plugin without one gives none, so
	 * the English text stands in. */
	out->native_text[0] = '\0';
	if (plugin_has_decided(d))
		d->decided(rs->rules, decision, out);
	if (out->native_text[0] == '\0')
		snprintf(out->native_text, sizeof(out->native_text), "%s", out->text);
}

/* ---- replay ---- */

void
sht_replay_free(struct sht_replay *r)
{
	sht_board_free(r->board);
	free(r->moves);
	memset(r, 0, sizeof(*r));
}

/* sht_judge_begin, the board keeping its history as a list asked only at the end when
 * on_request (sht_judge_replay under simple ko). */
static bool
judge_begin(const struct sht_ruleset *rs, int w, int h, int capacity, bool seated,
    bool on_request, struct sht_replay *out, struct sht_error *err)
{
	const struct sht_rules_setup *su = &rs->setup;
	struct sht_board_options o;

	memset(out, 0, sizeof(*out));
	sht_board_options_init(&o, w, h);
	o.ko = (enum sht_ko_rule)su->ko;
	o.multi_stone_suicide = su->multi_stone_suicide != 0;
	o.capture_ban = su->capture_ban != 0;
	o.track_history = true;
	o.history_on_request = on_request;
	o.supply[SHT_BLACK] = su->supply[SHT_RP_BLACK];
	o.supply[SHT_WHITE] = su->supply[SHT_RP_WHITE];
	out->board = sht_board_new(&o);
	/* Not calloc: sht_judge_move writes every field of a record it adds. */
	out->moves = malloc(((size_t)capacity + 1) * sizeof(*out->moves));
	out->capacity = capacity + 1;
	if (out->board == NULL || out->moves == NULL) {
		sht_replay_free(out);
		return judge_error(err, SHT_ERROR_INTERNAL, 0, "out of memory");
	}
	out->komi = su->komi;
	/* The ruleset's seated stones, unless the game brings its own setup. */
	if (seated)
		for (int i = 0; i < su->nseated; i++) {
			int p = sht_board_point(out->board, su->seated[i].x, su->seated[i].y);

			if (p != SHT_NO_POINT)
				sht_board_setup(out->board, su->seated[i].color, p);
		}
	return true;
}

bool
sht_judge_begin(const struct sht_ruleset *rs, int w, int h, int capacity, bool seated,
    struct sht_replay *out, struct sht_error *err)
{
	return judge_begin(rs, w, h, capacity, seated, false, out, err);
}

/* A move the ruleset calls a violation: its consequence, and what it does to the game.  Out of
 * line, so that the legal moves of a replay run through a small function. */
static __attribute__((noinline)) int
judge_violation(const struct sht_ruleset *rs, struct sht_replay *out, struct sht_move_record *rec,
    int color, int p, int number, int violation, int *to_move)
{
	const struct sht_rules_setup *su = &rs->setup;
	int cons = (int)sht_ruleset_consequence(rs, violation);

	rec->violation = violation;
	rec->verdict = cons;
	if (cons == SHT_CONSEQUENCE_REJECT)
		return cons;
	if (cons == SHT_CONSEQUENCE_LOSS) {
		out->end = SHT_END_LOSS;
		out->end_player = color;
		out->decision = SHT_DECISION_VIOLATION;
		snprintf(out->end_reason, sizeof(out->end_reason), "move %d (%c %s): %s",
		    number, color == SHT_BLACK ? 'B' : 'W', sht_vertex_format(out->board, p,
		    (char[8]){ 0 }, 8), sht_violation_text(violation));
		snprintf(out->end_short, sizeof(out->end_short), "%s at move %d",
		    sht_violation_short(violation), number);
		return cons;
	}
	if (cons == SHT_CONSEQUENCE_WARNING) {
		out->warnings[color]++;
		if (su->warnings_to_lose > 0 && out->warnings[color] >= su->warnings_to_lose) {
			out->end = SHT_END_LOSS;
			out->end_player = color;
			out->decision = SHT_DECISION_WARNINGS;
			snprintf(out->end_reason, sizeof(out->end_reason),
			    "%d warnings; the last at move %d (%c %s): %s", out->warnings[color],
			    number, color == SHT_BLACK ? 'B' : 'W', sht_vertex_format(out->board,
			    p, (char[8]){ 0 }, 8), sht_violation_text(violation));
			snprintf(out->end_short, sizeof(out->end_short), "%d warnings, the last "
			    "at move %d", out->warnings[color], number);
			return cons;
		}
	}
	/* Void: a move out of turn simply did not happen; any other void move loses the
	 * turn, which counts as a pass. */
	if (violation != SHT_VIOLATION_NOT_YOUR_TURN) {
		sht_board_play(out->board, (enum sht_color)color, SHT_PASS, NULL);
		*to_move = SHT_OTHER(color);
	}
	return cons;
}

/* A move that recreated an earlier state under simple ko: whether the cycle ends the game. */
static __attribute__((noinline)) void
judge_cycle(const struct sht_ruleset *rs, struct sht_replay *out, int number, int to_move)
{
	const struct sht_ruleset_plugin *d = rs->plugin->desc;
	int outcome;

	/* A state seen once before may be chance (sending two returning one repeats a position
	 * once); seen a third time, the players have gone round the cycle twice and will not
	 * leave it (as KataGo rules). */
	if (sht_board_occurrences(out->board, sht_board_hash(out->board), (enum sht_color)to_move) <
	    SHT_CYCLE_OCCURRENCES)
		return;
	outcome = d->cycle(rs->rules);
	if (outcome == SHT_CYCLE_DRAW || outcome == SHT_CYCLE_NO_RESULT ||
	    outcome == SHT_CYCLE_REPLAY) {
		out->end = outcome == SHT_CYCLE_DRAW ? SHT_END_DRAW : SHT_END_NO_RESULT;
		out->cycle_outcome = outcome;
		out->decision = outcome == SHT_CYCLE_DRAW ? SHT_DECISION_DRAW :
		    outcome == SHT_CYCLE_REPLAY ? SHT_DECISION_REPLAY : SHT_DECISION_NO_RESULT;
		/* What the outcome is, `decision` says; this says why. */
		snprintf(out->end_reason, sizeof(out->end_reason), "move %d repeats an earlier "
		    "position with the same player to move", number);
		snprintf(out->end_short, sizeof(out->end_short), "move %d repeats a position",
		    number);
	}
}

/* sht_judge_move's body, inlined into the replay's loop: the call and its seven arguments were
 * a sixth of a replayed move. */
static inline __attribute__((always_inline)) int
judge_move(const struct sht_ruleset *rs, struct sht_replay *out, int color, int p,
    int number, bool implied_passes, int *to_move)
{
	struct sht_move_record *rec;
	struct sht_move_info info;

	if (out->nmoves == out->capacity)
		return SHT_JUDGE_FULL;
	rec = &out->moves[out->nmoves++];
	rec->n = number;
	rec->color = color;
	rec->point = p;
	rec->verdict = 0;
	rec->violation = 0;
	rec->captures = 0;
	if (color != *to_move && implied_passes) {
		/* An SGF record that leaves a pass out: the opponent passed. */
		sht_board_play(out->board, (enum sht_color)*to_move, SHT_PASS, NULL);
		*to_move = color;
		out->implied_passes++;
	}
	/* A legal move is played here; one refused leaves the board as it was. */
	if (color != *to_move)
		return judge_violation(rs, out, rec, color, p, number, SHT_VIOLATION_NOT_YOUR_TURN,
		    to_move);
	if (sht_board_play(out->board, (enum sht_color)color, p, &info) != SHT_LEGAL)
		return judge_violation(rs, out, rec, color, p, number, (int)info.verdict, to_move);
	rec->captures = info.captured;
	*to_move = SHT_OTHER(color);
	/* Long cycles under simple ko; a pass ends a cycle rather than repeating it. */
	if (info.repeated && p != SHT_PASS && rs->setup.ko == SHT_RULES_KO_SIMPLE &&
	    rs->plugin->desc->cycle != NULL)
		judge_cycle(rs, out, number, *to_move);
	return SHT_JUDGE_PLAYED;
}

int
sht_judge_move(const struct sht_ruleset *rs, struct sht_replay *out, int color, int p,
    int number, bool implied_passes, int *to_move)
{
	return judge_move(rs, out, color, p, number, implied_passes, to_move);
}

void
sht_judge_check_end(const struct sht_ruleset *rs, struct sht_replay *out)
{
	int passes = sht_board_consecutive_passes(out->board);
	/* The pass just made was by the player not to move now. */
	int last_passer = 3 - (int)sht_board_to_move(out->board);

	if (out->end == SHT_END_PLAYING && passes >= rs->setup.passes_to_end &&
	    (rs->setup.last_pass == SHT_RP_EMPTY || last_passer == rs->setup.last_pass)) {
		out->end = SHT_END_ENDED;
		snprintf(out->end_reason, sizeof(out->end_reason), "%d consecutive passes%s", passes,
		    rs->setup.last_pass == SHT_RP_EMPTY ? "" : rs->setup.last_pass == SHT_RP_WHITE ?
		    ", White's last" : ", Black's last");
	}
}

/* Adds a note to a replay's or a score's list; past SHT_MAX_NOTES the rest are dropped. */
static void notes_add(char (*notes)[SHT_NOTE_MAX], int *nnotes, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

static void
notes_add(char (*notes)[SHT_NOTE_MAX], int *nnotes, const char *fmt, va_list ap)
{
	if (*nnotes < SHT_MAX_NOTES)
		vsnprintf(notes[(*nnotes)++], SHT_NOTE_MAX, fmt, ap);
}

static void replay_note(struct sht_replay *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
replay_note(struct sht_replay *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	notes_add(r->notes, &r->nnotes, fmt, ap);
	va_end(ap);
}

/*
 * The handicap, from the stones placed before the first move: HA (or the game object's
 * "handicap") when given, since it says what was agreed; otherwise black stones alone before
 * play are handicap stones.  A stated handicap of two or more that the stones do not match is
 * kept, as records with a misplaced or missing stone are real, but a note says so.
 */
static void
settle_handicap(const struct sht_game *game, int black_setup, int white_setup,
    struct sht_replay *out)
{
	const struct sht_sgf_game *g = &game->g;

	out->handicap = game->has_handicap ? g->handicap :
	    (white_setup == 0 && black_setup > 1 && game->has_setup) ? black_setup : 0;
	if (game->has_handicap && g->handicap >= 2 && white_setup == 0 && black_setup != g->handicap) {
		char said[32];

		if (game->sgf != NULL)
			snprintf(said, sizeof(said), "HA[%d]", g->handicap);
		else
			snprintf(said, sizeof(said), "game.handicap %d", g->handicap);
		replay_note(out, "%s, but %d black stone%s before the first move: the handicap is "
		    "taken as %d, as the record states it", said, black_setup, black_setup == 1 ?
		    " stands" : "s stand", g->handicap);
	}
}

int
sht_judge_komi(const struct sht_ruleset *rs, const struct sht_game *game, const int *request)
{
	/* The request speaks for this judgement, the record for the game as it was played, the
	 * ruleset for games that say nothing. */
	if (request != NULL)
		return *request;
	if (game != NULL && game->g.has_komi)
		return game->g.komi_half_points;
	return rs->setup.komi;
}

/* The board's points from coordinates, as sht_board_point gives them, without a call a move:
 * the point right of another is its right neighbour, the one below its lower one. */
struct point_map {
	int w, h, origin, dx, dy;
};

static void
point_map_init(struct point_map *m, const struct sht_board *b)
{
	int off[4];

	sht_board_neighbor_offsets(b, off);
	m->w = sht_board_width(b);
	m->h = sht_board_height(b);
	m->origin = sht_board_point(b, 0, 0);
	m->dx = off[2];
	m->dy = off[3];
}

/* A game event's point on the replay's board; false with err when it is off the board. */
static inline bool
event_point(const struct sht_replay *out, const struct point_map *m,
    const struct sht_sgf_event *e, int *p, struct sht_error *err)
{
	if ((unsigned)e->x < (unsigned)m->w && (unsigned)e->y < (unsigned)m->h) {
		*p = m->origin + e->x * m->dx + e->y * m->dy;
		return true;
	}
	if (e->x < 0) {
		*p = SHT_PASS;
		return true;
	}
	*p = SHT_NO_POINT;
	return judge_error(err, SHT_ERROR_BAD_PARAMS, e->move_number, "%s at (%d, %d) is off the "
	    "%dx%d board", e->kind == SHT_SGF_MOVE ? "move" : "setup stone", e->x, e->y,
	    sht_board_width(out->board), sht_board_height(out->board));
}

/* sht_judge_start, with judge_begin's on_request. */
static bool
judge_start(const struct sht_ruleset *rs, const struct sht_game *game, const int *komi,
    int capacity, bool on_request, struct sht_replay *out, int *to_move, int *first_move,
    struct sht_error *err)
{
	const struct sht_rules_setup *su = &rs->setup;
	const struct sht_sgf_game *g = &game->g;
	int w = game->has_size ? g->width : su->width, h = game->has_size ? g->height : su->height;
	int black_setup = 0, white_setup = 0, i;
	char note[SHT_NOTE_MAX];
	struct point_map map;

	if (!judge_begin(rs, w, h, capacity, !game->has_setup, on_request, out, err))
		return false;
	point_map_init(&map, out->board);
	/* A state for the start, for every event at most (implied passes, rare, grow it) and for
	 * one more move, which `legal` plays when it takes stones: the history then grows no
	 * table during the replay or after it. */
	sht_board_reserve_history(out->board, g->nevents + 2);
	out->komi = sht_judge_komi(rs, game, komi);
	if (komi == NULL && sht_game_komi_note(game, note, sizeof(note)))
		replay_note(out, "%s", note);
	if (game->ruleset_by_server)
		replay_note(out, "the record is from %s (PC[%.60s]) and names no other rules: counted "
		    "as that server counted, under %s", sht_record_server(g), g->place, rs->name);
	if (game->ruleset_unrecognised)
		replay_note(out, "the record's RU[%.60s] names no ruleset known here: judged under %s",
		    g->ruleset, rs->name);
	*to_move = 0;
	for (i = 0; i < g->nevents && g->events[i].kind != SHT_SGF_MOVE; i++) {
		const struct sht_sgf_event *e = &g->events[i];
		int p;

		if (e->kind == SHT_SGF_TURN) {
			*to_move = e->color;
			continue;
		}
		if (!event_point(out, &map, e, &p, err)) {
			sht_replay_free(out);
			return false;
		}
		sht_board_setup(out->board, e->color, p);
	}
	/* The stones standing when play begins, not the setup events: a point set twice, or
	 * set and then cleared with AE, must not count twice or at all. */
	if (game->has_setup) {
		black_setup = sht_board_stone_count(out->board, SHT_BLACK);
		white_setup = sht_board_stone_count(out->board, SHT_WHITE);
	}
	settle_handicap(game, black_setup, white_setup, out);
	/* Who opens: PL if given; White after handicap stones; else the ruleset. */
	if (*to_move == 0)
		*to_move = out->handicap > 1 && game->has_setup ? SHT_WHITE : su->first_player;
	/* The board is told too, so that everything that reads whose turn it is from the board
	 * (legal, the replay's to_move, situational superko's history) agrees with the judge. */
	sht_board_set_to_move(out->board, (enum sht_color)*to_move);
	*first_move = i;
	return true;
}

bool
sht_judge_start(const struct sht_ruleset *rs, const struct sht_game *game, const int *komi,
    int capacity, struct sht_replay *out, int *to_move, int *first_move, struct sht_error *err)
{
	return judge_start(rs, game, komi, capacity, false, out, to_move, first_move, err);
}

/* The events of g from `first` on as the cache compares them, or NULL (one cannot be coded, or
 * no memory): then the replay is not cached. */
static uint64_t *
event_codes(const struct sht_sgf_game *g, int first)
{
	uint64_t *codes = malloc(sizeof(*codes) * (size_t)(g->nevents - first + 1));

	for (int i = first; codes != NULL && i < g->nevents; i++)
		if (!sht_replay_event_code(&g->events[i], &codes[i - first])) {
			free(codes);
			return NULL;
		}
	return codes;
}

/* The replay's events; on an error out keeps what was replayed (its board NULL when there was
 * none), for the caller to look at and free. */
static bool
replay_events(const struct sht_ruleset *rs, const struct sht_game *game,
    const int *komi_override, bool on_request, struct sht_replay_cache *cache,
    struct sht_replay *out, struct sht_error *err)
{
	const struct sht_sgf_game *g = &game->g;
	/* The event list in locals: the board's move is a call the compiler cannot see into, so
	 * it reloaded them from the game after every move. */
	const struct sht_sgf_event *events = g->events;
	const int nevents = g->nevents;
	const bool implied = game->implied_passes;
	int to_move, first;
	char note[SHT_NOTE_MAX];
	struct point_map map;
	struct sht_replay_key key;
	uint64_t *codes = NULL;
	int from, start_notes, i, checkpoint = -1;

	if (!judge_start(rs, game, komi_override, g->nmoves, on_request, out, &to_move, &first,
	    err))
		return false;
	start_notes = out->nnotes;
	from = first;
	if (cache != NULL && nevents - first >= SHT_REPLAY_CHECKPOINT &&
	    (codes = event_codes(g, first)) != NULL) {
		/* The start position (setup stones, who moves) stands for everything before the
		 * first move: komi and the record's notes, which the start made afresh, do not
		 * change how the moves replay. */
		memset(&key, 0, sizeof(key));
		key.ruleset = rs;
		key.on_request = on_request;
		key.implied_passes = implied;
		key.width = sht_board_width(out->board);
		key.height = sht_board_height(out->board);
		key.start_hash = sht_board_hash(out->board);
		key.start_to_move = to_move;
		key.start_stones = sht_board_stone_count(out->board, SHT_BLACK) << 16 |
		    sht_board_stone_count(out->board, SHT_WHITE);
		from += sht_replay_cache_resume(cache, &key, codes, nevents - first, out, &to_move);
		if (from > first && !sht_board_reserve_history(out->board, nevents + 2)) {
			free(codes);
			return judge_error(err, SHT_ERROR_INTERNAL, 0, "out of memory");
		}
		/* The last checkpoint the events reach is kept, if it is past the one resumed (without
	 * a cache, checkpoint stays -1 and nothing is kept). */
		checkpoint = first + (nevents - first) / SHT_REPLAY_CHECKPOINT * SHT_REPLAY_CHECKPOINT;
		if (checkpoint <= from)
			checkpoint = -1;
	}
	point_map_init(&map, out->board);
	for (i = from; i < nevents && out->end == SHT_END_PLAYING; i++) {
		const struct sht_sgf_event *e = &events[i];
		int p;

		if (i == checkpoint)
			sht_replay_cache_store(cache, &key, codes, i - first, out, start_notes,
			    to_move);

		if (!event_point(out, &map, e, &p, err)) {
			free(codes);
			return false;
		}
		/* Setup during play edits the position (as SGF allows); PL names the next player. */
		if (e->kind == SHT_SGF_SETUP) {
			sht_board_setup(out->board, e->color, p);
			continue;
		}
		if (e->kind == SHT_SGF_TURN) {
			to_move = e->color;
			sht_board_set_to_move(out->board, (enum sht_color)to_move);
			continue;
		}
		if (judge_move(rs, out, e->color, p, e->move_number, implied, &to_move) ==
		    SHT_CONSEQUENCE_REJECT) {
			int n = e->move_number;
			char v[8];

			sht_vertex_format(out->board, p, v, sizeof(v));
			judge_error(err, SHT_ERROR_ILLEGAL_MOVE, n, "move %d (%c %s): %s", n,
			    e->color == SHT_BLACK ? 'B' : 'W', v,
			    sht_violation_text(out->moves[out->nmoves - 1].violation));
			free(codes);
			return false;
		}
	}
	/* A checkpoint at the last event, kept as it stands before the end is looked at, which
	 * depends on the whole record. */
	if (i == checkpoint)
		sht_replay_cache_store(cache, &key, codes, i - first, out, start_notes, to_move);
	free(codes);
	/* Only at the end: a game may resume after passes (Japanese Art. 9-3). */
	sht_judge_check_end(rs, out);
	/* A record that says it was decided otherwise than by counting: the count is of the
	 * position as it stands, and the note says what the record says, rather than letting
	 * the count pass for the result. */
	if (sht_game_result_note(game, out->end != SHT_END_PLAYING, note, sizeof(note)))
		replay_note(out, "%s", note);
	if (game->g.empty_node_passes > 0)
		replay_note(out, "the record writes passes as nodes without a move (a move follows "
		    "one of its own colour with such a node between): the %s after its last move "
		    "%s read as passes", game->g.empty_node_passes == 1 ? "node" : "2 nodes",
		    game->g.empty_node_passes == 1 ? "is" : "are");
	return true;
}

/*
 * Under simple ko a repeated state matters only when it ends the game, which takes one seen
 * SHT_CYCLE_OCCURRENCES times, and then only under a ruleset with a cycle rule.  So the replay
 * keeps its history as a list and asks once, at the end (or at the error that stopped it),
 * whether any state occurred that often; only then is it replayed again asking at every move,
 * as judge_move does, which gives the same replay whenever no cycle could have ended it.  An
 * index of the states at every move was a sixth of a replay (callgrind, the GNU Go games).
 */
bool
sht_judge_replay_cached(struct sht_replay_cache *cache, const struct sht_ruleset *rs,
    const struct sht_game *game, const int *komi_override, struct sht_replay *out,
    struct sht_error *err)
{
	bool on_request = rs->setup.ko == SHT_RULES_KO_SIMPLE, ok;

	ok = replay_events(rs, game, komi_override, on_request, cache, out, err);
	if (on_request && out->board != NULL && rs->plugin->desc->cycle != NULL &&
	    sht_board_occurs_at_least(out->board, SHT_CYCLE_OCCURRENCES) != 0) {
		sht_replay_free(out);
		ok = replay_events(rs, game, komi_override, false, NULL, out, err);
	}
	if (!ok)
		sht_replay_free(out);
	return ok;
}

bool
sht_judge_replay(const struct sht_ruleset *rs, const struct sht_game *game,
    const int *komi_override, struct sht_replay *out, struct sht_error *err)
{
	return sht_judge_replay_cached(NULL, rs, game, komi_override, out, err);
}

/* ---- dead stones ---- */

bool
sht_dead_parse_list(const struct sht_board *b, const char *const *vertices, int n,
    struct sht_dead_spec *out, struct sht_error *err)
{
	out->mode = SHT_DEAD_LIST;
	out->npoints = 0;
	for (int i = 0; i < n; i++) {
		int p = sht_vertex_parse(b, vertices[i]), c;

		if (p == SHT_NO_POINT || p == SHT_PASS)
			return judge_error(err, SHT_ERROR_BAD_PARAMS, 0, "dead: '%.20s' is not a vertex "
			    "of the %dx%d board", vertices[i], sht_board_width(b), sht_board_height(b));
		c = sht_board_at(b, p);
		if (c != SHT_BLACK && c != SHT_WHITE)
			return judge_error(err, SHT_ERROR_BAD_PARAMS, 0, "dead: %s has no stone on it "
			    "in the final position", vertices[i]);
		if (out->npoints < (int)(sizeof(out->points) / sizeof(out->points[0])))
			out->points[out->npoints++] = p;
	}
	return true;
}

static void
mark_chain(const struct sht_board *b, int p, uint8_t *flags)
{
	int s = p;

	do {
		flags[s] = 1;
		s = sht_board_chain_next(b, s);
	} while (s != p);
}

static void
add_note(struct sht_score_report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
add_note(struct sht_score_report *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	notes_add(r->notes, &r->nnotes, fmt, ap);
	va_end(ap);
}

/*
 * Automatic dead stones (docs/dead-stones.md): Benson's certainties, then random playouts from
 * the final position (lib/dead.c).  Chains that the playouts leave in doubt are named in the
 * notes, so that a person can check them.
 */
/* One judgement kept: what it was asked (the stones, the side to move, the rules the judge
 * reads) and what it answered.  `stones` and the answer's arrays, each of the board's capacity,
 * are the one allocation `block`. */
struct judgement {
	int width, height, capacity, to_move;
	bool multi_stone_suicide, capture_ban, pass_for_ko;
	uint64_t seed, hash;
	void *block;
	uint8_t *stones;
	struct sht_dead_result answer;
};

struct sht_judgements {
	struct judgement *kept;
	int n, cap;
};

struct sht_judgements *
sht_judgements_new(void)
{
	return calloc(1, sizeof(struct sht_judgements));
}

void
sht_judgements_free(struct sht_judgements *j)
{
	if (j == NULL)
		return;
	for (int i = 0; i < j->n; i++)
		free(j->kept[i].block);
	free(j->kept);
	free(j);
}

/* The judge's answer for a board of n points, from one result into another. */
static void
copy_answer(struct sht_dead_result *to, const struct sht_dead_result *from, size_t n)
{
	memcpy(to->dead, from->dead, n);
	memcpy(to->uncertain, from->uncertain, n);
	memcpy(to->owner, from->owner, n);
	memcpy(to->by_ko, from->by_ko, n);
	memcpy(to->confidence, from->confidence, n * sizeof(uint16_t));
	to->playouts = from->playouts;
}

/* Whether k was asked what judging b with opt asks. */
static bool
judgement_matches(const struct judgement *k, const struct sht_board *b,
    const struct sht_dead_options *opt)
{
	const struct sht_board_options *o = sht_board_options(b);

	if (k->hash != sht_board_hash(b) || k->seed != opt->seed ||
	    k->pass_for_ko != opt->pass_for_ko || k->width != sht_board_width(b) ||
	    k->height != sht_board_height(b) || k->capacity != sht_board_capacity(b) ||
	    k->to_move != (int)sht_board_to_move(b) ||
	    k->multi_stone_suicide != o->multi_stone_suicide || k->capture_ban != o->capture_ban)
		return false;
	for (int p = 0; p < k->capacity; p++)
		if (k->stones[p] != (uint8_t)sht_board_at(b, p))
			return false;
	return true;
}

/* sht_dead_judge, answered from the judgements kept in j when one was asked the same (its
 * answer copied into res), else judged and kept there.  j may be NULL.  res's by_ko is set. */
static bool
judge_kept(struct sht_judgements *j, const struct sht_board *b,
    const struct sht_dead_options *opt, struct sht_dead_result *res)
{
	size_t n = (size_t)sht_board_capacity(b);
	struct judgement *k;
	uint8_t *block;

	for (int i = 0; j != NULL && i < j->n; i++)
		if (judgement_matches(&j->kept[i], b, opt)) {
			copy_answer(res, &j->kept[i].answer, n);
			return true;
		}
	if (!sht_dead_judge(b, opt, res))
		return false;
	if (j == NULL)
		return true;
	if (j->n == j->cap) {
		int cap = j->cap ? 2 * j->cap : 8;
		struct judgement *more = realloc(j->kept, sizeof(*more) * (size_t)cap);

		if (more == NULL)
			return true; /* judged; only not kept */
		j->kept = more;
		j->cap = cap;
	}
	/* confidence first, two bytes a point (aligned as malloc gives it); then stones, dead,
	 * uncertain, owner and by_ko, a byte a point each. */
	if ((block = malloc(7 * n)) == NULL)
		return true;
	k = &j->kept[j->n++];
	k->width = sht_board_width(b);
	k->height = sht_board_height(b);
	k->capacity = (int)n;
	k->to_move = (int)sht_board_to_move(b);
	k->multi_stone_suicide = sht_board_options(b)->multi_stone_suicide;
	k->capture_ban = sht_board_options(b)->capture_ban;
	k->pass_for_ko = opt->pass_for_ko;
	k->seed = opt->seed;
	k->hash = sht_board_hash(b);
	k->block = block;
	k->stones = block + 2 * n;
	k->answer = (struct sht_dead_result){ .confidence = (uint16_t *)(void *)block,
		.dead = block + 3 * n, .uncertain = block + 4 * n, .owner = block + 5 * n,
		.by_ko = block + 6 * n };
	for (size_t p = 0; p < n; p++)
		k->stones[p] = (uint8_t)sht_board_at(b, (int)p);
	copy_answer(&k->answer, res, n);
	return true;
}

/*
 * sht_dead_judge (through the judgements kept in j) of b's canonical image
 * (sht_board_canonical_symmetry), its answer mapped back onto b's points.  The playouts draw
 * their random moves in the board's order, so a record and its mirror image were judged
 * differently (the verdict, and the ownership the settle step's walls follow); judging every
 * image of a position in one orientation gives them one answer.  The image has no history, even
 * when it is b's own orientation: a record's earlier positions, which superko reads, once
 * changed the verdict on a whole group (fuego-regression's 70767-test2 counted B+13.5 and,
 * transposed, W+20.5), and the judgements kept in j never asked for them.  Out of memory for
 * the image judges b as it is.
 */
static bool
judge_canonical(struct sht_judgements *j, const struct sht_board *b,
    const struct sht_dead_options *opt, struct sht_dead_result *res)
{
	int g = sht_board_canonical_symmetry(b), n = sht_board_capacity(b);
	struct sht_board *image;
	uint8_t *block;
	uint16_t *confidence;
	struct sht_dead_result mapped;
	bool ok;

	image = sht_board_symmetric(b, g);
	block = malloc((size_t)n * 4);
	confidence = calloc((size_t)n, sizeof(*confidence));
	if (image == NULL || block == NULL || confidence == NULL) {
		sht_board_free(image);
		free(block);
		free(confidence);
		return judge_kept(j, b, opt, res);
	}
	memset(block, 0, (size_t)n * 4);
	mapped = (struct sht_dead_result){ .dead = block, .uncertain = block + n,
		.owner = block + 2 * n, .by_ko = block + 3 * n, .confidence = confidence };
	if ((ok = judge_kept(j, image, opt, &mapped))) {
		for (int p = 0; p < n; p++) {
			int q = sht_board_symmetric_point(b, g, p);

			if (q == SHT_NO_POINT)
				continue;
			res->dead[p] = mapped.dead[q];
			res->uncertain[p] = mapped.uncertain[q];
			res->owner[p] = mapped.owner[q];
			res->by_ko[p] = mapped.by_ko[q];
			res->confidence[p] = mapped.confidence[q];
		}
		res->playouts = mapped.playouts;
	}
	sht_board_free(image);
	free(block);
	free(confidence);
	return ok;
}

static void
auto_dead(const struct sht_ruleset *rs, const struct sht_board *b, uint64_t seed,
    struct sht_judgements *kept, uint8_t *dead, uint8_t *owner, struct sht_score_report *r)
{
	int n = sht_board_capacity(b), uncertain = 0, shown = 0, ko_dead = 0;
	uint8_t *unsure = calloc((size_t)n, 1);
	uint8_t *by_ko = calloc((size_t)n, 1);
	uint16_t *confidence = calloc((size_t)n, sizeof(uint16_t));

	r->confidence = confidence; /* kept for the score object; freed with the report */
	struct sht_dead_result res = { dead, unsure, owner, confidence, by_ko, 0 };
	struct sht_dead_options opt = { 0, seed, rs->setup.ko_life == SHT_KO_LIFE_DEAD, false };
	char list[160] = "", kolist[160] = "", v[8];

	if (unsure == NULL || confidence == NULL || by_ko == NULL ||
	    !judge_canonical(kept, b, &opt, &res)) {
		add_note(r, "dead stones could not be judged (out of memory): all stones counted "
		    "alive");
		memset(dead, 0, (size_t)n);
	} else {
		for (int p = 0; p < n; p++) {
			if (!by_ko[p] || sht_board_chain_id(b, p) != p)
				continue;
			if (ko_dead++ < 6) {
				size_t len = strlen(kolist);

				snprintf(kolist + len, sizeof(kolist) - len, "%s%s", ko_dead > 1 ? ", " :
				    "", sht_vertex_format(b, p, v, sizeof(v)));
			}
		}
		if (ko_dead > 0 && opt.pass_for_ko)
			add_note(r, "dead because only a ko could save %s (no ko is retaken in the "
			    "confirmation without passing for it): %s%s", ko_dead == 1 ? "it" : "them",
			    kolist, ko_dead > 6 ? ", ..." : "");
		else if (ko_dead > 0)
			add_note(r, "only a ko decides %s (bent four in the corner, or life by ko); "
			    "these rules settle it by playing on, so it is counted as it stands: %s%s",
			    ko_dead == 1 ? "it" : "them", kolist, ko_dead > 6 ? ", ..." : "");
		for (int p = 0; p < n; p++) {
			if (!unsure[p] || sht_board_chain_id(b, p) != p)
				continue;
			uncertain++;
			if (shown < 6) {
				size_t len = strlen(list);

				snprintf(list + len, sizeof(list) - len, "%s%s%s", shown ? ", " : "",
				    sht_vertex_format(b, p, v, sizeof(v)), dead[p] ? " (dead)" : "");
				shown++;
			}
		}
		if (uncertain > 0)
			add_note(r, "dead stones judged automatically; %d chain%s uncertain: %s%s",
			    uncertain, uncertain == 1 ? "" : "s", list, uncertain > shown ? ", ..." : "");
		else
			add_note(r, "dead stones judged automatically; no chain in doubt");
	}
	free(unsure);
	free(by_ko);
}

void
sht_score_report_free(struct sht_score_report *r)
{
	free(r->dead);
	free(r->seki);
	free(r->confidence);
	free(r->settle);
	memset(r, 0, sizeof(*r));
}

/* The plugin's count of pos into *res. */
static bool
plugin_score(const struct sht_ruleset *rs, const struct sht_position *pos,
    struct sht_score_result *res, struct sht_error *err)
{
	char why[256] = "";

	memset(res, 0, sizeof(*res));
	res->size = sizeof(*res);
	if (rs->plugin->desc->score(rs->rules, &host_table, pos, res, why, sizeof(why)) != 0)
		return judge_error(err, SHT_ERROR_INTERNAL, 0, "ruleset %s cannot score this "
		    "position: %s", rs->name, why[0] ? why : "no reason given");
	return true;
}

/* "5 dame, 2 protect" for the settle note. */
static void
settle_summary(const struct sht_settle_result *sr, char *buf, size_t len)
{
	static const int order[] = { SHT_SETTLE_DAME, SHT_SETTLE_BOUNDARY, SHT_SETTLE_PROTECT,
		SHT_SETTLE_CAPTURE, SHT_SETTLE_CONNECTION };
	size_t used = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
		int n = 0;

		for (int i = 0; i < sr->nmoves; i++)
			n += sr->moves[i].reason == order[k];
		if (n > 0 && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%d %s", used ? ", " : "", n,
			    sht_settle_reason_name(order[k]));
	}
}

/* Names the chains the verdict called dead and the settle step found alive (one stone each, at
 * most six), so that a person can check them: the rules that revive them read one move ahead. */
static void
note_revived(const struct sht_board *b, const struct sht_settle_result *sr,
    struct sht_score_report *out)
{
	char list[160] = "", v[8];
	int chains = 0;

	for (int i = 0; i < sr->nrevived; i++) {
		int p = sr->revived[i];
		bool seen = false;

		for (int j = 0; j < i; j++)
			seen |= sht_board_chain_id(b, sr->revived[j]) == sht_board_chain_id(b, p);
		if (seen)
			continue;
		if (chains++ < 6) {
			size_t len = strlen(list);

			snprintf(list + len, sizeof(list) - len, "%s%s", chains > 1 ? ", " : "",
			    sht_vertex_format(b, p, v, sizeof(v)));
		}
	}
	if (chains > 0)
		add_note(out, "the settle step found alive %d chain%s the verdict called dead (%d "
		    "stone%s; joined to a live chain by a settle move of their owner, or their "
		    "capture would be a snapback; unsure): "
		    "%s%s", chains, chains == 1 ? "" : "s", sr->nrevived, sr->nrevived == 1 ? "" : "s",
		    list, chains > 6 ? ", ..." : "");
}

/* Whether the record ended by passes, or by a pass as its last move: servers' records (NNGS's,
 * some of KGS's) stop at the first pass of a game that went to counting, and their results
 * count the position as it stands. */
static bool
ended_by_passes(const struct sht_replay *replay)
{
	return replay->end == SHT_END_ENDED || (replay->nmoves > 0 &&
	    replay->moves[replay->nmoves - 1].point == SHT_PASS);
}

/*
 * The settled board sr counted by the ruleset into *res, its area map into *owner and seki: the
 * dead taken off the copy are still the opponent's prisoners, and how the record ended is the
 * record's (`unsettled`'s counts), not the settled copy's.
 */
static bool
score_settled(const struct sht_ruleset *rs, const struct sht_settle_result *sr,
    const struct sht_position *unsettled, struct sht_area *owner, uint8_t *seki,
    struct sht_score_result *res, struct sht_error *err)
{
	struct tax_groups_lazy tax = { 0 };
	struct sht_position pos = { .tax = &tax };

	pos.board = sr->board;
	pos.area = owner;
	/* One area map for the counts and the ownership rows. */
	sht_area_counts_map(sr->board, NULL, &pos.counts, seki, owner);
	for (int c = SHT_BLACK; c <= SHT_WHITE; c++)
		pos.counts.dead[c] += sr->removed[c];
	pos.counts.moves = unsettled->counts.moves;
	memcpy(pos.counts.passes, unsettled->counts.passes, sizeof(pos.counts.passes));
	pos.counts.to_move = unsettled->counts.to_move;
	pos.counts.closing_passes = unsettled->counts.closing_passes;
	pos.counts.first_pass = unsettled->counts.first_pass;
	pos.counts.handicap = unsettled->counts.handicap;
	pos.counts.komi = unsettled->counts.komi;
	return plugin_score(rs, &pos, res, err);
}

/* Each scan order's result, for the median and the note. */
struct settle_orders {
	int margin[SHT_SETTLE_SCANS]; /* half points, Black positive */
	char re[SHT_SETTLE_SCANS][24];
	int n;                        /* orders settled */
	bool split;                   /* the two middle results of eight differ */
};

/*
 * The settle step in the scan order to count (struct sht_settle_options' scan), into *chosen.
 * The settle step plays the first of several equally good dame or walls in its order, and which
 * side then pays a protecting move, or gets a dame, hangs on it: the same record mirrored was
 * counted differently, and on the Edo-period records SGF order (0) gave 255 exact results where
 * the seven other orders gave 224 to 250 (docs/dead-stones.md, "The order of equal moves").  So
 * the orders are settled and counted and the median kept, each order's result into *orders and
 * how many were settled into orders->n.  Where the two middle results of the eight differ, the
 * one less favourable to the side to move: the settle step already gives that side the first
 * move of an endgame the record did not write down, and where the order decides, that first
 * move is what was counted twice (measured on the Edo-period records: 260 exact against 244 the
 * other way, a rule chosen on them).  Once a majority of the eight agree, the median is theirs
 * and the rest are not settled; nor are they when the first plays nothing, as none would.  Of
 * the orders with the median result the first is kept.  False on the plugin's error; out of
 * memory settles fewer orders, or leaves *chosen empty (board NULL).
 */
static bool
median_scan(const struct sht_ruleset *rs, const struct sht_board *b, const uint8_t *dead,
    const struct sht_settle_options *opt, const struct sht_position *unsettled,
    struct sht_settle_result *chosen, struct settle_orders *orders, struct sht_error *err)
{
	struct sht_settle_options so = *opt;
	struct sht_settle_result results[SHT_SETTLE_SCANS];
	int *margins = orders->margin, sorted[SHT_SETTLE_SCANS], median = 0, keep = -1, n = 0;
	uint8_t *seki = calloc((size_t)sht_board_capacity(b), 1);
	bool ok = true;

	memset(chosen, 0, sizeof(*chosen));
	orders->n = 0;
	orders->split = false;
	for (int g = 0; g < SHT_SETTLE_SCANS && seki != NULL; g++) {
		struct sht_area owner;
		struct sht_score_result res;
		int same = 0;

		so.scan = g;
		if (!sht_settle(b, dead, &so, &results[n]))
			break;
		if (!score_settled(rs, &results[n], unsettled, &owner, seki, &res, err)) {
			sht_settle_result_free(&results[n]);
			ok = false;
			break;
		}
		margins[n] = res.margin;
		snprintf(orders->re[n], sizeof(orders->re[n]), "%s", res.re);
		/* Insertion by margin. */
		for (int at = n; at >= 0; at--) {
			if (at > 0 && sorted[at - 1] > res.margin) {
				sorted[at] = sorted[at - 1];
				continue;
			}
			sorted[at] = res.margin;
			break;
		}
		n++;
		for (int i = 0; i < n; i++)
			same += margins[i] == res.margin;
		if (results[0].nmoves == 0 || same > SHT_SETTLE_SCANS / 2) {
			keep = 0;
			while (margins[keep] != res.margin)
				keep++;
			break;
		}
	}
	free(seki);
	orders->n = n;
	if (ok && keep < 0 && n == SHT_SETTLE_SCANS) {
		orders->split = sorted[n / 2 - 1] != sorted[n / 2];
		median = sht_board_to_move(b) == SHT_BLACK ? sorted[n / 2 - 1] : sorted[n / 2];
		keep = 0;
		while (margins[keep] != median)
			keep++;
	} else if (ok && keep < 0 && n > 0) {
		keep = 0; /* out of memory part way: SGF order */
	}
	for (int i = 0; i < n; i++) {
		if (ok && i == keep)
			*chosen = results[i];
		else
			sht_settle_result_free(&results[i]);
	}
	return ok;
}

/* Room for the results a note tallies: the counts of several seeds, or the settle step's orders. */
enum { RESULTS_MAX = SHT_THOROUGH_COUNTS > SHT_SETTLE_SCANS ? SHT_THOROUGH_COUNTS : SHT_SETTLE_SCANS };

/* "B+3 (5), W+0.5 (1)": n results (at most RESULTS_MAX), each a margin and its RE, tallied,
 * the most frequent first. */
static void
results_text(const int *margins, const char *const *re, int n, char *buf, size_t len)
{
	bool listed[RESULTS_MAX] = { false };
	size_t used = 0;

	buf[0] = '\0';
	for (int listed_n = 0; listed_n < n && used < len;) {
		int best = -1, best_count = 0;

		for (int i = 0; i < n; i++) {
			int count = 0;

			if (listed[i])
				continue;
			for (int j = 0; j < n; j++)
				count += margins[j] == margins[i];
			if (count > best_count) {
				best = i;
				best_count = count;
			}
		}
		for (int j = 0; j < n; j++)
			if (margins[j] == margins[best])
				listed[j] = true;
		listed_n += best_count;
		used += (size_t)snprintf(buf + used, len - used, "%s%s (%d)", used ? ", " : "",
		    re[best], best_count);
	}
}

/*
 * The settle step (lib/settle.c) after an automatic judgement: the position is finished on a copy
 * by the counting the plugin just tallied with (caught in *seen), and the settled board is
 * counted instead.  The unsettled count stays in the notes, so a reader sees what settling
 * decided.  Out of memory keeps the unsettled count, with a note.
 */
static bool
settle_and_rescore(const struct sht_ruleset *rs, const struct sht_replay *replay,
    const struct sht_position *unsettled, const struct sht_tally_policy *seen,
    const uint8_t *playout_owner, struct sht_score_report *out, struct sht_error *err)
{
	const struct sht_board *b = replay->board;
	struct sht_settle_options so = {
		.counting = seen->size > 0 && seen->counting == SHT_COUNTING_TERRITORY ?
		    SHT_SETTLE_TERRITORY : SHT_SETTLE_AREA,
		.group_tax = seen->size > 0 && seen->tax != SHT_TAX_NONE,
		.owner = playout_owner,
		.confidence = out->confidence,
		.finished = ended_by_passes(replay),
	};
	struct sht_settle_result sr;
	struct sht_score_result before = out->result;
	struct settle_orders orders;
	/* orders_text is short enough that the note fits SHT_NOTE_MAX. */
	char summary[96], orders_text[80], unsure[160] = "", v[8];
	int shown = 0;

	if (!median_scan(rs, b, out->dead, &so, unsettled, &sr, &orders, err))
		return false;
	if (sr.board == NULL) {
		/* out->owner is the unsettled map already. */
		add_note(out, "the position could not be settled (out of memory): counted as it "
		    "stands");
		return true;
	}
	/* Chains settling found alive are counted alive: the dead list says what was counted. */
	for (int i = 0; i < sr.nrevived; i++)
		out->dead[sr.revived[i]] = 0;
	note_revived(b, &sr, out);
	if (!score_settled(rs, &sr, unsettled, &out->owner, out->seki, &out->result, err)) {
		sht_settle_result_free(&sr);
		return false;
	}
	if (orders.n > 1) {
		bool differ = false;

		for (int g = 1; g < orders.n; g++)
			differ |= orders.margin[g] != orders.margin[0];
		if (differ) {
			const char *re[SHT_SETTLE_SCANS];

			for (int g = 0; g < orders.n; g++)
				re[g] = orders.re[g];
			results_text(orders.margin, re, orders.n, orders_text, sizeof(orders_text));
			add_note(out, "the settle step's orders of equal moves give %s: the median is "
			    "counted%s", orders_text, orders.split ?
			    ", of two the one worse for the side to move" : "");
		}
	}
	if (sr.nmoves == 0) {
		add_note(out, "nothing was left to settle");
	} else {
		settle_summary(&sr, summary, sizeof(summary));
		if (strcmp(before.re, out->result.re) == 0)
			add_note(out, "the settle step played %d move%s (%s); the result is the same "
			    "without it", sr.nmoves, sr.nmoves == 1 ? "" : "s", summary);
		else
			add_note(out, "the settle step played %d move%s (%s): counted as it stands the "
			    "result would be %s, settled it is %s", sr.nmoves, sr.nmoves == 1 ? "" : "s",
			    summary, before.re, out->result.re);
		for (int i = 0; i < sr.nmoves; i++) {
			size_t len = strlen(unsure);

			if (!sr.moves[i].unsure)
				continue;
			if (shown++ < 8)
				snprintf(unsure + len, sizeof(unsure) - len, "%s%s %s", shown > 1 ? ", " : "",
				    sr.moves[i].color == SHT_BLACK ? "B" : "W",
				    sht_vertex_format(b, sr.moves[i].point, v, sizeof(v)));
		}
		if (shown > 0)
			add_note(out, "%d settle move%s on points the playouts left unclear: %s%s", shown,
			    shown == 1 ? "" : "s", unsure, shown > 8 ? ", ..." : "");
	}
	out->settle = sr.moves;
	out->nsettle = sr.nmoves;
	sr.moves = NULL;
	sht_settle_result_free(&sr);
	return true;
}

/* One count of the replay's final position: the dead stones as the spec says (judged with
 * the playout seed `seed` when automatic), then the settle step where it applies. */
static bool
score_once(const struct sht_ruleset *rs, const struct sht_replay *replay,
    const struct sht_dead_spec *spec, uint64_t seed, struct sht_score_report *out,
    struct sht_error *err)
{
	const struct sht_board *b = replay->board;
	int n = sht_board_capacity(b);
	struct tax_groups_lazy tax = { 0 };
	struct sht_position pos = { .tax = &tax };
	struct sht_tally_policy seen = { 0 };
	uint8_t *playout_owner = NULL;
	bool settle = spec->mode == SHT_DEAD_AUTO;

	memset(out, 0, sizeof(*out));
	out->dead = calloc((size_t)n, 1);
	out->seki = calloc((size_t)n, 1);
	if (settle)
		playout_owner = calloc((size_t)n, 1);
	if (out->dead == NULL || out->seki == NULL || (settle && playout_owner == NULL)) {
		free(playout_owner);
		sht_score_report_free(out);
		return judge_error(err, SHT_ERROR_INTERNAL, 0, "out of memory");
	}
	for (int i = 0; i < replay->nnotes; i++)
		add_note(out, "%s", replay->notes[i]);
	if (spec->mode == SHT_DEAD_LIST) {
		/* A list names every stone of a chain: each chain is marked once. */
		for (int i = 0; i < spec->npoints; i++)
			if (!out->dead[spec->points[i]])
				mark_chain(b, spec->points[i], out->dead);
	} else if (spec->mode == SHT_DEAD_AUTO)
		auto_dead(rs, b, seed, spec->judgements, out->dead, playout_owner, out);

	pos.board = b;
	pos.dead = out->dead;
	pos.area = &out->owner;
	pos.policy_seen = settle ? &seen : NULL;
	/* One area map gives the counts, the seki stones and the ownership rows (which the
	 * settle step replaces with the settled board's). */
	sht_area_counts_map(b, out->dead, &pos.counts, out->seki, &out->owner);
	pos.counts.handicap = replay->handicap;
	pos.counts.komi = replay->komi;
	if (!plugin_score(rs, &pos, &out->result, err)) {
		free(playout_owner);
		sht_score_report_free(out);
		return false;
	}
	/* A ruleset that counts a finished game as its board stands (a server's count) has
	 * nothing settled there. */
	if (settle && out->result.as_it_stands && ended_by_passes(replay)) {
		settle = false;
		add_note(out, "the record ends with a pass, and %s counts a finished board as it "
		    "stands: nothing was settled", rs->name);
	}
	if (settle && !settle_and_rescore(rs, replay, &pos, &seen, playout_owner, out, err)) {
		free(playout_owner);
		sht_score_report_free(out);
		return false;
	}
	free(playout_owner);
	out->counts = spec->mode == SHT_DEAD_AUTO;
	return true;
}

/* The results of the counts, as results_text writes them. */
static void
results_summary(const struct sht_score_report *reps, int n, char *buf, size_t len)
{
	int margins[SHT_THOROUGH_COUNTS] = { 0 };
	const char *re[SHT_THOROUGH_COUNTS] = { NULL };

	for (int i = 0; i < n; i++) {
		margins[i] = reps[i].result.margin;
		re[i] = reps[i].result.re;
	}
	results_text(margins, re, n, buf, len);
}

/* Where counts that gave different results differ, for a person to check: the chains some of
 * them call dead and others not (one stone each, at most six), else the settle step's moves. */
static void
note_disagreement(const struct sht_board *b, const struct sht_score_report *reps, int n,
    struct sht_score_report *out)
{
	char list[200] = "", v[8];
	int chains = 0;

	for (int p = 0; p < sht_board_capacity(b); p++) {
		int dead = 0;

		if (sht_board_at(b, p) != SHT_BLACK && sht_board_at(b, p) != SHT_WHITE)
			continue;
		for (int k = 0; k < n; k++)
			dead += reps[k].dead[p] != 0;
		if (dead == 0 || dead == n || sht_board_chain_id(b, p) != p)
			continue;
		if (chains++ < 6) {
			size_t len = strlen(list);

			snprintf(list + len, sizeof(list) - len, "%s%s (dead in %d of %d)",
			    chains > 1 ? ", " : "", sht_vertex_format(b, p, v, sizeof(v)), dead, n);
		}
	}
	if (chains > 0)
		add_note(out, "the counts differ on %d chain%s: %s%s", chains, chains == 1 ? "" : "s",
		    list, chains > 6 ? ", ..." : "");
	else
		add_note(out, "the counts agree on the dead stones and differ in the settle step's "
		    "moves");
}

/*
 * Counts the position several times, each judged with its own playout seed (0, the default's,
 * then 1, 2, ...), and keeps in *out the count whose result is the median of them (of those
 * with that result, the first).  The seeds disagree where the verdict or the settle step hangs
 * on the playouts' luck, and the median count is the one the judgement stands by most often:
 * on the corpus's 1278 counted games the median of nine gained about 20 exact results on a
 * single seed's, where more playouts for one judgement gained nothing (docs/dead-stones.md,
 * "Effort").  `first` counts are made; when they all give one result that is the answer,
 * else counts are added up to `most` (odd), which on the corpus changed no total and saved
 * most of the time, since finished games and many others agree at once.
 */
static bool
score_median(const struct sht_ruleset *rs, const struct sht_replay *replay,
    const struct sht_dead_spec *spec, int first, int most, const char *mode,
    struct sht_score_report *out, struct sht_error *err)
{
	struct sht_score_report *reps = calloc((size_t)most, sizeof(*reps));
	int order[SHT_THOROUGH_COUNTS], median, n = 0;
	char summary[SHT_NOTE_MAX / 2];

	if (reps == NULL)
		return judge_error(err, SHT_ERROR_INTERNAL, 0, "out of memory");
	for (int k = 0; k < most; k++) {
		int at = k;

		if (k == first && reps[order[0]].result.margin == reps[order[k - 1]].result.margin)
			break; /* the first counts agree */
		if (!score_once(rs, replay, spec, (uint64_t)k, &reps[k], err)) {
			for (int j = 0; j < k; j++)
				sht_score_report_free(&reps[j]);
			free(reps);
			return false;
		}
		n++;
		/* Insertion by result, Black's margin first; a later count goes after equal ones. */
		while (at > 0 && reps[order[at - 1]].result.margin > reps[k].result.margin) {
			order[at] = order[at - 1];
			at--;
		}
		order[at] = k;
	}
	median = order[n / 2];
	for (int k = 0; k < n; k++)
		if (reps[k].result.margin == reps[median].result.margin && k < median)
			median = k;
	results_summary(reps, n, summary, sizeof(summary));
	*out = reps[median];
	out->counts = n;
	if (n == first)
		add_note(out, "%s: %d counts, each judged with its own playout seed, agree: %s", mode,
		    n, summary);
	else
		add_note(out, "%s: the median of %d counts, each judged with its own playout seed: %s",
		    mode, n, summary);
	if (n > first) /* the first counts differed */
		note_disagreement(replay->board, reps, n, out);
	for (int k = 0; k < n; k++)
		if (k != median)
			sht_score_report_free(&reps[k]);
	free(reps);
	return true;
}

bool
sht_judge_score(const struct sht_ruleset *rs, const struct sht_replay *replay,
    const struct sht_dead_spec *spec, struct sht_score_report *out, struct sht_error *err)
{
	bool ok;

	/* A record that stopped before the end leaves the most to the playouts' luck, so dead:
	 * "auto" counts it two or three times there; a finished game, which the 20 ms asked of
	 * "auto" is for, once. */
	if (spec->mode == SHT_DEAD_AUTO && spec->thorough)
		ok = score_median(rs, replay, spec, SHT_THOROUGH_FIRST, SHT_THOROUGH_COUNTS,
		    "auto-thorough", out, err);
	else if (spec->mode == SHT_DEAD_AUTO && !ended_by_passes(replay))
		ok = score_median(rs, replay, spec, 2, 3, "auto (a record that stopped before the end)",
		    out, err);
	else
		ok = score_once(rs, replay, spec, 0, out, err);
	if (!ok)
		return false;
	if (out->result.note[0] != '\0')
		add_note(out, "%s", out->result.note);
	if (replay->decision != SHT_DECISION_COUNT) {
		/* The game ended before counting: that decides it, and the count is kept beside. */
		out->decision = replay->decision;
		out->count = out->result;
		sht_judge_decide(rs, replay->decision, replay->end_player, replay->end_short,
		    &out->result);
		add_note(out, "the game ended before counting (%s): the count of the final position "
		    "is given for information", replay->end_reason);
	} else if (replay->end == SHT_END_PLAYING) {
		add_note(out, "the game has not ended (no %d consecutive passes%s): the score is of "
		    "the position as it stands", rs->setup.passes_to_end,
		    rs->setup.last_pass == SHT_RP_WHITE ? " with White's last" :
		    rs->setup.last_pass == SHT_RP_BLACK ? " with Black's last" : "");
	}
	return true;
}
