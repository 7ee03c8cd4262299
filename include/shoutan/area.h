/*
 * Scoring primitives: area maps, empty regions, independent-life regions, Benson pass-alive, and
 * the counts a ruleset scores from.
 */
#ifndef SHOUTAN_AREA_H
#define SHOUTAN_AREA_H

#include <stdbool.h>
#include <stdint.h>

#include "shoutan/export.h"
#include "shoutan/ruleset.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sht_board;

/* Words in a bitset indexed by point: 27 x 27 padded points for the largest board. */
#define SHT_BITSET_WORDS 12

/*
 * The area map: which points each colour owns when every stone not marked dead is alive.
 * A colour owns its live stones and every empty point (or dead stone) from which only its live
 * stones can be reached through empty points (Tromp-Taylor's "reaches only").  Points that reach
 * both colours are dame; points that reach neither (a board with no live stones) are nobody's.
 */
struct sht_area {
	uint64_t black[SHT_BITSET_WORDS];  /* black's live stones and territory */
	uint64_t white[SHT_BITSET_WORDS];
	uint64_t dame[SHT_BITSET_WORDS];   /* empty (or dead) points reaching both colours */
	int black_stones, white_stones;       /* live stones on the board */
	int black_territory, white_territory; /* owned points that are not live stones */
	int dame_points;
	int neutral_points;                   /* reaching no colour at all */
};

/*
 * Computes the area map.  dead is NULL or an array of sht_board_capacity() flags: a nonzero
 * flag on a stone treats it as removed (it becomes a point of the region around it).
 */
SHT_EXPORT void sht_area_compute(const struct sht_board *b, const uint8_t *dead,
    struct sht_area *area);
/* SHT_BLACK or SHT_WHITE for an owned point, SHT_EMPTY for dame and neutral points. */
SHT_EXPORT int sht_area_owner(const struct sht_area *area, int point);

/* A maximal connected set of empty (or dead-stone) points. */
struct sht_region {
	int size;
	int first;    /* one point of the region */
	int borders;  /* bit SHT_BLACK and/or bit SHT_WHITE: the live colours it touches */
	int empty;    /* how many of its points are empty (the rest hold dead stones) */
};

/*
 * Labels regions: label[p] = region index + 1 for region points, 0 for live stones and the
 * border.  Writes at most max regions and returns how many there are.  label has
 * sht_board_capacity() entries.
 */
SHT_EXPORT int sht_area_regions(const struct sht_board *b, const uint8_t *dead, int *label,
    struct sht_region *regions, int max);

/*
 * Independent-life regions (docs/rules.md section 1).  A group is a maximal connected set of one
 * colour's live stones and the points only it reaches.  A seki point is a dame point that
 * neither colour can fill without leaving its own chain in atari (the shared liberties of a
 * seki; ordinary dame, which one side can fill, are unfinished business, not seki).  A group is
 * an ILR when none of its chains is in atari and none of its stones touches a seki point, or it
 * owns two separate territory regions (two eyes are life: a chain beside the point can join them
 * through the group's points and fill it, an open fight rather than a seki).
 * group[p] = ILR index + 1 for the stones and points of an ILR, 0 elsewhere; counts[SHT_BLACK]
 * and counts[SHT_WHITE] receive the number of ILRs per colour; when seki is not NULL, seki[p] = 1
 * for the stones of the groups in seki (touching a seki point with at most one eye region).
 */
SHT_EXPORT void sht_area_ilr(const struct sht_board *b, const uint8_t *dead, int *group,
    int counts[3], uint8_t *seki);

/*
 * Benson's unconditional life for one colour, with the territory it owns for certain.  Regions
 * are the maximal connected sets of empty points and opponent stones that hold at least one empty
 * point.  A region is vital to a chain when each of its empty points is the chain's liberty
 * (each of its points, where multi_stone_suicide lets the opponent empty its own stones).
 * Chains with fewer than two vital regions whose bordering chains all survive are removed until
 * none is.  status[p] is set to 1 for a pass-alive stone of colour c, and to 2 for a point of a
 * region that c owns for certain: every bordering chain pass-alive and at most one point of the
 * region not adjacent to c's stones, so the opponent can never live there.  Other entries are
 * left alone.  Returns the number of pass-alive stones.
 */
SHT_EXPORT int sht_benson(const struct sht_board *b, int c, bool multi_stone_suicide,
    uint8_t *status);

/* Both colours at once: owner[p] = SHT_BLACK / SHT_WHITE for pass-alive stones and their
 * unconditional territory (including dead stones inside it), SHT_EMPTY elsewhere. */
SHT_EXPORT void sht_pass_alive_map(const struct sht_board *b, bool multi_stone_suicide,
    uint8_t *owner);

/*
 * The group tax's groups as historians count them (docs/rules.md section 5.4), beside the ILRs
 * of sht_area_ilr, which other rules keep.  A group is a set of one colour's live chains that
 * the opponent cannot cut apart:
 *   - chains around a territory region of two points or more (only they reach it) are one;
 *   - chains around an empty point where the opponent's stone would be suicide, or would be
 *     captured at once by a move that keeps two liberties (a tiger's mouth), are one; a mouth
 *     the opponent can play with a capture, or whose capture is a ko or a snapback, is broken;
 *   - two groups that share two points or more, where every cut at one is answered by a
 *     connection at another that leaves two liberties, are one (miai: a bamboo joint, a
 *     diagonal with both points empty); a single shared point is a cut;
 *   - a chain in atari joins the chains beside its last liberty when filling it is legal and
 *     leaves two liberties, since its owner must connect there to keep it.
 * Points either side could fill (dame with the opponent beside them) separate groups: a board
 * that has been settled has them filled.  A group with a stone beside a seki point (as
 * sht_area_ilr finds them) is in seki, and counted apart.  Unlike an ILR, a group holding a chain
 * in atari still counts: the dead map says it lives.
 */
struct sht_tax_groups {
	int groups[3];       /* groups in no seki, by colour (the tax's groups) */
	int seki_eyed[3];    /* groups in seki owning a territory point (an eye) */
	int seki_eyeless[3]; /* groups in seki owning none */
};

/*
 * Counts the groups above, with `dead` stones removed (NULL: none).  label[p] = group number
 * (from 1, in board order, both colours numbered together) for every live stone and every
 * territory point, 0 elsewhere; label has sht_board_capacity() entries.  Returns false, with
 * everything 0, when memory runs out.
 */
SHT_EXPORT bool sht_area_tax_groups(const struct sht_board *b, const uint8_t *dead, int *label,
    struct sht_tax_groups *out);

/*
 * Everything a ruleset counts, in one pass (struct sht_counts in shoutan/ruleset.h): live and
 * dead stones, territory, dame, captures, ILRs and the seki groups' eyes, with `dead` stones
 * removed.  `handicap` and `komi` are left 0 for the caller to fill.  The tax's groups
 * (`tax_groups`, `tax_seki_groups_eyed`) are left 0 too: sht_area_tax_groups counts them by
 * trying cuts on a board copy, many times the cost of the rest, and only a ruleset taxing
 * connected groups reads them, so the caller counts them when its ruleset asks.  When seki is
 * not NULL it receives the seki stones, as sht_area_ilr gives them.
 */
SHT_EXPORT void sht_area_counts(const struct sht_board *b, const uint8_t *dead,
    struct sht_counts *out, uint8_t *seki);
/* The same counts, and in *area the area map they were counted from (for ownership rows), so
 * that a caller who wants both computes the map once. */
SHT_EXPORT void sht_area_counts_map(const struct sht_board *b, const uint8_t *dead,
    struct sht_counts *out, uint8_t *seki, struct sht_area *area);

#ifdef __cplusplus
}
#endif

#endif
