/*
 * Scoring primitives: bitset area maps, region labelling, seki points, independent-life regions,
 * and the counts a ruleset scores from (Benson's pass-alive test is in benson.c).
 */
#include <stdlib.h>
#include <string.h>

#include "area_impl.h"
#include "board_impl.h"

static inline bool
bit_get(const uint64_t *bits, int p)
{
	return (bits[p >> 6] >> (p & 63)) & 1;
}

static int
words_for(const struct sht_board *b)
{
	return (b->npoints + 63) / 64;
}

/* Grows reach through passable points until it stops changing.  Sweeps alternate direction and
 * update in place, so a region is crossed in a few sweeps whatever its shape (measured: 3-6
 * sweeps on finished 19x19 games). */
static void
flood(uint64_t *reach, const uint64_t *passable, int stride, int nw)
{
	bool changed = true;
	int up = 64 - stride;

	for (int sweep = 0; changed; sweep++) {
		changed = false;
		for (int k = 0; k < nw; k++) {
			int i = (sweep & 1) ? nw - 1 - k : k;
			uint64_t x = reach[i];
			uint64_t lo = i > 0 ? reach[i - 1] : 0;
			uint64_t hi = i + 1 < nw ? reach[i + 1] : 0;
			uint64_t grown = (x << 1) | (lo >> 63) | (x >> 1) | (hi << 63) |
			    (x << stride) | (lo >> up) | (x >> stride) | (hi << up);
			uint64_t next = x | (grown & passable[i]);

			if (next != x) {
				reach[i] = next;
				changed = true;
			}
		}
	}
}

static int
popcount_words(const uint64_t *bits, int nw)
{
	int n = 0;

	for (int i = 0; i < nw; i++)
		n += __builtin_popcountll(bits[i]);
	return n;
}

/* The board's own points (not the border) as a bitset: one run of w bits a row. */
static void
on_board_mask(const struct sht_board *b, uint64_t *mask)
{
	uint64_t row = b->w == 64 ? ~UINT64_C(0) : (UINT64_C(1) << b->w) - 1;

	memset(mask, 0, SHT_BITSET_WORDS * sizeof(*mask));
	for (int y = 0; y < b->h; y++) {
		int p = (y + 1) * b->stride + 1, i = p >> 6, s = p & 63;

		mask[i] |= row << s;
		if (s + b->w > 64)
			mask[i + 1] |= row >> (64 - s);
	}
}

void
sht_area_compute(const struct sht_board *b, const uint8_t *dead, struct sht_area *a)
{
	int nw = words_for(b);
	uint64_t live[2][SHT_BITSET_WORDS], open[SHT_BITSET_WORDS];
	uint64_t reach[2][SHT_BITSET_WORDS];

	memset(a, 0, sizeof(*a));
	memcpy(live, b->bits, sizeof(live));
	if (dead != NULL) {
		/* Only the stones can be dead: visit their bits, not every point. */
		for (int c = 0; c < 2; c++)
			for (int i = 0; i < nw; i++)
				for (uint64_t w = b->bits[c][i]; w != 0; w &= w - 1) {
					int p = 64 * i + __builtin_ctzll(w);

					if (dead[p])
						live[c][i] &= ~(UINT64_C(1) << (p & 63));
				}
	}
	/* Open points: on the board and not a live stone. */
	on_board_mask(b, open);
	for (int i = 0; i < nw; i++) {
		open[i] &= ~(live[0][i] | live[1][i]);
		reach[0][i] = live[0][i];
		reach[1][i] = live[1][i];
	}
	flood(reach[0], open, b->stride, nw);
	flood(reach[1], open, b->stride, nw);
	for (int i = 0; i < nw; i++) {
		uint64_t rb = reach[0][i] & open[i], rw = reach[1][i] & open[i];

		a->black[i] = live[0][i] | (rb & ~rw);
		a->white[i] = live[1][i] | (rw & ~rb);
		a->dame[i] = rb & rw;
		a->neutral_points += __builtin_popcountll(open[i] & ~(rb | rw));
	}
	a->black_stones = popcount_words(live[0], nw);
	a->white_stones = popcount_words(live[1], nw);
	a->black_territory = popcount_words(a->black, nw) - a->black_stones;
	a->white_territory = popcount_words(a->white, nw) - a->white_stones;
	a->dame_points = popcount_words(a->dame, nw);
}

int
sht_area_owner(const struct sht_area *a, int p)
{
	if (p < 0 || p >= 64 * SHT_BITSET_WORDS)
		return SHT_EMPTY;
	if (bit_get(a->black, p))
		return SHT_BLACK;
	if (bit_get(a->white, p))
		return SHT_WHITE;
	return SHT_EMPTY;
}

static inline bool
is_live_stone(const struct sht_board *b, const uint8_t *dead, int p)
{
	int c = b->color[p];

	return (c == SHT_BLACK || c == SHT_WHITE) && !(dead != NULL && dead[p]);
}

int
sht_area_regions(const struct sht_board *b, const uint8_t *dead, int *label,
    struct sht_region *regions, int max)
{
	int n = 0, *stack;

	stack = malloc((size_t)b->npoints * sizeof(*stack));
	if (stack == NULL)
		return -1;
	memset(label, 0, (size_t)b->npoints * sizeof(*label));
	for (int p = 0; p < b->npoints; p++) {
		struct sht_region r = { 0, p, 0, 0 };
		int top = 0;

		if (b->color[p] == SHT_OFFBOARD || is_live_stone(b, dead, p) || label[p] != 0)
			continue;
		n++;
		label[p] = n;
		stack[top++] = p;
		while (top > 0) {
			int s = stack[--top];

			r.size++;
			r.empty += b->color[s] == SHT_EMPTY;
			for (int d = 0; d < 4; d++) {
				int q = s + b->dir[d];

				if (b->color[q] == SHT_OFFBOARD)
					continue;
				if (is_live_stone(b, dead, q)) {
					r.borders |= 1 << b->color[q];
				} else if (label[q] == 0) {
					label[q] = n;
					stack[top++] = q;
				}
			}
		}
		if (n <= max)
			regions[n - 1] = r;
	}
	free(stack);
	return n;
}

/* Seki points: dame that neither colour can fill without putting itself in atari, the shared
 * liberties of a seki.  Dame that one side can fill are only unfinished business.  Returns how
 * many there are. */
int
sht_area_seki_points(const struct sht_board *b, const struct sht_area *a, uint8_t *out)
{
	uint8_t seen[64 * SHT_BITSET_WORDS];
	int n = 0;

	memset(out, 0, (size_t)b->npoints);
	memset(seen, 0, (size_t)b->npoints);
	/* Only dame can be seki points: visit their bits, most positions have few or none. */
	for (int i = 0; i < words_for(b); i++)
		for (uint64_t w = a->dame[i]; w != 0; w &= w - 1) {
			int p = 64 * i + __builtin_ctzll(w);

			if (b->color[p] == SHT_EMPTY && !sht_board_can_fill(b, SHT_BLACK, p, seen) &&
			    !sht_board_can_fill(b, SHT_WHITE, p, seen)) {
				out[p] = 1;
				n++;
			}
		}
	return n;
}

/* What the ILR scan learns beyond the labels: the colour's other groups (seki or unsettled). */
struct group_stats {
	int seki_territory[3];
	int eyed[3];
	int eyeless[3];
};

/* A point's part in the groups of sht_area_ilr: the colour that owns it (0: none), and whether
 * it holds one of that colour's live stones rather than a point of its territory. */
enum { OWN_COLOR = 3, OWN_STONE = 4 };

/* What the scan knows of one group, kept at its union-find root. */
struct group_info {
	int16_t first_stone; /* its first live stone in point order (0, a border point: none) */
	int16_t owned;       /* its points that are not live stones */
	int16_t eye;         /* the root of its first territory region, when eyes > 0 */
	uint8_t eyes;        /* separate territory regions, counted up to two */
	bool touches_seki;   /* a stone of it is beside a seki point */
	bool in_atari;       /* a chain of it has fewer than two liberties */
	int label;           /* ILR index + 1; 0 for a group that is no ILR */
};

/* The root of p's set, halving the path on the way. */
static inline int
uf_find(int16_t *parent, int p)
{
	while (parent[p] != p) {
		parent[p] = parent[parent[p]];
		p = parent[p];
	}
	return p;
}

/* Joins the sets of p and q; the smaller point is the root. */
static inline void
uf_join(int16_t *parent, int p, int q)
{
	int rp = uf_find(parent, p), rq = uf_find(parent, q);

	if (rp < rq)
		parent[rq] = (int16_t)rp;
	else if (rq < rp)
		parent[rp] = (int16_t)rq;
}

/* Whether the live chain of s has fewer than two liberties once the dead stones' points count
 * as empty (a chain that has two empty ones never is). */
static bool
chain_in_atari(const struct sht_board *b, const uint8_t *dead, int s)
{
	int liberty = SHT_NO_POINT, t = s;

	do {
		for (int d = 0; d < 4; d++) {
			int q = t + b->dir[d];

			if (b->color[q] == SHT_OFFBOARD || is_live_stone(b, dead, q) || q == liberty)
				continue;
			if (liberty != SHT_NO_POINT)
				return false; /* a second one */
			liberty = q;
		}
		t = b->next[t];
	} while (t != s);
	return true;
}

/*
 * Labels ILRs (see sht_area_ilr) given the area map, and gathers the non-ILR groups' stats.
 * A group is a connected set of one colour's owned points (its live stones and the points it
 * alone reaches: every such set holds a live stone), so one raster pass of union-find labels
 * them all, and a second pass gathers what decides each: a chain in atari, a stone beside a seki
 * point, and (only when there are seki points) its separate territory regions.  group may be
 * NULL when the labels are not wanted.
 */
static void
ilr_scan(const struct sht_board *b, const uint8_t *dead, const struct sht_area *a, int *group,
    int counts[3], uint8_t *seki, struct group_stats *stats)
{
	enum { MAXP = 64 * SHT_BITSET_WORDS };
	uint8_t own[MAXP], sekipt[MAXP];
	int16_t parent[MAXP], tparent[MAXP], roots[MAXP];
	struct group_info info[MAXP];
	int nw = words_for(b), nroots = 0, n = 0, stride = b->stride, nseki;
	bool seki_groups = false;

	counts[0] = counts[SHT_BLACK] = counts[SHT_WHITE] = 0;
	memset(stats, 0, sizeof(*stats));
	if (seki != NULL)
		memset(seki, 0, (size_t)b->npoints);
	nseki = sht_area_seki_points(b, a, sekipt);
	memset(own, 0, (size_t)b->npoints);
	for (int c = SHT_BLACK; c <= SHT_WHITE; c++) {
		const uint64_t *bits = c == SHT_BLACK ? a->black : a->white;

		for (int i = 0; i < nw; i++)
			for (uint64_t w = bits[i]; w != 0; w &= w - 1) {
				int p = 64 * i + __builtin_ctzll(w);

				own[p] = (uint8_t)(c | (is_live_stone(b, dead, p) ? OWN_STONE : 0));
			}
	}
	/* Pass one: the groups, and with seki points about, the territory regions (eyes). */
	for (int y = 0; y < b->h; y++) {
		int p = (y + 1) * stride + 1;

		for (int x = 0; x < b->w; x++, p++) {
			int o = own[p], c = o & OWN_COLOR;

			if (c == 0)
				continue;
			parent[p] = (int16_t)p;
			info[p] = (struct group_info){ 0 };
			if ((own[p - 1] & OWN_COLOR) == c)
				parent[p] = (int16_t)uf_find(parent, p - 1);
			if ((own[p - stride] & OWN_COLOR) == c)
				uf_join(parent, p, p - stride);
			if (nseki == 0 || (o & OWN_STONE))
				continue;
			tparent[p] = (int16_t)p;
			if (own[p - 1] == o)
				tparent[p] = (int16_t)uf_find(tparent, p - 1);
			if (own[p - stride] == o)
				uf_join(tparent, p, p - stride);
		}
	}
	/* Pass two: what each group holds, its groups listed by their first stone. */
	for (int y = 0; y < b->h; y++) {
		int p = (y + 1) * stride + 1;

		for (int x = 0; x < b->w; x++, p++) {
			int o = own[p], r;
			struct group_info *g;

			if (o == 0)
				continue;
			r = uf_find(parent, p);
			g = &info[r];
			if (!(o & OWN_STONE)) {
				g->owned++;
				if (nseki > 0) {
					int t = uf_find(tparent, p);

					if (g->eyes == 0) {
						g->eyes = 1;
						g->eye = (int16_t)t;
					} else if (g->eyes == 1 && g->eye != t) {
						g->eyes = 2;
					}
				}
				continue;
			}
			if (g->first_stone == 0) {
				g->first_stone = (int16_t)p;
				roots[nroots++] = (int16_t)r;
			}
			/* No chain of the group may be in atari: a dead stone's point counts as a
			 * liberty, so only a chain with fewer than two real ones needs counting. */
			if (!g->in_atari && b->chain[p] == p && b->libs[p] < 2)
				g->in_atari = chain_in_atari(b, dead, p);
			for (int d = 0; d < 4 && nseki > 0 && !g->touches_seki; d++)
				g->touches_seki = sekipt[p + b->dir[d]];
		}
	}
	/* An ILR has no chain in atari and no stone beside a seki point, or two separate
	 * territory regions: two eyes are life, whatever a chain of the group shares with the
	 * opponent, since it can join the eyes through the group's own points and then fill the
	 * shared liberty (a fight the position left open, not a seki).  Not an ILR and beside a
	 * seki point, a group lives in seki and its eyes are seki eyes; a group merely holding a
	 * chain in atari is unsettled, not seki, and keeps its territory. */
	for (int i = 0; i < nroots; i++) {
		struct group_info *g = &info[roots[i]];
		int c = own[roots[i]] & OWN_COLOR;

		if ((!g->touches_seki || g->eyes >= 2) && !g->in_atari) {
			g->label = ++n;
			counts[c]++;
		} else if (g->touches_seki) {
			stats->seki_territory[c] += g->owned;
			if (g->owned > 0)
				stats->eyed[c]++;
			else
				stats->eyeless[c]++;
			seki_groups = true;
		}
	}
	if (group != NULL)
		for (int p = 0; p < b->npoints; p++)
			group[p] = own[p] ? info[uf_find(parent, p)].label : 0;
	if (seki != NULL && seki_groups)
		for (int p = 0; p < b->npoints; p++) {
			const struct group_info *g;

			if (!(own[p] & OWN_STONE))
				continue;
			g = &info[uf_find(parent, p)];
			seki[p] = g->label == 0 && g->touches_seki;
		}
}

void
sht_area_ilr(const struct sht_board *b, const uint8_t *dead, int *group, int counts[3],
    uint8_t *seki)
{
	struct sht_area a;
	struct group_stats stats;

	sht_area_compute(b, dead, &a);
	ilr_scan(b, dead, &a, group, counts, seki, &stats);
}

void
sht_area_counts_of(const struct sht_board *b, const uint8_t *dead, const struct sht_area *a,
    struct sht_counts *out, uint8_t *seki)
{
	struct group_stats stats;
	int groups[3];

	memset(out, 0, sizeof(*out));
	out->size = sizeof(*out);
	ilr_scan(b, dead, a, NULL, groups, seki, &stats);
	out->stones[SHT_BLACK] = a->black_stones;
	out->stones[SHT_WHITE] = a->white_stones;
	out->territory[SHT_BLACK] = a->black_territory;
	out->territory[SHT_WHITE] = a->white_territory;
	out->dame = a->dame_points;
	out->neutral = a->neutral_points;
	/* The stones on the board that are not live are the dead ones. */
	out->dead[SHT_BLACK] = popcount_words(b->bits[0], words_for(b)) - a->black_stones;
	out->dead[SHT_WHITE] = popcount_words(b->bits[1], words_for(b)) - a->white_stones;
	for (int c = SHT_BLACK; c <= SHT_WHITE; c++) {
		out->captures[c] = b->captures[c];
		out->groups[c] = groups[c];
		out->seki_territory[c] = stats.seki_territory[c];
		out->seki_groups_eyed[c] = stats.eyed[c];
		out->seki_groups_eyeless[c] = stats.eyeless[c];
	}
	out->moves = b->moves;
}

void
sht_area_counts(const struct sht_board *b, const uint8_t *dead, struct sht_counts *out,
    uint8_t *seki)
{
	struct sht_area a;

	sht_area_compute(b, dead, &a);
	sht_area_counts_of(b, dead, &a, out, seki);
}

void
sht_area_owner_map(const struct sht_board *b, const struct sht_area *a, uint8_t *owner)
{
	memset(owner, SHT_EMPTY, (size_t)b->npoints);
	for (int i = 0; i < words_for(b); i++) {
		for (uint64_t w = a->black[i]; w != 0; w &= w - 1)
			owner[64 * i + __builtin_ctzll(w)] = SHT_BLACK;
		for (uint64_t w = a->white[i]; w != 0; w &= w - 1)
			owner[64 * i + __builtin_ctzll(w)] = SHT_WHITE;
	}
}
