/* The 3x3 shapes the playouts answer the last move with (hane, cuts, edge blocks), as a table
 * over every neighbourhood of a point. */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "pat3.h"

/*
 * The shapes of Gelly and others' MoGo report ("Modification of UCT with patterns in
 * Monte-Carlo Go", 2006) as Michi lists them: the move is the centre; X and O are stones of
 * the two colours (either way round), x is not an O, o is not an X, '.' is empty, ' ' is off
 * the board, '?' is anything.  Each holds in every rotation and reflection.
 */
static const char shapes[][10] = {
	"XOX" "..." "???", /* hane enclosing */
	"XO." "..." "?.?", /* hane, not cutting */
	"XO?" "X.." "o.?", /* magari */
	".O." "X.." "...", /* diagonal attachment */
	"XO?" "O.x" "?x?", /* cut, unprotected */
	"XO?" "O.X" "???", /* cut, peeped */
	"?X?" "O.O" "xxx", /* de (cut through) */
	"OX?" "x.O" "???", /* cut keima */
	"X.?" "O.?" "   ", /* edge: chase */
	"OX?" "X.O" "   ", /* edge: block the cut */
	"?X?" "o.O" "   ", /* edge: block the connection */
	"?XO" "o.o" "   ", /* edge: sagari */
	"?OX" "X.O" "   ", /* edge: cut */
};

static uint8_t table[PAT3_CODES / 8];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

/* The neighbour states (a bit for each of PAT3_EMPTY...) that fit the shape's letter, colours
 * swapped or not. */
static unsigned
allowed(char letter, bool swapped)
{
	unsigned x = 1u << (swapped ? PAT3_WHITE : PAT3_BLACK);
	unsigned o = 1u << (swapped ? PAT3_BLACK : PAT3_WHITE);
	unsigned e = 1u << PAT3_EMPTY, edge = 1u << PAT3_EDGE;

	switch (letter) {
	case 'X': return x;
	case 'O': return o;
	case 'x': return x | e;
	case 'o': return o | e;
	case '.': return e;
	case ' ': return edge;
	default: return x | o | e | edge; /* '?' */
	}
}

/* Marks every code whose neighbour k (from `k` on) is in sets[k]: the codes one shape in one
 * orientation matches, a few hundred at most. */
static void
mark_codes(const unsigned sets[8], int k, uint32_t code)
{
	if (k == 8) {
		table[code >> 3] |= (uint8_t)(1u << (code & 7));
		return;
	}
	for (uint32_t v = 0; v < 4; v++)
		if (sets[k] >> v & 1)
			mark_codes(sets, k + 1, code | v << (2 * k));
}

/* The window cells of the eight neighbours, row by row without the centre. */
static const int ring[8] = { 0, 1, 2, 3, 5, 6, 7, 8 };

static void
build_table(void)
{
	for (size_t s = 0; s < sizeof(shapes) / sizeof(*shapes); s++)
		for (int sym = 0; sym < 8; sym++)
			for (int swapped = 0; swapped < 2; swapped++) {
				unsigned window[9], sets[8];

				for (int i = 0; i < 9; i++) {
					/* Shape cell i lands on window cell (r, c) under symmetry
					 * sym: transpose, then mirror the columns, then the rows. */
					int r = i / 3, c = i % 3, t;

					if (sym & 1) {
						t = r;
						r = c;
						c = t;
					}
					if (sym & 2)
						c = 2 - c;
					if (sym & 4)
						r = 2 - r;
					window[r * 3 + c] = allowed(shapes[s][i], swapped != 0);
				}
				for (int k = 0; k < 8; k++)
					sets[k] = window[ring[k]];
				mark_codes(sets, 0, 0);
			}
}

void
pat3_init(void)
{
	pthread_once(&table_once, build_table);
}

bool
pat3_match(uint32_t code)
{
	return table[code >> 3] >> (code & 7) & 1;
}
