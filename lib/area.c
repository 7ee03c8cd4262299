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

void
sht_area_compute(const struct sht_board *b, const uint8_t *dead, struct sht_area *a)
{
	int nw = words_for(b);
	uint64_t live[2][SHT_BITSET_WORDS], open[SHT_BITSET_WORDS];
	uint64_t reach[2][SHT_BITSET_WORDS];

	memset(a, 0, sizeof(*a));
	memcpy(live, b->bits, sizeof(live));
	if (dead != NULL) {
		for (int p = 0; p < b->npoints; p++)
			if (dead[p] && (b->color[p] == SHT_BLACK || b->color[p] == SHT_WHITE))
				live[b->color[p] - 1][p >> 6] &= ~(UINT64_C(1) << (p & 63));
	}
	/* Open points: on the board and not a live stone.  The on-board mask is the complement of
	 * the border, built from the stones and the empty points. */
	for (int i = 0; i < nw; i++)
		open[i] = 0;
	for (int y = 0; y < b->h; y++) {
		int p = (y + 1) * b->stride + 1;

		for (int x = 0; x < b->w; x++, p++)
			open[p >> 6] |= UINT64_C(1) << (p & 63);
	}
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
 * liberties of a seki.  Dame that one side can fill are only unfinished business. */
void
sht_area_seki_points(const struct sht_board *b, const struct sht_area *a, uint8_t *out)
{
	uint8_t *seen = calloc((size_t)b->npoints, 1);

	memset(out, 0, (size_t)b->npoints);
	if (seen == NULL)
		return;
	for (int p = 0; p < b->npoints; p++)
		if (b->color[p] == SHT_EMPTY && bit_get(a->dame, p) &&
		    !sht_board_can_fill(b, SHT_BLACK, p, seen) &&
		    !sht_board_can_fill(b, SHT_WHITE, p, seen))
			out[p] = 1;
	free(seen);
}

/* What the ILR scan learns beyond the labels: the colour's other groups (seki or unsettled). */
struct group_stats {
	int seki_territory[3];
	int eyed[3];
	int eyeless[3];
};

/* Separate regions of owned points (not live stones) among a group's members, counting at most
 * two.  mark is npoints bytes of zeros, left zero; group[q] == id marks the group's points. */
static int
eye_regions(const struct sht_board *b, const uint8_t *dead, const int *members, int nmembers,
    const int *group, int id, uint8_t *mark)
{
	int regions = 0, *queue = malloc((size_t)b->npoints * sizeof(*queue)), nq = 0;

	if (queue == NULL)
		return 0;
	for (int i = 0; i < nmembers && regions < 2; i++) {
		int head = nq;

		if (is_live_stone(b, dead, members[i]) || mark[members[i]])
			continue;
		regions++;
		mark[members[i]] = 1;
		queue[nq++] = members[i];
		while (head < nq) {
			int s = queue[head++];

			for (int d = 0; d < 4; d++) {
				int q = s + b->dir[d];

				if (b->color[q] != SHT_OFFBOARD && group[q] == id && !mark[q] &&
				    !is_live_stone(b, dead, q)) {
					mark[q] = 1;
					queue[nq++] = q;
				}
			}
		}
	}
	for (int i = 0; i < nq; i++)
		mark[queue[i]] = 0;
	free(queue);
	return regions;
}

/* Labels ILRs (see sht_area_ilr) given the area map, and gathers the non-ILR groups' stats. */
static void
ilr_scan(const struct sht_board *b, const uint8_t *dead, const struct sht_area *area, int *group,
    int counts[3], uint8_t *seki, struct group_stats *stats)
{
	const struct sht_area a = *area;
	int *stack = malloc((size_t)b->npoints * sizeof(*stack) * 2);
	int *members; /* the points of the group being grown: stack's second half */
	uint8_t *libmark = calloc((size_t)b->npoints, 1);
	uint8_t *sekipt = malloc((size_t)b->npoints);
	int n = 0;

	counts[0] = counts[SHT_BLACK] = counts[SHT_WHITE] = 0;
	memset(stats, 0, sizeof(*stats));
	memset(group, 0, (size_t)b->npoints * sizeof(*group));
	if (seki != NULL)
		memset(seki, 0, (size_t)b->npoints);
	if (stack == NULL || libmark == NULL || sekipt == NULL) {
		free(stack);
		free(libmark);
		free(sekipt);
		return;
	}
	members = stack + b->npoints; /* only now: no arithmetic on a null pointer */
	sht_area_seki_points(b, &a, sekipt);
	for (int p = 0; p < b->npoints; p++) {
		int c, top = 0, first = n + 1, owned = 0, nmembers = 0;
		bool independent = true, touches_dame = false;
		const uint64_t *own;

		if (!is_live_stone(b, dead, p) || group[p] != 0)
			continue;
		c = b->color[p];
		own = c == SHT_BLACK ? a.black : a.white;
		/* Grow through c's live stones and the points c alone owns. */
		group[p] = first;
		stack[top++] = p;
		members[nmembers++] = p;
		while (top > 0) {
			int s = stack[--top];

			for (int d = 0; d < 4; d++) {
				int q = s + b->dir[d];

				if (b->color[q] == SHT_OFFBOARD || group[q] == first)
					continue;
				if (bit_get(own, q)) {
					group[q] = first;
					stack[top++] = q;
					members[nmembers++] = q;
					if (!is_live_stone(b, dead, q))
						owned++;
				} else if (is_live_stone(b, dead, s) && sekipt[q]) {
					touches_dame = true; /* a liberty shared in seki */
				}
			}
		}
		/* Two separate eyes are life, whatever a chain of the group shares with the
		 * opponent: such a chain can join the eyes through the group's own points and then
		 * fill the shared liberty, so it is a fight the position left open, not a seki. */
		independent = !touches_dame || eye_regions(b, dead, members, nmembers, group, first,
		    libmark) >= 2;
		/* No chain of the region may be in atari: count each chain's liberties, where a dead
		 * stone's point counts as empty. */
		for (int i = 0; i < nmembers && independent; i++) {
			int s = members[i], libs = 0, t;

			/* Two real liberties settle it: dead stones' points only add to them. */
			if (!is_live_stone(b, dead, s) || b->chain[s] != s || b->libs[s] >= 2)
				continue;
			t = s;
			do {
				for (int d = 0; d < 4; d++) {
					int q = t + b->dir[d];

					if (b->color[q] != SHT_OFFBOARD && !is_live_stone(b, dead, q) &&
					    !libmark[q]) {
						libmark[q] = 1;
						libs++;
					}
				}
				t = b->next[t];
			} while (t != s);
			t = s;
			do {
				for (int d = 0; d < 4; d++)
					libmark[t + b->dir[d]] = 0;
				t = b->next[t];
			} while (t != s);
			if (libs < 2)
				independent = false;
		}
		if (independent) {
			n++;
			counts[c]++;
			continue;
		}
		/* Not an ILR.  When it touches a seki point it lives in seki and its eyes are
		 * seki eyes; a group merely holding a chain in atari is unsettled, not seki, and
		 * keeps its territory.  Unlabel it, and remember the seki stones. */
		if (touches_dame) {
			stats->seki_territory[c] += owned;
			if (owned > 0)
				stats->eyed[c]++;
			else
				stats->eyeless[c]++;
		}
		for (int i = 0; i < nmembers; i++) {
			int s = members[i];

			group[s] = -1;
			if (seki != NULL && touches_dame && is_live_stone(b, dead, s))
				seki[s] = 1;
		}
	}
	for (int p = 0; p < b->npoints; p++)
		if (group[p] < 0)
			group[p] = 0;
	free(stack);
	free(libmark);
	free(sekipt);
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
sht_area_counts(const struct sht_board *b, const uint8_t *dead, struct sht_counts *out,
    uint8_t *seki)
{
	struct sht_area a;
	struct group_stats stats;
	int *group = malloc((size_t)b->npoints * sizeof(*group));
	int groups[3];

	memset(out, 0, sizeof(*out));
	out->size = sizeof(*out);
	if (group == NULL)
		return;
	sht_area_compute(b, dead, &a);
	ilr_scan(b, dead, &a, group, groups, seki, &stats);
	/* The labels are not kept: the counts are what a ruleset scores. */
	free(group);
	out->stones[SHT_BLACK] = a.black_stones;
	out->stones[SHT_WHITE] = a.white_stones;
	out->territory[SHT_BLACK] = a.black_territory;
	out->territory[SHT_WHITE] = a.white_territory;
	out->dame = a.dame_points;
	out->neutral = a.neutral_points;
	for (int p = 0; p < b->npoints; p++)
		if (dead != NULL && dead[p] && (b->color[p] == SHT_BLACK || b->color[p] == SHT_WHITE))
			out->dead[b->color[p]]++;
	for (int c = SHT_BLACK; c <= SHT_WHITE; c++) {
		out->captures[c] = b->captures[c];
		out->groups[c] = groups[c];
		out->seki_territory[c] = stats.seki_territory[c];
		out->seki_groups_eyed[c] = stats.eyed[c];
		out->seki_groups_eyeless[c] = stats.eyeless[c];
	}
	out->moves = b->moves;
}
