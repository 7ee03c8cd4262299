/*
 * Dead stones: Benson for what is certain, random playouts for the rest, then an exact search for
 * the groups that only a ko can capture (the pass-for-ko confirmation).
 */
#include <stdlib.h>
#include <string.h>

#include "board_impl.h"
#include "shoutan/dead.h"

/* A small, fast generator with a fixed seed: the judgement is the same on every run. */
static uint64_t
next_random(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* An eye of colour c at p: every neighbour c (or the edge), and not false (at most one diagonal
 * of the opponent, none on the edge).  Filling such a point is never sensible. */
static bool
is_eye(const struct sht_board *b, int c, int p)
{
	static const int diag_dx[4] = { -1, 1, -1, 1 }, diag_dy[4] = { -1, -1, 1, 1 };
	int opp = 0, off = 0;

	for (int d = 0; d < 4; d++) {
		int q = b->color[p + b->dir[d]];

		if (q != c && q != SHT_OFFBOARD)
			return false;
	}
	for (int d = 0; d < 4; d++) {
		int q = b->color[p + diag_dy[d] * b->stride + diag_dx[d]];

		if (q == SHT_OFFBOARD)
			off = 1;
		else if (q == 3 - c)
			opp++;
	}
	return opp + off < 2;
}

/* Whether playing c at p makes a chain of more than SMALL_CHAIN stones: a self-atari of a small
 * chain can be a sacrifice that kills (nakade, throw-ins); of a large one it is a blunder, and
 * forbidding it is what lets seki survive a playout. */
#define SMALL_CHAIN 2

static bool
joins_chain(const struct sht_board *b, int c, int p)
{
	int size = 1, seen[4], nseen = 0;

	for (int d = 0; d < 4; d++) {
		int q = p + b->dir[d], k;

		if (b->color[q] != c)
			continue;
		for (k = 0; k < nseen && seen[k] != b->chain[q]; k++)
			;
		if (k == nseen) {
			seen[nseen++] = b->chain[q];
			size += b->size[b->chain[q]];
		}
	}
	return size > SMALL_CHAIN;
}

struct playout {
	struct sht_board *b;
	int *empties;      /* candidate points */
	int *index;        /* point -> its position in empties, or -1 */
	int nempties;
	uint8_t *seen;     /* scratch for sht_board_can_fill */
	const uint8_t *fixed; /* points no playout plays on: pass-alive territory */
};

static void
empties_add(struct playout *pl, int p)
{
	if (pl->index[p] >= 0 || pl->fixed[p])
		return;
	pl->index[p] = pl->nempties;
	pl->empties[pl->nempties++] = p;
}

static void
empties_remove(struct playout *pl, int p)
{
	int i = pl->index[p], last;

	if (i < 0)
		return;
	last = pl->empties[--pl->nempties];
	pl->empties[i] = last;
	pl->index[last] = i;
	pl->index[p] = -1;
}

/* The one liberty of a chain in atari. */
static int
last_liberty(const struct sht_board *b, int p)
{
	int s = p;

	do {
		for (int d = 0; d < 4; d++)
			if (b->color[s + b->dir[d]] == SHT_EMPTY)
				return s + b->dir[d];
		s = b->next[s];
	} while (s != p);
	return SHT_NO_POINT;
}

/* The answer to the opponent's last move at `last`, when it is urgent: capture the chain it
 * just played if that chain is in atari, or save a chain of c's it put in atari.  Random play
 * that ignores ataris lets dead groups escape and live groups die; this is the least that
 * makes playouts judge life well (as in every Monte-Carlo Go program). */
static int
urgent(struct playout *pl, int c, int last)
{
	const struct sht_board *b = pl->b;

	if (last <= 0 || b->color[last] != 3 - c)
		return SHT_NO_POINT;
	if (b->libs[b->chain[last]] == 1) {
		int lib = last_liberty(b, b->chain[last]);

		if (lib != SHT_NO_POINT && !pl->fixed[lib] &&
		    sht_board_check(b, (enum sht_color)c, lib, NULL) == SHT_LEGAL)
			return lib;
	}
	for (int d = 0; d < 4; d++) {
		int q = last + b->dir[d], lib;

		if (b->color[q] != c || b->libs[b->chain[q]] != 1)
			continue;
		lib = last_liberty(b, b->chain[q]);
		if (lib != SHT_NO_POINT && !pl->fixed[lib] &&
		    sht_board_can_fill(b, c, lib, pl->seen) &&
		    sht_board_check(b, (enum sht_color)c, lib, NULL) == SHT_LEGAL)
			return lib;
	}
	return SHT_NO_POINT;
}

/* One move for c: an urgent answer to the last move, else a random candidate that is legal,
 * no eye of c's, and no self-atari; or pass. */
static int
choose(struct playout *pl, int c, int last, uint64_t *rng)
{
	int n = pl->nempties;
	int u = urgent(pl, c, last);

	if (u != SHT_NO_POINT)
		return u;

	if (n == 0)
		return SHT_PASS;
	for (int k = 0, start = (int)(next_random(rng) % (uint64_t)n); k < n; k++) {
		int p = pl->empties[(start + k) % n];

		/* No self-atari that makes a chain of more than two stones: it would throw itself
		 * away (and seki would never survive a playout).  Up to two stones may, as
		 * throw-ins and nakade need.  Measured on the corpus's 622 counted games: forbidding
		 * any chain-joining self-atari gave 529 exact scores, two stones 533, three 530. */
		if (is_eye(pl->b, c, p) || (joins_chain(pl->b, c, p) &&
		    !sht_board_can_fill(pl->b, c, p, pl->seen)))
			continue;
		if (sht_board_check(pl->b, (enum sht_color)c, p, NULL) == SHT_LEGAL)
			return p;
	}
	return SHT_PASS;
}

static void
run_playout(struct playout *pl, int first, uint64_t *rng, int max_moves)
{
	int c = first, passes = 0, last = SHT_PASS;

	for (int m = 0; m < max_moves && passes < 2; m++) {
		int p = choose(pl, c, last, rng);
		const int *removed;
		int nremoved;

		sht_board_play(pl->b, (enum sht_color)c, p, NULL);
		if (p == SHT_PASS) {
			passes++;
		} else {
			passes = 0;
			empties_remove(pl, p);
			nremoved = sht_board_last_removed(pl->b, &removed);
			for (int i = 0; i < nremoved; i++)
				empties_add(pl, removed[i]);
		}
		last = p;
		c = 3 - c;
	}
}

/*
 * The Japanese confirmation (docs/rules.md section 3): with the opponent moving first and a ko
 * never retaken without first passing for it, can the opponent capture a chain?  A small exact
 * search over the points around the chain: its liberties, the stones of its colour and the
 * opponent's (not pass-alive) chains that touch them, and their liberties.  It answers only
 * when that neighbourhood is small (an eye space, shared liberties, a ko) and within a node
 * budget; otherwise the playouts' verdict stands.
 */
#define KO_SEARCH_MAX_EMPTY 10
#define KO_SEARCH_MAX_POINTS 40
#define KO_SEARCH_MAX_DEPTH 24
#define KO_SEARCH_NODES 4000        /* per chain */
#define KO_SEARCH_TABLE 4096        /* positions remembered per chain (a power of two) */
#define KO_SEARCH_MAX_BANS 8

/* A position already searched: its key, the plies that were left, and the answer. */
struct ko_seen {
	uint64_t key;
	int8_t plies_left;
	bool captured;
};

struct ko_search {
	struct sht_board *b;
	struct ko_seen table[KO_SEARCH_TABLE];
	struct sht_board_snapshot *snaps[KO_SEARCH_MAX_DEPTH + 1];
	int points[KO_SEARCH_MAX_POINTS];  /* where either side may play */
	int npoints;
	int target;                        /* a stone of the chain under attack */
	int attacker;
	int max_depth;                     /* plies, for iterative deepening */
	long nodes_left;
};

/* Kos a player may not retake until it has passed (points where it may not play). */
struct ko_bans {
	int point[KO_SEARCH_MAX_BANS];
	int n;
};

static bool
banned(const struct ko_bans *k, int p)
{
	for (int i = 0; i < k->n; i++)
		if (k->point[i] == p)
			return true;
	return false;
}

/* Whether the attacker, with `to_move` to play, captures the target chain.  bans[c]: the kos
 * c may not retake; `passed`: the last move was a pass (a second one ends the confirmation). */
static bool ko_search_moves(struct ko_search *ks, int depth, int to_move,
    struct ko_bans bans[3], bool passed);

static bool
attacker_captures(struct ko_search *ks, int depth, int to_move, struct ko_bans bans[3],
    bool passed)
{
	struct sht_board *b = ks->b;
	uint64_t key;
	struct ko_seen *seen;
	int plies_left = ks->max_depth - depth;
	bool result;

	if (b->color[ks->target] != 3 - ks->attacker)
		return true;
	if (plies_left <= 0 || --ks->nodes_left < 0)
		return false; /* undecided: the group is not shown capturable */
	/* The same stones, player, bans and pass state: the same answer. */
	key = sht_board_hash(b) * 3 + (uint64_t)to_move + (passed ? UINT64_C(0x9e3779b97f4a7c15) : 0);
	for (int c = 1; c <= 2; c++)
		for (int i = 0; i < bans[c].n; i++)
			key ^= (uint64_t)(bans[c].point[i] * 2 + c) * UINT64_C(0xff51afd7ed558ccd);
	seen = &ks->table[key & (KO_SEARCH_TABLE - 1)];
	/* A capture found with fewer plies holds with more; a failure with more holds with
	 * fewer. */
	if (seen->key == key && (seen->captured ? seen->plies_left <= plies_left :
	    seen->plies_left >= plies_left))
		return seen->captured;
	result = ko_search_moves(ks, depth, to_move, bans, passed);
	if (ks->nodes_left >= 0) {
		seen->key = key;
		seen->plies_left = (int8_t)plies_left;
		seen->captured = result;
	}
	return result;
}

/* attacker_captures, past the table: every move of the player to move (and a pass). */
static bool
ko_search_moves(struct ko_search *ks, int depth, int to_move, struct ko_bans bans[3],
    bool passed)
{
	struct sht_board *b = ks->b;
	int other = 3 - to_move;
	bool attacking = to_move == ks->attacker;

	sht_board_save(b, ks->snaps[depth]);
	for (int i = -1; i < ks->npoints; i++) {
		int p = i < 0 ? SHT_PASS : ks->points[i];
		struct ko_bans next[3] = { { { 0 }, 0 }, bans[1], bans[2] };
		bool captured;

		if (p == SHT_PASS && passed) {
			/* Two passes: the confirmation is over and the chain stands. */
			if (!attacking)
				return false;
			continue;
		}
		if (p == SHT_PASS) {
			next[to_move].n = 0; /* a pass for the kos: they may be retaken now */
			sht_board_play(b, (enum sht_color)to_move, SHT_PASS, NULL);
		} else if (b->color[p] != SHT_EMPTY || banned(&bans[to_move], p) ||
		    sht_board_play(b, (enum sht_color)to_move, p, NULL) != SHT_LEGAL) {
			continue;
		} else {
			int ko = sht_board_ko_point(b, (enum sht_color)other);

			if (ko != SHT_NO_POINT && next[other].n < KO_SEARCH_MAX_BANS)
				next[other].point[next[other].n++] = ko;
		}
		captured = attacker_captures(ks, depth + 1, other, next, p == SHT_PASS);
		sht_board_restore(b, ks->snaps[depth]);
		if (captured && attacking)
			return true;
		if (!captured && !attacking)
			return false;
		if (ks->nodes_left < 0)
			return false;
	}
	/* The attacker found nothing; the defender had no move that saves the chain. */
	return !attacking;
}

/* Whether the attacker captures the target: the shortest sequences first (iterative
 * deepening), within the node budget. */
static bool
ko_search_run(struct ko_search *ks)
{
	struct ko_bans none[3] = { { { 0 }, 0 }, { { 0 }, 0 }, { { 0 }, 0 } };

	memset(ks->table, 0, sizeof(ks->table));
	ks->nodes_left = KO_SEARCH_NODES;
	for (ks->max_depth = 4; ks->max_depth <= KO_SEARCH_MAX_DEPTH; ks->max_depth += 4) {
		if (attacker_captures(ks, 0, ks->attacker, none, false))
			return true;
		if (ks->nodes_left < 0)
			break;
	}
	return false;
}

static void
add_point(struct ko_search *ks, int p)
{
	if (ks->npoints > KO_SEARCH_MAX_POINTS)
		return; /* already too large */
	for (int i = 0; i < ks->npoints; i++)
		if (ks->points[i] == p)
			return;
	if (ks->npoints < KO_SEARCH_MAX_POINTS)
		ks->points[ks->npoints++] = p;
	else
		ks->npoints = KO_SEARCH_MAX_POINTS + 1; /* too large: marks the search refused */
}

/* Adds a chain's stones and liberties to the search's points. */
static void
add_chain(struct ko_search *ks, const struct sht_board *b, int chain)
{
	int s = chain;

	do {
		add_point(ks, s);
		for (int d = 0; d < 4; d++)
			if (b->color[s + b->dir[d]] == SHT_EMPTY)
				add_point(ks, s + b->dir[d]);
		s = b->next[s];
	} while (s != chain);
}

/* The neighbourhood of the chain at `target`: its stones and liberties, every chain touching
 * those liberties (the opponent's only when not pass-alive), and theirs.  False when it is too
 * large for the search or not enclosed. */
static bool
ko_search_points(struct ko_search *ks, const struct sht_board *b, int target,
    const uint8_t *certain)
{
	int nempty = 0;

	ks->npoints = 0;
	add_chain(ks, b, b->chain[target]);
	for (int i = 0; i < ks->npoints && ks->npoints <= KO_SEARCH_MAX_POINTS; i++) {
		int p = ks->points[i];

		if (b->color[p] != SHT_EMPTY)
			continue;
		for (int d = 0; d < 4; d++) {
			int q = p + b->dir[d], c = b->color[q];

			if ((c == SHT_BLACK || c == SHT_WHITE) && certain[q] != c)
				add_chain(ks, b, b->chain[q]);
		}
	}
	if (ks->npoints > KO_SEARCH_MAX_POINTS)
		return false;
	/* Enclosed: no empty point of it opens onto empty points beyond.  Then a move outside
	 * cannot take a liberty of anything in it, and the search sees the whole fight. */
	for (int i = 0; i < ks->npoints; i++) {
		int p = ks->points[i];

		if (b->color[p] != SHT_EMPTY)
			continue;
		nempty++;
		for (int d = 0; d < 4; d++) {
			int q = p + b->dir[d], k;

			if (b->color[q] != SHT_EMPTY)
				continue;
			for (k = 0; k < ks->npoints && ks->points[k] != q; k++)
				;
			if (k == ks->npoints)
				return false;
		}
	}
	return nempty <= KO_SEARCH_MAX_EMPTY;
}

/* Finds the chains the playouts call alive that the opponent captures under the pass-for-ko
 * rule, and marks them in out->by_ko: dead when `kill` (the rules say so), else uncertain (the
 * rules leave it to play). */
static void
confirm_with_pass_for_ko(const struct sht_board *src, const uint8_t *certain, bool kill,
    struct sht_dead_result *out)
{
	struct sht_board_options o = src->opt;
	struct ko_search *ks;
	int depth = 0;

	o.ko = SHT_KO_SIMPLE;
	o.track_history = false;
	o.supply[SHT_BLACK] = o.supply[SHT_WHITE] = SHT_UNLIMITED;
	ks = calloc(1, sizeof(*ks));
	if (ks == NULL)
		return;
	ks->b = sht_board_new(&o);
	if (ks->b == NULL) {
		free(ks);
		return;
	}
	memcpy(ks->b->color, src->color, (size_t)src->npoints);
	sht_board_rebuild(ks->b);
	for (depth = 0; depth <= KO_SEARCH_MAX_DEPTH; depth++)
		if ((ks->snaps[depth] = sht_board_snapshot_new(ks->b)) == NULL)
			goto out;
	for (int p = 0; p < src->npoints; p++) {
		int c = src->color[p];

		if ((c != SHT_BLACK && c != SHT_WHITE) || src->chain[p] != p || out->dead[p] ||
		    certain[p] == c || !ko_search_points(ks, src, p, certain))
			continue;
		ks->target = p;
		ks->attacker = 3 - c;
		if (ko_search_run(ks)) {
			int s = p;

			do {
				out->dead[s] = kill;
				out->uncertain[s] = !kill;
				if (out->by_ko != NULL)
					out->by_ko[s] = 1;
				s = src->next[s];
			} while (s != p);
		}
	}
out:
	for (depth = 0; depth <= KO_SEARCH_MAX_DEPTH; depth++)
		sht_board_snapshot_free(ks->snaps[depth]);
	sht_board_free(ks->b);
	free(ks);
}

bool
sht_dead_judge(const struct sht_board *src, const struct sht_dead_options *opt,
    struct sht_dead_result *out)
{
	struct sht_board_options o = src->opt;
	struct playout pl;
	struct sht_board_snapshot *snap = NULL;
	uint8_t *certain = NULL;
	int *owned_b = NULL, *owned_w = NULL;
	int n = src->npoints, playouts = opt->playouts > 0 ? opt->playouts : 256;
	uint64_t rng = opt->seed ? opt->seed : UINT64_C(0x5eed5eed5eed5eed);
	struct sht_area area;
	bool ok = false;

	memset(&pl, 0, sizeof(pl));
	/* Playouts need no history: simple ko, no superko, no cycle tracking. */
	o.ko = SHT_KO_SIMPLE;
	o.track_history = false;
	o.supply[SHT_BLACK] = o.supply[SHT_WHITE] = SHT_UNLIMITED;
	pl.b = sht_board_new(&o);
	pl.empties = malloc(sizeof(int) * (size_t)n);
	pl.index = malloc(sizeof(int) * (size_t)n);
	pl.seen = calloc((size_t)n, 1);
	certain = calloc((size_t)n, 1);
	owned_b = calloc((size_t)n, sizeof(int));
	owned_w = calloc((size_t)n, sizeof(int));
	if (pl.b == NULL || pl.empties == NULL || pl.index == NULL || pl.seen == NULL ||
	    certain == NULL || owned_b == NULL || owned_w == NULL)
		goto out;
	/* The same stones, without the source's history. */
	memcpy(pl.b->color, src->color, (size_t)n);
	sht_board_rebuild(pl.b);
	snap = sht_board_snapshot_new(pl.b);
	if (snap == NULL)
		goto out;
	sht_board_save(pl.b, snap);

	/* What Benson proves is never in doubt, and playouts stay out of it. */
	sht_pass_alive_map(pl.b, false, certain);
	pl.fixed = certain;
	for (int p = 0; p < n; p++) {
		out->owner[p] = SHT_EMPTY;
		out->dead[p] = 0;
		out->uncertain[p] = 0;
	}
	for (int i = 0; i < playouts; i++) {
		sht_board_restore(pl.b, snap);
		pl.nempties = 0;
		for (int p = 0; p < n; p++)
			pl.index[p] = -1;
		for (int p = 0; p < n; p++)
			if (pl.b->color[p] == SHT_EMPTY)
				empties_add(&pl, p);
		/* Half the playouts with each colour to move first. */
		run_playout(&pl, (i & 1) ? SHT_WHITE : SHT_BLACK, &rng, 3 * n);
		sht_area_compute(pl.b, NULL, &area);
		for (int p = 0; p < n; p++) {
			int w = sht_area_owner(&area, p);

			owned_b[p] += w == SHT_BLACK;
			owned_w[p] += w == SHT_WHITE;
		}
	}
	sht_board_restore(pl.b, snap);
	/* A chain is judged by the average ownership of its stones; pass-alive status first. */
	for (int p = 0; p < n; p++) {
		int c = src->color[p];
		long mine = 0, theirs = 0, size = 0;
		int s;

		if ((c != SHT_BLACK && c != SHT_WHITE) || src->chain[p] != p)
			continue;
		s = p;
		do {
			mine += c == SHT_BLACK ? owned_b[s] : owned_w[s];
			theirs += c == SHT_BLACK ? owned_w[s] : owned_b[s];
			size++;
			s = src->next[s];
		} while (s != p);
		if (certain[p] == c) {
			continue; /* pass-alive */
		} else if (certain[p] == 3 - c) {
			theirs = playouts * size; /* inside the opponent's certain territory */
			mine = 0;
		}
		s = p;
		do {
			/* Dead when the opponent owns the chain's points in more than 35% of the
			 * playouts.  Not 50%: random play is generous to a group without two eyes
			 * (the attacker misplays as often as the defender), so a dead group still
			 * lives in many playouts.  Measured on the corpus's 622 counted games: 50%
			 * gives 516 exact scores, 45% 524, 40% 528, 35% 529, 30% 527 (and the same
			 * winner in 585, 587, 591, 593, 594); chosen on that data, so a little
			 * optimistic for other games. */
			out->dead[s] = theirs * 20 > 7L * playouts * size;
			/* Unsure when neither side owns them in four playouts out of five. */
			out->uncertain[s] = mine * 5 < 4L * playouts * size &&
			    theirs * 5 < 4L * playouts * size;
			s = src->next[s];
		} while (s != p);
	}
	for (int p = 0; p < n; p++) {
		if (src->color[p] == SHT_OFFBOARD)
			continue;
		out->owner[p] = owned_b[p] * 2 > playouts ? SHT_BLACK :
		    owned_w[p] * 2 > playouts ? SHT_WHITE : SHT_EMPTY;
		out->confidence[p] = (uint16_t)((abs(owned_b[p] - owned_w[p]) * 1000) / playouts);
		if (out->by_ko != NULL)
			out->by_ko[p] = 0;
	}
	confirm_with_pass_for_ko(src, certain, opt->pass_for_ko, out);
	ok = true;
out:
	sht_board_snapshot_free(snap);
	sht_board_free(pl.b);
	free(pl.empties);
	free(pl.index);
	free(pl.seen);
	free(certain);
	free(owned_b);
	free(owned_w);
	return ok;
}
