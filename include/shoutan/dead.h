/*
 * Judging dead stones in a finished position: certain (Benson) first, then playouts, a reading
 * of capturing races and seki, then an exact search of small enclosed fights.
 */
#ifndef SHOUTAN_DEAD_H
#define SHOUTAN_DEAD_H

#include <stdbool.h>
#include <stdint.h>

#include "shoutan/export.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sht_board;

/* dead: "auto-thorough" counts a position SHT_THOROUGH_FIRST times, each judged with its own
 * seed (0, 1, 2, ...); unless they agree, SHT_THOROUGH_COUNTS times, and keeps the median
 * count (host/judge.c; dead: "auto" does the same with 2 and 3 on a record that stopped before
 * the end, and counts a finished game once). */
#define SHT_THOROUGH_FIRST 3
#define SHT_THOROUGH_COUNTS 9

struct sht_dead_options {
	int playouts;    /* 0: as many as the verdict needs, from 64 to 256 (1024 with thorough),
	                  * stopping once it is settled (docs/dead-stones.md); else exactly so many */
	uint64_t seed;   /* 0: a fixed default; the same seed gives the same judgement */
	/*
	 * The Japanese confirmation of life and death (docs/rules.md section 3): a ko may not be
	 * retaken without first passing for it, so a group the opponent can capture by way of
	 * a ko is dead: bent four in the corner, a group that lives only by winning a ko.
	 * false: such groups are left to the playouts (rules that settle disputes by playing on).
	 */
	bool pass_for_ko;
	/* Up to 1024 playouts for a steadier verdict; ignored when playouts is given.  dead:
	 * "auto-thorough" does not use it: more playouts measured no better on the corpus than
	 * 256, and the median of SHT_THOROUGH_COUNTS counts judged with seeds 0, 1, ... better
	 * (docs/dead-stones.md, "Effort"). */
	bool thorough;
};

/* Per point of the board (sht_board_capacity entries each). */
struct sht_dead_result {
	uint8_t *dead;         /* 1 for a stone judged dead */
	uint8_t *uncertain;    /* 1 for a stone whose chain neither side owns in 4 playouts of 5 */
	uint8_t *owner;        /* SHT_BLACK / SHT_WHITE / SHT_EMPTY: who owns the point in most
	                        * playouts */
	uint16_t *confidence;  /* |black - white| ownership, per mille of the playouts */
	uint8_t *by_ko;        /* may be NULL; else 1 for a stone dead only by pass_for_ko (the
	                        * opponent captures it by way of a ko) */
	int playouts;          /* set by the judge: the playouts its verdict took */
};

/*
 * Judges the final position b.  Chains that Benson proves pass-alive live and stones in the
 * opponent's pass-alive territory die, for certain.  For the rest, playouts from the position,
 * half with each colour first, in which neither side fills its own eyes or puts a large chain
 * into atari and no one plays in pass-alive territory, each scored by area; a chain is dead
 * when the opponent owns its points in more than 40% of the playouts.  Two adjacent opposing
 * chains both called so are a capturing race, read by a small exact search: the loser dies
 * (and the chains around it are judged again without it), a seki lives, and a race won by
 * whoever moves first goes to the side to move in b (sht_board_to_move); a chain called dead
 * in seki with one called alive lives.  A chain left alive whose fight is small and enclosed
 * is searched exactly: captured without any ko whoever moves first, it is dead; captured only
 * by way of a ko when no ko may be retaken without a pass, it is dead with opt->pass_for_ko
 * (by_ko), else uncertain.  Where one colour's stones enclose a region with room whose
 * invaders touch none of them, the enclosing chains live and each invading group lives only if
 * its eye spaces give two eyes (a changed verdict marked uncertain).  Deterministic for a given
 * seed.  Returns false when memory runs out.
 */
SHT_EXPORT bool sht_dead_judge(const struct sht_board *b, const struct sht_dead_options *opt,
    struct sht_dead_result *out);

#ifdef __cplusplus
}
#endif

#endif
