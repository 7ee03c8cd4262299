/* The Go board engine: placement, capture, suicide, ko and superko, setup stones, hashing. */
#ifndef SHOUTAN_BOARD_H
#define SHOUTAN_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shoutan/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A board is an opaque value: every function takes it explicitly and nothing is global, so
 * separate boards are safe in separate threads.  Points are small integers (indices into a padded
 * array); convert with sht_board_point() and sht_board_xy().  Coordinates follow SGF: x counts
 * columns from the left, y counts rows from the top, both from 0.
 */
struct sht_board;
struct sht_board_snapshot;

enum sht_color {
	SHT_EMPTY = 0,
	SHT_BLACK = 1,
	SHT_WHITE = 2,
	SHT_OFFBOARD = 3, /* the border around the board; never a playable point */
};

/* The opponent of a player; only meaningful for SHT_BLACK and SHT_WHITE. */
#define SHT_OTHER(c) ((enum sht_color)(3 - (c)))

#define SHT_MIN_SIZE 2
#define SHT_MAX_SIZE 25
/* The pass move.  Point 0 is the top-left border corner, which can never hold a stone. */
#define SHT_PASS 0
/* The value of "no point" (no ko point, a vertex that did not parse). */
#define SHT_NO_POINT (-1)
/* Stone supply meaning "as many stones as the player wants". */
#define SHT_UNLIMITED (-1)

enum sht_ko_rule {
	SHT_KO_SIMPLE = 0,      /* no immediate recapture of a single stone in a ko */
	SHT_KO_POSITIONAL = 1,  /* no move may recreate an earlier whole-board colouring */
	SHT_KO_SITUATIONAL = 2, /* ... with the same player to move */
};

/* Why a move is illegal.  The numbering is stable: it crosses the plugin ABI. */
enum sht_verdict {
	SHT_LEGAL = 0,
	SHT_ILLEGAL_OFFBOARD = 1,
	SHT_ILLEGAL_OCCUPIED = 2,
	SHT_ILLEGAL_SUICIDE = 3,
	SHT_ILLEGAL_KO = 4,
	SHT_ILLEGAL_SUPERKO = 5,
	SHT_ILLEGAL_NO_STONES = 6,
	SHT_ILLEGAL_COLOR = 7, /* the colour is neither black nor white */
};

struct sht_board_options {
	int width, height;          /* SHT_MIN_SIZE..SHT_MAX_SIZE each */
	enum sht_ko_rule ko;
	bool multi_stone_suicide;   /* single-stone suicide is never legal */
	/* Keep the hash history that superko and cycle detection need.  Forced on for superko. */
	bool track_history;
	int supply[3];              /* stones each colour may place, indexed by colour; SHT_UNLIMITED */
	/* With simple ko: keep the history as a plain list that moves do not read, for a replay
	 * that asks about repetition once, at its end (sht_board_occurs_at_least), rather than
	 * at every move.  sht_move_info.repeated is then always false, and sht_board_occurrences
	 * reads the whole list.  Ignored under superko, which asks at every move. */
	bool history_on_request;
	/* Tibetan go's rule: no stone on a point the opponent emptied by capture with the move
	 * just played (every point of a capture of any size, for the next move only).  It
	 * contains the simple ko rule, and makes a snapback wait a move; refused as SHT_ILLEGAL_KO. */
	bool capture_ban;
};

/* Defaults: 19x19, simple ko, no suicide, history tracked, unlimited stones. */
SHT_EXPORT void sht_board_options_init(struct sht_board_options *opt, int width, int height);

/* What a move did, or would do. */
struct sht_move_info {
	enum sht_verdict verdict;
	int captured;      /* opponent stones removed */
	int suicided;      /* own stones removed by a legal multi-stone suicide */
	bool repeated;     /* the resulting (board, player to move) occurred before: a cycle */
	uint64_t hash_after;
};

/* Returns NULL on a size out of range or when memory runs out. */
SHT_EXPORT struct sht_board *sht_board_new(const struct sht_board_options *opt);
SHT_EXPORT struct sht_board *sht_board_clone(const struct sht_board *b);
SHT_EXPORT void sht_board_free(struct sht_board *b);
/* Empty the board and forget its history, keeping its options. */
SHT_EXPORT void sht_board_clear(struct sht_board *b);

SHT_EXPORT int sht_board_width(const struct sht_board *b);
SHT_EXPORT int sht_board_height(const struct sht_board *b);
SHT_EXPORT const struct sht_board_options *sht_board_options(const struct sht_board *b);
/* One past the largest point index, for arrays indexed by point. */
SHT_EXPORT int sht_board_capacity(const struct sht_board *b);

/* Point of (x, y), or SHT_NO_POINT when off the board. */
SHT_EXPORT int sht_board_point(const struct sht_board *b, int x, int y);
/* Coordinates of a point; false for the pass or a border point. */
SHT_EXPORT bool sht_board_xy(const struct sht_board *b, int point, int *x, int *y);
SHT_EXPORT bool sht_board_on_board(const struct sht_board *b, int point);
/* The four neighbour offsets, so callers can walk neighbours without knowing the layout. */
SHT_EXPORT void sht_board_neighbor_offsets(const struct sht_board *b, int offsets[4]);

/*
 * The board's symmetries, SHT_SYMMETRIES of them, 0 the identity: bit 2 swaps x and y (a square
 * board's only), then bit 0 mirrors x and bit 1 mirrors y.
 */
#define SHT_SYMMETRIES 8
/* The point that `point` becomes on b's image under `symmetry`; SHT_NO_POINT for a point off
 * the board, or a symmetry b's shape does not have. */
SHT_EXPORT int sht_board_symmetric_point(const struct sht_board *b, int symmetry, int point);
/* b's image under `symmetry`, a new board: the stones, the side to move, the ko and capture
 * bans and the counters, without the history (so no superko); NULL when out of memory or for
 * a symmetry b's shape does not have. */
SHT_EXPORT struct sht_board *sht_board_symmetric(const struct sht_board *b, int symmetry);
/* The symmetry whose image of b's stones has the smallest hash (the first such): the same for
 * every image of one position, so a caller that works on that image answers them alike. */
SHT_EXPORT int sht_board_canonical_symmetry(const struct sht_board *b);

SHT_EXPORT enum sht_color sht_board_at(const struct sht_board *b, int point);

/* Legality of a move without changing the board.  A pass is always legal. */
SHT_EXPORT enum sht_verdict sht_board_check(const struct sht_board *b, enum sht_color c, int point,
    struct sht_move_info *info);
/* Play a stone or a pass.  An illegal move leaves the board untouched and returns its verdict. */
SHT_EXPORT enum sht_verdict sht_board_play(struct sht_board *b, enum sht_color c, int point,
    struct sht_move_info *info);
/* Points emptied by the last move (captures, or the mover's own stones after a suicide). */
SHT_EXPORT int sht_board_last_removed(const struct sht_board *b, const int **points);

/*
 * Setup: place (SHT_BLACK/SHT_WHITE) or remove (SHT_EMPTY) a stone without captures and without
 * counting a move (SGF AB/AW/AE, seated and handicap stones).  Chains and liberties are rebuilt,
 * the ko point is cleared.  A setup stone may leave a chain without liberties, as SGF allows.
 */
SHT_EXPORT bool sht_board_setup(struct sht_board *b, enum sht_color c, int point);

SHT_EXPORT enum sht_color sht_board_to_move(const struct sht_board *b);
SHT_EXPORT void sht_board_set_to_move(struct sht_board *b, enum sht_color c);
/* The point the given player may not retake this turn, or SHT_NO_POINT. */
SHT_EXPORT int sht_board_ko_point(const struct sht_board *b, enum sht_color c);
/* Stones of the other colour that colour c has captured. */
SHT_EXPORT int sht_board_captures(const struct sht_board *b, enum sht_color c);
SHT_EXPORT int sht_board_stones_left(const struct sht_board *b, enum sht_color c);
SHT_EXPORT int sht_board_moves_played(const struct sht_board *b);
SHT_EXPORT int sht_board_consecutive_passes(const struct sht_board *b);
/* Every pass colour c has made since play began (a void move is a pass): AGA's pass stones. */
SHT_EXPORT int sht_board_passes_made(const struct sht_board *b, enum sht_color c);
/* The colour that made the game's first pass (a void move, an implied pass), or SHT_EMPTY. */
SHT_EXPORT enum sht_color sht_board_first_passer(const struct sht_board *b);
SHT_EXPORT int sht_board_stone_count(const struct sht_board *b, enum sht_color c);
/* Zobrist hash of the colouring alone (positional); the empty board hashes to 0. */
SHT_EXPORT uint64_t sht_board_hash(const struct sht_board *b);
/* How often the position (with player c to move) has occurred, counting the present one. */
SHT_EXPORT int sht_board_occurrences(const struct sht_board *b, uint64_t hash, enum sht_color c);
/* The most times one (position, player to move) state occurs in the history (0 without one):
 * in time proportional to the history's length, with its memory, or -1 when that runs out. */
SHT_EXPORT int sht_board_most_occurrences(const struct sht_board *b);
/* Whether some (position, player to move) state occurs n times or more in the history: 1 or
 * 0, or -1 when memory runs out.  What a replay asks once at its end; with history_on_request
 * it reads little more than each state's stone count unless one count comes back n times. */
SHT_EXPORT int sht_board_occurs_at_least(const struct sht_board *b, int n);
/* Makes room for `states` (position, player to move) states in the history (each move, pass
 * and mid-game setup edit adds one, and the start one), so that a replay of known length
 * grows no table while it runs.  A board that keeps no history ignores it; false when memory
 * runs out, which changes nothing else. */
SHT_EXPORT bool sht_board_reserve_history(struct sht_board *b, int states);

/* Chains.  A chain is named by one of its stones (its id, stable until the chain changes). */
SHT_EXPORT int sht_board_chain_id(const struct sht_board *b, int point);
SHT_EXPORT int sht_board_chain_liberties(const struct sht_board *b, int point);
SHT_EXPORT int sht_board_chain_size(const struct sht_board *b, int point);
/* The next stone of the chain's ring; following it from any stone visits the chain once. */
SHT_EXPORT int sht_board_chain_next(const struct sht_board *b, int point);

/*
 * Trying a move and taking it back: save, play, restore.  A snapshot belongs to the board it was
 * made for, and holds nothing until it is saved; restoring rewinds the stones, the counters and
 * the hash history.
 */
SHT_EXPORT struct sht_board_snapshot *sht_board_snapshot_new(const struct sht_board *b);
SHT_EXPORT void sht_board_snapshot_free(struct sht_board_snapshot *s);
SHT_EXPORT void sht_board_save(const struct sht_board *b, struct sht_board_snapshot *s);
SHT_EXPORT void sht_board_restore(struct sht_board *b, const struct sht_board_snapshot *s);

/* GTP vertices ("D4", "pass"; columns skip I).  Returns SHT_NO_POINT when it does not parse. */
SHT_EXPORT int sht_vertex_parse(const struct sht_board *b, const char *text);
/* Writes "D4" or "pass" into buf (at least 5 bytes); returns buf. */
SHT_EXPORT char *sht_vertex_format(const struct sht_board *b, int point, char *buf, size_t len);

SHT_EXPORT const char *sht_verdict_name(enum sht_verdict v);
SHT_EXPORT const char *sht_color_name(enum sht_color c);

/*
 * An ASCII diagram, one row per line, top row first: 'X' or 'x' black, 'O' or 'o' white, '.' '+'
 * empty; spaces are ignored.  The board is sized from the diagram and the stones are setup stones.
 * Returns NULL on a malformed diagram (ragged rows, unknown characters, size out of range).
 */
SHT_EXPORT struct sht_board *sht_board_from_diagram(const char *text,
    const struct sht_board_options *opt);
/* Writes the diagram (X, O, '.') into buf; returns the length it needed, like snprintf. */
SHT_EXPORT size_t sht_board_to_diagram(const struct sht_board *b, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
