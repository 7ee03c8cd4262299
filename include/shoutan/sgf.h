/* SGF (FF[1]-FF[4]): a reader that survives files found in the wild, a writer, and game extraction. */
#ifndef SHOUTAN_SGF_H
#define SHOUTAN_SGF_H

#include <stdbool.h>
#include <stddef.h>

#include "shoutan/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where and why a file was refused.  line and column count from 1 (column in bytes of the
 * UTF-8 text); 0 when the error has no position. */
struct sht_sgf_error {
	int line, column;
	char message[256];
};

struct sht_sgf_prop {
	const char *id;      /* upper-case letters only: "CoPyright" (FF[1]-FF[3]) reads as "CP" */
	int nvalues;
	const char **values; /* UTF-8, escapes resolved, soft line breaks removed */
	size_t offset;       /* byte offset of the identifier in the decoded text */
};

struct sht_sgf_node {
	int nprops;
	struct sht_sgf_prop *props;
	struct sht_sgf_node *parent;
	struct sht_sgf_node *child;   /* first child: the main line continues here */
	struct sht_sgf_node *sibling; /* next variation of the same parent */
	size_t offset;                /* byte offset of the node's ';' */
};

/* Something the reader repaired: the file is usable, but not as written. */
struct sht_sgf_warning {
	size_t offset;
	char message[96];
};

#define SHT_SGF_MAX_WARNINGS 8

struct sht_sgf_collection {
	int ntrees;
	struct sht_sgf_node **trees;
	const char *encoding;  /* the encoding the text was decoded from */
	bool encoding_guessed; /* no usable CA: the encoding was detected, not declared */
	const char *text;      /* the decoded UTF-8 text, for positions */
	size_t text_len;
	int nwarnings;         /* how many repairs; the first SHT_SGF_MAX_WARNINGS are kept */
	struct sht_sgf_warning warnings[SHT_SGF_MAX_WARNINGS];
	void *arena;           /* private */
};

/*
 * Parses a whole file.  Text is decoded to UTF-8 first: a byte-order mark wins, then the CA
 * property (UTF-8, GB2312/GBK/GB18030, Big5, Shift_JIS, EUC-JP, EUC-KR, ISO-8859-x, ...), then
 * detection (valid UTF-8, else GB18030, else Latin-1).  Lenient where the meaning is clear,
 * as SGFC is: lower-case letters in identifiers, empty "()", a missing first ';', stray text
 * between nodes, an identifier with no value (skipped) and game trees left open at the end of
 * the file (closed) are repaired and recorded in `warnings`.  An error, with line and column,
 * where nothing sensible can be read: a value whose ']' never comes, or no game tree at all.
 * Returns NULL on error.
 */
SHT_EXPORT struct sht_sgf_collection *sht_sgf_parse(const char *data, size_t len,
    struct sht_sgf_error *err);
SHT_EXPORT void sht_sgf_free(struct sht_sgf_collection *c);

/* The first value of a property, or NULL. */
SHT_EXPORT const char *sht_sgf_get(const struct sht_sgf_node *n, const char *id);
SHT_EXPORT const struct sht_sgf_prop *sht_sgf_find(const struct sht_sgf_node *n, const char *id);
/* Line and column (from 1) of a byte offset in the decoded text. */
SHT_EXPORT void sht_sgf_position(const struct sht_sgf_collection *c, size_t offset, int *line,
    int *column);

/* Writes a collection back as FF[4] text with values escaped; malloc'd, NUL-terminated. */
SHT_EXPORT char *sht_sgf_write(const struct sht_sgf_collection *c, size_t *len);

enum sht_sgf_event_kind {
	SHT_SGF_MOVE,  /* a move (x, y) or a pass (x = y = -1) */
	SHT_SGF_SETUP, /* a setup edit: color SHT_BLACK / SHT_WHITE / SHT_EMPTY at (x, y) */
	SHT_SGF_TURN,  /* PL: color is to move next */
};

struct sht_sgf_event {
	enum sht_sgf_event_kind kind;
	int color;
	int x, y;
	int move_number; /* for moves: 1, 2, ...; 0 for other events */
	size_t offset;   /* where the property stands in the text */
};

/* How a record's KM was read, when not as the number of points it says. */
enum sht_sgf_komi_reading {
	SHT_SGF_KOMI_AS_WRITTEN,       /* KM[6.5] is 6.5 points (also: no KM) */
	SHT_SGF_KOMI_HUNDREDTHS,       /* KM[650] is 6.5 points: the Fox server's hundredths, or
	                                * any whole KM of 100 or more, which no real komi is */
	SHT_SGF_KOMI_HUNDREDTHS_OF_ZI, /* KM[375] is 3.75 zi (stones), 7.5 points: the Fox
	                                * server's hundredths of a zi in Chinese games */
	SHT_SGF_KOMI_FOX_JAPANESE_EVEN, /* KM[0] in a Fox record of an even game under Japanese
	                                 * rules is the 6.5 points the server played with */
};

/* One game: the main line of a game tree, flattened into setup and move events. */
struct sht_sgf_game {
	int width, height;
	int komi_half_points;   /* 7.5 points -> 15 */
	bool has_komi;
	bool komi_rounded;      /* KM was not a multiple of half a point */
	bool fox_komi;          /* KM was read in the Fox server's hundredths */
	enum sht_sgf_komi_reading komi_reading;
	const char *komi_written; /* KM as the record writes it, or NULL */
	/* AP names the Fox server (foxwq, or its YuanYu client), whose KM and RE follow the
	 * server's own conventions rather than SGF's. */
	bool fox_record;
	/* RE is B+0 or W+0: a winner with no margin, which no count gives (a count of 0 is a
	 * draw); the Fox server writes it for wins by resignation or time. */
	bool result_zero_margin;
	/* Passes read from the nodes without a move that end the main line, in a record that
	 * writes its passes so (a move follows one of its own colour with such a node between):
	 * added after the last move as pass events, at most 2. */
	int empty_node_passes;
	int handicap;
	bool handicap_written;  /* the root has HA, whatever its value */
	const char *ruleset;    /* RU, or NULL */
	const char *result;     /* RE, or NULL */
	const char *black, *white, *date, *game_name;
	const char *place;      /* PC, or NULL: a server's records name it (PC[NNGS]) */
	int nevents, nmoves;
	struct sht_sgf_event *events;
};

/* Setup along one game's main line may name at most this many points in all, each point of a
 * rectangle such as AB[aa:ss] counting: a real record names a few thousand, and without a bound
 * a request of one megabyte (";AB[aa:yy]" over and over) expands to 57 million events, 1.8 GB. */
#define SHT_SGF_MAX_SETUP_POINTS 1000000

/* Extracts game `tree` (0 = first) along the main line.  A point that AB, AW or AE of one node
 * names twice with the same colour gives one event.  Returns false with err filled on a bad
 * size (above 25, below 2), a point outside the board, a point one node sets two ways, more
 * than SHT_SGF_MAX_SETUP_POINTS setup points, or a tree index out of range. */
SHT_EXPORT bool sht_sgf_game(const struct sht_sgf_collection *c, int tree,
    struct sht_sgf_game *game, struct sht_sgf_error *err);
SHT_EXPORT void sht_sgf_game_free(struct sht_sgf_game *game);

/*
 * Game 0 of a file read straight from its text, without building the tree, for a file as FF[4]
 * writes it: one game tree, every '(' followed by a ';', identifiers of upper-case letters each
 * with a value, nothing else between them, and a main line with moves.  Gives what
 * sht_sgf_parse and sht_sgf_game give for such a file, and a collection holding its decoded
 * text (for positions) and, as its one tree, only what host/clock.c reads of it: a root with
 * the file's TM and OT, then for each main-line node with a move its B and W (with no value)
 * and its BL, WL, OB and OW (a file with none of those: its first move's node alone).
 * Not a tree for anything else (the writer, say).  Returns NULL, with
 * game zeroed, for any other file and on any error: sht_sgf_parse and sht_sgf_game read it
 * then, with their errors and repairs.
 */
SHT_EXPORT struct sht_sgf_collection *sht_sgf_read_game(const char *data, size_t len,
    struct sht_sgf_game *game);
/* sht_sgf_read_game of text the caller knows is well-formed UTF-8 (a JSON string, which the
 * JSON reader checked): the same reading, without checking the text again. */
SHT_EXPORT struct sht_sgf_collection *sht_sgf_read_game_utf8(const char *data, size_t len,
    struct sht_sgf_game *game);

struct sht_board;
struct sht_board_options;

/* Where a replay stopped early: the number of the illegal move (0 when none was), its index in
 * the event list, and why it was illegal. */
struct sht_sgf_replay_stop {
	int move;
	int event;
	int verdict; /* enum sht_verdict */
};

/*
 * Replays a game's events onto a new board made with opt (NULL: simple ko, no suicide); the
 * board takes the game's size.  Stops before move number `upto` when it is above 0.  On an
 * illegal move the board holds the position before it and stop says which move and why.
 * Returns NULL when memory runs out.  Rulesets judge moves themselves; this is the mechanical
 * replay that tools and tests need.
 */
SHT_EXPORT struct sht_board *sht_sgf_replay(const struct sht_sgf_game *g,
    const struct sht_board_options *opt, int upto, struct sht_sgf_replay_stop *stop);

#ifdef __cplusplus
}
#endif

#endif
