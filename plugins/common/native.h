/* Helpers the project's own plugins share: instances, komi, native result texts and descriptions
 * (not part of the plugin ABI). */
#ifndef SHOUTAN_PLUGINS_NATIVE_H
#define SHOUTAN_PLUGINS_NATIVE_H

#include <stddef.h>

#include "shoutan/ruleset.h"

/*
 * Writes a result in zi (子) for a margin in half points (1 zi = 2 points = 4 half points):
 * 黑胜¾子, 白胜1¼子, 黑胜7子半, 黑胜半子, 和棋.  Sets native_unit "zi" and native_margin.
 */
void sht_native_zi(struct sht_score_result *r);
/* The same in a points unit with its own character: 黑胜7道 (Han), 黑胜1路 (Tang). */
void sht_native_points(struct sht_score_result *r, const char *unit, const char *character);
/* Japanese 目: 黒6目半勝ち, 黒半目勝ち, 持碁, 無勝負. */
void sht_native_japanese(struct sht_score_result *r);
/* Korean 집: 흑 6집반 승, 흑 반집 승, 무승부 (draw), 무효 (no result). */
void sht_native_korean(struct sht_score_result *r);

/* The languages of the native texts above. */
enum sht_native_language { SHT_NATIVE_CHINESE, SHT_NATIVE_JAPANESE, SHT_NATIVE_KOREAN };

/* The native text of a result decided otherwise than by counting (enum sht_decision), for
 * r->winner: 黑方犯规判负, 白中盘胜, 黑方超时判负; 黒の反則負け, 白の中押し勝ち; 흑 반칙패, 백 불계승. */
void sht_native_decided(struct sht_score_result *r, int decision, enum sht_native_language lang);
/* The plugin method `decided` for the Chinese families (modern, Han, ancient). */
void sht_native_decided_chinese(const void *rules, int decision, struct sht_score_result *out);

#include <stdbool.h>

/* The instance the project's plugins use: a copy of their parameter values.  NULL with err
 * filled when memory runs out. */
void *sht_plugin_values_copy(const struct sht_param_value *values, int n, char *err,
    size_t errlen);
void sht_plugin_values_free(void *rules);
/* Whether a komi in hundredths is a whole number of half points (in zi: quarter zi); err says
 * why not. */
bool sht_plugin_komi_ok(long hundredths, bool in_zi, char *err, size_t errlen);

/* Appends printf-style text to the NUL-terminated buf of len bytes, cutting it off when full:
 * for composing a `describe` paragraph piece by piece. */
void sht_plugin_text_add(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A komi in hundredths for a description: "no komi", "komi 7.5 points", or in zi
 * "komi 3¾ zi (7.5 points)". */
void sht_plugin_komi_text(long hundredths, bool in_zi, char *buf, size_t len);

/* The consequence of a violation in the families whose forbidden move is void or lost as their
 * `illegal_move` says (Han, Tibetan, Sunjang, ancient): a stone on an occupied point or off the
 * board is no move at all; one placed with no stones left is void, the pass its player owed. */
int sht_plugin_void_or_loss(int violation, bool loss);

/* Index of value in a NULL-terminated list of choices (as the host numbered it). */
#define SHT_CHOICE(values, i) ((int)(values)[(i)].number)

#endif
