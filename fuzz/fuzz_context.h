/* The method context the host-level fuzz harnesses share: the Chinese plugin compiled in. */
#ifndef SHOUTAN_FUZZ_CONTEXT_H
#define SHOUTAN_FUZZ_CONTEXT_H

#include "host.h"

/* One ruleset, "chinese" (positional superko, suicide allowed, so both paths are reached; a 9x9
 * board when the game names no size), made on first use; the process aborts if it cannot be
 * made. */
struct sht_context *fuzz_context(void);

#endif
