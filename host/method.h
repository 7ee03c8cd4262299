/* What the method files share, private to the host: parameter helpers and each file's entry. */
#ifndef SHOUTAN_METHOD_H
#define SHOUTAN_METHOD_H

#include <jansson.h>

#include "host.h"
#include "json_text.h"

/* Fills err and returns NULL, for one-line error returns. */
json_t *sht_fail(struct sht_error *err, enum sht_error_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* params must be an object (or absent: an empty one); rejects members not in `known`. */
bool sht_params_check(json_t *params, const char *const *known, struct sht_error *err);

/*
 * The ruleset and game of a request: `ruleset` names one, else the SGF's RU chooses
 * (Chinese, Japanese, Korean, Tromp-Taylor, New Zealand), else chinese.  On success the game is
 * loaded and must be freed by the caller.
 */
bool sht_params_ruleset_game(const struct sht_context *ctx, json_t *params,
    const struct sht_ruleset **rs, struct sht_game *game, struct sht_error *err);
/* `komi` member, when present: half points into *komi, and true in *given. */
bool sht_params_komi(json_t *params, int *komi, bool *given, struct sht_error *err);
/* `dead` member: "auto", "none", or a list of vertices of the replay's board; the list from
 * ctx->dead when the daemon read it straight from the request's text (ctx may be NULL). */
bool sht_params_dead(const struct sht_context *ctx, json_t *params, const struct sht_ruleset *rs,
    const struct sht_board *b, struct sht_dead_spec *dead, struct sht_error *err);
/* Replays and judges a loaded game with the request's komi and dead stones: the replay and
 * the report, for the caller to free (sht_replay_free, sht_score_report_free); false with err,
 * nothing to free. */
bool sht_score_game_report(const struct sht_context *ctx, const struct sht_ruleset *rs,
    const struct sht_game *game, json_t *params, struct sht_replay *replay,
    struct sht_score_report *rep, struct sht_error *err);
/* Replays and scores a loaded game: the score object, or NULL with err. */
json_t *sht_score_game(const struct sht_context *ctx, const struct sht_ruleset *rs,
    const struct sht_game *game, json_t *params, struct sht_error *err);
/* The same score object written as text at the end of *out; false with err. */
bool sht_score_game_text(const struct sht_context *ctx, const struct sht_ruleset *rs,
    const struct sht_game *game, json_t *params, struct sht_text *out, struct sht_error *err);

/* The time control of a request: the ruleset's `clock:`, then `clock` over it; *source says
 * which gave it, if any. */
bool sht_params_clock(const struct sht_context *ctx, json_t *params, struct sht_clock_spec *spec,
    enum sht_clock_source *source, struct sht_error *err);
/* The timed moves of a request: `moves`, or `game` (an SGF record with BL/WL/OB/OW, whose own
 * TM/OT outweigh the ruleset's clock). */
bool sht_params_timed_moves(const struct sht_context *ctx, json_t *params,
    struct sht_clock_spec *spec, enum sht_clock_source source, struct sht_timed_move **moves,
    int *n, struct sht_error *err);
/* The calls of one move as JSON: at_ms (into the move), game_ms (game_ms is the move's start),
 * kind, value, text. */
json_t *sht_clock_calls_json(int kind, const struct sht_clock_call *calls, int n,
    int64_t game_ms);
json_t *sht_clock_spec_json(const struct sht_clock_spec *spec);
json_t *sht_clock_state_json(const struct sht_clock_spec *spec, const struct sht_clock_state *st);

/* Each method file's entry (struct sht_method_entry in host.h), listed by methods.c. */
extern const struct sht_method_entry sht_method_version_entry;
extern const struct sht_method_entry sht_method_rulesets_entry;
extern const struct sht_method_entry sht_method_describe_entry;
extern const struct sht_method_entry sht_method_replay_entry;
extern const struct sht_method_entry sht_method_legal_entry;
extern const struct sht_method_entry sht_method_score_entry;
extern const struct sht_method_entry sht_method_compare_entry;
extern const struct sht_method_entry sht_method_picture_entry;
extern const struct sht_method_entry sht_method_clock_entry;
extern const struct sht_method_entry sht_method_referee_entry;
extern const struct sht_method_entry sht_method_status_entry;

#endif
