/*
 * Settling what a record left open: after the dead stones are known, finish the game on a copy
 * of the board (dame, protecting moves, stones left in atari, open boundaries) with a fixed
 * policy that knows what the counting rewards, so that the settled board is what gets counted.
 */
#ifndef SHOUTAN_SETTLE_H
#define SHOUTAN_SETTLE_H

#include <stdbool.h>
#include <stdint.h>

#include "shoutan/export.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sht_board;

/* Why a settle move was played. */
enum sht_settle_reason {
	SHT_SETTLE_CAPTURE = 1,    /* takes a chain left in atari */
	SHT_SETTLE_PROTECT = 2,    /* saves a chain in atari: a protecting move */
	SHT_SETTLE_CONNECTION = 3, /* a dame that joins the player's chains or keeps the
	                            * opponent's apart (group tax) */
	SHT_SETTLE_DAME = 4,       /* a neutral point between live stones of both colours */
	SHT_SETTLE_BOUNDARY = 5,   /* closes an open boundary on a point the player owns */
};

/* What the counting rewards, which decides the order of the settle moves. */
enum sht_settle_counting {
	SHT_SETTLE_AREA = 0,       /* every stone and owned point counts: dame are worth a point */
	SHT_SETTLE_TERRITORY = 1,  /* owned empty points count: dame are worth nothing, and a move
	                            * inside one's own area costs a point */
};

struct sht_settle_move {
	int point;
	int color;
	int reason;                /* enum sht_settle_reason */
	bool unsure;               /* a point of an open area the playouts gave to neither side,
	                            * not a dame between both colours: the move decided whose
	                            * it is */
};

/* The margin, per mille of the playouts, by which a side must own an empty point for the settle
 * step to count it as that side's (lib/settle.c says how it was chosen).  The judge's playouts
 * stop early only once every point is three standard errors from it (lib/dead.c). */
#define SHT_SETTLE_OWNED_CONFIDENCE 200

struct sht_settle_options {
	int counting;              /* enum sht_settle_counting */
	bool group_tax;            /* every group pays: join one's own, keep the opponent's apart */
	/*
	 * The playouts' verdict on every point (sht_dead_result's owner and confidence, per
	 * mille), or NULL: without it no open boundary is closed (only dame, protecting moves and
	 * captures are played).
	 */
	const uint8_t *owner;
	const uint16_t *confidence;
	int owned_confidence;      /* per mille an empty point needs to count as owned; 0:
	                            * SHT_SETTLE_OWNED_CONFIDENCE */
	/*
	 * The game ended by passes: the players left the boundaries as they are, and an open
	 * region counts as the rules count it (dame), so no boundary is closed and only dame next
	 * to both colours are filled.  Area counting without a tax then needs nothing settled (the
	 * ruleset shares or ignores unfilled dame by its own convention).  false: the record
	 * stopped before the end, and its open boundaries are closed by the playouts' ownership.
	 */
	bool finished;
	/*
	 * The order in which dame and boundary points are tried, where several would do equally
	 * well: one of the board's SHT_SETTLE_SCANS symmetries applied to reading it row by row
	 * from the top left (SGF order).  Bit 0 reads each row right to left, bit 1 the rows from
	 * the bottom, bit 2 column by column.  0 is SGF order.  Which side pays a protecting
	 * move, or gets a dame, can hang on this order; the host counts every order and keeps
	 * the median (docs/dead-stones.md, "The order of equal moves").
	 */
	int scan;
};

#define SHT_SETTLE_SCANS 8

struct sht_settle_result {
	struct sht_board *board;   /* the settled board (dead stones removed, moves played) */
	int removed[3];            /* dead stones removed before settling, by colour (not
	                            * counting the revived) */
	/*
	 * Stones the verdict called dead that settling found alive (a record that stopped before
	 * the end only): a settle move of their owner joined them to a live chain, or their
	 * capture would be a snapback.  They stand on the settled board and are not in removed;
	 * the caller's dead map should drop them.  Points, nrevived of them.
	 */
	int *revived;
	int nrevived;
	struct sht_settle_move *moves;
	int nmoves;
	int unsure;                /* moves on points whose ownership was not clear */
};

/*
 * Settles the position b whose dead stones are flagged in dead (sht_board_capacity entries, or
 * NULL).  The settled board is a clone of b, so captures on it add to b's prisoners.  Moves
 * alternate from b's side to move; a side with nothing left to settle passes.  Deterministic.
 * Returns false when memory runs out (out is then empty).
 */
SHT_EXPORT bool sht_settle(const struct sht_board *b, const uint8_t *dead,
    const struct sht_settle_options *opt, struct sht_settle_result *out);
SHT_EXPORT void sht_settle_result_free(struct sht_settle_result *r);
/* "capture", "protect", "connection", "dame", "boundary". */
SHT_EXPORT const char *sht_settle_reason_name(int reason);

#ifdef __cplusplus
}
#endif

#endif
