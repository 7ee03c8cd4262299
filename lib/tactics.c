/*
 * Tactical reading: whether a chain of two or three liberties dies if its opponent moves first,
 * read move by move on the board (liberty fills, extensions, captures, ladders), as a player
 * checks a weakness before leaving it at the end of a game.
 */
#include <stdlib.h>

#include "tactics.h"

/* A read stops here, the chain counted as not capturable: ladders and short races take a few
 * hundred nodes; a budget keeps a crowded position from costing more than the rest of the
 * judgement. */
#define TACTICS_NODES 600
#define MAX_DEFENCES 16 /* moves tried at one defender's node */
#define MAX_ATARIS 6    /* attacking chains of two liberties it may atari */

void
sht_tactics_init(struct sht_tactics *t, struct sht_board *b)
{
	*t = (struct sht_tactics){ .b = b };
}

void
sht_tactics_release(struct sht_tactics *t)
{
	for (int i = 0; i <= SHT_TACTICS_MAX_DEPTH; i++)
		sht_board_snapshot_free(t->snaps[i]);
	*t = (struct sht_tactics){ 0 };
}

static struct sht_board_snapshot *
snapshot_at(struct sht_tactics *t, int depth)
{
	if (t->snaps[depth] == NULL)
		t->snaps[depth] = sht_board_snapshot_new(t->b);
	return t->snaps[depth];
}

/* Plays c at p for the read: legal, and not a suicide (where a ruleset allows one, it still
 * saves nothing; the board is then put back from snap). */
static bool
try_move(struct sht_board *b, int c, int p, const struct sht_board_snapshot *snap)
{
	if (sht_board_play(b, (enum sht_color)c, p, NULL) != SHT_LEGAL)
		return false;
	if (b->color[p] == c)
		return true;
	sht_board_restore(b, snap);
	return false;
}

static bool defended(struct sht_tactics *t, int depth);

/* The attacker to move: does it capture the target? */
static bool
attacked(struct sht_tactics *t, int depth)
{
	struct sht_board *b = t->b;
	int libs[3], n;
	bool captured = false;

	if (b->color[t->target] != 3 - t->attacker)
		return true;
	n = sht_board_liberties(b, b->chain[t->target], libs, 3);
	/* Three liberties only at the start: deeper, a chain that has got back to three has
	 * escaped as far as this reading goes. */
	if (n > 3 || (n == 3 && depth > 0) || depth >= SHT_TACTICS_MAX_DEPTH || --t->nodes_left < 0)
		return false;
	if (snapshot_at(t, depth) == NULL) {
		t->nodes_left = -1; /* out of memory: read no further */
		return false;
	}
	sht_board_save(b, t->snaps[depth]);
	for (int i = 0; i < n && !captured && t->nodes_left >= 0; i++) {
		if (!try_move(b, t->attacker, libs[i], t->snaps[depth]))
			continue;
		captured = b->color[t->target] != 3 - t->attacker || !defended(t, depth + 1);
		sht_board_restore(b, t->snaps[depth]);
	}
	return captured && t->nodes_left >= 0;
}

/* Adds p to moves unless already there. */
static void
add_move(int *moves, int *n, int p)
{
	for (int i = 0; i < *n; i++)
		if (moves[i] == p)
			return;
	moves[(*n)++] = p;
}

/* The defender to move: does the target survive?  It captures an attacking chain in atari next
 * to it, extends on a liberty, or plays elsewhere (a pass here) when not in atari. */
static bool
defended(struct sht_tactics *t, int depth)
{
	struct sht_board *b = t->b;
	int defender = 3 - t->attacker, chain, libs[3], n, moves[MAX_DEFENCES], nmoves = 0;
	int ataris[MAX_ATARIS], nataris = 0;
	int s;
	uint32_t mark;
	bool saved = false;

	if (b->color[t->target] != defender)
		return false;
	chain = b->chain[t->target];
	n = sht_board_liberties(b, chain, libs, 2);
	if (n > 2 || depth >= SHT_TACTICS_MAX_DEPTH || --t->nodes_left < 0)
		return true;
	/* Captures first: they gain liberties and decide most fights. */
	mark = sht_board_new_mark(b);
	s = chain;
	do {
		for (int d = 0; d < 4; d++) {
			int q = s + b->dir[d], lib;

			if (b->color[q] != t->attacker || b->mark[b->chain[q]] == mark)
				continue;
			b->mark[b->chain[q]] = mark;
			if (nmoves < MAX_DEFENCES - 2 && b->libs[b->chain[q]] == 1 &&
			    (lib = sht_board_atari_liberty(b, q)) != SHT_NO_POINT)
				add_move(moves, &nmoves, lib);
			else if (nataris < MAX_ATARIS && b->libs[b->chain[q]] == 2)
				ataris[nataris++] = b->chain[q];
		}
		s = b->next[s];
	} while (s != chain);
	for (int i = 0; i < n; i++)
		add_move(moves, &nmoves, libs[i]);
	/* Then ataris on the attacker's chains of two liberties next to it: a stone played inside
	 * the defender's area to take its liberties is itself short of them. */
	for (int i = 0; i < nataris; i++) {
		int al[2];

		if (sht_board_liberties(b, ataris[i], al, 2) != 2)
			continue;
		for (int k = 0; k < 2 && nmoves < MAX_DEFENCES; k++)
			add_move(moves, &nmoves, al[k]);
	}
	if (snapshot_at(t, depth) == NULL) {
		t->nodes_left = -1;
		return true;
	}
	sht_board_save(b, t->snaps[depth]);
	for (int i = 0; i < nmoves && !saved && t->nodes_left >= 0; i++) {
		if (!try_move(b, defender, moves[i], t->snaps[depth]))
			continue;
		saved = b->color[t->target] == defender && !attacked(t, depth + 1);
		sht_board_restore(b, t->snaps[depth]);
	}
	/* Not in atari: the defender may leave it, and the attacker needs two moves more. */
	if (!saved && n == 2 && t->nodes_left >= 0)
		saved = !attacked(t, depth + 1);
	return saved || t->nodes_left < 0;
}

bool
sht_tactics_capturable(struct sht_tactics *t, int target)
{
	struct sht_board *b = t->b;

	if (b->color[target] != SHT_BLACK && b->color[target] != SHT_WHITE)
		return false;
	t->target = target;
	t->attacker = 3 - b->color[target];
	t->nodes_left = TACTICS_NODES;
	return attacked(t, 0);
}
