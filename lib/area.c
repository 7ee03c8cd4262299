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

/* The bits set in x.  Without the popcnt instruction (the default x86-64 target)
 * __builtin_popcountll is a call into libgcc; this is the same sum inline. */
static inline int
popcount64(uint64_t x)
{
#ifdef __POPCNT__
	return __builtin_popcountll(x);
#else
	x -= (x >> 1) & UINT64_C(0x5555555555555555);
	x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
	x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
	return (int)((x * UINT64_C(0x0101010101010101)) >> 56);
#endif
}

static int
popcount_words(const uint64_t *bits, int nw)
{
	int n = 0;

	for (int i = 0; i < nw; i++)
		n += popcount64(bits[i]);
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

/* The live stones as bitsets: [0] black, [1] white. */
struct live_stones {
	uint64_t bits[2][SHT_BITSET_WORDS];
};

/* sht_area_compute, with the live stones left in *stones. */
static void
area_compute(const struct sht_board *b, const uint8_t *dead, struct sht_area *a,
    struct live_stones *stones)
{
	uint64_t (*live)[SHT_BITSET_WORDS] = stones->bits;
	int nw = words_for(b);
	uint64_t open[SHT_BITSET_WORDS];
	uint64_t reach[2][SHT_BITSET_WORDS];

	memset(a, 0, sizeof(*a));
	memcpy(live, b->bits, sizeof(b->bits));
	if (dead != NULL) {
		/* The flags eight at a time, most being 0; a flag off a stone clears no stone. */
		for (int p = 0; p < b->npoints; p += 8) {
			int end = b->npoints - p < 8 ? b->npoints : p + 8;
			uint64_t eight = 0;

			if (end == p + 8)
				memcpy(&eight, dead + p, 8);
			if (end == p + 8 && eight == 0)
				continue;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			/* A whole word: its flagged bytes found from its set bits. */
			if (end == p + 8) {
				for (; eight != 0; eight &= eight - 1) {
					int q = p + (__builtin_ctzll(eight) >> 3);

					live[0][q >> 6] &= ~(UINT64_C(1) << (q & 63));
					live[1][q >> 6] &= ~(UINT64_C(1) << (q & 63));
				}
				continue;
			}
#endif
			for (int q = p; q < end; q++)
				if (dead[q]) {
					live[0][q >> 6] &= ~(UINT64_C(1) << (q & 63));
					live[1][q >> 6] &= ~(UINT64_C(1) << (q & 63));
				}
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
	/* The maps and their counts in one pass: territory is the owned points that are not
	 * stones, rb & ~rw and rw & ~rb being open points. */
	for (int i = 0; i < nw; i++) {
		uint64_t rb = reach[0][i] & open[i], rw = reach[1][i] & open[i];

		a->black[i] = live[0][i] | (rb & ~rw);
		a->white[i] = live[1][i] | (rw & ~rb);
		a->dame[i] = rb & rw;
		a->neutral_points += popcount64(open[i] & ~(rb | rw));
		a->black_stones += popcount64(live[0][i]);
		a->white_stones += popcount64(live[1][i]);
		a->black_territory += popcount64(rb & ~rw);
		a->white_territory += popcount64(rw & ~rb);
		a->dame_points += popcount64(a->dame[i]);
	}
}

void
sht_area_compute(const struct sht_board *b, const uint8_t *dead, struct sht_area *a)
{
	struct live_stones live;

	area_compute(b, dead, a, &live);
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

/* Liberties of the union of c's chains next to p or t, with c's stones on both and captures
 * left out, counted up to two. */
static int
joined_liberties(const struct sht_board *b, int c, int p, int t, uint8_t *mark)
{
	int pts[2] = { p, t }, chains[8], nchains = 0, libs = 0, marked[16], nmarked = 0;

	for (int i = 0; i < 2; i++)
		for (int d = 0; d < 4; d++) {
			int q = pts[i] + b->dir[d], k;

			if (b->color[q] == SHT_EMPTY && q != p && q != t && !mark[q] && nmarked < 16) {
				mark[q] = 1;
				marked[nmarked++] = q;
				libs++;
			} else if (b->color[q] == c) {
				for (k = 0; k < nchains && chains[k] != b->chain[q]; k++)
					;
				if (k == nchains)
					chains[nchains++] = b->chain[q];
			}
		}
	for (int k = 0; k < nchains && libs < 2; k++) {
		int s = chains[k];

		do {
			for (int d = 0; d < 4 && libs < 2; d++) {
				int q = s + b->dir[d];

				if (b->color[q] == SHT_EMPTY && q != p && q != t && !mark[q] &&
				    nmarked < 16) {
					mark[q] = 1;
					marked[nmarked++] = q;
					libs++;
				}
			}
			s = b->next[s];
		} while (s != chains[k] && libs < 2);
	}
	for (int i = 0; i < nmarked; i++)
		mark[marked[i]] = 0;
	return libs;
}

/*
 * Whether c can fill the dame p once it has joined a chain of its next to p to another of its
 * chains at a point t of its own territory: a lone stone cut off beside the shared liberty is
 * no seki while it can connect home through its own area (a stone of the first line beside the
 * opponent's chain of two liberties, say), as the players would before counting.
 */
static bool
fills_after_joining(const struct sht_board *b, const struct sht_area *a, int c, int p,
    uint8_t *mark)
{
	for (int d = 0; d < 4; d++) {
		int q = p + b->dir[d], s;

		if (b->color[q] != c)
			continue;
		s = q;
		do {
			for (int e = 0; e < 4; e++) {
				int t = s + b->dir[e];
				bool joins = false;

				if (b->color[t] != SHT_EMPTY || t == p || sht_area_owner(a, t) != c)
					continue;
				for (int f = 0; f < 4; f++) {
					int r = t + b->dir[f];

					joins |= b->color[r] == c && b->chain[r] != b->chain[q];
				}
				if (joins && joined_liberties(b, c, p, t, mark) >= 2)
					return true;
			}
			s = b->next[s];
		} while (s != q);
	}
	return false;
}

/* Seki points: dame that neither colour can fill without putting itself in atari, the shared
 * liberties of a seki.  Dame that one side can fill are only unfinished business, also after
 * joining a chain beside it to another through its own territory.  Returns how many there are. */
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
			    !sht_board_can_fill(b, SHT_WHITE, p, seen) &&
			    !fills_after_joining(b, a, SHT_BLACK, p, seen) &&
			    !fills_after_joining(b, a, SHT_WHITE, p, seen)) {
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

/* One row's bits of a bitset: the w points from p0, as the low bits of a word. */
static inline uint32_t
row_bits(const uint64_t *bits, int p0, int w)
{
	int i = p0 >> 6, s = p0 & 63;
	uint64_t v = bits[i] >> s;

	if (s + w > 64)
		v |= bits[i + 1] << (64 - s);
	return (uint32_t)(v & ((UINT64_C(1) << w) - 1));
}

/*
 * A run: consecutive points of one row owned by one colour.  A group (see sht_area_ilr) is a
 * connected set of a colour's owned points, so its runs are joined by union-find where they
 * touch the row above; the root, the group's first run in point order, keeps what the scan
 * learns of the group.
 */
struct run {
	int16_t start;     /* its first point */
	uint8_t x, len;    /* its columns: x .. x + len - 1 */
	uint8_t color;
	int16_t parent;    /* the run it is joined to; the root is its own */
	uint32_t live;     /* its live stones, as bits of the row from column 0 */
	/* Of the group, at the root: */
	int16_t label;     /* ILR index + 1, 0 for no ILR */
	bool listed;       /* its first live stone was seen */
	bool in_atari;     /* a chain of it has fewer than two liberties */
	bool touches_seki; /* a live stone of it is beside a seki point */
	uint8_t eyes;      /* separate territory regions, counted up to two */
};

static inline int
run_root(struct run *runs, int i)
{
	while (runs[i].parent != i)
		i = runs[i].parent = runs[runs[i].parent].parent;
	return i;
}

/* The run that holds point p, or -1; row_first[y] is row y's first run. */
static int
run_at(const struct sht_board *b, const struct run *runs, const int16_t *row_first, int p)
{
	int y = p / b->stride - 1, x = p % b->stride - 1;

	if (y < 0 || y >= b->h)
		return -1;
	for (int i = row_first[y]; i < row_first[y + 1]; i++)
		if (x >= runs[i].x && x < runs[i].x + runs[i].len)
			return i;
	return -1;
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
 * Whether the one-point region p of colour c is a false eye: its neighbours not all one chain,
 * and two of its diagonal points live opponent stones, or one where a diagonal is off the board
 * (the edge and the corner).  Such a point is no eye of its own: the opponent captures the
 * stones beside it once their other liberties are gone, so a group of one real eye and a false
 * one lives only in seki (GNU Go's scoring suite, score7: Black's corner group beside the seki,
 * whose first-line eye has a white diagonal, counted two points of seki eyes as territory).
 */
static bool
false_eye(const struct sht_board *b, const struct live_stones *stones, int c, int p)
{
	static const int dx[4] = { -1, 1, -1, 1 }, dy[4] = { -1, -1, 1, 1 };
	int off = 0, bad = 0, chain = 0;
	bool one_chain = true;

	/* Surrounded by one chain, the point is an eye whatever stands on its diagonals: only
	 * separate chains around it can be taken one at a time. */
	for (int d = 0; d < 4; d++) {
		int q = p + b->dir[d];

		if (b->color[q] == SHT_OFFBOARD)
			continue;
		if (b->color[q] != c || (chain != 0 && b->chain[q] != chain))
			one_chain = false;
		chain = b->chain[q];
	}
	if (one_chain)
		return false;
	for (int k = 0; k < 4; k++) {
		int q = p + dy[k] * b->stride + dx[k];

		if (b->color[q] == SHT_OFFBOARD)
			off++;
		else
			bad += (stones->bits[2 - c][q >> 6] >> (q & 63)) & 1;
	}
	return bad >= 2 || (off > 0 && bad >= 1);
}

/*
 * The separate territory regions (owned points that are not live stones) of the groups beside
 * a seki point, counted up to two, a false eye not counted: only those groups need them, and
 * only positions with seki points have such groups, so this walks points.
 */
static void
count_eyes(const struct sht_board *b, const struct live_stones *stones, struct run *runs,
    int nruns)
{
	enum { MAXP = 64 * SHT_BITSET_WORDS };
	int16_t group[MAXP];
	int queue[MAXP];

	memset(group, 0xff, (size_t)b->npoints * sizeof(*group)); /* -1: no territory of one */
	for (int i = 0; i < nruns; i++) {
		int r = run_root(runs, i);

		if (runs[r].touches_seki)
			for (int x = 0; x < runs[i].len; x++)
				if (!((runs[i].live >> (runs[i].x + x)) & 1))
					group[runs[i].start + x] = (int16_t)r;
	}
	for (int p = 0; p < b->npoints; p++) {
		int g = group[p], head = 0, n = 0;

		if (g < 0)
			continue;
		/* The region of p, taken out of the map as it is crossed. */
		group[p] = -1;
		queue[n++] = p;
		while (head < n) {
			int s = queue[head++];

			for (int d = 0; d < 4; d++) {
				int q = s + b->dir[d];

				if (group[q] == g) {
					group[q] = -1;
					queue[n++] = q;
				}
			}
		}
		if (runs[g].eyes < 2 && (n > 1 || !false_eye(b, stones, runs[g].color, p)))
			runs[g].eyes++;
	}
}

/*
 * Labels ILRs (see sht_area_ilr) given the area map, and gathers the non-ILR groups' stats:
 * the runs of each row, joined to the row above; a chain in atari found among the stones
 * whose chain has fewer than two real liberties; the groups beside seki points found from
 * those points.  group may be NULL when the labels are not wanted.
 */
static void
ilr_scan(const struct sht_board *b, const uint8_t *dead, const struct sht_area *a,
    const struct live_stones *stones, int *group, int counts[3], uint8_t *seki,
    struct group_stats *stats)
{
	const uint64_t (*live)[SHT_BITSET_WORDS] = stones->bits;
	enum { MAXP = 64 * SHT_BITSET_WORDS, MAXRUNS = SHT_MAX_SIZE * SHT_MAX_SIZE };
	struct run runs[MAXRUNS];
	int16_t row_first[SHT_MAX_SIZE + 1];
	uint8_t sekipt[MAXP];
	int16_t columns[2][SHT_MAX_SIZE], *run_above = columns[0], *run_here = columns[1];
	uint32_t own_above[2] = { 0, 0 }, starts_above = 0;
	int nw = words_for(b), nruns = 0, n = 0, nseki;
	bool seki_groups = false;

	counts[0] = counts[SHT_BLACK] = counts[SHT_WHITE] = 0;
	memset(stats, 0, sizeof(*stats));
	if (seki != NULL)
		memset(seki, 0, (size_t)b->npoints);
	/* The runs, row by row, each joined to the runs of its colour it touches above: those
	 * are found from the row above's bits, by the run starting last before each stretch of
	 * them (run_above[x]: the run of the row above that starts at column x). */
	for (int y = 0; y < b->h; y++) {
		int p0 = (y + 1) * b->stride + 1;
		uint32_t own[2] = { row_bits(a->black, p0, b->w), row_bits(a->white, p0, b->w) };
		uint32_t alive[2] = { row_bits(live[0], p0, b->w), row_bits(live[1], p0, b->w) };
		uint32_t left = own[0] | own[1], starts = 0;
		int16_t *swap;

		row_first[y] = (int16_t)nruns;
		while (left != 0) {
			int x = __builtin_ctz(left), c = (own[0] >> x) & 1 ? 0 : 1;
			int len = __builtin_ctz(~(own[c] >> x));
			uint32_t mask = ((UINT32_C(1) << len) - 1) << x;

			left &= ~mask;
			runs[nruns] = (struct run){ .start = (int16_t)(p0 + x), .x = (uint8_t)x,
				.len = (uint8_t)len, .color = (uint8_t)(c + 1), .parent = (int16_t)nruns,
				.live = alive[c] & mask };
			starts |= UINT32_C(1) << x;
			run_here[x] = (int16_t)nruns;
			for (uint32_t over = own_above[c] & mask; over != 0;) {
				int x0 = __builtin_ctz(over);
				int s = 31 - __builtin_clz(starts_above & ((UINT32_C(2) << x0) - 1));
				int k = run_above[s], ra = run_root(runs, k), rb = run_root(runs, nruns);

				if (ra < rb)
					runs[rb].parent = (int16_t)ra;
				else if (rb < ra)
					runs[ra].parent = (int16_t)rb;
				over &= ~((UINT32_C(1) << (s + runs[k].len)) - 1);
			}
			nruns++;
		}
		own_above[0] = own[0];
		own_above[1] = own[1];
		starts_above = starts;
		swap = run_above;
		run_above = run_here;
		run_here = swap;
	}
	row_first[b->h] = (int16_t)nruns;
	/* Roots are each group's first run: one pass in order flattens every path. */
	for (int i = 0; i < nruns; i++)
		runs[i].parent = runs[runs[i].parent].parent;
	/* No chain of a group may be in atari: a dead stone's point counts as a liberty, so only
	 * chains with fewer than two real ones are walked. */
	for (int c = 0; c < 2; c++)
		for (int i = 0; i < nw; i++)
			for (uint64_t w = live[c][i]; w != 0; w &= w - 1) {
				int p = 64 * i + __builtin_ctzll(w), k;

				if (b->chain[p] != p || b->libs[p] >= 2 || !chain_in_atari(b, dead, p))
					continue;
				if ((k = run_at(b, runs, row_first, p)) >= 0)
					runs[runs[k].parent].in_atari = true;
			}
	/* Groups with a live stone beside a seki point. */
	nseki = sht_area_seki_points(b, a, sekipt);
	for (int i = 0; i < nw && nseki > 0; i++)
		for (uint64_t w = a->dame[i]; w != 0; w &= w - 1) {
			int q = 64 * i + __builtin_ctzll(w);

			if (!sekipt[q])
				continue;
			for (int d = 0; d < 4; d++) {
				int p = q + b->dir[d], k;

				if (is_live_stone(b, dead, p) && (k = run_at(b, runs, row_first, p)) >= 0)
					runs[runs[k].parent].touches_seki = seki_groups = true;
			}
		}
	if (seki_groups)
		count_eyes(b, stones, runs, nruns);
	/*
	 * In the order of their first live stones: an ILR has no chain in atari and no stone
	 * beside a seki point, or two separate territory regions (two eyes are life, whatever a
	 * chain of the group shares with the opponent: it can join the eyes through the group's
	 * own points and then fill the shared liberty, a fight the position left open, not a
	 * seki).  Not an ILR and beside a seki point, a group lives in seki and its eyes are seki
	 * eyes; a group merely holding a chain in atari is unsettled, not seki, and keeps its
	 * territory.
	 */
	for (int i = 0; i < nruns; i++) {
		struct run *g = &runs[runs[i].parent];
		int c = g->color;

		if (runs[i].live == 0 || g->listed)
			continue;
		g->listed = true;
		if ((!g->touches_seki || g->eyes >= 2) && !g->in_atari) {
			g->label = (int16_t)++n;
			counts[c]++;
		} else if (g->touches_seki) {
			int owned = 0;

			for (int k = runs[i].parent; k < nruns; k++)
				if (runs[k].parent == runs[i].parent)
					owned += runs[k].len - popcount64(runs[k].live);
			stats->seki_territory[c] += owned;
			if (owned > 0)
				stats->eyed[c]++;
			else
				stats->eyeless[c]++;
		}
	}
	if (group != NULL) {
		memset(group, 0, (size_t)b->npoints * sizeof(*group));
		for (int i = 0; i < nruns; i++)
			for (int x = 0; x < runs[i].len; x++)
				group[runs[i].start + x] = runs[runs[i].parent].label;
	}
	if (seki != NULL && seki_groups)
		for (int i = 0; i < nruns; i++) {
			const struct run *g = &runs[runs[i].parent];

			if (g->label == 0 && g->touches_seki)
				for (uint32_t w = runs[i].live; w != 0; w &= w - 1)
					seki[runs[i].start - runs[i].x + __builtin_ctz(w)] = 1;
		}
}

void
sht_area_ilr(const struct sht_board *b, const uint8_t *dead, int *group, int counts[3],
    uint8_t *seki)
{
	struct sht_area a;
	struct group_stats stats;
	struct live_stones live;

	area_compute(b, dead, &a, &live);
	ilr_scan(b, dead, &a, &live, group, counts, seki, &stats);
}

void
sht_area_counts_map(const struct sht_board *b, const uint8_t *dead, struct sht_counts *out,
    uint8_t *seki, struct sht_area *a)
{
	struct group_stats stats;
	struct live_stones live;
	int groups[3];

	area_compute(b, dead, a, &live);
	memset(out, 0, sizeof(*out));
	out->size = sizeof(*out);
	ilr_scan(b, dead, a, &live, NULL, groups, seki, &stats);
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
	out->passes[SHT_BLACK] = sht_board_passes_made(b, SHT_BLACK);
	out->passes[SHT_WHITE] = sht_board_passes_made(b, SHT_WHITE);
	out->to_move = sht_board_to_move(b);
	out->closing_passes = sht_board_consecutive_passes(b);
	out->first_pass = sht_board_first_passer(b);
}

void
sht_area_counts(const struct sht_board *b, const uint8_t *dead, struct sht_counts *out,
    uint8_t *seki)
{
	struct sht_area a;

	sht_area_counts_map(b, dead, out, seki, &a);
}
