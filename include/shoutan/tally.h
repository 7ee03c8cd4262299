/* The shared score arithmetic (what the host's `tally` service runs for plugins). */
#ifndef SHOUTAN_TALLY_H
#define SHOUTAN_TALLY_H

#include <stddef.h>

#include "shoutan/export.h"
#include "shoutan/ruleset.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fills out's breakdown, margin, winner, re and text from counts under policy.  Native unit,
 * margin and text are left for the ruleset. */
SHT_EXPORT void sht_tally(const struct sht_counts *counts, const struct sht_tally_policy *policy,
    struct sht_score_result *out);
/* Writes re ("B+3.5", "0", "Void") and text from winner and margin. */
SHT_EXPORT void sht_result_texts(struct sht_score_result *out);
/* Half points as a decimal: 15 -> "7.5"; returns buf. */
SHT_EXPORT char *sht_half_points_text(int half_points, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
