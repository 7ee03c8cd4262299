/* The playouts' 3x3 shapes: whether the neighbourhood of an empty point is one to play in. */
#ifndef SHT_PAT3_H
#define SHT_PAT3_H

#include <stdbool.h>
#include <stdint.h>

/* A neighbour's state, two bits of a code. */
enum { PAT3_EMPTY = 0, PAT3_BLACK = 1, PAT3_WHITE = 2, PAT3_EDGE = 3 };
/* A code holds the eight neighbours row by row (top left first, the centre left out), two bits
 * each from the lowest: 4^8 codes. */
#define PAT3_CODES 65536u

/* Builds the table once (thread-safe); pat3_match needs it built. */
void pat3_init(void);
/* Whether a point with these neighbours matches one of the shapes, for either player. */
bool pat3_match(uint32_t code);

#endif
