/*
 * The settle step (docs/dead-stones.md, "Settling"): on a copy of the judged board, remove the
 * dead and play what the record left open, alternately from the side to move, with a fixed
 * policy, so that counting sees a finished game.
 *
 * Each turn the player plays the first kind of move it has, in an order that depends on what
 * the counting rewards:
 *   capture     an opponent chain in atari (not a ko, not a chain short of liberties only
 *               because dead stones still stand on them);
 *   protect     its own chain in atari: extend or connect (a shortage of liberties shows up
 *               this way once the opponent has filled the dame next to it); and, in a record
 *               that stopped before the end, a teire (a chain that the opponent's dead stones,
 *               still on the board in play, leave in atari) and a cutting point (a chain of
 *               two liberties the opponent could leave in atari with no escape);
 *   connection  (group tax only) a dame that joins its groups or keeps the opponent's apart;
 *   dame        a point of an open region whose ownership the playouts left unclear, next to
 *               its own stones;
 *   boundary    a point of an open region it owns, next to the opponent's stones or points.
 * Neither a dame nor a wall goes on a liberty of a seki (traps_in_atari).
 * Area counting takes dame before closing boundaries (a dame is a point to whoever fills it);
 * territory counting closes boundaries first (dame are worth nothing).  A player with none of
 * these passes; two passes in a row end it.  A game that ended by passes keeps its boundaries:
 * there only dame next to both colours are filled, and under plain area counting nothing is.
 * Only points of open regions (empty regions that reach both colours) are ever filled, except
 * by a protecting move: a move inside one's own closed area costs a point under territory
 * counting, and that is what the rules charge.
 *
 * Where the record stopped before the end, the dead stones are also treated as the stones they
 * still are in play: a boundary is not closed on a point a dead stone occupies (the wall goes on
 * that stone's liberty), a dead chain that its owner's settle move connects to a live chain is
 * alive again, a dead chain whose capture would be a snapback is alive, and no side captures
 * into a snapback or protects a chain that only a snapback could take.
 */
#include <stdlib.h>
#include <string.h>

#include "board_impl.h"
#include "shoutan/settle.h"
#include "tactics.h"

/* A point is a side's when its playouts' margin is 20% (per mille, of the playouts): three
 * standard errors of a point that 256 playouts give to each side half the time, so that dame
 * stay dame whatever the seed.  12% was chosen first (50, 120, 200, 400 and 600 gave 639,
 * 652, 650, 641 and 630 exact, before later rules); with the playouts' shape replies
 * (lib/dead.c) 200 measured better on eight seeds: 803.75 exact, 1012.25 within 2 points and
 * 1147.6 same winners on the mean, where 120 gave 794.25 / 1021.4 / 1145.4 and playouts without
 * the shapes at 120 gave 790 / 1011.5 / 1141.75.  Chosen on the corpus it is measured on. */
#define DEFAULT_OWNED_CONFIDENCE SHT_SETTLE_OWNED_CONFIDENCE
/* Chains of this many stones or more are never captured by the settle step (find_capture):
 * 1, 2, 3, 4 and 8 stones measured 762, 760, 760, 760 and 758 exact on the corpus; 1 leaves
 * every stone in atari standing, a stone inside the opponent's area among them, and sent
 * single games 57 and 21 points wrong. */
#define SETTLE_MAX_CAPTURE 4

struct settle {
	struct sht_board *b;
	const struct sht_settle_options *opt;
	int owned_confidence;
	int *label;                 /* region label + 1 of each empty point, 0 elsewhere */
	struct sht_region *regions;
	int nregions, maxregions;
	uint8_t *seen;              /* scratch for sht_board_can_fill, kept zero */
	uint8_t *dead;              /* the verdict's dead stones still on `present` */
	/* The same game with the dead still on the board, as they are in play until the end:
	 * where a chain is short of liberties only because of them, its owner must still
	 * protect it (a teire), and the settled board alone cannot see that. */
	struct sht_board *present;
	struct sht_board_snapshot *snap; /* for trying a move on b and taking it back */
	struct sht_board_snapshot *psnap; /* the same on `present` */
	uint8_t *captor;            /* for a dead stone's point, the colour that took it */
	int *group;                 /* group tax: the tax's group of each live stone (groups.c) */
	struct sht_tactics tactics; /* reads on `present` */
	int *order;                 /* every point, in the order opt->scan names */
	int *rank;                  /* each point's place in it */
	uint32_t *visit;            /* chains already met by next_chain, by head */
	uint32_t visit_gen;
};

/*
 * The chain heads of `on`, each once, in the scan order of the chain's first stone: *i walks
 * s->order from 0; SHT_NO_POINT at the end.  Where several chains would do, the one the order
 * meets first is taken, as with points, so that the eight orders are the board's symmetries
 * for chains too (chain heads are where the chain happened to start, not where it lies).
 */
static int
next_chain(struct settle *s, const struct sht_board *on, int *i)
{
	if (*i == 0 && ++s->visit_gen == 0) {
		memset(s->visit, 0, (size_t)on->npoints * sizeof(*s->visit));
		s->visit_gen = 1;
	}
	while (*i < on->npoints) {
		int q = s->order[(*i)++], h;

		if (on->color[q] != SHT_BLACK && on->color[q] != SHT_WHITE)
			continue;
		h = on->chain[q];
		if (s->visit[h] == s->visit_gen)
			continue;
		s->visit[h] = s->visit_gen;
		return h;
	}
	return SHT_NO_POINT;
}

/*
 * Whether the chain at q on `present` holds a stone the verdict calls dead.  A settle move can
 * join a live stone to dead ones there without reviving them (revive_connected), and a chain's
 * head is wherever it happened to start, so the chain is asked, not its head: asking the head
 * counted the same game differently mirrored.
 */
static bool
chain_dead(const struct settle *s, const struct sht_board *on, int q)
{
	int t = q;

	if (on != s->present)
		return false; /* the settled board holds no dead stones */
	do {
		if (s->dead[t])
			return true;
		t = on->next[t];
	} while (t != q);
	return false;
}

/* The points of moves (n of them) sorted by their place in the scan order. */
static void
sort_by_rank(const struct settle *s, int *moves, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && s->rank[moves[j - 1]] > s->rank[moves[j]]; j--) {
			int t = moves[j];

			moves[j] = moves[j - 1];
			moves[j - 1] = t;
		}
}

const char *
sht_settle_reason_name(int reason)
{
	switch (reason) {
	case SHT_SETTLE_CAPTURE:
		return "capture";
	case SHT_SETTLE_PROTECT:
		return "protect";
	case SHT_SETTLE_CONNECTION:
		return "connection";
	case SHT_SETTLE_DAME:
		return "dame";
	case SHT_SETTLE_BOUNDARY:
		return "boundary";
	default:
		return "unknown";
	}
}

/* Who the playouts say owns p, when they say it clearly enough; SHT_EMPTY when not. */
static int
clear_owner(const struct settle *s, int p)
{
	/* The verdict gave the point of a dead stone to its captor, however unsure the playouts
	 * were: settling must not undo the judgement by calling it neutral. */
	if (s->captor[p] != SHT_EMPTY)
		return s->captor[p];
	if (s->opt->owner == NULL || s->opt->confidence == NULL)
		return SHT_EMPTY;
	if (s->opt->confidence[p] < s->owned_confidence)
		return SHT_EMPTY;
	return s->opt->owner[p];
}

static bool
in_open_region(const struct settle *s, int p)
{
	int l = s->label[p];

	return l > 0 && l <= s->maxregions &&
	    s->regions[l - 1].borders == ((1 << SHT_BLACK) | (1 << SHT_WHITE));
}

static bool
label_regions(struct settle *s)
{
	struct sht_tax_groups tg;

	s->nregions = sht_area_regions(s->b, NULL, s->label, s->regions, s->maxregions);
	return s->nregions >= 0 &&
	    (s->group == NULL || sht_area_tax_groups(s->b, NULL, s->group, &tg));
}

static bool takes_snapback(struct settle *s, int c, int p);

/*
 * Whether c may play the empty point p without a self-atari (a capture is allowed, but not one
 * of SETTLE_MAX_CAPTURE stones or more, nor, where the record stopped before the end, one into a
 * snapback: that loses more stones than it takes).
 */
static bool
playable(struct settle *s, int c, int p)
{
	struct sht_move_info info;

	if (sht_board_check(s->b, (enum sht_color)c, p, &info) != SHT_LEGAL)
		return false;
	if (info.captured > 0 && !s->opt->finished && takes_snapback(s, c, p))
		return false;
	/* Nor one that takes SETTLE_MAX_CAPTURE stones or more: a dame or boundary that fills
	 * the last liberty of a chain the verdict calls alive (an unread race whose shared
	 * liberties the settle step filled) would overturn the verdict, as find_capture may not.
	 * Measured on the corpus's 1278 counted games, the default seed and four others: exact
	 * +3, +2, +1, +2, +3, within 2 points +4, +7, +4, +5, +6, the same winner 0, -1, +1, +3,
	 * 0; on the default seed all of it on the Edo-period records (Honinbo_Jowa/209, for
	 * one: twenty White stones taken by dame, B+32 where the record says W+12). */
	if (info.captured >= SETTLE_MAX_CAPTURE)
		return false;
	return sht_board_can_fill(s->b, c, p, s->seen);
}

/*
 * Whether c's stone on p would fill a liberty of a seki: it leaves an opponent chain beside it in
 * atari with no way out (its owner can neither fill the last liberty, which would be no legal
 * move or still atari, nor take a chain of c's in atari beside it), on a last liberty that the
 * filler's own chain shares, with at most two liberties left itself.  Every stone on the settled
 * board is alive by the verdict, so the two chains are in a seki, and taking the chain would
 * overturn the verdict: in castle/cg182 Black filled the corner's dame, put three White stones in
 * atari and took them, which in play leaves a bent three inside Black's group for White to kill;
 * the record and GNU Go count the corner as a seki.  A dame or a wall is not played there (a
 * capture of a chain already in atari is find_capture's).  Without the condition on the
 * filler's chain (any chain left in atari with no way out) it measured worse: 30 games further
 * from the record and 16 nearer, most of them records that stop long before the end.
 */
static bool
traps_in_atari(struct settle *s, int c, int p)
{
	struct sht_board *b = s->b;
	bool trapped = false, shares = false;

	/* Only a chain of two liberties, p one of them, is left in atari: most points have none
	 * beside them, and are answered without trying the move. */
	for (int d = 0; d < 4; d++)
		shares |= b->color[p + b->dir[d]] == 3 - c && b->libs[b->chain[p + b->dir[d]]] == 2;
	if (!shares)
		return false;
	sht_board_save(b, s->snap);
	if (sht_board_play(b, (enum sht_color)c, p, NULL) != SHT_LEGAL) {
		sht_board_restore(b, s->snap);
		return false;
	}
	for (int d = 0; d < 4 && !trapped; d++) {
		int q = p + b->dir[d], lib, t;
		bool escapes;

		if (b->color[q] != 3 - c || b->libs[b->chain[q]] != 1)
			continue;
		lib = sht_board_atari_liberty(b, b->chain[q]);
		/* No seki without a shortage both sides share: the last liberty is also one of
		 * the filler's chain, down to two. */
		if (lib == SHT_NO_POINT || b->libs[b->chain[p]] > 2 ||
		    !sht_board_touches_chain(b, lib, p))
			continue;
		escapes = sht_board_check(b, (enum sht_color)(3 - c), lib, NULL) == SHT_LEGAL &&
		    sht_board_can_fill(b, 3 - c, lib, s->seen);
		t = q;
		do {
			for (int e = 0; e < 4 && !escapes; e++) {
				int r = t + b->dir[e];

				escapes = b->color[r] == c && b->libs[b->chain[r]] == 1;
			}
			t = b->next[t];
		} while (t != q && !escapes);
		trapped = !escapes;
	}
	sht_board_restore(b, s->snap);
	return trapped;
}

/* c's stones next to p (all live: the settled board holds no dead stones). */
static int
touches(const struct settle *s, int p, int c)
{
	int n = 0;

	for (int d = 0; d < 4; d++)
		n += s->b->color[p + s->b->dir[d]] == c;
	return n;
}

/*
 * Whether the chain at q is a single stone in atari whose capture would be a ko: the capturing
 * stone would take this stone alone and have it as its only liberty.  Such a stone is an
 * unfinished ko, and at the end of a game its owner connects it (GNU Go does, and the Edo
 * records' counts say the players did).  Only a live stone: when the verdict calls such a
 * stone dead, keeping it alive measured worse (25 exact fewer on the 19x19 regression games).
 */
static bool
ko_in_atari(const struct sht_board *b, int q)
{
	int lib, owner = b->color[q];

	if ((owner != SHT_BLACK && owner != SHT_WHITE) || b->size[b->chain[q]] != 1 ||
	    (lib = sht_board_atari_liberty(b, q)) == SHT_NO_POINT)
		return false;
	for (int d = 0; d < 4; d++) {
		int r = lib + b->dir[d];

		if (r == q || b->color[r] == SHT_OFFBOARD || b->color[r] == 3 - owner)
			continue;
		if (b->color[r] == SHT_EMPTY || b->libs[b->chain[r]] < 2)
			return false; /* another liberty, or more stones taken: no ko */
	}
	return true;
}

/*
 * Whether taking the chain at q, in atari on `on`, would be a snapback: the capturing stone's
 * chain is then in atari itself and the owner's recapture takes two stones or more (one would be
 * a ko).  The opponent does not take such a chain, so it stands at the end.  snap: scratch for
 * `on`.
 */
static bool
capture_is_snapback(struct sht_board *on, struct sht_board_snapshot *snap, int q)
{
	int owner = on->color[q], lib = sht_board_atari_liberty(on, q), back;
	struct sht_move_info take, retake;
	bool snapback = false;

	if ((owner != SHT_BLACK && owner != SHT_WHITE) || lib == SHT_NO_POINT)
		return false;
	sht_board_save(on, snap);
	if (sht_board_play(on, (enum sht_color)(3 - owner), lib, &take) == SHT_LEGAL &&
	    (back = sht_board_atari_liberty(on, lib)) != SHT_NO_POINT &&
	    sht_board_play(on, (enum sht_color)owner, back, &retake) == SHT_LEGAL &&
	    retake.captured >= 2 && retake.captured > take.captured)
		snapback = true;
	sht_board_restore(on, snap);
	return snapback;
}

/* Whether c's move at p on the settled board would take a chain there into a snapback. */
static bool
takes_snapback(struct settle *s, int c, int p)
{
	for (int d = 0; d < 4; d++) {
		int r = p + s->b->dir[d];

		if (s->b->color[r] == 3 - c && s->b->libs[s->b->chain[r]] == 1 &&
		    capture_is_snapback(s->b, s->snap, r))
			return true;
	}
	return false;
}

/*
 * The last liberty of the first chain of `owner` in atari on `on` (the settled board, or the one
 * with the dead still standing) that c may play on the settled board: the point that takes the
 * chain when c is the opponent, or saves it when c is the owner.  Stones the verdict calls dead
 * are passed over, and kos too when skip_ko.
 */
static int
atari_point(struct settle *s, struct sht_board *on, int owner, int c, bool skip_ko)
{
	for (int i = 0, q; (q = next_chain(s, on, &i)) != SHT_NO_POINT;) {
		int lib;

		if (on->color[q] != owner || on->libs[q] != 1 ||
		    chain_dead(s, on, q) || (skip_ko && ko_in_atari(on, q)))
			continue;
		if (c != owner && on->size[q] >= SETTLE_MAX_CAPTURE)
			continue;
		if (!s->opt->finished && capture_is_snapback(on, on == s->b ? s->snap : s->psnap, q))
			continue;
		lib = sht_board_atari_liberty(on, q);
		if (lib != SHT_NO_POINT && playable(s, c, lib))
			return lib;
	}
	return SHT_NO_POINT;
}

/* The dead are already off the settled board, so a chain in atari there is in atari in play
 * too.  A ko is not taken: its owner connects it (measured on the corpus: taking it gives 663
 * exact instead of 671).  Nor is a chain of SETTLE_MAX_CAPTURE stones or more: the verdict
 * called it alive, and when settling leaves it in atari with no way out, it is the settle
 * step's own dame and walls that took its liberties, where in play its owner defends a living
 * group before that (docs/dead-stones.md, "Settling": 755 -> 760 exact, 990 -> 1002 within 2
 * points, 1133 -> 1139 same winner). */
static int
find_capture(struct settle *s, int c)
{
	return atari_point(s, s->b, 3 - c, c, true);
}

/*
 * c's own chain in atari, extended or connected; else a teire: a chain in atari only because the
 * opponent's dead stones still stand on its liberties would be taken if the opponent filled the
 * last one, so its owner fills it (inside its own area, which territory counting charges).  The
 * teire only where the record stopped before the end: players who passed left such a chain as
 * it was, and the servers and programs that counted those records charged nothing for it
 * (measured: charging it there costs 19 exact of the 357 19x19 regression games, and gains
 * none).
 */
static int
find_protect(struct settle *s, int c)
{
	int p = atari_point(s, s->b, c, c, false);

	if (p == SHT_NO_POINT && !s->opt->finished)
		p = atari_point(s, s->present, c, c, false);
	return p;
}

/*
 * A chain of c with two liberties that the opponent could leave in atari with no escape: the
 * opponent fills one liberty (no self-atari for it), and extending at the other would not
 * bring the chain two liberties.  The verdict calls the chain alive, so in play its owner
 * protects it before that: c takes the point the opponent wanted (or else the other) — a
 * cutting point that must be filled.  Only where the record stopped before the end, as for
 * the teire (applied also to games that ended by passes, it cost 2 exact results on the
 * regression collections); over the Edo-period games it took exact 153 -> 179 and within 2
 * points 383 -> 399.
 */
static int
find_danger(struct settle *s, int c)
{
	struct sht_board *b = s->b;

	for (int i = 0, q; (q = next_chain(s, b, &i)) != SHT_NO_POINT;) {
		int lib[2] = { SHT_NO_POINT, SHT_NO_POINT }, n = 0, t = q;

		if (b->color[q] != c || b->libs[q] != 2)
			continue;
		do {
			for (int d = 0; d < 4 && n < 2; d++) {
				int r = t + b->dir[d];

				if (b->color[r] == SHT_EMPTY && r != lib[0])
					lib[n++] = r;
			}
			t = b->next[t];
		} while (t != q && n < 2);
		if (n < 2)
			continue;
		sort_by_rank(s, lib, 2);
		for (int k = 0; k < 2; k++) {
			int other = lib[1 - k];
			bool lost;

			if (!playable(s, 3 - c, lib[k]))
				continue;
			sht_board_save(b, s->snap);
			sht_board_play(b, (enum sht_color)(3 - c), lib[k], NULL);
			lost = b->color[q] == c && b->libs[b->chain[q]] == 1 &&
			    (sht_board_check(b, (enum sht_color)c, other, NULL) != SHT_LEGAL ||
			    !sht_board_can_fill(b, c, other, s->seen));
			sht_board_restore(b, s->snap);
			if (!lost)
				continue;
			if (playable(s, c, lib[k]))
				return lib[k];
			if (playable(s, c, other))
				return other;
		}
	}
	return SHT_NO_POINT;
}

/*
 * A chain of c, alive by the verdict, that the opponent moving first captures by reading on the
 * board with the dead standing (sht_tactics_capturable: two or three liberties, ladders read
 * out): its owner defends it before the game ends, with the first move after which the reading
 * finds no capture, a point of an open region (a dame, free under territory counting) before
 * one inside its own area.  Where no move saves it, nothing is played.
 */
static int
find_weak(struct settle *s, int c)
{
	struct sht_board *pb = s->present;

	for (int k = 0, q; (q = next_chain(s, pb, &k)) != SHT_NO_POINT;) {
		int moves[16], n = 0, t = q, best = SHT_NO_POINT;

		if (pb->color[q] != c || chain_dead(s, pb, q) || pb->libs[q] < 2 ||
		    pb->libs[q] > 3 || !sht_tactics_capturable(&s->tactics, q))
			continue;
		/* Extensions, and captures of the opponent's chains in atari next to it. */
		do {
			for (int d = 0; d < 4 && n < 14; d++) {
				int r = t + pb->dir[d], lib = SHT_NO_POINT;

				if (pb->color[r] == SHT_EMPTY)
					lib = r;
				else if (pb->color[r] == 3 - c && pb->libs[pb->chain[r]] == 1)
					lib = sht_board_atari_liberty(pb, r);
				for (int i = 0; i < n && lib != SHT_NO_POINT; i++)
					if (moves[i] == lib)
						lib = SHT_NO_POINT;
				if (lib != SHT_NO_POINT)
					moves[n++] = lib;
			}
			t = pb->next[t];
		} while (t != q);
		sort_by_rank(s, moves, n);
		for (int i = 0; i < n; i++) {
			int p = moves[i];
			bool saves;

			if (s->b->color[p] != SHT_EMPTY || !playable(s, c, p) ||
			    (best != SHT_NO_POINT && !in_open_region(s, p)))
				continue;
			sht_board_save(pb, s->psnap);
			saves = sht_board_play(pb, (enum sht_color)c, p, NULL) == SHT_LEGAL &&
			    pb->color[q] == c && !sht_tactics_capturable(&s->tactics, q);
			sht_board_restore(pb, s->psnap);
			if (!saves)
				continue;
			best = p;
			if (in_open_region(s, p))
				break;
		}
		if (best != SHT_NO_POINT)
			return best;
	}
	return SHT_NO_POINT;
}

/* Distinct groups of colour c next to p: the tax's groups (chains joined by a tiger's mouth or
 * miai points are one already, and a dame between them joins nothing). */
static int
distinct_groups(const struct settle *s, int p, int c)
{
	const struct sht_board *b = s->b;
	int ids[4], n = 0;

	for (int d = 0; d < 4; d++) {
		int q = p + b->dir[d];
		bool known = false;

		if (b->color[q] != c)
			continue;
		for (int i = 0; i < n; i++)
			known |= ids[i] == s->group[q];
		if (!known)
			ids[n++] = s->group[q];
	}
	return n;
}

/*
 * A dame for c: a point of an open region the playouts do not give clearly to either side, next
 * to c's stones.  Under the group tax the dame that joins most of c's chains, or separates most
 * of the opponent's, comes first (reason connection).
 */
static int
find_dame(struct settle *s, int c, bool tax, int *reason)
{
	const struct sht_board *b = s->b;
	int best = SHT_NO_POINT, best_score = -1;

	for (int i = 0; i < b->npoints; i++) {
		int p = s->order[i], score;

		if (b->color[p] != SHT_EMPTY || !in_open_region(s, p) || clear_owner(s, p) != SHT_EMPTY ||
		    touches(s, p, c) == 0 || (s->opt->finished && touches(s, p, 3 - c) == 0) ||
		    !playable(s, c, p) || traps_in_atari(s, c, p))
			continue;
		score = 0;
		if (tax) {
			int own = distinct_groups(s, p, c), theirs = distinct_groups(s, p, 3 - c);

			score = (own > 1 ? own - 1 : 0) + (theirs > 1 ? theirs - 1 : 0);
		}
		/* Points next to both colours first: they are the dame proper. */
		score = score * 2 + (touches(s, p, 3 - c) > 0);
		if (score > best_score) {
			best_score = score;
			best = p;
		}
	}
	*reason = tax && best_score >= 2 ? SHT_SETTLE_CONNECTION : SHT_SETTLE_DAME;
	return best;
}

/*
 * A liberty, on the board with the dead standing, of the chain that still stands there on p (a
 * dead stone of the opponent, taken off the settled board), that c may play on the settled
 * board; SHT_NO_POINT when none.  A wall on the dead stone's own point would be a stone where
 * one still stands in play: its owner could still connect it out, so c closes the boundary on
 * its liberty instead.
 */
static int
stone_liberty(struct settle *s, int c, int p)
{
	const struct sht_board *pb = s->present;
	int t = p, best = SHT_NO_POINT;

	do {
		for (int d = 0; d < 4; d++) {
			int r = t + pb->dir[d];

			if (pb->color[r] == SHT_EMPTY && s->b->color[r] == SHT_EMPTY &&
			    (best == SHT_NO_POINT || s->rank[r] < s->rank[best]) && playable(s, c, r))
				best = r;
		}
		t = pb->next[t];
	} while (t != p);
	return best;
}

/* A point c clearly owns, in an open region, next to an opponent stone or a point the opponent
 * clearly owns: where c's wall has to stand. */
static int
find_boundary(struct settle *s, int c)
{
	const struct sht_board *b = s->b;

	if (s->opt->finished)
		return SHT_NO_POINT;
	for (int i = 0; i < b->npoints; i++) {
		int p = s->order[i], lib;
		bool faces = false;

		if (b->color[p] != SHT_EMPTY || !in_open_region(s, p) || clear_owner(s, p) != c)
			continue;
		for (int d = 0; d < 4; d++) {
			int q = p + b->dir[d];

			faces |= b->color[q] == 3 - c ||
			    (b->color[q] == SHT_EMPTY && clear_owner(s, q) == 3 - c);
		}
		if (!faces || !playable(s, c, p) || traps_in_atari(s, c, p))
			continue;
		if (s->present->color[p] == SHT_EMPTY)
			return p;
		if ((lib = stone_liberty(s, c, p)) != SHT_NO_POINT)
			return lib;
	}
	return SHT_NO_POINT;
}

static int
choose(struct settle *s, int c, int *reason)
{
	int p;
	bool area = s->opt->counting == SHT_SETTLE_AREA;

	if ((p = find_capture(s, c)) != SHT_NO_POINT) {
		*reason = SHT_SETTLE_CAPTURE;
		return p;
	}
	if ((p = find_protect(s, c)) != SHT_NO_POINT) {
		*reason = SHT_SETTLE_PROTECT;
		return p;
	}
	if (!s->opt->finished && (p = find_danger(s, c)) != SHT_NO_POINT) {
		*reason = SHT_SETTLE_PROTECT;
		return p;
	}

	if (area || s->opt->group_tax) {
		if ((p = find_dame(s, c, s->opt->group_tax, reason)) != SHT_NO_POINT)
			return p;
		*reason = SHT_SETTLE_BOUNDARY;
		return find_boundary(s, c);
	}
	if ((p = find_boundary(s, c)) != SHT_NO_POINT) {
		*reason = SHT_SETTLE_BOUNDARY;
		return p;
	}
	if ((p = find_dame(s, c, false, reason)) != SHT_NO_POINT)
		return p;
	/* Once the dame are filled, the weaknesses they leave (docs/dead-stones.md: read then, the
	 * Edo-period games gained 15 exact results; read before closing boundaries, they gained
	 * 13 and lost 1 within 2 points, as a chain on an open boundary is read as weak before the
	 * wall that protects it stands). */
	if (!s->opt->finished && (p = find_weak(s, c)) != SHT_NO_POINT) {
		*reason = SHT_SETTLE_PROTECT;
		return p;
	}
	return SHT_NO_POINT;
}

/* The verdict's dead stones of the chain at q on `present` are alive after all: they leave the
 * dead map and the captor's points, and are listed in out->revived. */
static void
mark_alive(struct settle *s, int q, struct sht_settle_result *out)
{
	const struct sht_board *pb = s->present;
	int t = q;

	do {
		if (s->dead[t]) {
			s->dead[t] = 0;
			s->captor[t] = SHT_EMPTY;
			out->revived[out->nrevived++] = t;
		}
		t = pb->next[t];
	} while (t != q);
}

/*
 * In a record that stopped before the end, a chain the verdict calls dead but whose capture
 * would be a snapback (capture_is_snapback, on the board with the dead standing) is alive: the
 * playouts call it dead because a random opponent takes it, a player would not, and the settle
 * step never takes it either.
 */
static void
keep_snapbacks(struct settle *s, struct sht_settle_result *out)
{
	struct sht_board *pb = s->present;

	for (int q = 0; q < pb->npoints; q++)
		if (s->dead[q] && pb->chain[q] == q && pb->libs[q] == 1 &&
		    capture_is_snapback(pb, s->psnap, q))
			mark_alive(s, q, out);
}

/*
 * After c's settle move at p, played also on `present`: when it joined a chain the verdict calls
 * dead to a live chain of c there, those stones are alive (their owner connected them, as a
 * player does with a stone that is dead only while cut off).  They go back on the settled board
 * and off the prisoners.  Not when one of their points is taken on the settled board, or when
 * putting them back would leave a chain there with no liberty: the two boards have parted there.
 * Nor when the revived chain would be in atari there: the move saved nothing, and the
 * opponent would take the revived stones together with the live chain they joined (measured:
 * reviving such chains cost 2 and 7 exact on two playout seeds, and a chain that only the
 * snapback rule keeps alive, joined to a large dead group, once gave 36 points away).
 */
static void
revive_connected(struct settle *s, int p, int c, struct sht_settle_result *out)
{
	struct sht_board *pb = s->present, *b = s->b;
	int t = p, ndead = 0, first = out->nrevived;
	bool live = false, ok = true;

	do {
		if (s->dead[t] && b->color[t] != SHT_EMPTY)
			return;
		ndead += s->dead[t];
		live |= t != p && !s->dead[t];
		t = pb->next[t];
	} while (t != p);
	if (ndead == 0 || !live)
		return;
	sht_board_save(b, s->snap);
	t = p;
	do {
		if (s->dead[t])
			b->color[t] = (uint8_t)c;
		t = pb->next[t];
	} while (t != p);
	sht_board_rebuild(b);
	t = p;
	do {
		for (int d = 0; d < 5; d++) {
			int r = d < 4 ? t + b->dir[d] : t;

			ok &= (b->color[r] != SHT_BLACK && b->color[r] != SHT_WHITE) ||
			    b->libs[b->chain[r]] > 0;
		}
		t = pb->next[t];
	} while (t != p);
	if (!ok || b->libs[b->chain[p]] < 2) {
		sht_board_restore(b, s->snap);
		return;
	}
	mark_alive(s, p, out);
	out->removed[c] -= out->nrevived - first;
}

void
sht_settle_result_free(struct sht_settle_result *r)
{
	sht_board_free(r->board);
	free(r->moves);
	free(r->revived);
	memset(r, 0, sizeof(*r));
}

/* Every point of b into order (b->npoints of them): the points on the board as `scan` reads
 * them (struct sht_settle_options), then the border. */
static void
scan_order(const struct sht_board *b, int scan, int *order)
{
	int w = sht_board_width(b), h = sht_board_height(b), k = 0;
	bool by_column = scan & 4;
	int outer = by_column ? w : h, inner = by_column ? h : w;

	for (int a = 0; a < outer; a++)
		for (int i = 0; i < inner; i++) {
			int x = by_column ? a : i, y = by_column ? i : a;

			if (scan & 1)
				x = w - 1 - x;
			if (scan & 2)
				y = h - 1 - y;
			order[k++] = sht_board_point(b, x, y);
		}
	for (int p = 0; p < b->npoints; p++)
		if (b->color[p] == SHT_OFFBOARD)
			order[k++] = p;
}

bool
sht_settle(const struct sht_board *src, const uint8_t *dead, const struct sht_settle_options *opt,
    struct sht_settle_result *out)
{
	struct settle s = { 0 };
	int capacity, c, passes = 0, max_moves;

	memset(out, 0, sizeof(*out));
	out->board = sht_board_clone(src);
	if (out->board == NULL)
		return false;
	s.b = out->board;
	s.opt = opt;
	s.owned_confidence = opt->owned_confidence > 0 ? opt->owned_confidence :
	    DEFAULT_OWNED_CONFIDENCE;
	capacity = s.b->npoints;
	s.maxregions = capacity;
	s.label = malloc((size_t)capacity * sizeof(*s.label));
	s.regions = malloc((size_t)capacity * sizeof(*s.regions));
	s.seen = calloc((size_t)capacity, 1);
	s.captor = calloc((size_t)capacity, 1);
	s.dead = calloc((size_t)capacity, 1);
	s.order = malloc((size_t)capacity * sizeof(*s.order));
	s.rank = malloc((size_t)capacity * sizeof(*s.rank));
	s.visit = calloc((size_t)capacity, sizeof(*s.visit));
	if (opt->group_tax)
		s.group = malloc((size_t)capacity * sizeof(*s.group));
	/* Every move fills a point; captures give some back.  Twice the board bounds any honest
	 * settle, and stops a pathological one. */
	max_moves = 2 * capacity;
	out->moves = malloc((size_t)max_moves * sizeof(*out->moves));
	out->revived = malloc((size_t)capacity * sizeof(*out->revived));
	if (s.label == NULL || s.regions == NULL || s.seen == NULL || s.captor == NULL ||
	    s.dead == NULL || s.order == NULL || s.rank == NULL || s.visit == NULL ||
	    out->moves == NULL || out->revived == NULL ||
	    (opt->group_tax && s.group == NULL))
		goto fail;
	scan_order(s.b, opt->scan & (SHT_SETTLE_SCANS - 1), s.order);
	for (int i = 0; i < capacity; i++)
		s.rank[s.order[i]] = i;

	/* The dead stay on the board while the game is finished, as they do in play: a chain
	 * short of liberties because of them must still be protected. */
	for (int p = 0; dead != NULL && p < capacity; p++) {
		if (!dead[p] || (s.b->color[p] != SHT_BLACK && s.b->color[p] != SHT_WHITE))
			continue;
		s.dead[p] = 1;
		s.captor[p] = (uint8_t)(3 - s.b->color[p]);
	}
	s.present = sht_board_clone(src);
	s.snap = sht_board_snapshot_new(s.b);
	if (s.present == NULL || s.snap == NULL ||
	    (s.psnap = sht_board_snapshot_new(s.present)) == NULL)
		goto fail;
	sht_tactics_init(&s.tactics, s.present);
	if (!opt->finished)
		keep_snapbacks(&s, out);
	for (int p = 0; p < capacity; p++) {
		if (!s.dead[p])
			continue;
		out->removed[s.b->color[p]]++;
		bit_clear(s.b->bits[s.b->color[p] - 1], p);
		s.b->color[p] = SHT_EMPTY;
	}
	sht_board_rebuild(s.b);

	c = sht_board_to_move(src);
	if (opt->finished && opt->counting == SHT_SETTLE_AREA && !opt->group_tax)
		passes = 2;
	while (passes < 2 && out->nmoves < max_moves) {
		int reason = 0, p;

		if (!label_regions(&s))
			goto fail;
		p = choose(&s, c, &reason);
		if (p == SHT_NO_POINT) {
			passes++;
		} else {
			struct sht_settle_move *m = &out->moves[out->nmoves++];
			const int *gone;
			int ngone;
			/* Unsure: a point of an open area the playouts give to neither side, where
			 * the move decides whose it is.  A dame between both colours' stones is
			 * nobody's whoever fills it. */
			bool unsure = (reason == SHT_SETTLE_DAME || reason == SHT_SETTLE_CONNECTION) &&
			    opt->owner != NULL && clear_owner(&s, p) == SHT_EMPTY &&
			    (touches(&s, p, SHT_BLACK) == 0 || touches(&s, p, SHT_WHITE) == 0);

			if (sht_board_play(s.b, (enum sht_color)c, p, NULL) != SHT_LEGAL)
				goto fail; /* checked legal just before: cannot happen */
			/* On the board with the dead a point may be taken or the move illegal;
			 * it only serves the teire check, which then sees a little less. */
			if (sht_board_at(s.present, p) == SHT_EMPTY &&
			    sht_board_play(s.present, (enum sht_color)c, p, NULL) == SHT_LEGAL) {
				ngone = sht_board_last_removed(s.present, &gone);
				for (int i = 0; i < ngone; i++)
					s.dead[gone[i]] = 0;
				if (!opt->finished)
					revive_connected(&s, p, c, out);
			}
			m->point = p;
			m->color = c;
			m->reason = reason;
			m->unsure = unsure;
			out->unsure += m->unsure;
			passes = 0;
		}
		c = 3 - c;
	}
	sht_board_set_to_move(s.b, (enum sht_color)c);
	free(s.label);
	free(s.regions);
	free(s.seen);
	free(s.captor);
	free(s.dead);
	free(s.order);
	free(s.rank);
	free(s.visit);
	free(s.group);
	sht_board_free(s.present);
	sht_board_snapshot_free(s.snap);
	sht_board_snapshot_free(s.psnap);
	sht_tactics_release(&s.tactics);
	return true;
fail:
	free(s.label);
	free(s.regions);
	free(s.seen);
	free(s.captor);
	free(s.dead);
	free(s.order);
	free(s.rank);
	free(s.visit);
	free(s.group);
	sht_board_free(s.present);
	sht_board_snapshot_free(s.snap);
	sht_board_snapshot_free(s.psnap);
	sht_tactics_release(&s.tactics);
	sht_settle_result_free(out);
	return false;
}
