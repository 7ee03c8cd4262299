/* GNU Go 3.8 as a second opinion for the conformance runs: its answers over GTP. */
#ifndef SHOUTAN_TESTS_GNUGO_H
#define SHOUTAN_TESTS_GNUGO_H

#include <stdbool.h>
#include <stddef.h>

/* The GNU Go binary at `gnugo` (--mode gtp, --chinese-rules or --japanese-rules) is given the
 * GTP commands in `script`, one a line, and the answer to the last of them (without its "= ")
 * is written into answer: false when that command failed or GNU Go gave no answer.  A command's
 * arguments are passed as they are, so a path in them must hold no white space. */
bool gnugo_ask(const char *gnugo, bool chinese, const char *script, char *answer, size_t size);

/* GNU Go loads the SGF at `path`, is given komi_half / 2 as komi and asked final_score: Black's
 * margin in half points into *black_half (negative: White's), or false when it gave no score.
 * Takes seconds a game. */
bool gnugo_score(const char *gnugo, const char *path, bool chinese, int komi_half,
    int *black_half);

#endif
