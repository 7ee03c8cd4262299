/* The board engine: incremental chains with exact liberties, captures, ko, superko and setup. */
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "board_impl.h"

/* Seed for the Zobrist keys.  Fixed so that hashes are the same in every process and release,
 * which lets a client compare the hashes it is given. */
#define ZOBRIST_SEED UINT64_C(0x5348554f54414e31) /* "SHUOTAN1" */

static uint64_t
splitmix64(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

void
sht_board_options_init(struct sht_board_options *opt, int width, int height)
{
	memset(opt, 0, sizeof(*opt));
	opt->width = width;
	opt->height = height;
	opt->ko = SHT_KO_SIMPLE;
	opt->multi_stone_suicide = false;
	opt->track_history = true;
	opt->history_on_request = false;
	opt->supply[0] = 0;
	opt->supply[SHT_BLACK] = SHT_UNLIMITED;
	opt->supply[SHT_WHITE] = SHT_UNLIMITED;
}

static inline uint64_t
zkey(const struct sht_board *b, int c, int p)
{
	return b->zobrist[(c == SHT_WHITE ? b->npoints : 0) + p];
}

uint32_t
sht_board_new_mark(struct sht_board *b)
{
	if (++b->mark_gen == 0) {
		/* Wrapped after four billion uses: clear so no stale mark can match. */
		memset(b->mark, 0, (size_t)b->npoints * sizeof(*b->mark));
		b->mark_gen = 1;
	}
	return b->mark_gen;
}

/* ---- hash history ---- */

/* The slot of index holding hash, or the free slot where it would go.  The low bits of a
 * Zobrist hash are already uniform. */
static int
hist_probe(const struct sht_board *b, uint64_t hash)
{
	const uint32_t *index = b->index;
	const struct sht_hist_position *pos = b->pos;
	int mask = b->index_cap - 1, i = (int)(hash & (uint64_t)mask);
	uint32_t k;

	while ((k = index[i]) != 0 && pos[k - 1].hash != hash)
		i = (i + 1) & mask;
	return i;
}

static const struct sht_hist_position *
hist_find(const struct sht_board *b, uint64_t hash)
{
	uint32_t k;

	if (b->index_cap == 0)
		return NULL;
	k = b->index[hist_probe(b, hash)];
	return k == 0 ? NULL : &b->pos[k - 1];
}

/* Room for `states` states in all, the index kept at most three-quarters full.  Growing the
 * index re-inserts the positions in order, which is what inserting them one by one would have
 * built, so a later last-in first-out removal still restores it exactly.  The capacities are
 * set only once every array has its room, so that hist_cap alone bounds a push: pos has as
 * much room (npos never exceeds hist_len) and the index stays under three-quarters full. */
static bool
hist_reserve(struct sht_board *b, int states)
{
	int cap = b->index_cap ? b->index_cap : 64;

	if (b->opt.history_on_request) {
		/* The list alone. */
		uint32_t *h;
		uint64_t *hh;

		if (states <= b->hist_cap)
			return true;
		if ((h = realloc(b->hist, (size_t)states * sizeof(*h))) == NULL)
			return false;
		b->hist = h;
		if ((hh = realloc(b->hist_hash, (size_t)states * sizeof(*hh))) == NULL)
			return false;
		b->hist_hash = hh;
		b->hist_cap = states;
		return true;
	}
	if (states > b->hist_cap) {
		uint32_t *h = realloc(b->hist, (size_t)states * sizeof(*h));
		struct sht_hist_position *q;

		if (h == NULL)
			return false;
		b->hist = h;
		if ((q = realloc(b->pos, (size_t)states * sizeof(*q))) == NULL)
			return false;
		b->pos = q;
	}
	while ((int64_t)states * 4 > (int64_t)cap * 3)
		cap *= 2;
	if (cap != b->index_cap) {
		uint32_t *index = calloc((size_t)cap, sizeof(*index));

		if (index == NULL)
			return false;
		free(b->index);
		b->index = index;
		b->index_cap = cap;
		for (int k = 0; k < b->npos; k++)
			b->index[hist_probe(b, b->pos[k].hash)] = (uint32_t)k + 1;
	}
	if (states > b->hist_cap)
		b->hist_cap = b->pos_cap = states;
	return true;
}

bool
sht_board_reserve_history(struct sht_board *b, int states)
{
	if (!b->opt.track_history || states <= 0)
		return true;
	return hist_reserve(b, states);
}

/* Room for twice the states recorded (out of line: a replay reserves its states before). */
static __attribute__((noinline)) bool
hist_grow(struct sht_board *b)
{
	return hist_reserve(b, b->hist_len < 128 ? 256 : b->hist_len * 2);
}

/* Records a state; slot is hist_probe's answer for hash when the caller has it (no state
 * recorded since), else -1.  Out of memory degrades to not tracking rather than failing the
 * move: the move itself was legal and has been made. */
static inline void
hist_push(struct sht_board *b, uint64_t hash, int to_move, int slot)
{
	uint32_t white = to_move == SHT_WHITE, k;

	if (b->hist_len == b->hist_cap) {
		if (!hist_grow(b))
			return;
		slot = -1;
	}
	if (b->opt.history_on_request) {
		b->hist_hash[b->hist_len] = hash;
		b->hist[b->hist_len++] = (uint32_t)b->stones << 1 | white;
		return;
	}
	if (slot < 0)
		slot = hist_probe(b, hash);
	k = b->index[slot];
	if (k == 0) {
		/* A position not seen before: the last one listed. */
		struct sht_hist_position *q = &b->pos[k = (uint32_t)b->npos++];

		q->hash = hash;
		q->count[0] = !white;
		q->count[1] = white;
		b->index[slot] = k + 1;
	} else {
		b->pos[--k].count[white]++;
	}
	b->hist[b->hist_len++] = k << 1 | white;
}

/* Forgets the states recorded after the first len, latest first. */
static void
hist_truncate(struct sht_board *b, int len)
{
	if (b->opt.history_on_request) {
		if (b->hist_len > len)
			b->hist_len = len;
		return;
	}
	while (b->hist_len > len) {
		uint32_t e = b->hist[--b->hist_len];
		struct sht_hist_position *q = &b->pos[e >> 1];

		/* Both counts at zero: this was the position's first occurrence, so it is the last
		 * position added, and its slot the last one filled. */
		if (--q->count[e & 1] == 0 && q->count[!(e & 1)] == 0) {
			b->index[hist_probe(b, q->hash)] = 0;
			b->npos--;
		}
	}
}

static void
hist_start(struct sht_board *b)
{
	if (!b->history_started && b->opt.track_history) {
		b->history_started = 1;
		hist_push(b, b->hash, b->to_move, -1);
	}
}

int
sht_board_occurrences(const struct sht_board *b, uint64_t hash, enum sht_color c)
{
	const struct sht_hist_position *s;
	int n = 0;

	if (c != SHT_BLACK && c != SHT_WHITE)
		return 0;
	if (b->opt.history_on_request) {
		for (int i = 0; i < b->hist_len; i++)
			n += b->hist_hash[i] == hash && (b->hist[i] & 1) == (c == SHT_WHITE);
		return n;
	}
	s = hist_find(b, hash);
	return s == NULL ? 0 : (int)s->count[c == SHT_WHITE];
}

/*
 * The list's most repeated state, counted in a table of its own made for the question, at most
 * three-quarters full: slots hold a state's first index in the list + 1, and count[] the
 * occurrences there.  Most states are new, and take one look at an empty slot.  Only the states
 * whose (stones, player to move) count in `filter` reaches `stop` are looked at, when filter is
 * given; the scan stops once a state occurs `stop` times.  -1 when the table cannot be made.
 */
static int
hist_list_scan(const struct sht_board *b, const uint16_t *filter, int stop)
{
	const uint64_t *restrict hh = b->hist_hash;
	const uint32_t *restrict st = b->hist;
	int n = b->hist_len, cap = 64, most = 0;
	uint32_t *restrict table, *restrict count;

	while ((int64_t)n * 4 > (int64_t)cap * 3)
		cap *= 2;
	if ((table = malloc(((size_t)cap + (size_t)n) * sizeof(*table))) == NULL)
		return -1;
	memset(table, 0, (size_t)cap * sizeof(*table));
	count = table + cap;
	for (int i = 0; i < n && most < stop; i++) {
		uint64_t h = hh[i];
		int slot = (int)(h & (uint64_t)(cap - 1));
		uint32_t k;

		if (filter != NULL && filter[st[i]] < stop)
			continue;
		while ((k = table[slot]) != 0) {
			if (hh[k - 1] == h && st[k - 1] == st[i]) {
				if ((int)++count[k - 1] > most)
					most = (int)count[k - 1];
				break;
			}
			slot = (slot + 1) & (cap - 1);
		}
		if (k == 0) {
			table[slot] = (uint32_t)i + 1;
			count[i] = 1;
			if (most < 1)
				most = 1;
		}
	}
	free(table);
	return most;
}

/*
 * Whether a state of the list occurs n times or more (n >= 1).  A state recurs only with as
 * many stones on the board, so the states are first counted by (stones, player to move), a
 * few instructions each; only the states of a count that reaches n are then looked at by
 * their hashes (most games have none: their stone counts never come back that often).
 */
static int
hist_list_at_least(const struct sht_board *b, int n)
{
	/* Two bytes a count, which no count passes in a list this short: a small table to
	 * clear.  A longer list (a hostile record) takes every state as a candidate. */
	uint16_t counts[2 * (SHT_MAX_SIZE + 2) * (SHT_MAX_SIZE + 2) + 2];
	int len = b->hist_len, candidates = 0, most;
	bool all = len >= UINT16_MAX;

	if (!all) {
		memset(counts, 0, sizeof(*counts) * (2 * (size_t)b->npoints + 2));
		for (int i = 0; i < len; i++)
			candidates += ++counts[b->hist[i]] == n;
		if (candidates == 0)
			return 0;
	}
	most = hist_list_scan(b, all ? NULL : counts, n);
	return most < 0 ? -1 : most >= n;
}

int
sht_board_occurs_at_least(const struct sht_board *b, int n)
{
	int most;

	if (b->opt.history_on_request)
		return b->hist_len == 0 || n <= 0 ? n <= 0 : hist_list_at_least(b, n);
	most = sht_board_most_occurrences(b);
	return most < 0 ? -1 : most >= n;
}

int
sht_board_most_occurrences(const struct sht_board *b)
{
	int most = 0;

	if (b->opt.history_on_request)
		return b->hist_len == 0 ? 0 : hist_list_scan(b, NULL, INT_MAX);
	for (int k = 0; k < b->npos; k++)
		for (int w = 0; w < 2; w++)
			if ((int)b->pos[k].count[w] > most)
				most = (int)b->pos[k].count[w];
	return most;
}

/* ---- life cycle ---- */

static size_t
align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* The Zobrist keys of every point of the largest board, [colour - 1][y][x]: the key of
 * (c, x, y) is draw number c * 625 + y * 25 + x of splitmix64 from ZOBRIST_SEED, whatever the
 * board's width, so a point keeps its key on every board.  Drawn once per process: a
 * never-seen request builds a board, and drawing its 722 keys was a third of that. */
static uint64_t zobrist_keys[2][SHT_MAX_SIZE][SHT_MAX_SIZE];
static pthread_once_t zobrist_once = PTHREAD_ONCE_INIT;

static void
zobrist_draw(void)
{
	for (int c = 0; c < 2; c++)
		for (int y = 0; y < SHT_MAX_SIZE; y++)
			for (int x = 0; x < SHT_MAX_SIZE; x++) {
				uint64_t draw = (uint64_t)((c * SHT_MAX_SIZE + y) * SHT_MAX_SIZE + x);
				uint64_t state = ZOBRIST_SEED + draw * UINT64_C(0x9e3779b97f4a7c15);

				zobrist_keys[c][y][x] = splitmix64(&state);
			}
}

/* Each board size's keys laid out as its boards' points are, [colour - 1][point] (0 on the
 * border), made for the first board of that size and kept for the process: copying 722 keys
 * into every new board was a sixth of making one (callgrind, a never-seen request's board). */
static const uint64_t *zobrist_sized[SHT_MAX_SIZE + 1][SHT_MAX_SIZE + 1];
static pthread_mutex_t zobrist_lock = PTHREAD_MUTEX_INITIALIZER;

static const uint64_t *
zobrist_for(int w, int h)
{
	const uint64_t *t;

	if (pthread_mutex_lock(&zobrist_lock) != 0)
		return NULL;
	if ((t = zobrist_sized[w][h]) == NULL) {
		size_t stride = (size_t)w + 2, n = stride * ((size_t)h + 2);
		uint64_t *keys = calloc(2 * n, sizeof(*keys));

		if (keys != NULL) {
			for (int c = 0; c < 2; c++)
				for (int y = 0; y < h; y++)
					memcpy(keys + (size_t)c * n + ((size_t)y + 1) * stride + 1,
					    zobrist_keys[c][y], (size_t)w * sizeof(*keys));
			zobrist_sized[w][h] = t = keys;
		}
	}
	pthread_mutex_unlock(&zobrist_lock);
	return t;
}

struct sht_board *
sht_board_new(const struct sht_board_options *opt)
{
	struct sht_board *b;
	size_t n, off = 0, total;
	unsigned char *mem;

	if (opt->width < SHT_MIN_SIZE || opt->width > SHT_MAX_SIZE ||
	    opt->height < SHT_MIN_SIZE || opt->height > SHT_MAX_SIZE)
		return NULL;
	if (pthread_once(&zobrist_once, zobrist_draw) != 0)
		return NULL;
	b = calloc(1, sizeof(*b));
	if (b == NULL)
		return NULL;
	if ((b->zobrist = zobrist_for(opt->width, opt->height)) == NULL) {
		free(b);
		return NULL;
	}
	b->opt = *opt;
	if (b->opt.ko != SHT_KO_SIMPLE) {
		b->opt.track_history = true;
		b->opt.history_on_request = false;
	}
	b->w = opt->width;
	b->h = opt->height;
	b->stride = b->w + 2;
	b->npoints = b->stride * (b->h + 2);
	b->dir[0] = -b->stride;
	b->dir[1] = -1;
	b->dir[2] = 1;
	b->dir[3] = b->stride;
	n = (size_t)b->npoints;

	/* Mutable arrays first (one block for snapshots), then the rest. */
	off += align8(n);     /* color */
	off += align8(n * 2) * 4; /* chain, next, libs, size */
	b->mutable_bytes = off;
	total = off + align8(n * 4) + align8(n * sizeof(int));
	/* Not calloc: sht_board_clear sets what must start at zero, and the rest (the removed
	 * list) is written before it is read. */
	mem = malloc(total);
	if (mem == NULL) {
		free(b);
		return NULL;
	}
	off = 0;
	b->color = mem + off; off += align8(n);
	b->chain = (uint16_t *)(void *)(mem + off); off += align8(n * 2);
	b->next = (uint16_t *)(void *)(mem + off); off += align8(n * 2);
	b->libs = (uint16_t *)(void *)(mem + off); off += align8(n * 2);
	b->size = (uint16_t *)(void *)(mem + off); off += align8(n * 2);
	b->mark = (uint32_t *)(void *)(mem + off); off += align8(n * 4);
	b->removed = (int *)(void *)(mem + off);

	memset(b->mark, 0, n * sizeof(*b->mark));
	sht_board_clear(b);
	return b;
}

void
sht_board_clear(struct sht_board *b)
{
	/* Only chain[] must start at zero (no point belongs to a chain); the per-chain arrays are
	 * written when a chain is made and read only through a chain id, and id 0 (a border
	 * corner, never a stone) reads as a chain of nothing.  Clearing all of them was most of
	 * making a board. */
	memset(b->chain, 0, (size_t)b->npoints * sizeof(*b->chain));
	b->next[0] = 0;
	b->libs[0] = 0;
	b->size[0] = 0;
	memset(b->color, SHT_OFFBOARD, (size_t)b->npoints);
	for (int y = 0; y < b->h; y++)
		memset(b->color + (y + 1) * b->stride + 1, SHT_EMPTY, (size_t)b->w);
	memset(b->bits, 0, sizeof(b->bits));
	b->hash = 0;
	b->ko_point = SHT_NO_POINT;
	b->ko_player = SHT_EMPTY;
	b->ban_player = SHT_EMPTY;
	b->to_move = SHT_BLACK;
	memset(b->captures, 0, sizeof(b->captures));
	b->stones_left[SHT_BLACK] = b->opt.supply[SHT_BLACK];
	b->stones_left[SHT_WHITE] = b->opt.supply[SHT_WHITE];
	b->moves = 0;
	b->passes = 0;
	memset(b->passes_by, 0, sizeof(b->passes_by));
	b->first_passer = SHT_EMPTY;
	b->stones = 0;
	b->nremoved = 0;
	b->history_started = 0;
	b->hist_len = 0;
	b->npos = 0;
	if (b->index != NULL)
		memset(b->index, 0, (size_t)b->index_cap * sizeof(*b->index));
}

/* The game's counters, which no symmetry moves: whose turn, prisoners, stones left, moves and
 * passes.  For sht_board_clone and sht_board_symmetric. */
static void
copy_counters(struct sht_board *b, const struct sht_board *src)
{
	b->to_move = src->to_move;
	memcpy(b->captures, src->captures, sizeof(b->captures));
	memcpy(b->stones_left, src->stones_left, sizeof(b->stones_left));
	b->moves = src->moves;
	b->passes = src->passes;
	memcpy(b->passes_by, src->passes_by, sizeof(b->passes_by));
	b->first_passer = src->first_passer;
}

struct sht_board *
sht_board_clone(const struct sht_board *src)
{
	struct sht_board *b = sht_board_new(&src->opt);

	if (b == NULL)
		return NULL;
	memcpy(b->color, src->color, src->mutable_bytes);
	memcpy(b->bits, src->bits, sizeof(b->bits));
	b->hash = src->hash;
	b->ko_point = src->ko_point;
	b->ko_player = src->ko_player;
	b->ban_player = src->ban_player;
	if (src->ban_player != SHT_EMPTY)
		memcpy(b->ban, src->ban, sizeof(b->ban));
	copy_counters(b, src);
	b->stones = src->stones;
	b->history_started = src->history_started;
	if (src->hist_len > 0) {
		if (!hist_reserve(b, src->hist_len)) {
			sht_board_free(b);
			return NULL;
		}
		memcpy(b->hist, src->hist, (size_t)src->hist_len * sizeof(*b->hist));
		if (b->opt.history_on_request) {
			memcpy(b->hist_hash, src->hist_hash, (size_t)src->hist_len *
			    sizeof(*b->hist_hash));
			b->hist_len = src->hist_len;
			return b;
		}
		memcpy(b->pos, src->pos, (size_t)src->npos * sizeof(*b->pos));
		b->hist_len = src->hist_len;
		b->npos = src->npos;
		for (int k = 0; k < b->npos; k++)
			b->index[hist_probe(b, b->pos[k].hash)] = (uint32_t)k + 1;
	}
	return b;
}

void
sht_board_free(struct sht_board *b)
{
	if (b == NULL)
		return;
	free(b->hist);
	free(b->hist_hash);
	free(b->pos);
	free(b->index);
	free(b->color); /* the start of the one allocation */
	free(b);
}

/* ---- accessors ---- */

int sht_board_width(const struct sht_board *b) { return b->w; }
int sht_board_height(const struct sht_board *b) { return b->h; }
int sht_board_capacity(const struct sht_board *b) { return b->npoints; }
const struct sht_board_options *sht_board_options(const struct sht_board *b) { return &b->opt; }

int
sht_board_point(const struct sht_board *b, int x, int y)
{
	if (x < 0 || y < 0 || x >= b->w || y >= b->h)
		return SHT_NO_POINT;
	return (y + 1) * b->stride + x + 1;
}

bool
sht_board_on_board(const struct sht_board *b, int p)
{
	return p > 0 && p < b->npoints && b->color[p] != SHT_OFFBOARD;
}

bool
sht_board_xy(const struct sht_board *b, int p, int *x, int *y)
{
	if (!sht_board_on_board(b, p))
		return false;
	*x = p % b->stride - 1;
	*y = p / b->stride - 1;
	return true;
}

int
sht_board_symmetric_point(const struct sht_board *b, int symmetry, int p)
{
	int x, y;

	if (symmetry < 0 || symmetry >= SHT_SYMMETRIES || ((symmetry & 4) && b->w != b->h) ||
	    !sht_board_xy(b, p, &x, &y))
		return SHT_NO_POINT;
	if (symmetry & 4) {
		int t = x;

		x = y;
		y = t;
	}
	if (symmetry & 1)
		x = b->w - 1 - x;
	if (symmetry & 2)
		y = b->h - 1 - y;
	return sht_board_point(b, x, y);
}

struct sht_board *
sht_board_symmetric(const struct sht_board *src, int symmetry)
{
	struct sht_board *b;

	if (symmetry < 0 || symmetry >= SHT_SYMMETRIES || ((symmetry & 4) && src->w != src->h))
		return NULL;
	if ((b = sht_board_new(&src->opt)) == NULL)
		return NULL;
	for (int p = 0; p < src->npoints; p++)
		if (src->color[p] == SHT_BLACK || src->color[p] == SHT_WHITE)
			b->color[sht_board_symmetric_point(src, symmetry, p)] = src->color[p];
	sht_board_rebuild(b);
	if (src->ko_point != SHT_NO_POINT && sht_board_on_board(src, src->ko_point))
		b->ko_point = sht_board_symmetric_point(src, symmetry, src->ko_point);
	b->ko_player = b->ko_point != SHT_NO_POINT ? src->ko_player : SHT_EMPTY;
	b->ban_player = src->ban_player;
	if (src->ban_player != SHT_EMPTY)
		for (int p = 0; p < src->npoints; p++)
			if (bit_test(src->ban, p))
				bit_set(b->ban, sht_board_symmetric_point(src, symmetry, p));
	copy_counters(b, src);
	return b;
}

int
sht_board_canonical_symmetry(const struct sht_board *b)
{
	int best = 0;
	uint64_t best_hash = b->hash;

	for (int g = 1; g < SHT_SYMMETRIES; g++) {
		uint64_t h = 0;

		if ((g & 4) && b->w != b->h)
			continue;
		for (int p = 0; p < b->npoints; p++)
			if (b->color[p] == SHT_BLACK || b->color[p] == SHT_WHITE)
				h ^= zkey(b, b->color[p], sht_board_symmetric_point(b, g, p));
		if (h < best_hash) {
			best = g;
			best_hash = h;
		}
	}
	return best;
}

void
sht_board_neighbor_offsets(const struct sht_board *b, int offsets[4])
{
	memcpy(offsets, b->dir, sizeof(b->dir));
}

enum sht_color
sht_board_at(const struct sht_board *b, int p)
{
	if (p < 0 || p >= b->npoints)
		return SHT_OFFBOARD;
	return (enum sht_color)b->color[p];
}

enum sht_color sht_board_to_move(const struct sht_board *b) { return (enum sht_color)b->to_move; }
int sht_board_moves_played(const struct sht_board *b) { return b->moves; }
int sht_board_consecutive_passes(const struct sht_board *b) { return b->passes; }

int
sht_board_passes_made(const struct sht_board *b, enum sht_color c)
{
	return (c == SHT_BLACK || c == SHT_WHITE) ? b->passes_by[c] : 0;
}

enum sht_color
sht_board_first_passer(const struct sht_board *b)
{
	return (enum sht_color)b->first_passer;
}
uint64_t sht_board_hash(const struct sht_board *b) { return b->hash; }

void
sht_board_set_to_move(struct sht_board *b, enum sht_color c)
{
	if (c == SHT_BLACK || c == SHT_WHITE)
		b->to_move = c;
}

int
sht_board_ko_point(const struct sht_board *b, enum sht_color c)
{
	return (int)c == b->ko_player ? b->ko_point : SHT_NO_POINT;
}

int
sht_board_captures(const struct sht_board *b, enum sht_color c)
{
	return (c == SHT_BLACK || c == SHT_WHITE) ? b->captures[c] : 0;
}

int
sht_board_stones_left(const struct sht_board *b, enum sht_color c)
{
	return (c == SHT_BLACK || c == SHT_WHITE) ? b->stones_left[c] : 0;
}

int
sht_board_stone_count(const struct sht_board *b, enum sht_color c)
{
	int n = 0;

	/* The bitsets hold exactly the stones of color[], and a board's points fit in them. */
	if (c != SHT_BLACK && c != SHT_WHITE) {
		for (int p = 0; p < b->npoints; p++)
			n += b->color[p] == c;
		return n;
	}
	for (int i = 0; i < SHT_BITSET_WORDS; i++)
		n += __builtin_popcountll(b->bits[c - 1][i]);
	return n;
}

int
sht_board_chain_id(const struct sht_board *b, int p)
{
	return (p > 0 && p < b->npoints) ? b->chain[p] : 0;
}

int
sht_board_chain_liberties(const struct sht_board *b, int p)
{
	int id = sht_board_chain_id(b, p);

	return id ? b->libs[id] : 0;
}

int
sht_board_chain_size(const struct sht_board *b, int p)
{
	int id = sht_board_chain_id(b, p);

	return id ? b->size[id] : 0;
}

int
sht_board_chain_next(const struct sht_board *b, int p)
{
	return sht_board_chain_id(b, p) ? b->next[p] : p;
}

int
sht_board_last_removed(const struct sht_board *b, const int **points)
{
	*points = b->removed;
	return b->nremoved;
}

/* ---- mechanics ---- */

/* The move path reads the board's arrays through local pointers: they are distinct parts of one
 * allocation, and telling the compiler so (restrict) keeps it from reloading every array's
 * address from the board after each store of a colour byte, which may alias anything. */

static inline bool
adjacent_to_chain(const uint16_t *chain, int stride, int p, int id)
{
	return chain[p - stride] == id || chain[p - 1] == id || chain[p + 1] == id ||
	    chain[p + stride] == id;
}

/* Merges two chains of one colour where the smaller has several stones; the smaller is
 * relabelled.  The merged liberty count is the larger chain's plus the smaller chain's
 * liberties that the larger one does not touch: exact, and proportional to the smaller chain
 * only.  Out of line: most merges join a lone stone (merge_chains below). */
static __attribute__((noinline)) int
merge_long_chain(struct sht_board *b, int big, int small)
{
	uint32_t m = sht_board_new_mark(b);
	uint32_t *restrict mark = b->mark;
	const uint8_t *restrict color = b->color;
	uint16_t *restrict chain = b->chain;
	const uint16_t *restrict next = b->next;
	int stride = b->stride, extra = 0, s = small;

	do {
		const int q[4] = { s - stride, s - 1, s + 1, s + stride };

#pragma GCC unroll 4
		for (int d = 0; d < 4; d++)
			if (color[q[d]] == SHT_EMPTY && mark[q[d]] != m) {
				mark[q[d]] = m;
				extra += !adjacent_to_chain(chain, stride, q[d], big);
			}
		s = next[s];
	} while (s != small);
	s = small;
	do {
		chain[s] = (uint16_t)big;
		s = next[s];
	} while (s != small);
	return extra;
}

/* Merges two chains of one colour; the smaller (the first on a tie) is relabelled, and the ring
 * of the smaller is spliced in after the larger one's id. */
static inline int
merge_chains(struct sht_board *b, int a, int c)
{
	const uint8_t *restrict color = b->color;
	uint16_t *restrict chain = b->chain, *restrict next = b->next, *restrict size = b->size;
	uint16_t *restrict libs = b->libs;
	int big = a, small = c, extra = 0, stride = b->stride, tmp;

	if (size[a] < size[c]) {
		big = c;
		small = a;
	}
	if (size[small] == 1) {
		/* A lone stone (the one just played, most often): its neighbours are four
		 * distinct points, so no marks are needed to count each liberty once. */
		const int q[4] = { small - stride, small - 1, small + 1, small + stride };

#pragma GCC unroll 4
		for (int d = 0; d < 4; d++)
			extra += color[q[d]] == SHT_EMPTY && !adjacent_to_chain(chain, stride, q[d], big);
		chain[small] = (uint16_t)big;
	} else {
		extra = merge_long_chain(b, big, small);
	}
	tmp = next[big];
	next[big] = next[small];
	next[small] = (uint16_t)tmp;
	size[big] = (uint16_t)(size[big] + size[small]);
	libs[big] = (uint16_t)(libs[big] + extra);
	return big;
}

/* The XOR of the Zobrist keys of the chain at id: walked, not kept per chain, since only a
 * capture or a suicide asks (a few moves a game), while keeping it cost every move. */
static uint64_t
chain_keys(const struct sht_board *b, int id)
{
	const uint64_t *keys = b->zobrist + (b->color[id] == SHT_WHITE ? b->npoints : 0);
	uint64_t h = 0;
	int s = id;

	do {
		h ^= keys[s];
		s = b->next[s];
	} while (s != id);
	return h;
}

/* Removes a whole chain; every point it empties becomes a liberty of each distinct chain of the
 * other colour beside it. */
static int
remove_chain(struct sht_board *b, int id)
{
	uint8_t *restrict color = b->color;
	uint16_t *restrict chain = b->chain, *restrict libs = b->libs;
	const uint16_t *restrict next = b->next;
	uint64_t *restrict bits = b->bits[color[id] - 1];
	const uint64_t *keys = b->zobrist + (color[id] == SHT_WHITE ? b->npoints : 0);
	int *restrict removed = b->removed;
	int victim = color[id], other = 3 - victim, s = id, n = b->size[id], nremoved = b->nremoved;
	int stride = b->stride;
	uint64_t h = 0;

	do {
		const int q[4] = { s - stride, s - 1, s + 1, s + stride };
		int nxt = next[s], seen[4], nseen = 0;

		color[s] = SHT_EMPTY;
		bits[s >> 6] &= ~(UINT64_C(1) << (s & 63));
		chain[s] = 0;
		h ^= keys[s];
		removed[nremoved++] = s;
#pragma GCC unroll 4
		for (int d = 0; d < 4; d++) {
			int cid, k;

			if (color[q[d]] != other)
				continue;
			cid = chain[q[d]];
			for (k = 0; k < nseen && seen[k] != cid; k++)
				;
			if (k == nseen) {
				seen[nseen++] = cid;
				libs[cid]++;
			}
		}
		s = nxt;
	} while (s != id);
	b->hash ^= h;
	b->nremoved = nremoved;
	b->stones -= n;
	return n;
}

/* What a move would do, found from the point's four neighbours: what sht_board_check reports,
 * and what sht_board_play needs to make it without looking again.  Each list keeps neighbour
 * order (up, left, right, down), which is the order chains merge and are captured in. */
struct assessment {
	int friends[4], nfriends; /* the distinct chains of the mover's colour beside the point */
	int opps[4], nopps;       /* the opponent's that keep a liberty */
	int caps[4], ncaps;       /* the opponent's in atari: the move captures them */
	int empty;                /* its empty neighbours: a new stone's own liberties */
	unsigned empty_dirs;      /* which: bit d for direction d of the order above */
	uint64_t key;             /* the stone's Zobrist key */
	int hist_slot;            /* hist_probe's slot for the state after, or -1 */
};

/* Sorts the chain id of the neighbour with colour col into the assessment's lists; dup says it
 * was listed already (from another neighbour). */
static inline __attribute__((always_inline)) void
assess_neighbour(const struct sht_board *b, int c, int col, int id, bool dup,
    struct assessment *a, int *ncap, int *nfriend, bool *safe_friend)
{
	if (id == 0 || dup)
		return;
	if (col == c) {
		a->friends[a->nfriends++] = id;
		*nfriend += b->size[id];
		*safe_friend |= b->libs[id] > 1;
	} else if (b->libs[id] == 1) {
		a->caps[a->ncaps++] = id;
		*ncap += b->size[id];
	} else {
		a->opps[a->nopps++] = id;
	}
}

/* Inline in both callers: play is the hot one, and the call and the assessment passed through
 * memory were a tenth of a move. */
static inline __attribute__((always_inline)) enum sht_verdict
assess(const struct sht_board *b, enum sht_color c, int p, struct sht_move_info *info,
    struct assessment *a)
{
	int opp, ncap = 0, nfriend = 0;
	bool safe_friend = false;
	uint64_t after;

	info->captured = 0;
	info->suicided = 0;
	info->repeated = false;
	info->hash_after = 0;
	a->hist_slot = -1;
	a->nfriends = a->nopps = a->ncaps = 0;
	if (c != SHT_BLACK && c != SHT_WHITE)
		return info->verdict = SHT_ILLEGAL_COLOR;
	opp = 3 - c;
	info->verdict = SHT_LEGAL;
	if (p == SHT_PASS) {
		info->hash_after = b->hash;
		if (b->opt.track_history && b->index_cap > 0) {
			uint32_t k = b->index[a->hist_slot = hist_probe(b, b->hash)];

			info->repeated = k != 0 && b->pos[k - 1].count[opp == SHT_WHITE] > 0;
		}
		return SHT_LEGAL;
	}
	if ((unsigned)p >= (unsigned)b->npoints || b->color[p] == SHT_OFFBOARD)
		return info->verdict = SHT_ILLEGAL_OFFBOARD;
	if (b->color[p] != SHT_EMPTY)
		return info->verdict = SHT_ILLEGAL_OCCUPIED;
	if (b->stones_left[c] == 0)
		return info->verdict = SHT_ILLEGAL_NO_STONES;
	if (p == b->ko_point && (int)c == b->ko_player)
		return info->verdict = SHT_ILLEGAL_KO;
	if ((int)c == b->ban_player && bit_test(b->ban, p))
		return info->verdict = SHT_ILLEGAL_KO;

	{
		/* The neighbours through pointers at p, one at a time (all four at once kept too
		 * many values alive).  A chain is listed once: an earlier neighbour may have
		 * listed it. */
		const uint8_t *col = b->color + p;
		const uint16_t *ch = b->chain + p;
		const ptrdiff_t off[4] = { -(ptrdiff_t)b->stride, -1, 1, b->stride };
		int ids[4] = { 0, 0, 0, 0 };

		a->empty = 0;
		a->empty_dirs = 0;
#pragma GCC unroll 4
		for (int d = 0; d < 4; d++) {
			int k = col[off[d]];
			bool dup = false;

			if (k == SHT_EMPTY) {
				a->empty++;
				a->empty_dirs |= 1u << d;
				continue;
			}
			if (k == SHT_OFFBOARD)
				continue;
			ids[d] = ch[off[d]];
#pragma GCC unroll 4
			for (int e = 0; e < d; e++)
				dup |= ids[e] == ids[d];
			assess_neighbour(b, c, k, ids[d], dup, a, &ncap, &nfriend, &safe_friend);
		}
	}
	a->key = zkey(b, c, p);
	if (a->empty_dirs == 0 && ncap == 0 && !safe_friend) {
		/* Suicide.  One stone alone is never legal; a multi-stone one only where allowed. */
		if (a->nfriends == 0 || !b->opt.multi_stone_suicide)
			return info->verdict = SHT_ILLEGAL_SUICIDE;
		after = b->hash;
		for (int k = 0; k < a->nfriends; k++)
			after ^= chain_keys(b, a->friends[k]);
		info->suicided = nfriend + 1;
	} else {
		after = b->hash ^ a->key;
		for (int k = 0; k < a->ncaps; k++)
			after ^= chain_keys(b, a->caps[k]);
		info->captured = ncap;
	}
	info->hash_after = after;
	if (b->opt.track_history && b->index_cap > 0) {
		uint32_t k = b->index[a->hist_slot = hist_probe(b, after)];

		if (k != 0) {
			const struct sht_hist_position *h = &b->pos[k - 1];

			if (b->opt.ko == SHT_KO_POSITIONAL ||
			    (b->opt.ko == SHT_KO_SITUATIONAL && h->count[opp == SHT_WHITE] > 0))
				return info->verdict = SHT_ILLEGAL_SUPERKO;
			info->repeated = h->count[opp == SHT_WHITE] > 0;
		}
	}
	return SHT_LEGAL;
}

enum sht_verdict
sht_board_check(const struct sht_board *b, enum sht_color c, int p, struct sht_move_info *info)
{
	struct sht_move_info scratch;
	struct assessment a;

	return assess(b, c, p, info != NULL ? info : &scratch, &a);
}

/* Joins the stone just played on p, a chain of its own, to the longer chain f beside it: p's
 * empty neighbours (empty_dirs) that f does not touch are its new liberties.  One of each such
 * point's neighbours is p itself, so three are looked at. */
static inline __attribute__((always_inline)) void
join_stone(struct sht_board *b, int p, int f, unsigned empty_dirs)
{
	const uint16_t *ch = b->chain + p;
	ptrdiff_t s = b->stride;
	int extra = 0, tmp;

	if (empty_dirs & 1)
		extra += ch[-2 * s] != f && ch[-s - 1] != f && ch[-s + 1] != f;
	if (empty_dirs & 2)
		extra += ch[-2] != f && ch[-s - 1] != f && ch[s - 1] != f;
	if (empty_dirs & 4)
		extra += ch[2] != f && ch[-s + 1] != f && ch[s + 1] != f;
	if (empty_dirs & 8)
		extra += ch[2 * s] != f && ch[s - 1] != f && ch[s + 1] != f;
	b->chain[p] = (uint16_t)f;
	tmp = b->next[f];
	b->next[f] = (uint16_t)p;
	b->next[p] = (uint16_t)tmp;
	b->size[f]++;
	b->libs[f] = (uint16_t)(b->libs[f] + extra);
}

/* Places colour c's stone on p as the assessment found it: the chains beside it lose p as a
 * liberty, friendly ones merge, the opponent's in atari are removed; then the ko point, or the
 * multi-stone suicide the assessment allowed. */
static inline __attribute__((always_inline)) void
place_stone(struct sht_board *b, int c, int p, const struct assessment *a)
{
	uint16_t *restrict libs = b->libs;
	int opp = 3 - c, id = p, captured = 0;

	b->passes = 0;
	b->stones++;
	if (b->stones_left[c] > 0)
		b->stones_left[c]--;
	b->color[p] = (uint8_t)c;
	bit_set(b->bits[c - 1], p);
	b->hash ^= a->key;
	/* p was a liberty of every distinct chain beside it. */
	for (int k = 0; k < a->nopps; k++)
		libs[a->opps[k]]--;
	if (a->nfriends > 0 && b->size[a->friends[0]] > 1) {
		/* The stone joins a chain: merge_chains's lone-stone case, told which of the
		 * stone's neighbours are empty. */
		libs[a->friends[0]]--;
		join_stone(b, p, id = a->friends[0], a->empty_dirs);
	} else if (a->nfriends > 0) {
		/* Two lone stones: merge_chains keeps the first on a tie, the one just played.
		 * The other's liberties are none of p's (no point is beside both), so the pair
		 * has both counts. */
		int f = a->friends[0];

		b->chain[p] = b->chain[f] = (uint16_t)p;
		b->next[p] = (uint16_t)f;
		b->next[f] = (uint16_t)p;
		b->size[p] = 2;
		libs[p] = (uint16_t)(a->empty + libs[f] - 1);
	} else {
		b->chain[p] = (uint16_t)p;
		b->next[p] = (uint16_t)p;
		b->size[p] = 1;
		libs[p] = (uint16_t)a->empty;
	}
	for (int k = 1; k < a->nfriends; k++) {
		libs[a->friends[k]]--;
		id = merge_chains(b, id, a->friends[k]);
	}
	for (int k = 0; k < a->ncaps; k++) {
		libs[a->caps[k]] = 0;
		captured += remove_chain(b, a->caps[k]);
	}
	b->captures[c] += captured;

	b->ko_point = SHT_NO_POINT;
	b->ko_player = SHT_EMPTY;
	if (b->opt.capture_ban && captured > 0) {
		/* The removed list holds the captures now; a suicide's stones come after. */
		memset(b->ban, 0, sizeof(b->ban));
		for (int k = 0; k < b->nremoved; k++)
			bit_set(b->ban, b->removed[k]);
		b->ban_player = opp;
	}
	if (libs[id] == 0) {
		/* A multi-stone suicide that the assessment allowed. */
		b->captures[opp] += remove_chain(b, id);
	} else if (captured == 1 && b->size[id] == 1 && libs[id] == 1) {
		b->ko_point = b->removed[0];
		b->ko_player = opp;
	}
}

/* Plays in one look at the neighbours: the assessment that decides legality also lists the
 * chains the stone touches, and its history slot is where the new state goes. */
enum sht_verdict
sht_board_play(struct sht_board *b, enum sht_color c, int p, struct sht_move_info *info)
{
	struct sht_move_info scratch;
	struct assessment a;
	int opp = 3 - (int)c;
	enum sht_verdict v;

	if (info == NULL)
		info = &scratch;
	v = assess(b, c, p, info, &a);
	if (v != SHT_LEGAL)
		return v;
	if (!b->history_started && b->opt.track_history) {
		hist_start(b);
		a.hist_slot = -1; /* the start was recorded since the probe */
	}
	b->nremoved = 0;
	b->ban_player = SHT_EMPTY;
	b->moves++;
	b->to_move = opp;
	if (p == SHT_PASS) {
		b->passes++;
		b->passes_by[c]++;
		if (b->first_passer == SHT_EMPTY)
			b->first_passer = (int)c;
		b->ko_point = SHT_NO_POINT;
		b->ko_player = SHT_EMPTY;
	} else {
		place_stone(b, (int)c, p, &a);
	}
	if (b->opt.track_history)
		hist_push(b, b->hash, opp, a.hist_slot);
	return SHT_LEGAL;
}

/* Recomputes chains and liberties from the colours alone; used after setup edits, which may
 * split chains (AE) and so cannot be updated incrementally. */
void
sht_board_rebuild(struct sht_board *b)
{
	int *stack = b->removed; /* scratch: setup is not a move, so nothing was removed */

	memset(b->chain, 0, (size_t)b->npoints * sizeof(*b->chain));
	memset(b->bits, 0, sizeof(b->bits));
	b->hash = 0;
	b->stones = 0;
	for (int p = 0; p < b->npoints; p++) {
		int col = b->color[p], top = 0, prev;
		uint32_t lm;

		if ((col != SHT_BLACK && col != SHT_WHITE) || b->chain[p] != 0)
			continue;
		b->chain[p] = (uint16_t)p;
		b->size[p] = 0;
		b->libs[p] = 0;
		lm = sht_board_new_mark(b);
		prev = p;
		bit_set(b->bits[col - 1], p);
		stack[top++] = p;
		while (top > 0) {
			int s = stack[--top];

			b->size[p]++;
			b->hash ^= zkey(b, col, s);
			if (s != p) {
				b->next[prev] = (uint16_t)s;
				prev = s;
			}
			for (int d = 0; d < 4; d++) {
				int q = s + b->dir[d];

				if (b->color[q] == col && b->chain[q] == 0) {
					b->chain[q] = (uint16_t)p;
					bit_set(b->bits[col - 1], q);
					stack[top++] = q;
				} else if (b->color[q] == SHT_EMPTY && b->mark[q] != lm) {
					b->mark[q] = lm;
					b->libs[p]++;
				}
			}
		}
		b->next[prev] = (uint16_t)p;
		b->stones += b->size[p];
	}
	b->nremoved = 0;
}

bool
sht_board_setup(struct sht_board *b, enum sht_color c, int p)
{
	if (!sht_board_on_board(b, p) || (c != SHT_EMPTY && c != SHT_BLACK && c != SHT_WHITE))
		return false;
	if (b->color[p] == c)
		return true;
	b->color[p] = (uint8_t)c;
	sht_board_rebuild(b);
	b->ko_point = SHT_NO_POINT;
	b->ko_player = SHT_EMPTY;
	b->ban_player = SHT_EMPTY;
	/* Setup mid-game is a new position in the history; before the first move it simply is
	 * the starting position, recorded when play begins. */
	if (b->history_started)
		hist_push(b, b->hash, b->to_move, -1);
	return true;
}

/* ---- snapshots ---- */

struct sht_board_snapshot {
	size_t bytes;
	uint64_t bits[2][SHT_BITSET_WORDS];
	uint64_t hash;
	int ko_point, ko_player, to_move, captures[3], stones_left[3], moves, passes, stones;
	int passes_by[3], first_passer;
	int ban_player;
	uint64_t ban[SHT_BITSET_WORDS];
	int history_started, hist_len;
	unsigned char data[];
};

struct sht_board_snapshot *
sht_board_snapshot_new(const struct sht_board *b)
{
	/* Not calloc: sht_board_save writes all of it, and zeroing 7 KB was a thirtieth of a
	 * `legal` request. */
	struct sht_board_snapshot *s = malloc(sizeof(*s) + b->mutable_bytes);

	if (s != NULL)
		s->bytes = b->mutable_bytes;
	return s;
}

void
sht_board_snapshot_free(struct sht_board_snapshot *s)
{
	free(s);
}

void
sht_board_save(const struct sht_board *b, struct sht_board_snapshot *s)
{
	memcpy(s->data, b->color, b->mutable_bytes);
	memcpy(s->bits, b->bits, sizeof(s->bits));
	s->hash = b->hash;
	s->ko_point = b->ko_point;
	s->ko_player = b->ko_player;
	s->to_move = b->to_move;
	memcpy(s->captures, b->captures, sizeof(s->captures));
	memcpy(s->stones_left, b->stones_left, sizeof(s->stones_left));
	s->moves = b->moves;
	s->passes = b->passes;
	memcpy(s->passes_by, b->passes_by, sizeof(s->passes_by));
	s->first_passer = b->first_passer;
	s->ban_player = b->ban_player;
	if (b->ban_player != SHT_EMPTY)
		memcpy(s->ban, b->ban, sizeof(s->ban));
	s->stones = b->stones;
	s->history_started = b->history_started;
	s->hist_len = b->hist_len;
}

void
sht_board_restore(struct sht_board *b, const struct sht_board_snapshot *s)
{
	memcpy(b->color, s->data, b->mutable_bytes);
	memcpy(b->bits, s->bits, sizeof(b->bits));
	b->hash = s->hash;
	b->ko_point = s->ko_point;
	b->ko_player = s->ko_player;
	b->to_move = s->to_move;
	memcpy(b->captures, s->captures, sizeof(b->captures));
	memcpy(b->stones_left, s->stones_left, sizeof(b->stones_left));
	b->moves = s->moves;
	b->passes = s->passes;
	memcpy(b->passes_by, s->passes_by, sizeof(b->passes_by));
	b->first_passer = s->first_passer;
	b->ban_player = s->ban_player;
	if (s->ban_player != SHT_EMPTY)
		memcpy(b->ban, s->ban, sizeof(b->ban));
	b->stones = s->stones;
	b->history_started = s->history_started;
	b->nremoved = 0;
	hist_truncate(b, s->hist_len);
}

/* Whether colour c can fill the empty point p without ending in atari: legal (captures make
 * it so), and the chain it joins keeps two liberties or more.  Ko is ignored: a fill is a
 * question of shape, not of timing. */
int
sht_board_atari_liberty(const struct sht_board *b, int p)
{
	int s = p;

	if (b->libs[b->chain[p]] != 1)
		return SHT_NO_POINT;
	do {
		for (int d = 0; d < 4; d++)
			if (b->color[s + b->dir[d]] == SHT_EMPTY)
				return s + b->dir[d];
		s = b->next[s];
	} while (s != p);
	return SHT_NO_POINT;
}

int
sht_board_liberties(const struct sht_board *b, int p, int *libs, int max)
{
	int n = 0, s = p;

	do {
		for (int d = 0; d < 4; d++) {
			int q = s + b->dir[d], k = 0;

			if (b->color[q] != SHT_EMPTY)
				continue;
			while (k < n && libs[k] != q)
				k++;
			if (k < n)
				continue; /* found already */
			if (n == max)
				return max + 1;
			libs[n++] = q;
		}
		s = b->next[s];
	} while (s != p);
	return n;
}

bool
sht_board_can_fill(const struct sht_board *b, int c, int p, uint8_t *seen)
{
	int libs = 0, touched[4], ntouched = 0;
	bool ok;

	for (int d = 0; d < 4; d++) {
		int q = p + b->dir[d];

		if (b->color[q] == 3 - c && b->libs[b->chain[q]] == 1)
			return true; /* it captures */
	}
	seen[p] = 1;
	for (int d = 0; d < 4; d++) {
		int q = p + b->dir[d];

		if (b->color[q] == SHT_EMPTY && !seen[q]) {
			seen[q] = 1;
			touched[ntouched++] = q;
			libs++;
		} else if (b->color[q] == c) {
			int s = q;

			do {
				for (int e = 0; e < 4; e++) {
					int r = s + b->dir[e];

					if (b->color[r] == SHT_EMPTY && !seen[r]) {
						seen[r] = 1;
						libs++;
						if (ntouched < 4)
							touched[ntouched++] = r;
						else
							seen[r] = 2; /* cleared below by the full sweep */
					}
				}
				s = b->next[s];
			} while (s != q && libs < 2);
		}
		if (libs >= 2)
			break;
	}
	ok = libs >= 2;
	/* Clear the marks: the few recorded, and a sweep only when more were made. */
	seen[p] = 0;
	for (int i = 0; i < ntouched; i++)
		seen[touched[i]] = 0;
	if (libs > ntouched)
		memset(seen, 0, (size_t)b->npoints);
	return ok;
}
