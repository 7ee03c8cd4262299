/* Sorting requests by expected cost before they reach a worker, from their bytes and the rulesets
 * whose own dead is none. */
#ifndef SHOUTAN_TRIAGE_H
#define SHOUTAN_TRIAGE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Whether a request line probably asks for the automatic dead-stone judgement (milliseconds of
 * work, where other requests take microseconds): its method's entry says it is heavy when dead
 * stones are judged automatically (score, compare, referee), and the request gives `"dead"` as
 * "auto", or gives none and names no ruleset that triage_set_light_rulesets listed (a request
 * naming no ruleset is scored under its record's RU or chinese, which triage cannot tell from
 * the bytes).  A scheduling hint only: the parent does not parse requests, so a wrong guess
 * costs some latency, never a wrong answer.
 */
bool triage_heavy(const char *line, size_t len);

/*
 * Tells triage which rulesets judge no dead stones when a request names none (their YAML says
 * `dead: none`), so that a request under one of them without `"dead"` is light: `names` holds
 * len bytes, one name per line, each ended by a newline (a cut-off last line is left out).  The
 * text is copied; each call replaces the previous list (len 0 empties it), as a reload
 * replaces the rulesets.  False when out of memory, leaving the previous list.
 */
bool triage_set_light_rulesets(const char *names, size_t len);

#endif
