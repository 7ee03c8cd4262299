/* What the library's scoring files share without exporting it: the seki points of a position. */
#ifndef SHOUTAN_AREA_IMPL_H
#define SHOUTAN_AREA_IMPL_H

#include <stdint.h>

#include "board_impl.h"

/* out[p] = 1 for the seki points of area's position: dame that neither colour can fill without
 * putting itself in atari (the shared liberties of a seki), 0 elsewhere.  out has b->npoints
 * bytes.  Returns how many there are. */
int sht_area_seki_points(const struct sht_board *b, const struct sht_area *area, uint8_t *out);

#endif
