/* Sorting requests by expected cost before they reach a worker, from their bytes alone. */
#ifndef SHOUTAN_TRIAGE_H
#define SHOUTAN_TRIAGE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Whether a request line probably asks for the automatic dead-stone judgement (milliseconds of
 * work, where other requests take microseconds): a `score` or `compare` request that does not
 * give `"dead"` as a list or as "none".  A scheduling hint only: the parent does not parse
 * requests, so a wrong guess costs some latency, never a wrong answer.
 */
bool triage_heavy(const char *line, size_t len);

#endif
