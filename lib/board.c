/* The board engine: incremental chains with exact liberties, captures, ko, superko and setup. */
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
	opt->supply[0] = 0;
	opt->supply[SHT_BLACK] = SHT_UNLIMITED;
	opt->supply[SHT_WHITE] = SHT_UNLIMITED;
}

static inline uint64_t
zkey(const struct sht_board *b, int c, int p)
{
	return b->zobrist[(size_t)(c - 1) * (size_t)b->npoints + (size_t)p];
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

static int
hist_slot_index(const struct sht_board *b, uint64_t hash)
{
	int mask = b->set_cap - 1;
	/* The low bits of a Zobrist hash are already uniform. */
	int i = (int)(hash & (uint64_t)mask);

	for (;;) {
		const struct sht_hist_slot *s = &b->set[i];

		if ((s->count[0] == 0 && s->count[1] == 0) || s->hash == hash)
			return i;
		i = (i + 1) & mask;
	}
}

static void
hist_set_add(struct sht_board *b, uint64_t hash, int to_move)
{
	struct sht_hist_slot *s = &b->set[hist_slot_index(b, hash)];

	if (s->count[0] == 0 && s->count[1] == 0) {
		s->hash = hash;
		b->set_used++;
	}
	s->count[to_move == SHT_WHITE]++;
}

static bool
hist_rebuild(struct sht_board *b, int cap)
{
	struct sht_hist_slot *set = calloc((size_t)cap, sizeof(*set));

	if (set == NULL)
		return false;
	free(b->set);
	b->set = set;
	b->set_cap = cap;
	b->set_used = 0;
	for (int i = 0; i < b->hist_len; i++)
		hist_set_add(b, b->hist[i].hash, b->hist[i].to_move);
	return true;
}

/* Records a state.  Out of memory degrades to not tracking rather than failing the move: the
 * move itself was legal and has been made. */
static void
hist_push(struct sht_board *b, uint64_t hash, int to_move)
{
	if (b->hist_len == b->hist_cap) {
		int cap = b->hist_cap ? b->hist_cap * 2 : 256;
		struct sht_hist_entry *h = realloc(b->hist, (size_t)cap * sizeof(*h));

		if (h == NULL)
			return;
		b->hist = h;
		b->hist_cap = cap;
	}
	if ((b->set_used + 1) * 2 > b->set_cap &&
	    !hist_rebuild(b, b->set_cap ? b->set_cap * 2 : 1024))
		return;
	b->hist[b->hist_len].hash = hash;
	b->hist[b->hist_len].to_move = (uint8_t)to_move;
	b->hist_len++;
	hist_set_add(b, hash, to_move);
}

static const struct sht_hist_slot *
hist_find(const struct sht_board *b, uint64_t hash)
{
	const struct sht_hist_slot *s;

	if (b->set_cap == 0)
		return NULL;
	s = &b->set[hist_slot_index(b, hash)];
	if (s->count[0] == 0 && s->count[1] == 0)
		return NULL;
	return s;
}

static void
hist_start(struct sht_board *b)
{
	if (!b->history_started && b->opt.track_history) {
		b->history_started = 1;
		hist_push(b, b->hash, b->to_move);
	}
}

int
sht_board_occurrences(const struct sht_board *b, uint64_t hash, enum sht_color c)
{
	const struct sht_hist_slot *s = hist_find(b, hash);

	if (s == NULL || (c != SHT_BLACK && c != SHT_WHITE))
		return 0;
	return (int)s->count[c == SHT_WHITE];
}

/* ---- life cycle ---- */

static size_t
align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
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
	b = calloc(1, sizeof(*b));
	if (b == NULL)
		return NULL;
	b->opt = *opt;
	if (b->opt.ko != SHT_KO_SIMPLE)
		b->opt.track_history = true;
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
	off += align8(n * 8); /* chash */
	off += align8(n);     /* color */
	off += align8(n * 2) * 4; /* chain, next, libs, size */
	b->mutable_bytes = off;
	total = off + align8(n * 8) * 2 + align8(n * 4) + align8(n * sizeof(int));
	mem = calloc(1, total);
	if (mem == NULL) {
		free(b);
		return NULL;
	}
	off = 0;
	b->chash = (uint64_t *)(void *)(mem + off); off += align8(n * 8);
	b->color = mem + off; off += align8(n);
	b->chain = (uint16_t *)(void *)(mem + off); off += align8(n * 2);
	b->next = (uint16_t *)(void *)(mem + off); off += align8(n * 2);
	b->libs = (uint16_t *)(void *)(mem + off); off += align8(n * 2);
	b->size = (uint16_t *)(void *)(mem + off); off += align8(n * 2);
	b->zobrist = (uint64_t *)(void *)(mem + off); off += align8(n * 8) * 2;
	b->mark = (uint32_t *)(void *)(mem + off); off += align8(n * 4);
	b->removed = (int *)(void *)(mem + off);

	/* Keys are drawn per (x, y), not per padded index, so a point keeps its key whatever the
	 * board's width: the key of (c, x, y) is draw number c * 625 + y * 25 + x of splitmix64
	 * from ZOBRIST_SEED.  A draw is its state's mix alone, so only the board's own points are
	 * drawn (a never-seen request builds a board: drawing all 1,250 was a third of that). */
	for (int c = 0; c < 2; c++)
		for (int y = 0; y < b->h; y++)
			for (int x = 0; x < b->w; x++) {
				uint64_t draw = (uint64_t)((c * SHT_MAX_SIZE + y) * SHT_MAX_SIZE + x);
				uint64_t state = ZOBRIST_SEED + draw * UINT64_C(0x9e3779b97f4a7c15);

				b->zobrist[(size_t)c * n + (size_t)((y + 1) * b->stride + x + 1)] =
				    splitmix64(&state);
			}
	sht_board_clear(b);
	return b;
}

void
sht_board_clear(struct sht_board *b)
{
	memset(b->chash, 0, b->mutable_bytes);
	memset(b->color, SHT_OFFBOARD, (size_t)b->npoints);
	for (int y = 0; y < b->h; y++)
		memset(b->color + (y + 1) * b->stride + 1, SHT_EMPTY, (size_t)b->w);
	memset(b->bits, 0, sizeof(b->bits));
	b->hash = 0;
	b->ko_point = SHT_NO_POINT;
	b->ko_player = SHT_EMPTY;
	b->to_move = SHT_BLACK;
	memset(b->captures, 0, sizeof(b->captures));
	b->stones_left[SHT_BLACK] = b->opt.supply[SHT_BLACK];
	b->stones_left[SHT_WHITE] = b->opt.supply[SHT_WHITE];
	b->moves = 0;
	b->passes = 0;
	b->nremoved = 0;
	b->history_started = 0;
	b->hist_len = 0;
	if (b->set != NULL)
		memset(b->set, 0, (size_t)b->set_cap * sizeof(*b->set));
	b->set_used = 0;
}

struct sht_board *
sht_board_clone(const struct sht_board *src)
{
	struct sht_board *b = sht_board_new(&src->opt);

	if (b == NULL)
		return NULL;
	memcpy(b->chash, src->chash, src->mutable_bytes);
	memcpy(b->bits, src->bits, sizeof(b->bits));
	b->hash = src->hash;
	b->ko_point = src->ko_point;
	b->ko_player = src->ko_player;
	b->to_move = src->to_move;
	memcpy(b->captures, src->captures, sizeof(b->captures));
	memcpy(b->stones_left, src->stones_left, sizeof(b->stones_left));
	b->moves = src->moves;
	b->passes = src->passes;
	b->history_started = src->history_started;
	if (src->hist_len > 0) {
		b->hist = malloc((size_t)src->hist_cap * sizeof(*b->hist));
		if (b->hist == NULL) {
			sht_board_free(b);
			return NULL;
		}
		memcpy(b->hist, src->hist, (size_t)src->hist_len * sizeof(*b->hist));
		b->hist_cap = src->hist_cap;
		b->hist_len = src->hist_len;
		if (!hist_rebuild(b, src->set_cap)) {
			sht_board_free(b);
			return NULL;
		}
	}
	return b;
}

void
sht_board_free(struct sht_board *b)
{
	if (b == NULL)
		return;
	free(b->hist);
	free(b->set);
	free(b->chash); /* the start of the one allocation */
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

	for (int p = 0; p < b->npoints; p++)
		n += b->color[p] == c;
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

static inline bool
adjacent_to_chain(const struct sht_board *b, int p, int id)
{
	return b->chain[p + b->dir[0]] == id || b->chain[p + b->dir[1]] == id ||
	    b->chain[p + b->dir[2]] == id || b->chain[p + b->dir[3]] == id;
}

/* Merges two chains of one colour; the smaller is relabelled.  The merged liberty count is the
 * larger chain's plus the smaller chain's liberties that the larger one does not touch: exact,
 * and proportional to the smaller chain only. */
static int
merge_chains(struct sht_board *b, int a, int c)
{
	int big = a, small = c, extra = 0, s, tmp;
	uint32_t m;

	if (b->size[a] < b->size[c]) {
		big = c;
		small = a;
	}
	m = sht_board_new_mark(b);
	s = small;
	do {
		for (int d = 0; d < 4; d++) {
			int n = s + b->dir[d];

			if (b->color[n] == SHT_EMPTY && b->mark[n] != m) {
				b->mark[n] = m;
				if (!adjacent_to_chain(b, n, big))
					extra++;
			}
		}
		s = b->next[s];
	} while (s != small);
	s = small;
	do {
		b->chain[s] = (uint16_t)big;
		s = b->next[s];
	} while (s != small);
	tmp = b->next[big];
	b->next[big] = b->next[small];
	b->next[small] = (uint16_t)tmp;
	b->size[big] = (uint16_t)(b->size[big] + b->size[small]);
	b->libs[big] = (uint16_t)(b->libs[big] + extra);
	b->chash[big] ^= b->chash[small];
	return big;
}

/* Removes a whole chain; every point it empties becomes a liberty of each distinct chain of the
 * other colour beside it. */
static int
remove_chain(struct sht_board *b, int id)
{
	int victim = b->color[id], other = 3 - victim, s = id, n = b->size[id];

	b->hash ^= b->chash[id];
	do {
		int nxt = b->next[s];
		int seen[4], nseen = 0;

		b->color[s] = SHT_EMPTY;
		bit_clear(b->bits[victim - 1], s);
		b->chain[s] = 0;
		b->removed[b->nremoved++] = s;
		for (int d = 0; d < 4; d++) {
			int q = s + b->dir[d], cid, k;

			if (b->color[q] != other)
				continue;
			cid = b->chain[q];
			for (k = 0; k < nseen && seen[k] != cid; k++)
				;
			if (k == nseen) {
				seen[nseen++] = cid;
				b->libs[cid]++;
			}
		}
		s = nxt;
	} while (s != id);
	return n;
}

enum sht_verdict
sht_board_check(const struct sht_board *b, enum sht_color c, int p, struct sht_move_info *info)
{
	int opp, seen[4], nseen = 0;
	bool has_empty = false, safe_friend = false, has_friend = false;
	uint64_t cap_hash = 0, friend_hash = 0, after;
	int ncap = 0, nfriend = 0;
	struct sht_move_info scratch;

	if (info == NULL)
		info = &scratch;
	memset(info, 0, sizeof(*info));
	if (c != SHT_BLACK && c != SHT_WHITE)
		return info->verdict = SHT_ILLEGAL_COLOR;
	opp = 3 - c;
	if (p == SHT_PASS) {
		info->hash_after = b->hash;
		if (b->opt.track_history)
			info->repeated = sht_board_occurrences(b, b->hash, (enum sht_color)opp) > 0;
		return SHT_LEGAL;
	}
	if (p < 0 || p >= b->npoints || b->color[p] == SHT_OFFBOARD)
		return info->verdict = SHT_ILLEGAL_OFFBOARD;
	if (b->color[p] != SHT_EMPTY)
		return info->verdict = SHT_ILLEGAL_OCCUPIED;
	if (b->stones_left[c] == 0)
		return info->verdict = SHT_ILLEGAL_NO_STONES;
	if (p == b->ko_point && (int)c == b->ko_player)
		return info->verdict = SHT_ILLEGAL_KO;

	for (int d = 0; d < 4; d++) {
		int q = p + b->dir[d], col = b->color[q], id, k;

		if (col == SHT_EMPTY) {
			has_empty = true;
			continue;
		}
		if (col == SHT_OFFBOARD)
			continue;
		id = b->chain[q];
		for (k = 0; k < nseen && seen[k] != id; k++)
			;
		if (k < nseen)
			continue;
		seen[nseen++] = id;
		if (col == opp) {
			if (b->libs[id] == 1) {
				cap_hash ^= b->chash[id];
				ncap += b->size[id];
			}
		} else {
			has_friend = true;
			friend_hash ^= b->chash[id];
			nfriend += b->size[id];
			if (b->libs[id] > 1)
				safe_friend = true;
		}
	}
	if (!has_empty && ncap == 0 && !safe_friend) {
		/* Suicide.  One stone alone is never legal; a multi-stone one only where allowed. */
		if (!has_friend || !b->opt.multi_stone_suicide)
			return info->verdict = SHT_ILLEGAL_SUICIDE;
		after = b->hash ^ friend_hash;
		info->suicided = nfriend + 1;
	} else {
		after = b->hash ^ zkey(b, c, p) ^ cap_hash;
		info->captured = ncap;
	}
	info->hash_after = after;
	if (b->opt.track_history) {
		const struct sht_hist_slot *s = hist_find(b, after);

		if (s != NULL) {
			if (b->opt.ko == SHT_KO_POSITIONAL ||
			    (b->opt.ko == SHT_KO_SITUATIONAL && s->count[opp == SHT_WHITE] > 0))
				return info->verdict = SHT_ILLEGAL_SUPERKO;
			info->repeated = s->count[opp == SHT_WHITE] > 0;
		}
	}
	return SHT_LEGAL;
}

enum sht_verdict
sht_board_play(struct sht_board *b, enum sht_color c, int p, struct sht_move_info *info)
{
	struct sht_move_info scratch;
	int opp = 3 - (int)c, seen[4], nseen = 0, id, captured = 0;
	enum sht_verdict v;

	if (info == NULL)
		info = &scratch;
	v = sht_board_check(b, c, p, info);
	if (v != SHT_LEGAL)
		return v;
	hist_start(b);
	b->nremoved = 0;
	b->moves++;
	b->to_move = opp;
	if (p == SHT_PASS) {
		b->passes++;
		b->ko_point = SHT_NO_POINT;
		b->ko_player = SHT_EMPTY;
		if (b->opt.track_history)
			hist_push(b, b->hash, opp);
		return SHT_LEGAL;
	}
	b->passes = 0;
	if (b->stones_left[c] > 0)
		b->stones_left[c]--;

	b->color[p] = (uint8_t)c;
	bit_set(b->bits[c - 1], p);
	b->chain[p] = (uint16_t)p;
	b->next[p] = (uint16_t)p;
	b->size[p] = 1;
	b->chash[p] = zkey(b, c, p);
	b->hash ^= b->chash[p];
	b->libs[p] = 0;
	for (int d = 0; d < 4; d++) {
		int q = p + b->dir[d], col = b->color[q], k;

		if (col == SHT_EMPTY) {
			b->libs[p]++;
			continue;
		}
		if (col == SHT_OFFBOARD)
			continue;
		/* p was a liberty of every distinct chain beside it. */
		id = b->chain[q];
		for (k = 0; k < nseen && seen[k] != id; k++)
			;
		if (k == nseen) {
			seen[nseen++] = id;
			b->libs[id]--;
		}
	}
	id = p;
	for (int k = 0; k < nseen; k++)
		if (b->color[seen[k]] == c)
			id = merge_chains(b, id, seen[k]);
	for (int k = 0; k < nseen; k++)
		if (b->color[seen[k]] == opp && b->libs[seen[k]] == 0)
			captured += remove_chain(b, seen[k]);
	b->captures[c] += captured;

	b->ko_point = SHT_NO_POINT;
	b->ko_player = SHT_EMPTY;
	if (b->libs[id] == 0) {
		/* A multi-stone suicide that sht_board_check allowed. */
		b->captures[opp] += remove_chain(b, id);
	} else if (captured == 1 && b->size[id] == 1 && b->libs[id] == 1) {
		b->ko_point = b->removed[0];
		b->ko_player = opp;
	}
	if (b->opt.track_history)
		hist_push(b, b->hash, opp);
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
	for (int p = 0; p < b->npoints; p++) {
		int col = b->color[p], top = 0, prev;
		uint32_t lm;

		if ((col != SHT_BLACK && col != SHT_WHITE) || b->chain[p] != 0)
			continue;
		b->chain[p] = (uint16_t)p;
		b->size[p] = 0;
		b->chash[p] = 0;
		b->libs[p] = 0;
		lm = sht_board_new_mark(b);
		prev = p;
		bit_set(b->bits[col - 1], p);
		stack[top++] = p;
		while (top > 0) {
			int s = stack[--top];

			b->size[p]++;
			b->chash[p] ^= zkey(b, col, s);
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
		b->hash ^= b->chash[p];
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
	/* Setup mid-game is a new position in the history; before the first move it simply is
	 * the starting position, recorded when play begins. */
	if (b->history_started)
		hist_push(b, b->hash, b->to_move);
	return true;
}

/* ---- snapshots ---- */

struct sht_board_snapshot {
	size_t bytes;
	uint64_t bits[2][SHT_BITSET_WORDS];
	uint64_t hash;
	int ko_point, ko_player, to_move, captures[3], stones_left[3], moves, passes;
	int history_started, hist_len, set_cap;
	unsigned char data[];
};

struct sht_board_snapshot *
sht_board_snapshot_new(const struct sht_board *b)
{
	struct sht_board_snapshot *s = calloc(1, sizeof(*s) + b->mutable_bytes);

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
	memcpy(s->data, b->chash, b->mutable_bytes);
	memcpy(s->bits, b->bits, sizeof(s->bits));
	s->hash = b->hash;
	s->ko_point = b->ko_point;
	s->ko_player = b->ko_player;
	s->to_move = b->to_move;
	memcpy(s->captures, b->captures, sizeof(s->captures));
	memcpy(s->stones_left, b->stones_left, sizeof(s->stones_left));
	s->moves = b->moves;
	s->passes = b->passes;
	s->history_started = b->history_started;
	s->hist_len = b->hist_len;
	s->set_cap = b->set_cap;
}

void
sht_board_restore(struct sht_board *b, const struct sht_board_snapshot *s)
{
	memcpy(b->chash, s->data, b->mutable_bytes);
	memcpy(b->bits, s->bits, sizeof(b->bits));
	b->hash = s->hash;
	b->ko_point = s->ko_point;
	b->ko_player = s->ko_player;
	b->to_move = s->to_move;
	memcpy(b->captures, s->captures, sizeof(b->captures));
	memcpy(b->stones_left, s->stones_left, sizeof(b->stones_left));
	b->moves = s->moves;
	b->passes = s->passes;
	b->history_started = s->history_started;
	b->nremoved = 0;
	if (b->set_cap != s->set_cap) {
		/* The set grew since the save: rebuild it from the history that remains. */
		b->hist_len = s->hist_len < b->hist_len ? s->hist_len : b->hist_len;
		if (!hist_rebuild(b, b->set_cap))
			b->hist_len = 0;
		return;
	}
	while (b->hist_len > s->hist_len) {
		struct sht_hist_entry *e = &b->hist[--b->hist_len];
		struct sht_hist_slot *slot = &b->set[hist_slot_index(b, e->hash)];

		slot->count[e->to_move == SHT_WHITE]--;
		if (slot->count[0] == 0 && slot->count[1] == 0)
			b->set_used--;
	}
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
