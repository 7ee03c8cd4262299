/* Pictures of judgements as SVG 1.1: one board after its score, or one small board per ruleset. */
#ifndef SHOUTAN_PICTURE_H
#define SHOUTAN_PICTURE_H

#include "host.h"
#include "json_text.h"

/* The board of a scored game with coordinates, stones, the last move, dead stones faded and
 * crossed, seki stones and points marked, territory shaded per owner, dame crossed, the settle
 * moves numbered, and below it the result in points and in the ruleset's notation. */
void sht_picture_score(struct sht_text *t, const struct sht_ruleset *rs,
    const struct sht_replay *replay, const struct sht_score_report *rep);

/* Text as XML character data or an attribute's value: &, <, > and " escaped, control
 * characters but the tab (which XML does not allow) left out. */
void sht_svg_escaped(struct sht_text *t, const char *s);

/* One ruleset's panel of a comparison: its replay and report, or the error that kept it from
 * scoring the game (replay NULL). */
struct sht_picture_panel {
	const struct sht_ruleset *ruleset;
	const struct sht_replay *replay;
	const struct sht_score_report *report;
	const char *error;
};

/* A grid of small boards, one per ruleset, each with its territory and result; a panel whose
 * winner differs from the first ruleset's is framed and says so. */
void sht_picture_compare(struct sht_text *t, const struct sht_picture_panel *panels, int n);

#endif
