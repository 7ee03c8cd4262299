/* JSON forms of the judge's results, shared by the methods (private to the host). */
#ifndef SHOUTAN_RENDER_H
#define SHOUTAN_RENDER_H

#include <jansson.h>

#include "host.h"
#include "json_text.h"

json_t *sht_json_points(int half_points);
json_t *sht_json_vertex(const struct sht_board *b, int point);
json_t *sht_json_position(const struct sht_board *b);
/* A point's vertex as a JSON string, as sht_vertex_format writes it ("D4", "pass", "?"). */
void sht_text_vertex(struct sht_text *t, const struct sht_board *b, int point);
/* The score object as text, byte for byte what json_dumps gave of the jansson object with
 * SHT_JSON_REPLY_FLAGS; and that text read back into jansson values. */
void sht_text_score(struct sht_text *t, const struct sht_ruleset *rs,
    const struct sht_replay *replay, const struct sht_score_report *rep);
json_t *sht_json_score(const struct sht_ruleset *rs, const struct sht_replay *replay,
    const struct sht_score_report *rep);
json_t *sht_json_replay(const struct sht_ruleset *rs, const struct sht_replay *r);
const char *sht_winner_name(int winner);
const char *sht_end_name(enum sht_end e);
const char *sht_consequence_name(int verdict);
const char *sht_violation_name(int violation);

#endif
