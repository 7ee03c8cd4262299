/*
 * The group tax's groups as historians count them (docs/rules.md section 5.4): living chains
 * that the opponent cannot cut apart count once.
 */
#include <stdlib.h>
#include <string.h>

#include "area_impl.h"
#include "board_impl.h"

/* The working state: a board of the live stones alone, on which cuts and answers are tried, and
 * a union-find forest over its chains (indexed by chain id, a stone of the chain). */
struct grouping {
	struct sht_board *b;
	struct sht_board_snapshot *snap;
	int *parent;
};

static int
group_root(int *parent, int p)
{
	while (parent[p] != p) {
		parent[p] = parent[parent[p]];
		p = parent[p];
	}
	return p;
}

/* Joins two chains' groups; the smaller root stays, so the result does not depend on the
 * order of joins.  Returns whether they were apart. */
static bool
join_groups(int *parent, int p, int q)
{
	p = group_root(parent, p);
	q = group_root(parent, q);
	if (p == q)
		return false;
	if (p < q)
		parent[q] = p;
	else
		parent[p] = q;
	return true;
}

/*
 * Whether colour c's chains beside the empty point p cannot be cut there: the opponent's stone
 * on p would be suicide, or would be captured at once by a move that keeps two liberties.  A
 * tiger's mouth is the usual shape.  The mouth is broken when the cutting stone captures, when
 * it has two liberties, or when taking it leaves the taker in atari (a ko, or a snapback): the
 * opponent's stone then stays, or comes back.
 */
static bool
uncuttable_point(struct grouping *g, int c, int p)
{
	struct sht_board *b = g->b;
	struct sht_move_info info;
	enum sht_verdict v = sht_board_check(b, SHT_OTHER(c), p, &info);
	bool held = false;
	int lib;

	if (v == SHT_ILLEGAL_SUICIDE)
		return true;
	if (v != SHT_LEGAL || info.captured > 0)
		return false;
	sht_board_save(b, g->snap);
	sht_board_play(b, SHT_OTHER(c), p, &info);
	lib = sht_board_atari_liberty(b, p);
	if (lib != SHT_NO_POINT && sht_board_play(b, c, lib, &info) == SHT_LEGAL &&
	    b->color[p] == SHT_EMPTY && b->libs[b->chain[lib]] >= 2)
		held = true;
	sht_board_restore(b, g->snap);
	return held;
}

/*
 * Whether c, after the opponent cuts at p, connects at q: the cut captures nothing, and the
 * connection is legal and leaves the joined chain, and every chain of c beside the cutting
 * stone, two liberties (a cut that also ataris elsewhere wins one of the two).  A cut that is
 * suicide is no cut at all.
 */
static bool
connects_after_cut(struct grouping *g, int c, int p, int q)
{
	struct sht_board *b = g->b;
	struct sht_move_info info;
	enum sht_verdict v;
	bool ok;

	sht_board_save(b, g->snap);
	v = sht_board_play(b, SHT_OTHER(c), p, &info);
	if (v == SHT_ILLEGAL_SUICIDE) {
		ok = true;
	} else {
		ok = v == SHT_LEGAL && info.captured == 0 &&
		    sht_board_play(b, c, q, &info) == SHT_LEGAL && b->libs[b->chain[q]] >= 2;
		for (int d = 0; d < 4 && ok; d++) {
			int r = p + b->dir[d];

			if (b->color[r] == c && b->libs[b->chain[r]] < 2)
				ok = false;
		}
	}
	sht_board_restore(b, g->snap);
	return ok;
}

/* The distinct groups of colour c beside point p (at most 4), in out; returns how many. */
static int
groups_beside(struct grouping *g, int c, int p, int out[4])
{
	const struct sht_board *b = g->b;
	int n = 0;

	for (int d = 0; d < 4; d++) {
		int q = p + b->dir[d], r;
		bool seen = false;

		if (b->color[q] != c)
			continue;
		r = group_root(g->parent, b->chain[q]);
		for (int i = 0; i < n; i++)
			seen |= out[i] == r;
		if (!seen)
			out[n++] = r;
	}
	return n;
}

/* One point two groups of one colour both touch: a connection point between them. */
struct shared_point {
	int a, b; /* the two groups' roots, a < b */
	int point;
};

static int
shared_point_order(const void *x, const void *y)
{
	const struct shared_point *s = x, *t = y;

	if (s->a != t->a)
		return s->a < t->a ? -1 : 1;
	if (s->b != t->b)
		return s->b < t->b ? -1 : 1;
	return (s->point > t->point) - (s->point < t->point);
}

/*
 * Joins groups that share two connection points or more, when every cut at one of them is
 * answered by a connection at another (miai: a bamboo joint, a diagonal with both points
 * empty).  Repeated until nothing joins, because a join can give the joined group a second
 * connection point with a third group.  Each round that joins lowers the number of groups, so
 * the loop ends.  Returns false when memory runs out.
 */
static bool
join_miai(struct grouping *g)
{
	const struct sht_board *b = g->b;
	/* At most 6 pairs at each point (4 groups beside it). */
	struct shared_point *sp = malloc((size_t)b->npoints * 6 * sizeof(*sp));
	bool changed = true;

	if (sp == NULL)
		return false;
	while (changed) {
		int n = 0;

		changed = false;
		for (int p = 0; p < b->npoints; p++) {
			if (b->color[p] != SHT_EMPTY)
				continue;
			for (int c = SHT_BLACK; c <= SHT_WHITE; c++) {
				int roots[4], k = groups_beside(g, c, p, roots);

				for (int i = 0; i < k; i++)
					for (int j = i + 1; j < k; j++) {
						sp[n].a = roots[i] < roots[j] ? roots[i] : roots[j];
						sp[n].b = roots[i] < roots[j] ? roots[j] : roots[i];
						sp[n++].point = p;
					}
			}
		}
		qsort(sp, (size_t)n, sizeof(*sp), shared_point_order);
		for (int i = 0, end; i < n; i = end) {
			int c = b->color[sp[i].a];
			bool miai = true;

			for (end = i + 1; end < n && sp[end].a == sp[i].a && sp[end].b == sp[i].b;
			    end++)
				;
			if (end - i < 2 || group_root(g->parent, sp[i].a) ==
			    group_root(g->parent, sp[i].b))
				continue;
			/* Every cut must have an answer among the other points. */
			for (int cut = i; cut < end && miai; cut++) {
				bool answered = false;

				for (int ans = i; ans < end && !answered; ans++)
					answered = ans != cut && connects_after_cut(g, c, sp[cut].point,
					    sp[ans].point);
				miai = answered;
			}
			if (miai)
				changed |= join_groups(g->parent, sp[i].a, sp[i].b);
		}
	}
	free(sp);
	return true;
}

/*
 * A chain in atari that the dead map calls alive must be connected at its last liberty, or it
 * is lost: when that move is legal and leaves two liberties, the chains beside the liberty are
 * one group.
 */
static void
join_atari_chains(struct grouping *g)
{
	struct sht_board *b = g->b;

	for (int s = 0; s < b->npoints; s++) {
		int c = b->color[s], lib, roots[4], k;
		struct sht_move_info info;
		bool connects;

		if ((c != SHT_BLACK && c != SHT_WHITE) || b->chain[s] != s ||
		    (lib = sht_board_atari_liberty(b, s)) == SHT_NO_POINT ||
		    (k = groups_beside(g, c, lib, roots)) < 2)
			continue;
		sht_board_save(b, g->snap);
		connects = sht_board_play(b, c, lib, &info) == SHT_LEGAL &&
		    b->libs[b->chain[lib]] >= 2;
		sht_board_restore(b, g->snap);
		for (int i = 1; i < k && connects; i++)
			join_groups(g->parent, roots[0], roots[i]);
	}
}

/*
 * Empty regions of the live stones.  A territory region (one colour's stones around it) of two
 * points or more joins every chain around it: the opponent cannot live there, so nothing
 * separates them.  A one-point region is a connection point like any other (the opponent's
 * stone there is suicide unless it captures).  owner[p] receives, for each territory point, a
 * chain around it, so the region's group owns it.
 */
static bool
join_through_territory(struct grouping *g, int *owner)
{
	const struct sht_board *b = g->b;
	int *region = malloc((size_t)b->npoints * 2 * sizeof(*region)), *stack;

	if (region == NULL)
		return false;
	stack = region + b->npoints;
	for (int p = 0; p < b->npoints; p++)
		owner[p] = -1;
	for (int p = 0; p < b->npoints; p++) {
		int n = 0, top = 0, borders = 0, first = -1;

		if (b->color[p] != SHT_EMPTY || owner[p] != -1)
			continue;
		owner[p] = 0; /* seen; the owner is set below */
		stack[top++] = p;
		while (top > 0) {
			int s = stack[--top];

			region[n++] = s;
			for (int d = 0; d < 4; d++) {
				int q = s + b->dir[d];

				if (b->color[q] == SHT_BLACK || b->color[q] == SHT_WHITE) {
					borders |= 1 << b->color[q];
					if (first < 0)
						first = b->chain[q];
				} else if (b->color[q] == SHT_EMPTY && owner[q] == -1) {
					owner[q] = 0;
					stack[top++] = q;
				}
			}
		}
		if (borders != (1 << SHT_BLACK) && borders != (1 << SHT_WHITE)) {
			for (int i = 0; i < n; i++)
				owner[region[i]] = -2; /* dame or nobody's */
			continue;
		}
		for (int i = 0; i < n; i++) {
			int s = region[i];

			owner[s] = first;
			for (int d = 0; d < 4 && n >= 2; d++) {
				int q = s + b->dir[d];

				if (b->color[q] == SHT_BLACK || b->color[q] == SHT_WHITE)
					join_groups(g->parent, first, b->chain[q]);
			}
		}
	}
	free(region);
	return true;
}

/* Joins the chains around every empty point that cannot be cut (see uncuttable_point). */
static void
join_uncuttable_points(struct grouping *g)
{
	const struct sht_board *b = g->b;

	for (int p = 0; p < b->npoints; p++) {
		if (b->color[p] != SHT_EMPTY)
			continue;
		for (int c = SHT_BLACK; c <= SHT_WHITE; c++) {
			int roots[4], k = groups_beside(g, c, p, roots);

			if (k >= 2 && uncuttable_point(g, c, p))
				for (int i = 1; i < k; i++)
					join_groups(g->parent, roots[0], roots[i]);
		}
	}
}

/* A board of b's live stones alone, for trying moves: simple ko, no history, no suicide of
 * several stones, as many stones as wanted. */
static struct sht_board *
live_stones_board(const struct sht_board *src, const uint8_t *dead)
{
	struct sht_board_options o = src->opt;
	struct sht_board *b;

	o.ko = SHT_KO_SIMPLE;
	o.track_history = false;
	o.multi_stone_suicide = false;
	o.supply[SHT_BLACK] = o.supply[SHT_WHITE] = SHT_UNLIMITED;
	b = sht_board_new(&o);
	if (b == NULL)
		return NULL;
	memcpy(b->color, src->color, (size_t)src->npoints);
	if (dead != NULL)
		for (int p = 0; p < src->npoints; p++)
			if (dead[p] && (b->color[p] == SHT_BLACK || b->color[p] == SHT_WHITE))
				b->color[p] = SHT_EMPTY;
	sht_board_rebuild(b);
	return b;
}

bool
sht_area_tax_groups(const struct sht_board *src, const uint8_t *dead, int *label,
    struct sht_tax_groups *out)
{
	struct grouping g = { NULL, NULL, NULL };
	struct sht_area area;
	int *owner = NULL, *number = NULL, n = 0;
	uint8_t *sekipt = NULL, *in_seki = NULL, *eyed = NULL;
	bool ok = false;

	memset(out, 0, sizeof(*out));
	memset(label, 0, (size_t)src->npoints * sizeof(*label));
	g.b = live_stones_board(src, dead);
	if (g.b == NULL)
		return false;
	g.snap = sht_board_snapshot_new(g.b);
	g.parent = malloc((size_t)src->npoints * sizeof(*g.parent));
	owner = malloc((size_t)src->npoints * sizeof(*owner));
	number = calloc((size_t)src->npoints, sizeof(*number));
	sekipt = malloc((size_t)src->npoints);
	in_seki = calloc((size_t)src->npoints, 1);
	eyed = calloc((size_t)src->npoints, 1);
	if (g.snap == NULL || g.parent == NULL || owner == NULL || number == NULL ||
	    sekipt == NULL || in_seki == NULL || eyed == NULL)
		goto out;
	for (int p = 0; p < src->npoints; p++)
		g.parent[p] = p;
	if (!join_through_territory(&g, owner))
		goto out;
	join_uncuttable_points(&g);
	join_atari_chains(&g);
	if (!join_miai(&g))
		goto out;

	/* Seki as the ILRs see it (sht_area_ilr), so that the two agree on which groups are in
	 * seki: a group with a stone beside a seki point of the position as given. */
	sht_area_compute(src, dead, &area);
	sht_area_seki_points(src, &area, sekipt);
	for (int p = 0; p < src->npoints; p++) {
		int c = g.b->color[p];

		if (c == SHT_BLACK || c == SHT_WHITE) {
			for (int d = 0; d < 4; d++)
				if (sekipt[p + g.b->dir[d]])
					in_seki[group_root(g.parent, g.b->chain[p])] = 1;
		} else if (c == SHT_EMPTY && owner[p] >= 0) {
			eyed[group_root(g.parent, owner[p])] = 1;
		}
	}
	/* Number the groups in board order and label their stones and territory. */
	for (int p = 0; p < src->npoints; p++) {
		int c = g.b->color[p], r;

		if (c == SHT_BLACK || c == SHT_WHITE)
			r = group_root(g.parent, g.b->chain[p]);
		else if (c == SHT_EMPTY && owner[p] >= 0)
			r = group_root(g.parent, owner[p]);
		else
			continue;
		if (number[r] == 0) {
			number[r] = ++n;
			c = g.b->color[r];
			if (!in_seki[r])
				out->groups[c]++;
			else if (eyed[r])
				out->seki_eyed[c]++;
			else
				out->seki_eyeless[c]++;
		}
		label[p] = number[r];
	}
	ok = true;
out:
	if (!ok) {
		memset(out, 0, sizeof(*out));
		memset(label, 0, (size_t)src->npoints * sizeof(*label));
	}
	sht_board_snapshot_free(g.snap);
	sht_board_free(g.b);
	free(g.parent);
	free(owner);
	free(number);
	free(sekipt);
	free(in_seki);
	free(eyed);
	return ok;
}
