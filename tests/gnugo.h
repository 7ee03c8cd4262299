/* GNU Go 3.8 as a second opinion for the conformance runs: its final score of a record. */
#ifndef SHOUTAN_TESTS_GNUGO_H
#define SHOUTAN_TESTS_GNUGO_H

#include <stdbool.h>

/* The GNU Go binary at `gnugo` (--mode gtp, --chinese-rules or --japanese-rules) loads the SGF
 * at `path`, is given komi_half / 2 as komi and asked final_score: Black's margin in half points
 * into *black_half (negative: White's), or false when it gave no score.  Takes seconds a game. */
bool gnugo_score(const char *gnugo, const char *path, bool chinese, int komi_half,
    int *black_half);

#endif
