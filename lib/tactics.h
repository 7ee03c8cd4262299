/* Tactical reading for the library's own use: can a chain short of liberties be captured, its
 * opponent moving first?  Not installed. */
#ifndef SHOUTAN_TACTICS_H
#define SHOUTAN_TACTICS_H

#include <stdbool.h>

#include "board_impl.h"

#define SHT_TACTICS_MAX_DEPTH 64 /* plies: a ladder across a 19x19 board needs about 40 */

struct sht_tactics {
	struct sht_board *b;
	struct sht_board_snapshot *snaps[SHT_TACTICS_MAX_DEPTH + 1]; /* made as deep reads need them */
	int target;      /* a stone of the chain read */
	int attacker;    /* the colour trying to capture it */
	long nodes_left; /* the current read's budget */
};

/* Reads on b, which every call leaves as it found it.  The snapshots a read needs are made as
 * it first goes that deep; a read that cannot make one answers as if its budget ran out. */
void sht_tactics_init(struct sht_tactics *t, struct sht_board *b);
void sht_tactics_release(struct sht_tactics *t);

/*
 * Whether the opponent of the chain at `target` (a stone, two or three liberties at most for an
 * answer other than false), moving first, captures it: it fills liberties, the owner extends,
 * captures a chain of the attacker in atari or plays elsewhere, and ladders are followed to
 * their end.  Moves that are no liberty of the chain (nets, throw-ins beside it) are not tried,
 * so a true answer is a capture and a false one may miss some.  Within a fixed node budget: the
 * same answer for the same board.
 */
bool sht_tactics_capturable(struct sht_tactics *t, int target);

#endif
