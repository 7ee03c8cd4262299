/* JSON forms of the judge's results, shared by the methods (private to the host). */
#ifndef SHOUTAN_RENDER_H
#define SHOUTAN_RENDER_H

#include <jansson.h>

#include "host.h"

json_t *sht_json_points(int half_points);
json_t *sht_json_vertex(const struct sht_board *b, int point);
json_t *sht_json_position(const struct sht_board *b);
/* The members that say how a game was decided: winner, margin, re, native {unit, margin,
 * text}, text; margins are null unless a count decided it (decision: enum sht_decision). */
json_t *sht_json_result(const struct sht_score_result *r, int decision);
json_t *sht_json_score(const struct sht_ruleset *rs, const struct sht_replay *replay,
    const struct sht_score_report *rep);
json_t *sht_json_replay(const struct sht_ruleset *rs, const struct sht_replay *r);
const char *sht_winner_name(int winner);
const char *sht_end_name(enum sht_end e);
const char *sht_consequence_name(int verdict);
const char *sht_violation_name(int violation);

#endif
