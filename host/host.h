/* The ruleset host: plugins, YAML rulesets, game input, judging and the methods, for cli and daemon. */
#ifndef SHOUTAN_HOST_H
#define SHOUTAN_HOST_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "shoutan/area.h"
#include "shoutan/board.h"
#include "shoutan/clock.h"
#include "shoutan/ruleset.h"
#include "shoutan/settle.h"
#include "shoutan/sgf.h"

#define SHT_ERR_MAX 512

/* ---- plugins (plugin.c) ---- */

struct sht_plugin {
	char *path;                               /* the file, or "(built in)" */
	void *handle;                             /* dlopen handle */
	const struct sht_ruleset_plugin *desc;
};

/* The host's table of services, the same for every plugin. */
const struct sht_host *sht_host_services(void);

/* Loads one plugin: dlopen(RTLD_NOW | RTLD_LOCAL), the entry symbol, the ABI version, init.
 * Returns NULL with err naming the file and what went wrong. */
struct sht_plugin *sht_plugin_load(const char *path, char *err, size_t errlen);
void sht_plugin_unload(struct sht_plugin *p);
/* A plugin compiled into the program instead of loaded: the same checks, no dlopen. */
struct sht_plugin *sht_plugin_builtin(const struct sht_ruleset_plugin *desc, char *err,
    size_t errlen);

/* ---- rulesets (ruleset.c) ---- */

enum sht_dead_mode { SHT_DEAD_AUTO, SHT_DEAD_NONE, SHT_DEAD_LIST };

struct sht_ruleset {
	char *name;                     /* the YAML file's stem: "chinese" */
	char *path;
	char *title;
	char *summary;
	const struct sht_plugin *plugin;
	struct sht_param_value *values; /* one per plugin parameter */
	bool *explicit_value;           /* set by the file, not defaulted */
	/* Per parameter, why the file's value is a reconstruction (its `reconstructions:`
	 * mapping), or NULL: a variant on a plugin marks what history does not say. */
	char **reconstruction_note;
	void *rules;                    /* the plugin's configured instance */
	struct sht_rules_setup setup;   /* what the instance asked for */
	int default_dead;               /* enum sht_dead_mode when a request names none */
	struct sht_clock_spec clock;    /* the YAML's `clock:` (kind 0: none given) */
};

struct sht_registry {
	struct sht_plugin **plugins;
	int nplugins;
	struct sht_ruleset **rulesets;
	int nrulesets;
};

/* Loads every plugin (*.so) in plugins_dir and every ruleset (*.yaml) in rulesets_dir.  Any
 * failure fails the whole load, with err naming the file (and line:column for YAML), so that a
 * reload never half-applies. */
struct sht_registry *sht_registry_load(const char *plugins_dir, const char *rulesets_dir,
    char *err, size_t errlen);
void sht_registry_free(struct sht_registry *r);
const struct sht_ruleset *sht_registry_find(const struct sht_registry *r, const char *name);
/* The ruleset a game record names in RU (Chinese, Japanese, Korean, Tromp-Taylor, New
 * Zealand, or a ruleset's own name), or NULL. */
const struct sht_ruleset *sht_ruleset_for_ru(const struct sht_registry *r, const char *ru);
/* The server a record's PC names whose counting a ruleset models ("NNGS" or "IGS", counted as
 * ruleset igs), or NULL. */
const char *sht_record_server(const struct sht_sgf_game *g);
/* The ruleset a record is judged under when the request names none: a record from a server
 * of sht_record_server whose RU is absent or Japanese is counted as that server counted (igs);
 * otherwise the ruleset its RU names; NULL when neither says. */
const struct sht_ruleset *sht_ruleset_for_record(const struct sht_registry *r,
    const struct sht_sgf_game *g);
/* Reads one ruleset file against the loaded plugins. */
struct sht_ruleset *sht_ruleset_load(const struct sht_registry *r, const char *path, char *err,
    size_t errlen);
/* The same from text in memory; path names it in messages. */
struct sht_ruleset *sht_ruleset_parse(const struct sht_registry *r, const char *path,
    const char *text, size_t len, char *err, size_t errlen);
void sht_ruleset_free(struct sht_ruleset *rs);
/* What the ruleset does about a violation (enum sht_violation): the plugin's consequence, or
 * REJECT when it gives none or answers a value that is none.  Replay, `legal` and the referee
 * all ask here, so that they cannot rule differently on one move. */
enum sht_consequence sht_ruleset_consequence(const struct sht_ruleset *rs, int violation);
/* A parameter's value as YAML would spell it ("3.75", "positional", "true"). */
void sht_param_format(const struct sht_param_spec *spec, const struct sht_param_value *v,
    char *buf, size_t len);

/* ---- where plugins and rulesets live (paths.c) ---- */

/* $SHOUTAN_PLUGINS_DIR / $SHOUTAN_RULESETS_DIR, else the build tree when the running binary is
 * in it, else the installed directories. */
void sht_default_dirs(const char **plugins_dir, const char **rulesets_dir);

/* ---- games (game.c) ---- */

/* A game to judge: the SGF game structure is the common form; JSON games are converted into it.
 * width == 0 means "the ruleset's board"; has_setup says whether the game brought its own setup
 * stones (otherwise the ruleset's seated stones are placed). */
struct sht_game {
	struct sht_sgf_game g;
	bool has_setup;
	bool has_size;
	bool has_handicap;              /* HA or "handicap" given: it is the handicap, no guess */
	/* Two moves in a row by one colour read as the opponent passing in between: true for
	 * SGF records (which often leave passes out), false for JSON move lists, where a second
	 * move in a row is the player's infraction. */
	bool implied_passes;
	/* The record's RU named no loaded ruleset and the request none: the fallback judges it,
	 * and the judgement says so in a note. */
	bool ruleset_unrecognised;
	/* The request named no ruleset and the record's server (sht_record_server) chose it:
	 * the judgement says so in a note. */
	bool ruleset_by_server;
	struct sht_sgf_collection *sgf; /* owned, when the game came from SGF (unless borrowed) */
	bool sgf_borrowed;              /* sgf is the caller's (sht_game_from_collection) */
	char *owned_strings;            /* owned copies for JSON games */
};

/* Errors that a request or a file can cause, with the protocol's kinds. */
enum sht_error_kind {
	SHT_ERROR_BAD_PARAMS,    /* -32602 */
	SHT_ERROR_BAD_SGF,
	SHT_ERROR_UNKNOWN_RULESET,
	SHT_ERROR_ILLEGAL_MOVE,
	SHT_ERROR_TOO_LARGE,
	SHT_ERROR_INTERNAL,
};

struct sht_error {
	enum sht_error_kind kind;
	int move;          /* for illegal_move: the move number */
	int line, column;  /* for bad_sgf */
	char message[SHT_ERR_MAX];
};

/* Fills err with a kind and a message; returns false (for one-line error returns). */
bool sht_error_set(struct sht_error *err, enum sht_error_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
bool sht_error_vset(struct sht_error *err, enum sht_error_kind kind, const char *fmt,
    va_list ap) __attribute__((format(printf, 3, 0)));
/* The protocol's error code and data.kind for an error (host/error.c, with the setter). */
int sht_error_code(const struct sht_error *err);
const char *sht_error_kind_name(enum sht_error_kind kind);

/* Writes all n bytes (again after a signal or a short write); false on an error or a closed
 * reader (host/fd.c: the daemon's workers and the batch's share it). */
bool sht_write_full(int fd, const void *buf, size_t n);

bool sht_game_from_sgf(const char *text, size_t len, int tree, struct sht_game *out,
    struct sht_error *err);
/* Game `tree` of a collection already parsed, which the game borrows (freeing the game leaves
 * it): a file of many games is read once, not once a game. */
bool sht_game_from_collection(struct sht_sgf_collection *c, int tree, struct sht_game *out,
    struct sht_error *err);
/* default_w/h: the ruleset's board, for a game object without "size". */
bool sht_game_from_json(const json_t *game, int default_w, int default_h, struct sht_game *out,
    struct sht_error *err);
struct sht_context;
/* sht_game_from_json for a request's game: its moves from ctx->moves when they were read
 * straight from the request's text (sht_json_read_request).  Every method reads its params'
 * game with this. */
bool sht_game_from_params(const struct sht_context *ctx, const json_t *game, int default_w,
    int default_h, struct sht_game *out, struct sht_error *err);
/* {"sgf": text} for SGF bytes in any encoding: text that is not UTF-8 is decoded and written
 * back as UTF-8 (CA[UTF-8]), since JSON strings are UTF-8.  NULL with err on a broken file. */
json_t *sht_game_json_from_sgf_bytes(const char *data, size_t len, struct sht_error *err);
/* Komi as the protocol spells it (a number of points, or {"value", "unit"}), in half points. */
bool sht_game_komi_from_json(const json_t *komi, int *half_points, struct sht_error *err);
void sht_game_free(struct sht_game *game);
/* The note a judgement carries when the record's KM was read otherwise than as the points it
 * writes (the Fox server's hundredths, its KM[0]), in `note`; false when it was read as
 * written.  Only for komi taken from the record: a request's komi needs no note. */
bool sht_game_komi_note(const struct sht_game *game, char *note, size_t size);
/* The note when the record's RE says the game was decided otherwise than by counting, so that
 * the count of the position is not taken for its result; false when RE says nothing of the
 * kind.  RE[B+R], [W+T], [B+F] need it only when the moves do not end the game
 * (`moves_end_it` false); RE[B+0] and [W+0] always (sht_sgf_game.result_zero_margin). */
bool sht_game_result_note(const struct sht_game *game, bool moves_end_it, char *note,
    size_t size);

/* ---- judging (judge.c) ---- */

/* A (board, player to move) state seen this many times ends a cycle under simple ko. */
#define SHT_CYCLE_OCCURRENCES 3

enum sht_end {
	SHT_END_PLAYING,
	SHT_END_ENDED,      /* consecutive passes */
	SHT_END_NO_RESULT,
	SHT_END_DRAW,
	SHT_END_LOSS,       /* a player lost by a violation */
};

struct sht_move_record {
	int n;              /* move number from 1 */
	int color;
	int point;          /* SHT_PASS or a point of the result's board */
	int verdict;        /* enum sht_consequence's meaning: 0 ok, 1 void, 2 loss, 3 warning */
	int violation;      /* enum sht_violation, 0 when none */
	int captures;
};

/* Notes a judgement carries for people: what was assumed or repaired, and why. */
#define SHT_MAX_NOTES 8
#define SHT_NOTE_MAX 200

struct sht_replay {
	struct sht_board *board;
	struct sht_move_record *moves;
	int nmoves, capacity;
	enum sht_end end;
	int end_player;       /* the loser for SHT_END_LOSS */
	char end_reason[160];
	/* The same in few enough words for a result's text (SHT_SCORE_TEXT, with the winner). */
	char end_short[64];
	int warnings[3];
	int handicap;         /* stones placed before play for Black, or HA */
	int implied_passes;   /* passes read between two moves of one colour (SGF records) */
	int komi;             /* half points, effective */
	int cycle_outcome;    /* enum sht_cycle_outcome, when a cycle ended the game */
	int decision;         /* enum sht_decision: how the game was decided when it ended
	                       * otherwise than by counting (0 while it goes on or is counted) */
	int nnotes;           /* what the record said that the judgement did not follow */
	char notes[SHT_MAX_NOTES][SHT_NOTE_MAX];
};

/* The komi a game is judged with, in half points: the request's (request, when not NULL), else
 * the record's KM or the game object's komi (game may be NULL: an event log has none), else
 * the ruleset's.  Every method that counts asks this one function. */
int sht_judge_komi(const struct sht_ruleset *rs, const struct sht_game *game, const int *request);
/* The position before a game's first move: the board (the game's size, else the ruleset's),
 * the game's setup stones before the first move (or the ruleset's seated stones when it has
 * none), komi (sht_judge_komi), the handicap, who moves first (PL, else White after handicap
 * stones, else the ruleset's first player) into *to_move, and room for `capacity` moves.
 * *first_move is the index of the first event not yet applied. */
bool sht_judge_start(const struct sht_ruleset *rs, const struct sht_game *game, const int *komi,
    int capacity, struct sht_replay *out, int *to_move, int *first_move, struct sht_error *err);
/* Replays a game under a ruleset.  A violation whose consequence is REJECT stops with an
 * illegal_move error naming the move; every other consequence is recorded and play goes on (or
 * ends, for a loss).  komi_override, when not NULL, replaces the game's and ruleset's komi. */
bool sht_judge_replay(const struct sht_ruleset *rs, const struct sht_game *game,
    const int *komi_override, struct sht_replay *out, struct sht_error *err);
/* The same, resumed from the longest replay of a prefix of its moves that cache (may be NULL)
 * holds, and kept there: the answer is the one sht_judge_replay gives. */
struct sht_replay_cache;
bool sht_judge_replay_cached(struct sht_replay_cache *cache, const struct sht_ruleset *rs,
    const struct sht_game *game, const int *komi_override, struct sht_replay *out,
    struct sht_error *err);
void sht_replay_free(struct sht_replay *r);
/* What sht_judge_move returns besides a consequence (enum sht_consequence, 0 to 3). */
#define SHT_JUDGE_PLAYED (-1)  /* the move was legal and is on the board */
#define SHT_JUDGE_FULL (-2)    /* no room for another move: nothing was done */
/* The steps of sht_judge_replay, for the referee: an empty w x h board under the ruleset (its
 * seated stones when `seated`), room for `capacity` moves; then one move (p, or SHT_PASS) by
 * `color`: played when legal (SHT_JUDGE_PLAYED); else the plugin's consequence (enum
 * sht_consequence) is applied and returned, REJECT leaving everything as it was.  Two moves
 * of one colour in a row are read as an omitted pass with implied_passes. */
bool sht_judge_begin(const struct sht_ruleset *rs, int w, int h, int capacity, bool seated,
    struct sht_replay *out, struct sht_error *err);
int sht_judge_move(const struct sht_ruleset *rs, struct sht_replay *out, int color, int p,
    int number, bool implied_passes, int *to_move);
/* Ends the game when the last moves were the ruleset's consecutive passes. */
void sht_judge_check_end(const struct sht_ruleset *rs, struct sht_replay *out);
/* "suicide", "immediate ko recapture", ... */
const char *sht_violation_text(int violation);
/* The same in a few words for a result's text: "suicide", "two moves in a row", ... */
const char *sht_violation_short(int violation);
/* The one place that finishes a result decided otherwise than by counting (enum sht_decision:
 * a violation, warnings, resignation, time, a cycle's draw or no result): winner (the other
 * colour than `loser`, SHT_BLACK or SHT_WHITE; none for a cycle), `re` (W+F, B+R, W+T, 0,
 * Void), margin 0 (no count decides it), the English text ("White wins by forfeit: Black,
 * suicide at move 12") with `why` (a few words: SHT_SCORE_TEXT holds the whole text), and the
 * ruleset's native text (its plugin's `decided`).  The count's breakdown in *out is left as it is. */
void sht_judge_decide(const struct sht_ruleset *rs, int decision, int loser, const char *why,
    struct sht_score_result *out);
/* "counting", "infraction" (a violation), "forfeit" (warnings), "resignation", "time",
 * "draw", "no_result", "replay": the protocol's words for enum sht_decision. */
const char *sht_decision_name(int decision);

/*
 * The automatic judgements made while answering one question, kept for the next ruleset that
 * would judge the same position alike: `compare` and `batch` count a game under several
 * rulesets, and the judge reads only the stones, the side to move, the suicide and capture-ban
 * rules, pass_for_ko and the seed (lib/dead.c), which many rulesets share.  Made by the caller
 * for one game and freed after it, so a question never reuses another's work.
 */
struct sht_judgements;
struct sht_judgements *sht_judgements_new(void);
void sht_judgements_free(struct sht_judgements *j);

struct sht_dead_spec {
	enum sht_dead_mode mode;
	bool thorough;      /* SHT_DEAD_AUTO as "auto-thorough": up to nine counts, the median */
	struct sht_judgements *judgements; /* NULL, or judgements to reuse and add to */
	int npoints;
	int points[SHT_MAX_SIZE * SHT_MAX_SIZE]; /* points of the replay's board */
};

struct sht_score_report {
	struct sht_score_result result; /* how the game was decided: the count, or otherwise */
	int decision;                   /* enum sht_decision; not COUNT: `count` holds the count */
	struct sht_score_result count;  /* the count, when the game was decided otherwise */
	uint8_t *dead;        /* per point of the board: 1 for a dead stone */
	uint8_t *seki;        /* per point: 1 for a stone in seki */
	/* Who owns each point after dead removal (and, with dead: auto, after the settle step):
	 * the area map counted, read with sht_area_owner or its bits. */
	struct sht_area owner;
	uint16_t *confidence; /* per point, per mille, with dead: auto; NULL otherwise */
	/* The settle step's moves (dead: auto), in order; the count is of the settled board. */
	struct sht_settle_move *settle;
	int nsettle;
	int counts;           /* how many counts the result is the median of (dead: auto) */
	int nnotes;           /* the replay's notes first, then the count's */
	char notes[SHT_MAX_NOTES][SHT_NOTE_MAX];
};

/* Scores a replayed game; a game that ended otherwise than by counting gets that result
 * (sht_judge_decide) and keeps its count in `count`.  Returns false with err on a bad dead
 * list. */
bool sht_judge_score(const struct sht_ruleset *rs, const struct sht_replay *replay,
    const struct sht_dead_spec *dead, struct sht_score_report *out, struct sht_error *err);
void sht_score_report_free(struct sht_score_report *r);

/* Parses a vertex list "C3,D4" (or JSON strings) into points of the board. */
bool sht_dead_parse_list(const struct sht_board *b, const char *const *vertices, int n,
    struct sht_dead_spec *out, struct sht_error *err);

/* ---- clocks (clock.c): time controls as written, timed moves, calls as words ---- */

/* One move's thinking time, for the clock. */
struct sht_timed_move {
	int color;
	int64_t ms;
};

/* "absolute", "byo-yomi", "canadian", "fischer", "dumiao", "minute-counting". */
const char *sht_clock_kind_name(int kind);
/* "90" (seconds), "1m30s", "2h", "1.5s", "500ms" -> milliseconds. */
bool sht_duration_parse(const char *text, int64_t *ms);
/* One key of a time control (type, main, periods, period, moves, increment, delay,
 * remainder) from its text; false with why. */
bool sht_clock_spec_set(struct sht_clock_spec *spec, const char *key, const char *value,
    char *why, size_t whylen);
/* A request's `clock` object over *spec (members override), checked. */
bool sht_clock_spec_from_json(const json_t *obj, struct sht_clock_spec *spec,
    struct sht_error *err);
/* What sht_json_duration found in a move's object. */
enum sht_duration_found {
	SHT_DURATION_UNUSABLE = -1, /* a time given, but not one (negative, before the last) */
	SHT_DURATION_ABSENT = 0,    /* no time given */
	SHT_DURATION_FOUND = 1,     /* *ms is the move's time */
};
/* A move's time from its object: "ms", "seconds", or "at_ms" (since the start; *last_at is
 * the previous move's, and advances). */
enum sht_duration_found sht_json_duration(const json_t *m, int64_t *last_at, int64_t *ms);
/* Moves and their times from `moves`: [{"color": "B", "ms": 1200}, {"seconds": 3.5},
 * {"at_ms": 61000}, ...]. */
bool sht_timed_moves_from_json(const json_t *moves, struct sht_timed_move **out, int *n,
    struct sht_error *err);
/* Where a time control came from: a record's own TM/OT outweighs a ruleset's default, and a
 * request's `clock` outweighs both. */
enum sht_clock_source { SHT_CLOCK_FROM_NONE, SHT_CLOCK_FROM_RULESET, SHT_CLOCK_FROM_REQUEST };
/* Moves and their times from an SGF record's BL/WL/OB/OW, under *spec, or under the record's
 * TM and OT unless the request gave the time control (then *spec is the one used). */
bool sht_timed_moves_from_sgf(const struct sht_game *game, struct sht_clock_spec *spec,
    enum sht_clock_source source, struct sht_timed_move **out, int *n, struct sht_error *err);
/* What the referee says: Chinese for 读秒, Japanese for minute counting, else English. */
void sht_clock_call_text(int kind, const struct sht_clock_call *call, char *buf, size_t len);

/* Room for the calls of one move (a move hours long in overtime makes a few hundred). */
#define SHT_MAX_CALLS 512

/* ---- the referee (referee.c): a game's events ruled one at a time ---- */

enum sht_referee_event_type {
	SHT_EVENT_MOVE,
	SHT_EVENT_PASS,
	SHT_EVENT_SEAL,       /* a sealed move at adjournment: ruled as a move */
	SHT_EVENT_RESIGN,
	SHT_EVENT_TAKE_BACK,  /* a move taken back */
	SHT_EVENT_DISTURB,    /* stones moved by hand, or removed while they had liberties */
};

struct sht_referee_event {
	int type;             /* enum sht_referee_event_type */
	int color;            /* SHT_BLACK or SHT_WHITE; 0: the player to move */
	int point;            /* moves and sealed moves: a point of the referee's board */
	bool timed;           /* ms is the move's thinking time */
	int64_t ms;
};

enum sht_ruling {
	SHT_RULING_ACCEPTED,
	SHT_RULING_REFUSED,   /* not a move at all: the player plays again */
	SHT_RULING_VOID,      /* the turn is lost (a second move in a row is taken back) */
	SHT_RULING_LOSS,
	SHT_RULING_WARNING,
	SHT_RULING_RESTORED,  /* an infraction at the board put right, with no penalty */
	SHT_RULING_IGNORED,   /* the game was already over */
};

struct sht_referee_ruling {
	int ruling;           /* enum sht_ruling */
	int color;            /* who the event was */
	char reason[200];     /* why; empty for a plain acceptance */
	bool clocked;         /* the clock ran: the mover's clock after it and its calls */
	struct sht_clock_state clock;
	const struct sht_clock_call *calls; /* the referee's buffer, valid until the next event */
	int ncalls;
	int64_t game_ms;      /* both clocks' time before the event */
};

struct sht_referee {
	const struct sht_ruleset *rs;
	struct sht_replay replay;
	int to_move, number;
	int first_move;       /* a record's first move event */
	bool timed;
	struct sht_clock_spec clock;
	struct sht_clock_state clocks[3];
	struct sht_clock_call *calls;
	int64_t game_ms;
	/* How it ended, once `over`: by the count (decision COUNT; `count` when `scored`), or as
	 * the judge decided it otherwise (sht_judge_decide); result is the outcome either way. */
	bool over;
	bool counting_due;    /* two passes ended it: the caller counts (sht_referee_count) */
	int decision;         /* enum sht_decision */
	int end_event;
	struct sht_score_result result;
	bool scored;
	struct sht_score_report count;
};

/* A referee for a game: `game`'s board, setup, handicap, first player and komi, as the judge
 * reads them (a record that edits the board after its first move is refused); or, with game
 * NULL, an empty w x h board with the ruleset's seated stones.  Room for `capacity` moves;
 * komi: the request's, or NULL.  Free it with sht_referee_free, also after a failure. */
bool sht_referee_begin(struct sht_referee *ref, const struct sht_ruleset *rs,
    const struct sht_game *game, int w, int h, int capacity, const int *komi,
    struct sht_error *err);
/* Runs both players' clocks under *clock from now on. */
void sht_referee_start_clock(struct sht_referee *ref, const struct sht_clock_spec *clock);
/* A record's moves as events from its first move, with times[k] for the k-th move (NULL:
 * untimed); *evs is malloc'd. */
bool sht_referee_events_from_game(const struct sht_referee *ref, const struct sht_game *game,
    const struct sht_timed_move *times, int ntimes, struct sht_referee_event **evs, int *n,
    struct sht_error *err);
/* Rules on event `index`: its clock (a flag that falls ends the game before the move), then
 * the ruleset on it; a game it ends is decided here, except a count, which is due. */
void sht_referee_rule(struct sht_referee *ref, int index, const struct sht_referee_event *ev,
    struct sht_referee_ruling *out);
/* The count that two passes called for, with `dead`; or, with `refused` (why the dead stones
 * could not be read), a game over with no known result. */
void sht_referee_count(struct sht_referee *ref, const struct sht_dead_spec *dead,
    const char *refused);
void sht_referee_free(struct sht_referee *ref);
/* "accepted", "refused", "void", "loss", "warning", "restored", "ignored". */
const char *sht_ruling_name(int ruling);

/* ---- methods (method_*.c): the protocol's methods, shared by cli and daemon ---- */

struct sht_move_list;
struct sht_context {
	const struct sht_registry *registry;
	/* For `status`: filled by the daemon, NULL in-process. */
	json_t *(*status)(void *arg);
	void *status_arg;
	/* The request's params.game.moves and params.dead read without jansson values
	 * (host/json_parse.h), or NULL: set by the daemon's rpc_handle for the request it runs. */
	const struct sht_move_list *moves;
	const struct sht_move_list *dead;
	/* Positions replayed before, for the methods that replay a game (host/replay_cache.h),
	 * or NULL: the daemon's workers keep one, since a live game is asked about again. */
	struct sht_replay_cache *replays;
	/* The judgements of the game being answered under several rulesets (compare, batch), or
	 * NULL: each count judges afresh. */
	struct sht_judgements *judgements;
};

struct sht_text;
typedef json_t *(*sht_method_fn)(const struct sht_context *ctx, json_t *params,
    struct sht_error *err);
/* A method's result written as JSON text at the end of *out (json_text.h); false with err. */
typedef bool (*sht_method_write_fn)(const struct sht_context *ctx, json_t *params,
    struct sht_text *out, struct sht_error *err);

/* What a method costs a worker, so that the daemon's parent can keep a worker free of the
 * expensive requests without parsing them. */
enum sht_method_cost {
	SHT_COST_LIGHT,           /* microseconds, whatever the request */
	/* Milliseconds or more when the request's `dead` (or, without one, its ruleset's
	 * default `dead`) is auto: the dead-stone judge runs. */
	SHT_COST_HEAVY_WHEN_AUTO,
};

/*
 * One protocol method, described by the file that implements it (as each tmux cmd-*.c exports
 * a cmd_entry): the dispatch, the parameter check, the daemon's triage and reply cache, and the
 * command's usage lines all read these entries, so that there is one list of methods.
 */
struct sht_method_entry {
	const char *name;
	const char *summary;              /* one line, for help texts */
	const char *const *params;        /* the accepted params, NULL-terminated */
	/* The command's usage line for it ("score FILE|- [-r RULESET] ..."), or NULL when the
	 * command has no subcommand for the method. */
	const char *usage;
	/* The result depends only on the params and the loaded rulesets (not on time, counters
	 * or the daemon's state), so that a reply may be reused for the same request. */
	bool pure;
	enum sht_method_cost cost;
	sht_method_fn run;                /* called after params were checked against `params` */
	/* Optional: the same result written straight as text, byte for byte what `run`'s value
	 * dumps to, for the daemon's replies (rpc.c) without jansson values or a dump. */
	sht_method_write_fn write;
};

/* The entry of a method, or NULL for a name that is none. */
const struct sht_method_entry *sht_method_find(const char *name);
/* Every method's entry, in the protocol's order; *n is their number. */
const struct sht_method_entry *const *sht_method_entries(size_t *n);

/* Runs one method: its params are checked against its entry, then it runs.  Returns the
 * `result` object, or NULL with err filled.  An unknown method sets *unknown. */
json_t *sht_method_call(const struct sht_context *ctx, const char *method, json_t *params,
    bool *unknown, struct sht_error *err);
/* sht_method_call with the result written as JSON text at the end of *out: by the entry's
 * `write` when it has one, else `run`'s value dumped with SHT_JSON_REPLY_FLAGS.  False with err
 * (and out as it was) on failure. */
bool sht_method_write(const struct sht_context *ctx, const char *method, json_t *params,
    bool *unknown, struct sht_text *out, struct sht_error *err);
/* Whether a method's entry says it is pure, so that the daemon may answer the same request
 * again from its reply cache (false for unknown names). */
bool sht_method_pure(const char *method);

#endif
