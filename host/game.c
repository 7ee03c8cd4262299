/* Game input: an SGF record or a JSON game object, both turned into one event list to judge. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "host.h"
#include "json_parse.h"

void
sht_game_free(struct sht_game *game)
{
	sht_sgf_game_free(&game->g);
	if (!game->sgf_borrowed)
		sht_sgf_free(game->sgf);
	free(game->owned_strings);
	memset(game, 0, sizeof(*game));
}

/* An SGF game that cannot be read: err says where, and out is freed. */
static bool
sgf_game_fail(struct sht_game *out, const struct sht_sgf_error *e, struct sht_error *err)
{
	sht_error_set(err, SHT_ERROR_BAD_SGF, "SGF %d:%d: %s", e->line, e->column, e->message);
	err->line = e->line;
	err->column = e->column;
	sht_game_free(out);
	return false;
}

/* What every SGF game is: SGF has its own default size, 19, so a record always says its
 * board.  It says its setup too: a record without AB/AW was played without seated stones, so
 * none are added. */
static void
sgf_game_read(struct sht_game *out)
{
	out->has_size = true;
	out->has_setup = true;
	out->implied_passes = true;
	out->has_handicap = out->g.handicap_written;
}

/* sht_game_from_sgf, told whether text is known to be UTF-8. */
static bool
game_from_sgf(const char *text, size_t len, bool valid_utf8, int tree, struct sht_game *out,
    struct sht_error *err)
{
	struct sht_sgf_error e;

	memset(out, 0, sizeof(*out));
	/* Most records are plain files read without their tree; the others, and every error,
	 * are the tree reader's. */
	if (tree == 0)
		out->sgf = valid_utf8 ? sht_sgf_read_game_utf8(text, len, &out->g) :
		    sht_sgf_read_game(text, len, &out->g);
	if (out->sgf == NULL && ((out->sgf = sht_sgf_parse(text, len, &e)) == NULL ||
	    !sht_sgf_game(out->sgf, tree, &out->g, &e)))
		return sgf_game_fail(out, &e, err);
	sgf_game_read(out);
	return true;
}

bool
sht_game_from_collection(struct sht_sgf_collection *c, int tree, struct sht_game *out,
    struct sht_error *err)
{
	struct sht_sgf_error e;

	memset(out, 0, sizeof(*out));
	out->sgf = c;
	out->sgf_borrowed = true;
	if (!sht_sgf_game(c, tree, &out->g, &e))
		return sgf_game_fail(out, &e, err);
	sgf_game_read(out);
	return true;
}

bool
sht_game_from_sgf(const char *text, size_t len, int tree, struct sht_game *out,
    struct sht_error *err)
{
	return game_from_sgf(text, len, false, tree, out, err);
}

/* The column of a GTP vertex's letter (either case; columns skip I), or -1. */
static int
gtp_column(unsigned char letter)
{
	int c = (letter | 0x20) - 'a';

	if (c < 0 || c >= 26 || c == 'i' - 'a')
		return -1;
	return c > 'i' - 'a' ? c - 1 : c;
}

/* A vertex of a w x h board: GTP ("D4", columns skip I) or an SGF point ("dd"). */
static bool
parse_vertex(const char *v, int w, int h, int *x, int *y, bool *pass)
{
	static const char columns[] = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
	const char *col;
	char *end;
	long row;

	*pass = false;
	/* A letter and one or two digits, what a move list mostly holds, read without the
	 * general path's string functions (a tenth of a `legal` request went there): neither
	 * "pass" nor an SGF point has a digit second, and strtol reads these digits the same. */
	if (v[0] != '\0' && (unsigned)(v[1] - '0') < 10 && (v[2] == '\0' ||
	    ((unsigned)(v[2] - '0') < 10 && v[3] == '\0'))) {
		int c = gtp_column((unsigned char)v[0]);
		int r = v[2] == '\0' ? v[1] - '0' : (v[1] - '0') * 10 + (v[2] - '0');

		if (c < 0 || r < 1 || r > h || c >= w)
			return false;
		*x = c;
		*y = h - r;
		return true;
	}
	if (strcasecmp(v, "pass") == 0) {
		*pass = true;
		return true;
	}
	if (strlen(v) == 2 && islower((unsigned char)v[0]) && islower((unsigned char)v[1])) {
		*x = v[0] - 'a';
		*y = v[1] - 'a';
		return *x < w && *y < h;
	}
	if (v[0] == '\0' || (col = strchr(columns, toupper((unsigned char)v[0]))) == NULL)
		return false;
	row = strtol(v + 1, &end, 10);
	if (end == v + 1 || *end != '\0' || row < 1 || row > h || col - columns >= w)
		return false;
	*x = (int)(col - columns);
	*y = h - (int)row;
	return true;
}

static bool
add_event(struct sht_game *game, int *cap, enum sht_sgf_event_kind kind, int color, int x, int y)
{
	struct sht_sgf_event *e;

	if (game->g.nevents == *cap) {
		struct sht_sgf_event *ev = realloc(game->g.events, sizeof(*ev) *
		    (size_t)(*cap = *cap ? *cap * 2 : 256));

		if (ev == NULL)
			return false;
		game->g.events = ev;
	}
	e = &game->g.events[game->g.nevents++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->color = color;
	e->x = x;
	e->y = y;
	if (kind == SHT_SGF_MOVE)
		e->move_number = ++game->g.nmoves;
	return true;
}

static int
color_of(const char *s, size_t len)
{
	if ((len == 1 && (s[0] == 'B' || s[0] == 'b')) || (len == 5 && strncasecmp(s, "black", 5) == 0))
		return SHT_BLACK;
	if ((len == 1 && (s[0] == 'W' || s[0] == 'w')) || (len == 5 && strncasecmp(s, "white", 5) == 0))
		return SHT_WHITE;
	return SHT_EMPTY;
}

/* Komi as a JSON number (points) or {"value": 3.75, "unit": "zi"|"points"}, into half points. */
static bool
read_komi(const json_t *k, int *half, struct sht_error *err)
{
	double value, scale = 2.0, h;
	const char *unit = "points";

	if (json_is_object(k)) {
		const json_t *u = json_object_get(k, "unit");

		if (u != NULL) {
			if (!json_is_string(u))
				return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "game.komi.unit must be "
				    "\"points\" or \"zi\"");
			unit = json_string_value(u);
		}
		k = json_object_get(k, "value");
	}
	if (!json_is_number(k))
		return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "game.komi must be a number or "
		    "{\"value\": number, \"unit\": \"points\"|\"zi\"}");
	if (strcmp(unit, "zi") == 0)
		scale = 4.0;
	else if (strcmp(unit, "points") != 0)
		return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "game.komi.unit must be \"points\" or "
		    "\"zi\", not \"%.20s\"", unit);
	value = json_number_value(k);
	h = value * scale;
	if (!isfinite(h) || fabs(h) > 10000 || fabs(h - round(h)) > 1e-9)
		return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "game.komi %g %s is not a whole number "
		    "of half points", value, unit);
	*half = (int)round(h);
	return true;
}

json_t *
sht_game_json_from_sgf_bytes(const char *data, size_t len, struct sht_error *err)
{
	json_t *text = json_stringn(data, len);
	struct sht_sgf_collection *c;
	struct sht_sgf_error e;
	char *utf8;
	size_t n;

	if (text != NULL)
		return json_pack("{s:o}", "sgf", text);
	/* Not UTF-8: decode as the file says (CA) or as detected, and write it back. */
	c = sht_sgf_parse(data, len, &e);
	if (c == NULL) {
		sht_error_set(err, SHT_ERROR_BAD_SGF, "SGF %d:%d: %s", e.line, e.column, e.message);
		err->line = e.line;
		err->column = e.column;
		return NULL;
	}
	utf8 = sht_sgf_write(c, &n);
	sht_sgf_free(c);
	text = utf8 ? json_stringn(utf8, n) : NULL;
	free(utf8);
	if (text == NULL) {
		sht_error_set(err, SHT_ERROR_INTERNAL, "out of memory");
		return NULL;
	}
	return json_pack("{s:o}", "sgf", text);
}

bool
sht_game_komi_from_json(const json_t *k, int *half, struct sht_error *err)
{
	return read_komi(k, half, err);
}

static bool
add_vertices(struct sht_game *game, int *cap, const json_t *list, int color, const char *what,
    struct sht_error *err)
{
	size_t i;
	const json_t *v;

	if (list == NULL)
		return true;
	if (!json_is_array(list))
		return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "game.setup.%s must be a list of "
		    "vertices", what);
	json_array_foreach(list, i, v) {
		int x, y;
		bool pass;

		if (!json_is_string(v) || !parse_vertex(json_string_value(v), game->g.width,
		    game->g.height, &x, &y, &pass) || pass)
			return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "game.setup.%s[%zu]: not a vertex "
			    "of the %dx%d board", what, i, game->g.width, game->g.height);
		if (!add_event(game, cap, SHT_SGF_SETUP, color, x, y))
			return sht_error_set(err, SHT_ERROR_INTERNAL, "out of memory");
	}
	return true;
}

/* A point in both the black and the white list is no position: refused, naming the point. */
static bool
setup_points_distinct(const struct sht_game *game, const json_t *setup, struct sht_error *err)
{
	const json_t *black = json_object_get(setup, "black"), *white = json_object_get(setup,
	    "white");
	signed char color[SHT_MAX_SIZE * SHT_MAX_SIZE] = { 0 };
	int nblack = json_is_array(black) ? (int)json_array_size(black) : 0;

	/* add_vertices put the black list's events first, then the white list's. */
	for (int i = 0; i < game->g.nevents; i++) {
		const struct sht_sgf_event *e = &game->g.events[i];
		int p = e->y * SHT_MAX_SIZE + e->x;

		if (color[p] != 0 && color[p] != e->color)
			return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "game.setup.white[%d]: %.20s is "
			    "also in game.setup.black (a point holds one stone)", i - nblack,
			    json_string_value(json_array_get(white, (size_t)(i - nblack))));
		color[p] = (signed char)e->color;
	}
	return true;
}

/* Move i of a move list, s ("B D4", "W pass"; "" for an item that is not a string). */
static bool
add_move(struct sht_game *out, int *cap, size_t i, const char *s, struct sht_error *err)
{
	/* "B D4" mostly: its one-letter colour is seen without looking for the space. */
	const char *sp = s[0] != '\0' && s[1] == ' ' ? s + 1 : strchr(s, ' ');
	int color = sp ? color_of(s, (size_t)(sp - s)) : SHT_EMPTY, x = -1, y = -1;
	bool pass;

	if (color == SHT_EMPTY)
		return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "game.moves[%zu]: expected "
		    "\"B D4\" or \"W pass\"", i);
	while (*sp == ' ')
		sp++;
	if (!parse_vertex(sp, out->g.width, out->g.height, &x, &y, &pass))
		return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "game.moves[%zu]: '%.20s' is not "
		    "a vertex of the %dx%d board", i, sp, out->g.width, out->g.height);
	if (pass)
		x = y = -1;
	if (!add_event(out, cap, SHT_SGF_MOVE, color, x, y))
		return sht_error_set(err, SHT_ERROR_INTERNAL, "out of memory");
	out->g.events[out->g.nevents - 1].offset = i;
	return true;
}

/* A game object; its moves are list's when list is given (the object holds null for them). */
static bool
from_json_object(const json_t *j, const struct sht_move_list *list, int default_w,
    int default_h, struct sht_game *out, struct sht_error *err)
{
	const json_t *size = json_object_get(j, "size"), *setup = json_object_get(j, "setup");
	const json_t *moves = json_object_get(j, "moves"), *komi = json_object_get(j, "komi");
	const json_t *handicap = json_object_get(j, "handicap"), *m;
	const char *key;
	json_t *val;
	int cap = 0;
	size_t i;

	json_object_foreach((json_t *)(uintptr_t)j, key, val) {
		if (strcmp(key, "size") != 0 && strcmp(key, "setup") != 0 && strcmp(key, "moves") != 0 &&
		    strcmp(key, "komi") != 0 && strcmp(key, "handicap") != 0 &&
		    strcmp(key, "up_to") != 0)
			return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "game has an unknown member "
			    "\"%.40s\" (known: sgf, tree, up_to, size, setup, moves, komi, handicap)",
			    key);
	}
	out->g.width = default_w;
	out->g.height = default_h;
	if (size != NULL) {
		json_int_t w, h;

		if (json_is_integer(size)) {
			w = h = json_integer_value(size);
		} else if (json_is_array(size) && json_array_size(size) == 2 &&
		    json_is_integer(json_array_get(size, 0)) && json_is_integer(json_array_get(size, 1))) {
			w = json_integer_value(json_array_get(size, 0));
			h = json_integer_value(json_array_get(size, 1));
		} else {
			return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "game.size must be a number or "
			    "[width, height]");
		}
		if (w < SHT_MIN_SIZE || h < SHT_MIN_SIZE || w > SHT_MAX_SIZE || h > SHT_MAX_SIZE)
			return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "game.size %lldx%lld is not "
			    "supported (2 to 25 lines each way)", (long long)w, (long long)h);
		out->g.width = (int)w;
		out->g.height = (int)h;
		out->has_size = true;
	}
	if (komi != NULL) {
		if (!read_komi(komi, &out->g.komi_half_points, err))
			return false;
		out->g.has_komi = true;
	}
	if (handicap != NULL) {
		if (!json_is_integer(handicap) || json_integer_value(handicap) < 0 ||
		    json_integer_value(handicap) > 99)
			return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "game.handicap must be a whole "
			    "number from 0 to 99");
		out->g.handicap = (int)json_integer_value(handicap);
		out->has_handicap = true;
	}
	if (setup != NULL) {
		if (!json_is_object(setup))
			return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "game.setup must be an object "
			    "with \"black\" and \"white\" lists");
		if (!add_vertices(out, &cap, json_object_get(setup, "black"), SHT_BLACK, "black", err) ||
		    !add_vertices(out, &cap, json_object_get(setup, "white"), SHT_WHITE, "white", err) ||
		    !setup_points_distinct(out, setup, err))
			return false;
		out->has_setup = true;
	}
	if (list != NULL) {
		for (size_t k = 0; k < list->n; k++)
			if (!add_move(out, &cap, k, list->moves[k], err))
				return false;
		return true;
	}
	if (moves != NULL && !json_is_array(moves))
		return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "game.moves must be a list such as "
		    "[\"B D4\", \"W pass\"]");
	json_array_foreach(moves, i, m) {
		if (!add_move(out, &cap, i, json_is_string(m) ? json_string_value(m) : "", err))
			return false;
	}
	return true;
}

/* `up_to`: the number of moves to keep, or -1 when the game object has none. */
static bool
read_up_to(const json_t *j, json_int_t *n, struct sht_error *err)
{
	const json_t *u = json_object_get(j, "up_to");

	*n = -1;
	if (u == NULL)
		return true;
	if (!json_is_integer(u) || json_integer_value(u) < 0 || json_integer_value(u) > 1000000)
		return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "game.up_to must be a number of "
		    "moves from 0");
	*n = json_integer_value(u);
	return true;
}

/* The game as it stood after its first n moves (passes count): the events after the n-th move
 * are dropped, the record's own and the passes read from its last nodes alike. */
static void
cut_after_move(struct sht_game *game, json_int_t n)
{
	struct sht_sgf_game *g = &game->g;
	int moves = 0;

	if (n < 0)
		return;
	for (int i = 0; i < g->nevents; i++) {
		if (g->events[i].kind != SHT_SGF_MOVE)
			continue;
		if (moves == n) {
			g->nevents = i;
			break;
		}
		moves++;
	}
	if (g->nmoves > n) {
		g->nmoves = (int)n;
		g->empty_node_passes = 0;
	}
}

/* The game object j, its moves from list when the list is j's. */
static bool
game_from_json(const json_t *j, const struct sht_move_list *list, int default_w, int default_h,
    struct sht_game *out, struct sht_error *err)
{
	const json_t *sgf, *tree;
	json_int_t up_to;

	memset(out, 0, sizeof(*out));
	if (!json_is_object(j))
		return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "game must be an object: {\"sgf\": "
		    "\"...\"} or {\"size\": 19, \"moves\": [...]}");
	if (!read_up_to(j, &up_to, err))
		return false;
	sgf = json_object_get(j, "sgf");
	if (sgf != NULL) {
		json_int_t t = 0;

		if (!json_is_string(sgf))
			return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "game.sgf must be a string");
		tree = json_object_get(j, "tree");
		if (tree != NULL) {
			if (!json_is_integer(tree) || json_integer_value(tree) < 0 ||
			    json_integer_value(tree) > 100000)
				return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "game.tree must be a "
				    "game tree index from 0");
			t = json_integer_value(tree);
		}
		if (json_object_size(j) > 1u + (tree != NULL) + (up_to >= 0))
			return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "game with \"sgf\" takes only "
			    "\"tree\" and \"up_to\" beside it");
		/* A JSON string is UTF-8: its reader checked it (jansson, or simdjson, whose
		 * strings jansson takes unchecked), so the SGF reader need not check it again. */
		if (!game_from_sgf(json_string_value(sgf), json_string_length(sgf), true, (int)t,
		    out, err))
			return false;
		cut_after_move(out, up_to);
		return true;
	}
	if (!from_json_object(j, list != NULL && list->owner == j ? list : NULL, default_w,
	    default_h, out, err)) {
		sht_game_free(out);
		return false;
	}
	cut_after_move(out, up_to);
	return true;
}

bool
sht_game_from_json(const json_t *j, int default_w, int default_h, struct sht_game *out,
    struct sht_error *err)
{
	return game_from_json(j, NULL, default_w, default_h, out, err);
}

bool
sht_game_from_params(const struct sht_context *ctx, const json_t *j, int default_w,
    int default_h, struct sht_game *out, struct sht_error *err)
{
	return game_from_json(j, ctx->moves, default_w, default_h, out, err);
}

/* Half points as a number of points: 13 -> "6.5". */
static void
points_text(int half_points, char *buf, size_t size)
{
	int a = abs(half_points);

	snprintf(buf, size, "%s%d%s", half_points < 0 ? "-" : "", a / 2, a % 2 ? ".5" : "");
}

bool
sht_game_komi_note(const struct sht_game *game, char *note, size_t size)
{
	const struct sht_sgf_game *g = &game->g;
	const char *km = g->komi_written != NULL ? g->komi_written : "";
	char points[16];

	points_text(g->komi_half_points, points, sizeof(points));
	switch (g->komi_reading) {
	case SHT_SGF_KOMI_HUNDREDTHS:
		snprintf(note, size, "the record's KM[%.20s] is read as komi %s: %s", km, points,
		    g->fox_record ? "the Fox server writes komi in hundredths" :
		    "read in hundredths, since no komi is 100 points or more");
		return true;
	case SHT_SGF_KOMI_HUNDREDTHS_OF_ZI:
		/* A zi is two points, four half points. */
		snprintf(note, size, "the record's KM[%.20s] is read as komi %s: the Fox server "
		    "writes komi in hundredths of a zi (%s%d.%02d zi)", km, points,
		    g->komi_half_points < 0 ? "-" : "", abs(g->komi_half_points) / 4,
		    abs(g->komi_half_points) % 4 * 25);
		return true;
	case SHT_SGF_KOMI_FOX_JAPANESE_EVEN:
		snprintf(note, size, "the record's KM[%.20s] is read as komi %s: the Fox server "
		    "writes KM[0] for the 6.5 komi of its even games under Japanese rules", km,
		    points);
		return true;
	case SHT_SGF_KOMI_AS_WRITTEN:
		break;
	}
	return false;
}

/* What a record's RE says decided the game when it was not a count: "resignation", "time",
 * "forfeit", or NULL (a count, a draw, no result, or no RE).  SGF writes B+R, B+Resign, W+T,
 * W+Time, B+F, B+Forfeit. */
static const char *
recorded_decision(const char *re)
{
	static const struct { char letter; const char *word; } ways[] = {
		{ 'R', "resignation" }, { 'T', "time" }, { 'F', "forfeit" },
	};

	if (re == NULL || (re[0] != 'B' && re[0] != 'W') || re[1] != '+')
		return NULL;
	for (size_t i = 0; i < sizeof(ways) / sizeof(ways[0]); i++)
		if (re[2] == ways[i].letter || re[2] == ways[i].letter + ('a' - 'A'))
			return ways[i].word;
	return NULL;
}

bool
sht_game_result_note(const struct sht_game *game, bool moves_end_it, char *note, size_t size)
{
	const struct sht_sgf_game *g = &game->g;

	/* B+0 is never a count, whether or not the moves end the game: whatever count the
	 * position gives, the record's result is not one to set beside it. */
	if (g->result_zero_margin) {
		if (g->fox_record)
			snprintf(note, size, "the record's RE[%.20s] is the Fox server's way of writing "
			    "a win by resignation or time, not by counting", g->result);
		else
			snprintf(note, size, "the record's RE[%.20s] names a winner by no margin, "
			    "which no count gives: read as a win decided otherwise than by counting",
			    g->result);
		return true;
	}
	/* The others only where the moves do not end the game: a record that ends in passes
	 * and says B+R is the count's to settle. */
	if (moves_end_it || recorded_decision(g->result) == NULL)
		return false;
	snprintf(note, size, "the record's RE[%.20s] says the game was decided by %s, not by "
	    "counting", g->result, recorded_decision(g->result));
	return true;
}
