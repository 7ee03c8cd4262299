/* The board's private layout, for the library's own files that walk it directly; not installed. */
#ifndef SHOUTAN_BOARD_IMPL_H
#define SHOUTAN_BOARD_IMPL_H

#include <stdint.h>

#include "shoutan/area.h"
#include "shoutan/board.h"

/* One colouring in the hash history, with how often it has occurred with each player to
 * move. */
struct sht_hist_position {
	uint64_t hash;
	uint32_t count[2]; /* [0] black to move, [1] white to move */
};

struct sht_board {
	struct sht_board_options opt;
	int w, h;
	int stride;  /* w + 2: one border column on each side */
	int npoints; /* (w + 2) * (h + 2) */
	int dir[4];  /* neighbour offsets: up, left, right, down */

	/* Per point.  Arrays live in one allocation, mutable ones first so a snapshot copies one
	 * contiguous block. */
	uint8_t *color;
	uint16_t *chain; /* chain id (a stone of the chain) for stones, 0 elsewhere */
	uint16_t *next;  /* next stone in the chain's ring */
	/* Per chain, indexed by chain id. */
	uint16_t *libs;  /* exact liberty count */
	uint16_t *size;
	size_t mutable_bytes;

	/* Immutable or scratch. */
	const uint64_t *zobrist; /* [color - 1][point], shared by the boards of this size */
	uint32_t *mark;    /* scratch marks, compared against mark_gen */
	uint32_t mark_gen;
	int *removed;      /* points emptied by the last move */
	int nremoved;

	/* Stones as bitsets indexed by point ([0] black, [1] white), kept in step with color[] so
	 * that area maps need no conversion pass. */
	uint64_t bits[2][SHT_BITSET_WORDS];

	/* Scalars, saved by a snapshot. */
	uint64_t hash;
	int ko_point, ko_player;
	/* opt.capture_ban: the points the last move captured, which ban_player may not play on
	 * now (SHT_EMPTY: no ban; the bitset is meaningful only while ban_player is set). */
	int ban_player;
	uint64_t ban[SHT_BITSET_WORDS];
	int to_move;
	int captures[3];
	int stones_left[3];
	int moves;
	int passes;
	int passes_by[3];  /* every pass of the game, by colour (void moves included) */
	int first_passer;  /* the colour that passed first, SHT_EMPTY before any pass */
	int stones;  /* on the board, both colours */
	int history_started;

	/* Hash history, for superko and cycles.  hist lists every (position, player to move)
	 * state since play began, in order, as position index << 1 | white to move; pos holds the
	 * distinct positions in order of first occurrence; index is an open-addressing table of
	 * them (position index + 1, 0 free).  Positions are only ever removed last-in first-out
	 * (a snapshot's restore), which leaves a linear-probing table exactly as it was; 4-byte
	 * slots instead of whole entries keep the table a request builds small to clear.
	 * With opt.history_on_request there is no index and no pos: hist holds each state's stones
	 * on the board and white to move (stones << 1 | white) and hist_hash its hash, and the
	 * questions read the list. */
	uint32_t *hist;
	uint64_t *hist_hash;
	int hist_len, hist_cap;
	struct sht_hist_position *pos;
	int npos, pos_cap;
	uint32_t *index;
	int index_cap; /* a power of two, or 0 before the first state */
};

/* A fresh mark generation for b->mark; callers mark points with the returned value. */
uint32_t sht_board_new_mark(struct sht_board *b);

/* Whether the point p is next to the chain of the stone at q. */
static inline bool
sht_board_touches_chain(const struct sht_board *b, int p, int q)
{
	for (int d = 0; d < 4; d++)
		if (b->color[p + b->dir[d]] == b->color[q] && b->chain[p + b->dir[d]] == b->chain[q])
			return true;
	return false;
}

static inline void
bit_set(uint64_t *bits, int p)
{
	bits[p >> 6] |= UINT64_C(1) << (p & 63);
}

static inline bool
bit_test(const uint64_t *bits, int p)
{
	return bits[p >> 6] >> (p & 63) & 1;
}

static inline void
bit_clear(uint64_t *bits, int p)
{
	bits[p >> 6] &= ~(UINT64_C(1) << (p & 63));
}

/* Whether colour c can play on the empty point p and keep two liberties or more (or capture):
 * a move that is no self-atari.  seen is npoints bytes of zeros, left zero. */
bool sht_board_can_fill(const struct sht_board *b, int c, int p, uint8_t *seen);

/*
 * What sht_board_check says of c on p, without the call, for the playouts (lib/dead.c), which
 * ask it of nearly every candidate.  On a board that plays simple ko with no history, that
 * leaves the point, the stones left, the ko and suicide (sht_board_check's assessment, in its
 * order), and the two must change together (tests/test_dead_fast.c compares them).  A move is
 * suicide when no neighbour is empty, none of the opponent's is in atari and none of c's has
 * another liberty; a multi-stone one is legal where the rules allow it.  A board that does keep
 * history (superko, cycles) asks sht_board_check.
 */
static inline __attribute__((always_inline)) bool
sht_board_legal_quick(const struct sht_board *b, int c, int p)
{
	const uint8_t *col = b->color;
	bool friend = false;

	if (b->opt.track_history)
		return sht_board_check(b, (enum sht_color)c, p, NULL) == SHT_LEGAL;
	if (col[p] != SHT_EMPTY || b->stones_left[c] == 0 || (p == b->ko_point && c == b->ko_player) ||
	    (c == b->ban_player && bit_test(b->ban, p)))
		return false;
	for (int d = 0; d < 4; d++) {
		int q = p + b->dir[d], k = col[q];

		if (k == SHT_EMPTY)
			return true;
		if (k == SHT_OFFBOARD)
			continue;
		if (k == c) {
			if (b->libs[b->chain[q]] > 1)
				return true;
			friend = true;
		} else if (b->libs[b->chain[q]] == 1) {
			return true; /* it captures */
		}
	}
	return friend && b->opt.multi_stone_suicide;
}

/*
 * sht_board_can_fill(b, c, p, seen), answered from p's neighbours where they settle it, for the
 * playouts ask it of most moves and the board's version walks the chains.  A capture, two empty
 * neighbours, or a chain of c's beside p with three liberties (two are left) make the fill safe.
 * Otherwise every chain of c's beside p has p and at most one other liberty, so with one empty
 * neighbour e the fill keeps two exactly when a chain with two liberties does not touch e (its
 * other one is not e), and with none, when two such chains have different other liberties:
 * only that last case walks the chains.
 */
static inline __attribute__((always_inline)) bool
sht_board_can_fill_quick(const struct sht_board *b, int c, int p, uint8_t *seen)
{
	int empty = 0, e = 0, two[4], ntwo = 0;

	for (int d = 0; d < 4; d++) {
		int q = p + b->dir[d], k = b->color[q], id, l, j;

		if (k == SHT_EMPTY) {
			empty++;
			e = q;
			continue;
		}
		if (k == SHT_OFFBOARD)
			continue;
		id = b->chain[q];
		l = b->libs[id];
		if (k != c) {
			if (l == 1)
				return true; /* it captures */
			continue;
		}
		if (l >= 3)
			return true;
		if (l != 2)
			continue;
		for (j = 0; j < ntwo && two[j] != id; j++)
			;
		if (j == ntwo)
			two[ntwo++] = id;
	}
	if (empty >= 2)
		return true;
	if (ntwo == 0 || (empty == 0 && ntwo == 1))
		return false;
	if (empty == 1) {
		for (int j = 0; j < ntwo; j++) {
			int id = two[j];

			if (b->chain[e - b->stride] != id && b->chain[e - 1] != id &&
			    b->chain[e + 1] != id && b->chain[e + b->stride] != id)
				return true;
		}
		return false;
	}
	return sht_board_can_fill(b, c, p, seen);
}

/* The one liberty of the chain at p, or SHT_NO_POINT when it has another number of them:
 * where a chain in atari would be taken, or saved. */
int sht_board_atari_liberty(const struct sht_board *b, int p);

/* The liberties of the chain at p, up to max of them (a few: each is compared with those found)
 * into libs; returns how many it has in all, up to max + 1.  Reads the board only. */
int sht_board_liberties(const struct sht_board *b, int p, int *libs, int max);

/* Recomputes chains, liberties and the hash from the colours alone (after setup edits). */
void sht_board_rebuild(struct sht_board *b);

#endif
