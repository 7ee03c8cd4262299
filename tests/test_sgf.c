/* Unit tests of the SGF reader and writer: syntax, leniency, errors, games, komi, round trip. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "shoutan/board.h"
#include "shoutan/sgf.h"

static struct sht_sgf_collection *
parse(const char *text)
{
	struct sht_sgf_error err;
	struct sht_sgf_collection *c = sht_sgf_parse(text, strlen(text), &err);

	if (c == NULL)
		fail_msg("unexpected parse error %d:%d %s", err.line, err.column, err.message);
	return c;
}

static void
expect_error(const char *text, int line, int column, const char *fragment)
{
	struct sht_sgf_error err;
	struct sht_sgf_collection *c = sht_sgf_parse(text, strlen(text), &err);

	assert_null(c);
	assert_int_equal(err.line, line);
	assert_int_equal(err.column, column);
	assert_non_null(strstr(err.message, fragment));
}

static void
test_escapes_and_values(void **state)
{
	struct sht_sgf_collection *c = parse("(;C[hello\\]world];C[hello\\\\];C[soft\\\nbreak]"
	    "C[bl\nah])");
	const struct sht_sgf_node *n = c->trees[0];

	(void)state;
	assert_string_equal(sht_sgf_get(n, "C"), "hello]world");
	assert_string_equal(sht_sgf_get(n->child, "C"), "hello\\");
	assert_string_equal(sht_sgf_get(n->child->child, "C"), "softbreak");
	assert_string_equal(n->child->child->props[1].values[0], "bl\nah");
	sht_sgf_free(c);

	/* A backslash before ']' swallows the bracket and the value runs on. */
	c = parse("(;C[\\];B[aa];W[bb])");
	assert_string_equal(sht_sgf_get(c->trees[0], "C"), "];B[aa");
	assert_string_equal(sht_sgf_get(c->trees[0]->child, "W"), "bb");
	sht_sgf_free(c);
}

/* Values and identifiers are read in place into one copy of the text: every value stays
 * whole beside its neighbours (escapes shortening one, an identifier losing its lower-case
 * letters, one too long to keep, a NUL dropped, white space before a '['), and the decoded
 * text that positions are counted in is the file as read. */
static void
test_values_read_in_place_keep_the_text(void **state)
{
	static const char text[] = "(;CoPyright[a\\]b][c]GN  [x\
yz]C[]XY[\\\\];B[aa]C[L:9]\n"
	    ";W[bb]AB[cc:dd][ee];PL[B]ABCDEFGHIJKLMNOPQ[q]W[ff])";
	struct sht_sgf_error err;
	char with_nul[] = "(;C[a\0b]B[cc])";
	struct sht_sgf_collection *c = sht_sgf_parse(text, sizeof(text) - 1, &err);
	const struct sht_sgf_node *n;

	(void)state;
	assert_non_null(c);
	n = c->trees[0];
	assert_int_equal(n->nprops, 4);
	assert_string_equal(n->props[0].id, "CP");
	assert_int_equal(n->props[0].nvalues, 2);
	assert_string_equal(n->props[0].values[0], "a]b");
	assert_string_equal(n->props[0].values[1], "c");
	assert_string_equal(n->props[1].id, "GN");
	assert_string_equal(n->props[1].values[0], "xyz");
	assert_string_equal(n->props[2].id, "C");
	assert_string_equal(n->props[2].values[0], "");
	assert_string_equal(n->props[3].id, "XY");
	assert_string_equal(n->props[3].values[0], "\\");
	n = n->child;
	assert_string_equal(sht_sgf_get(n, "B"), "aa");
	assert_string_equal(sht_sgf_get(n, "C"), "L:9");
	n = n->child;
	assert_string_equal(sht_sgf_get(n, "W"), "bb");
	assert_string_equal(sht_sgf_find(n, "AB")->values[0], "cc:dd");
	assert_string_equal(sht_sgf_find(n, "AB")->values[1], "ee");
	n = n->child;
	assert_int_equal(n->nprops, 2);
	assert_string_equal(sht_sgf_get(n, "PL"), "B");
	assert_string_equal(sht_sgf_get(n, "W"), "ff");
	assert_int_equal(c->text_len, sizeof(text) - 1);
	assert_memory_equal(c->text, text, sizeof(text));
	sht_sgf_free(c);

	/* A NUL inside a value is dropped; the value after it is untouched. */
	c = sht_sgf_parse(with_nul, sizeof(with_nul) - 1, &err);
	assert_non_null(c);
	assert_string_equal(sht_sgf_get(c->trees[0], "C"), "ab");
	assert_string_equal(sht_sgf_get(c->trees[0], "B"), "cc");
	assert_memory_equal(c->text, with_nul, sizeof(with_nul));
	sht_sgf_free(c);
}

static void
test_leniency(void **state)
{
	struct sht_sgf_collection *c;

	(void)state;
	/* FF[1]-FF[3] identifiers with lower-case letters. */
	c = parse("(;CoPyright[hello](;White[ii])(;White[hi]Comment[h]))");
	assert_string_equal(sht_sgf_get(c->trees[0], "CP"), "hello");
	assert_string_equal(sht_sgf_get(c->trees[0]->child, "W"), "ii");
	assert_string_equal(sht_sgf_get(c->trees[0]->child->sibling, "C"), "h");
	sht_sgf_free(c);
	/* Empty variations are ignored. */
	c = parse("(;B[hh]()(;W[ii])()(;W[hi]C[h]))");
	assert_non_null(c->trees[0]->child->sibling);
	assert_null(c->trees[0]->child->sibling->sibling);
	sht_sgf_free(c);
	/* Missing '(' and missing first ';'. */
	c = parse(";B[hh];W[ii]");
	assert_int_equal(c->ntrees, 1);
	assert_string_equal(sht_sgf_get(c->trees[0]->child, "W"), "ii");
	sht_sgf_free(c);
	c = parse("(B[hh];W[ii])");
	assert_string_equal(sht_sgf_get(c->trees[0], "B"), "hh");
	sht_sgf_free(c);
	/* A stray character between properties. */
	c = parse("(;C[hi]%[invalid]B[aa])");
	assert_string_equal(sht_sgf_get(c->trees[0], "B"), "aa");
	sht_sgf_free(c);
	/* Several game trees, text before and between them. */
	c = parse("header text (;GN[one]) junk (;GN[two])");
	assert_int_equal(c->ntrees, 2);
	assert_string_equal(sht_sgf_get(c->trees[1], "GN"), "two");
	sht_sgf_free(c);
}

static void
test_errors_have_positions(void **state)
{
	(void)state;
	expect_error("(;GM[1]\n;B[aa\n", 2, 3, "not closed");
	expect_error("this is not a game record", 1, 1, "no SGF game tree");
	expect_error("", 1, 1, "no SGF game tree");
}

static void
test_repairs_are_reported(void **state)
{
	struct sht_sgf_collection *c;
	int line, col;

	(void)state;
	/* A truncated file keeps what it has, with a warning at the unclosed tree. */
	c = parse("(;GM[1]\n(;B[aa]\n");
	assert_int_equal(c->nwarnings, 1);
	assert_non_null(strstr(c->warnings[0].message, "')' missing"));
	sht_sgf_position(c, c->warnings[0].offset, &line, &col);
	assert_int_equal(line, 1);
	assert_int_equal(col, 1);
	assert_string_equal(sht_sgf_get(c->trees[0]->child, "B"), "aa");
	sht_sgf_free(c);
	/* Identifiers without a value are skipped ("illegal", then "chars"). */
	c = parse("(;GM[1]illegal_chars FF[4];W[aa])");
	assert_int_equal(c->nwarnings, 2);
	assert_string_equal(sht_sgf_get(c->trees[0], "FF"), "4");
	assert_string_equal(sht_sgf_get(c->trees[0]->child, "W"), "aa");
	sht_sgf_free(c);
	/* An identifier longer than any SGF property is read and dropped. */
	c = parse("(;XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX[long]B[aa])");
	assert_int_equal(c->nwarnings, 1);
	assert_int_equal(c->trees[0]->nprops, 1);
	sht_sgf_free(c);
	c = parse("(;GM[1];W[aa])");
	assert_int_equal(c->nwarnings, 0);
	sht_sgf_free(c);
}

static struct sht_sgf_game
game_of(struct sht_sgf_collection *c)
{
	struct sht_sgf_error err;
	struct sht_sgf_game g;

	if (!sht_sgf_game(c, 0, &g, &err))
		fail_msg("game error %d:%d %s", err.line, err.column, err.message);
	return g;
}

static void
test_game_extraction(void **state)
{
	struct sht_sgf_collection *c = parse("(;GM[1]FF[4]SZ[19]KM[5.00]AB[dd][pd][dp][pp]PL[W]"
	    ";W[qf];W[md];B[pf];W[];B[tt])");
	struct sht_sgf_game g = game_of(c);

	(void)state;
	assert_int_equal(g.width, 19);
	assert_int_equal(g.komi_half_points, 10);
	assert_int_equal(g.nmoves, 5);
	assert_int_equal(g.nevents, 4 + 1 + 5);
	assert_int_equal(g.events[4].kind, SHT_SGF_TURN);
	assert_int_equal(g.events[4].color, SHT_WHITE);
	assert_int_equal(g.events[5].x, 16); /* qf */
	assert_int_equal(g.events[5].y, 5);
	assert_int_equal(g.events[8].x, -1); /* W[] */
	assert_int_equal(g.events[9].x, -1); /* B[tt] on 19x19 */
	assert_int_equal(g.events[9].move_number, 5);
	sht_sgf_game_free(&g);
	sht_sgf_free(c);

	/* Rectangular boards, negative komi; tt is a point on boards over 19. */
	c = parse("(;SZ[17:3]KM[-6.5];B[fc];W[cc];B[la];)");
	g = game_of(c);
	assert_int_equal(g.width, 17);
	assert_int_equal(g.height, 3);
	assert_int_equal(g.komi_half_points, -13);
	assert_int_equal(g.nmoves, 3);
	sht_sgf_game_free(&g);
	sht_sgf_free(c);
	c = parse("(;SZ[25];B[tt])");
	g = game_of(c);
	assert_int_equal(g.events[0].x, 19);
	sht_sgf_game_free(&g);
	sht_sgf_free(c);

	/* Compressed point lists name rectangles. */
	c = parse("(;SZ[9]AB[cc][dd:ee]AE[aa])");
	g = game_of(c);
	assert_int_equal(g.nevents, 1 + 4 + 1);
	sht_sgf_game_free(&g);
	sht_sgf_free(c);
}

static void
test_game_errors(void **state)
{
	struct sht_sgf_collection *c;
	struct sht_sgf_game g;
	struct sht_sgf_error err;

	(void)state;
	c = parse("(;SZ[37];B[dd])");
	assert_false(sht_sgf_game(c, 0, &g, &err));
	assert_non_null(strstr(err.message, "37x37"));
	sht_sgf_free(c);
	c = parse("(;SZ[9]\n;B[dd];W[zz])");
	assert_false(sht_sgf_game(c, 0, &g, &err));
	assert_non_null(strstr(err.message, "move 2"));
	assert_int_equal(err.line, 2);
	assert_int_equal(err.column, 8);
	assert_false(sht_sgf_game(c, 1, &g, &err));
	sht_sgf_free(c);
	c = parse("(;KM[seven])");
	assert_false(sht_sgf_game(c, 0, &g, &err));
	sht_sgf_free(c);
}

static int
komi_of(const char *text)
{
	struct sht_sgf_collection *c = parse(text);
	struct sht_sgf_game g = game_of(c);
	int k = g.komi_half_points;

	sht_sgf_game_free(&g);
	sht_sgf_free(c);
	return k;
}

static void
test_fox_komi(void **state)
{
	(void)state;
	assert_int_equal(komi_of("(;KM[375]RU[Chinese]AP[GNU Go:3.8]AP[foxwq])"), 15);
	assert_int_equal(komi_of("(;KM[650]RU[Japanese]AP[foxwq])"), 13);
	assert_int_equal(komi_of("(;KM[325]AP[foxwq])"), 13);
	assert_int_equal(komi_of("(;KM[750])"), 15);
	assert_int_equal(komi_of("(;KM[0]AP[foxwq])"), 0);
	assert_int_equal(komi_of("(;KM[11])"), 22);
	assert_int_equal(komi_of("(;KM[7.5])"), 15);
	assert_int_equal(komi_of("(;KM[6.75])"), 14); /* rounded to the nearest half point */
}

/* A record's game as test_fox_records reads it: komi, how it was read, the Fox flag. */
struct record_reading {
	int komi_half_points;
	enum sht_sgf_komi_reading reading;
	bool fox, zero_margin;
};

static struct record_reading
reading_of(const char *text)
{
	struct sht_sgf_collection *c = parse(text);
	struct sht_sgf_game g = game_of(c);
	struct record_reading r = { g.komi_half_points, g.komi_reading, g.fox_record,
		g.result_zero_margin };

	sht_sgf_game_free(&g);
	sht_sgf_free(c);
	return r;
}

/* The moves of a record's main line as a string, "B aa" and "W -" (a pass) joined by spaces,
 * and how many passes were read from nodes without a move. */
static int
moves_of(const char *text, char *out, size_t size)
{
	struct sht_sgf_collection *c = parse(text);
	struct sht_sgf_game g = game_of(c);
	int read = g.empty_node_passes;
	size_t at = 0;

	out[0] = '\0';
	for (int i = 0; i < g.nevents; i++) {
		const struct sht_sgf_event *e = &g.events[i];

		if (e->kind != SHT_SGF_MOVE)
			continue;
		at += (size_t)snprintf(out + at, size - at, "%s%c %c%c", at ? " " : "",
		    e->color == SHT_BLACK ? 'B' : 'W', e->x < 0 ? '-' : 'a' + e->x,
		    e->x < 0 ? '-' : 'a' + e->y);
	}
	sht_sgf_game_free(&g);
	sht_sgf_free(c);
	return read;
}

static void
test_passes_as_empty_nodes(void **state)
{
	char moves[256];

	(void)state;
	/* Many Faces of Go's way (GNU Go's mertin13x13 records): White moves twice with an empty
	 * node between, so the empty node was Black's pass, and the nodes after the last move,
	 * the second with the result's comment, are White's and Black's passes. */
	assert_int_equal(moves_of("(;SZ[9];B[aa];W[bb];;W[cc];B[dd];;C[B+1])", moves,
	    sizeof(moves)), 2);
	assert_string_equal(moves, "B aa W bb W cc B dd W -- B --");
	/* Two at most: they end the game. */
	assert_int_equal(moves_of("(;SZ[9];B[aa];;B[bb];W[cc];;;;C[x])", moves, sizeof(moves)),
	    2);
	assert_string_equal(moves, "B aa B bb W cc B -- W --");
	/* One node after the last move: one pass. */
	assert_int_equal(moves_of("(;SZ[9];B[aa];;B[bb];C[x])", moves, sizeof(moves)), 1);
	assert_string_equal(moves, "B aa B bb W --");
	/* Without a move following its own colour across a node without one, an empty node or
	 * a comment after the last move is only that: no pass is read. */
	assert_int_equal(moves_of("(;SZ[9];B[aa];W[bb];;B[cc];;C[B+1])", moves, sizeof(moves)),
	    0);
	assert_string_equal(moves, "B aa W bb B cc");
	/* Two moves of one colour in adjacent nodes are a pass left out, not written. */
	assert_int_equal(moves_of("(;SZ[9];B[aa];B[bb];;C[x])", moves, sizeof(moves)), 0);
	/* A written pass between them is a move like any other. */
	assert_int_equal(moves_of("(;SZ[9];B[aa];W[];B[bb];;C[x])", moves, sizeof(moves)), 0);
	/* Nothing after the last move: nothing to read. */
	assert_int_equal(moves_of("(;SZ[9];B[aa];;B[bb])", moves, sizeof(moves)), 0);
	assert_string_equal(moves, "B aa B bb");
}

static void
test_fox_records(void **state)
{
	struct record_reading r;

	(void)state;
	/* KM[0] in an even Fox game under Japanese rules is 6.5, from either client's AP. */
	r = reading_of("(;SZ[9]KM[0]HA[0]RU[Japanese]AP[YuanYu:2.1];B[ee];W[cc])");
	assert_true(r.fox);
	assert_int_equal(r.komi_half_points, 13);
	assert_int_equal(r.reading, SHT_SGF_KOMI_FOX_JAPANESE_EVEN);
	r = reading_of("(;SZ[9]KM[0]HA[1]RU[japanese]AP[GNU Go:3.8]AP[foxwq];B[ee])");
	assert_true(r.fox);
	assert_int_equal(r.komi_half_points, 13);
	/* A handicap game's KM[0] is its komi: HA of 2, or black stones before the first move
	 * (the server puts them in the second node). */
	r = reading_of("(;SZ[9]KM[0]HA[2]RU[Japanese]AP[foxwq];AB[cc][gg];W[ee])");
	assert_int_equal(r.komi_half_points, 0);
	assert_int_equal(r.reading, SHT_SGF_KOMI_AS_WRITTEN);
	r = reading_of("(;SZ[9]KM[0]RU[Japanese]AP[foxwq];AB[cc][gg];W[ee])");
	assert_int_equal(r.komi_half_points, 0);
	/* Nothing says what KM[0] meant under the server's Chinese rules. */
	r = reading_of("(;SZ[9]KM[0]HA[0]RU[Chinese]AP[foxwq];B[ee])");
	assert_int_equal(r.komi_half_points, 0);
	assert_int_equal(r.reading, SHT_SGF_KOMI_AS_WRITTEN);
	/* Not a Fox record: KM[0] is no komi. */
	r = reading_of("(;SZ[9]KM[0]HA[0]RU[Japanese]AP[CGoban:3];B[ee])");
	assert_false(r.fox);
	assert_int_equal(r.komi_half_points, 0);
	assert_int_equal(r.reading, SHT_SGF_KOMI_AS_WRITTEN);
	/* Hundredths, and hundredths of a zi. */
	r = reading_of("(;SZ[9]KM[750]RU[Japanese]AP[YuanYu];B[ee])");
	assert_int_equal(r.komi_half_points, 15);
	assert_int_equal(r.reading, SHT_SGF_KOMI_HUNDREDTHS);
	r = reading_of("(;SZ[9]KM[650]RU[Japanese]AP[foxwq];B[ee])");
	assert_int_equal(r.komi_half_points, 13);
	assert_int_equal(r.reading, SHT_SGF_KOMI_HUNDREDTHS);
	r = reading_of("(;SZ[9]KM[375]RU[Chinese]AP[foxwq];B[ee])");
	assert_int_equal(r.komi_half_points, 15);
	assert_int_equal(r.reading, SHT_SGF_KOMI_HUNDREDTHS_OF_ZI);
	r = reading_of("(;SZ[9]KM[50]HA[2]RU[Japanese]AP[foxwq];AB[cc][gg];W[ee])");
	assert_int_equal(r.komi_half_points, 1);
	/* A komi written with its decimals is read as written, Fox or not. */
	r = reading_of("(;SZ[9]KM[6.5]RU[Japanese]AP[YuanYu];B[ee])");
	assert_int_equal(r.komi_half_points, 13);
	assert_int_equal(r.reading, SHT_SGF_KOMI_AS_WRITTEN);
	/* B+0 and W+0 name a winner by no margin, which no count gives; B+0.5 is a count. */
	assert_true(reading_of("(;AP[foxwq]RE[B+0])").zero_margin);
	assert_true(reading_of("(;RE[W+0.0])").zero_margin);
	assert_false(reading_of("(;AP[foxwq]RE[B+0.50])").zero_margin);
	assert_false(reading_of("(;RE[W+0.5])").zero_margin);
	assert_false(reading_of("(;RE[B+10])").zero_margin);
	assert_false(reading_of("(;RE[B+R])").zero_margin);
	assert_false(reading_of("(;RE[0])").zero_margin);
}

static void
test_encodings(void **state)
{
	/* "黑" in GB2312 is BA DA; in Shift_JIS "黒" is 8D 95; in EUC-KR "흑" is C8 E6. */
	struct sht_sgf_collection *c;

	(void)state;
	c = parse("(;CA[gb2312]PB[\xba\xda])");
	assert_string_equal(sht_sgf_get(c->trees[0], "PB"), "\xe9\xbb\x91");
	assert_false(c->encoding_guessed);
	sht_sgf_free(c);
	c = parse("(;CA[Shift_JIS]PB[\x8d\x95])");
	assert_string_equal(sht_sgf_get(c->trees[0], "PB"), "\xe9\xbb\x92");
	sht_sgf_free(c);
	c = parse("(;CA[EUC-KR]PB[\xc8\xe6])");
	assert_string_equal(sht_sgf_get(c->trees[0], "PB"), "\xed\x9d\x91");
	sht_sgf_free(c);
	/* A Shift_JIS second byte may be ']' or '\\': decoding must come before parsing.
	 * "ソ" is 83 5C. */
	c = parse("(;CA[Shift_JIS]C[\x83\x5c])");
	assert_string_equal(sht_sgf_get(c->trees[0], "C"), "\xe3\x82\xbd");
	sht_sgf_free(c);
	/* No CA and not UTF-8: detected, and flagged as a guess. */
	c = parse("(;PB[\xba\xda])");
	assert_true(c->encoding_guessed);
	assert_string_equal(sht_sgf_get(c->trees[0], "PB"), "\xe9\xbb\x91");
	sht_sgf_free(c);
	/* UTF-8 byte-order mark. */
	c = parse("\xef\xbb\xbf(;PB[x])");
	assert_string_equal(sht_sgf_get(c->trees[0], "PB"), "x");
	sht_sgf_free(c);
}

/* UTF-8 is checked eight ASCII bytes at a time: a byte that is not UTF-8, or a character that
 * is, is found wherever it stands in the run, and a "CA[" is found after any other 'A'. */
static void
test_utf8_detection_at_every_offset(void **state)
{
	(void)state;
	for (int k = 0; k < 24; k++) {
		char text[64], *bad, *good;
		struct sht_sgf_collection *c;

		snprintf(text, sizeof(text), "(;AP[A]C[%.*s\xff])", k, "abcdefghijklmnopqrstuvwxyz");
		c = parse(text);
		assert_string_equal(c->encoding, "ISO-8859-1");
		assert_true(c->encoding_guessed);
		sht_sgf_free(c);
		snprintf(text, sizeof(text), "(;AP[A]C[%.*s\xc3\xa9]CA[UTF-8])", k,
		    "abcdefghijklmnopqrstuvwxyz");
		c = parse(text);
		assert_string_equal(c->encoding, "UTF-8");
		assert_false(c->encoding_guessed);
		good = strstr(sht_sgf_get(c->trees[0], "C"), "\xc3\xa9");
		assert_non_null(good);
		sht_sgf_free(c);
		/* A truncated character in the last byte is not UTF-8. */
		snprintf(text, sizeof(text), "(;C[%.*s])\xc3", k, "abcdefghijklmnopqrstuvwxyz");
		c = parse(text);
		bad = strstr(c->encoding, "UTF-8");
		assert_null(bad);
		sht_sgf_free(c);
	}
}

static void
test_round_trip(void **state)
{
	const char *text = "(;GM[1]FF[4]SZ[9]C[a \\] b \\\\ c](;B[ee];W[cc](;B[dd])(;B[gg]))"
	    "(;B[cc]))(;GN[second])";
	struct sht_sgf_collection *c = parse(text), *again;
	size_t len, len2;
	char *out, *out2;

	(void)state;
	out = sht_sgf_write(c, &len);
	assert_non_null(out);
	again = parse(out);
	out2 = sht_sgf_write(again, &len2);
	/* Writing what was read back gives the same text: nothing is lost or added. */
	assert_string_equal(out, out2);
	assert_int_equal(again->ntrees, 2);
	assert_string_equal(sht_sgf_get(again->trees[0], "C"), "a ] b \\ c");
	assert_string_equal(sht_sgf_get(again->trees[0]->child->sibling, "B"), "cc");
	assert_string_equal(sht_sgf_get(again->trees[0]->child->child->child->sibling, "B"), "gg");
	free(out);
	free(out2);
	sht_sgf_free(again);
	sht_sgf_free(c);
}

/* Found by the fuzzer: CA in a later node, and NUL bytes in values, must survive a round trip
 * (the writer emits UTF-8 and says so in every CA). */
static void
test_round_trip_of_odd_files(void **state)
{
	static const char text[] = "(;;W[lc]C[x]CA[MS_kANJI]PW[a\0b\\\0c])";
	struct sht_sgf_collection *c = sht_sgf_parse(text, sizeof(text) - 1, NULL), *again;
	size_t len;
	char *out;

	(void)state;
	assert_non_null(c);
	assert_string_equal(sht_sgf_get(c->trees[0]->child, "PW"), "abc");
	out = sht_sgf_write(c, &len);
	assert_non_null(strstr(out, "CA[UTF-8]"));
	again = sht_sgf_parse(out, len, NULL);
	assert_non_null(again);
	assert_string_equal(sht_sgf_get(again->trees[0]->child, "PW"), "abc");
	free(out);
	sht_sgf_free(again);
	sht_sgf_free(c);
}

/* Found by the fuzzer: "CA[" inside a value was taken by the reader for the encoding of the
 * written text, which is UTF-8, so the text read back was mojibake and lost nodes. */
static void
test_round_trip_of_an_encoding_named_in_a_value(void **state)
{
	static const char text[] = "(;GM[(;CA[Shift_JIS]]CA[Shift_JIS]PB[\x8d\x95];W[ff])";
	struct sht_sgf_collection *c = parse(text), *again;
	size_t len;
	char *out;

	(void)state;
	out = sht_sgf_write(c, &len);
	again = sht_sgf_parse(out, len, NULL);
	assert_non_null(again);
	assert_string_equal(again->encoding, "UTF-8");
	assert_string_equal(sht_sgf_get(again->trees[0], "GM"), "(;CA[Shift_JIS");
	assert_string_equal(sht_sgf_get(again->trees[0], "PB"), "\xe9\xbb\x92");
	assert_string_equal(sht_sgf_get(again->trees[0]->child, "W"), "ff");
	/* The escape is one a reader of any SGF version takes for the letter alone. */
	assert_non_null(strstr(out, "GM[(;C\\A[Shift_JIS]"));
	free(out);
	sht_sgf_free(again);
	sht_sgf_free(c);
}

static void
test_deep_nesting_is_safe(void **state)
{
	/* 200000 nested variations: a recursive parser or writer would overflow the stack. */
	size_t depth = 200000, n = 0;
	char *text = malloc(depth * 8 + 16);
	struct sht_sgf_collection *c;
	size_t len;
	char *out;

	(void)state;
	for (size_t i = 0; i < depth; i++) {
		memcpy(text + n, "(;B[aa]", 7);
		n += 7;
	}
	memset(text + n, ')', depth);
	n += depth;
	c = sht_sgf_parse(text, n, NULL);
	assert_non_null(c);
	out = sht_sgf_write(c, &len);
	assert_non_null(out);
	free(out);
	sht_sgf_free(c);
	free(text);
}

/* ---- every shape of a large file parses in time linear in its size ---- */

struct text {
	char *s;
	size_t len, cap;
};

static void
append(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
append(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
		va_end(ap);
		assert_true(n >= 0);
		if ((size_t)n < t->cap - t->len)
			break;
		t->cap = t->cap * 2 + (size_t)n + 1;
		t->s = realloc(t->s, t->cap);
		assert_non_null(t->s);
	}
	t->len += (size_t)n;
}

static struct text
text_new(void)
{
	struct text t = { malloc(4096), 0, 4096 };

	assert_non_null(t.s);
	return t;
}

/* The i-th point of a 19x19 board, so that values differ from node to node. */
static const char *
point_name(long i)
{
	static char p[3];

	p[0] = (char)('a' + i % 19);
	p[1] = (char)('a' + i / 19 % 19);
	p[2] = '\0';
	return p;
}

static struct sht_sgf_collection *
parse_text(const struct text *t)
{
	struct sht_sgf_error err;
	struct sht_sgf_collection *c = sht_sgf_parse(t->s, t->len, &err);

	if (c == NULL)
		fail_msg("unexpected parse error %d:%d %s", err.line, err.column, err.message);
	return c;
}

/* Nodes of a tree in preorder, without recursion: it checks every parent link on the way up. */
static long
count_nodes(const struct sht_sgf_node *root)
{
	const struct sht_sgf_node *n = root;
	long count = 0;

	while (n != NULL) {
		count++;
		if (n->child != NULL) {
			assert_ptr_equal(n->child->parent, n);
			n = n->child;
			continue;
		}
		while (n != root && n->sibling == NULL)
			n = n->parent;
		if (n == root)
			break;
		assert_ptr_equal(n->sibling->parent, n->parent);
		n = n->sibling;
	}
	return count;
}

/*
 * 200,000 units of each shape a hostile file can take.  When each new variation walked the
 * list of those before it, the 200,000 siblings alone took 98 s and meson's 30 s timeout
 * killed this test; with a tail pointer all four take 0.4 s.  The checks are on the parsed
 * result, not on time, so a slow machine cannot fail them.
 */
#define UNITS 200000L

static void
test_siblings_at_scale(void **state)
{
	struct text t = text_new();
	struct sht_sgf_collection *c;
	const struct sht_sgf_node *v;
	long i = 0;
	size_t len;
	char *out;

	(void)state;
	append(&t, "(;GM[1]SZ[19]");
	for (long k = 0; k < UNITS; k++)
		append(&t, "(;B[%s])", point_name(k));
	append(&t, ")");
	c = parse_text(&t);
	assert_int_equal(c->ntrees, 1);
	assert_int_equal(count_nodes(c->trees[0]), UNITS + 1);
	/* In file order: the k-th variation holds the k-th point. */
	for (v = c->trees[0]->child; v != NULL; v = v->sibling, i++)
		if (strcmp(sht_sgf_get(v, "B"), point_name(i)) != 0)
			fail_msg("variation %ld holds %s", i, sht_sgf_get(v, "B"));
	assert_int_equal(i, UNITS);
	/* The writer walks every variation too: it gives back the file as written. */
	out = sht_sgf_write(c, &len);
	assert_non_null(out);
	assert_int_equal(len, t.len + 1); /* and a newline */
	assert_memory_equal(out, t.s, t.len);
	free(out);
	sht_sgf_free(c);
	free(t.s);
}

static void
test_depth_at_scale(void **state)
{
	struct text t = text_new();
	struct sht_sgf_collection *c;
	struct sht_sgf_game g;
	const struct sht_sgf_node *n;
	long level = 0;

	(void)state;
	/* A main line of UNITS moves, then a comb: UNITS levels of nested variations, each
	 * with a one-move side line before the level below. */
	append(&t, "(;GM[1]SZ[19]");
	for (long k = 0; k < UNITS; k++)
		append(&t, ";%c[%s]", k % 2 ? 'W' : 'B', point_name(k));
	append(&t, ")");
	for (long k = 0; k < UNITS; k++)
		append(&t, "(;B[%s](;W[tt])", point_name(k));
	for (long k = 0; k < UNITS; k++)
		append(&t, ")");
	c = parse_text(&t);
	assert_int_equal(c->ntrees, 2);
	assert_int_equal(count_nodes(c->trees[0]), UNITS + 1);
	g = game_of(c);
	assert_int_equal(g.nmoves, UNITS);
	assert_int_equal(g.events[UNITS - 1].x, (UNITS - 1) % 19);
	assert_int_equal(g.events[UNITS - 1].y, (UNITS - 1) / 19 % 19);
	sht_sgf_game_free(&g);
	assert_int_equal(count_nodes(c->trees[1]), 2 * UNITS);
	for (n = c->trees[1]; n != NULL; n = n->child->sibling, level++) {
		assert_string_equal(sht_sgf_get(n, "B"), point_name(level));
		assert_string_equal(sht_sgf_get(n->child, "W"), "tt");
		assert_null(n->child->child);
	}
	assert_int_equal(level, UNITS);
	sht_sgf_free(c);
	free(t.s);
}

static void
test_long_property_lists_at_scale(void **state)
{
	struct text t = text_new();
	struct sht_sgf_collection *c;
	struct sht_sgf_game g;
	const struct sht_sgf_node *root;
	const struct sht_sgf_prop *ab, *comment;
	char last_id[4];

	(void)state;
	/* One node: UNITS properties, one AB with UNITS values, and a comment of 8 * UNITS
	 * bytes with an escaped ']' or a soft line break in every 8. */
	append(&t, "(;GM[1]SZ[19]");
	for (long k = 0; k < UNITS; k++)
		append(&t, "X%c%c[%ld]", (char)('A' + k / 26 % 26), (char)('A' + k % 26), k % 10);
	append(&t, "AB");
	for (long k = 0; k < UNITS; k++)
		append(&t, "[%s]", point_name(k));
	append(&t, "C[");
	for (long k = 0; k < UNITS; k++)
		append(&t, k % 2 ? "ab\\]cdef" : "abc\\\ndef");
	append(&t, "])");
	c = parse_text(&t);
	root = c->trees[0];
	assert_int_equal(root->nprops, 2 + UNITS + 2);
	snprintf(last_id, sizeof(last_id), "X%c%c", (char)('A' + (UNITS - 1) / 26 % 26),
	    (char)('A' + (UNITS - 1) % 26));
	assert_string_equal(root->props[2 + UNITS - 1].id, last_id);
	assert_string_equal(root->props[2 + UNITS - 1].values[0], "9");
	ab = sht_sgf_find(root, "AB");
	assert_int_equal(ab->nvalues, UNITS);
	assert_string_equal(ab->values[UNITS - 1], point_name(UNITS - 1));
	comment = sht_sgf_find(root, "C");
	/* Unescaped, the pairs of 8 bytes are "abcdef" and "ab]cdef". */
	assert_int_equal(strlen(comment->values[0]), 13 * (size_t)UNITS / 2);
	assert_string_equal(comment->values[0] + 13 * (UNITS / 2 - 1), "abcdefab]cdef");
	/* The values go round the 361 points: each is set up once. */
	g = game_of(c);
	assert_int_equal(g.nevents, 19 * 19);
	assert_int_equal(g.events[19 * 19 - 1].x, 18);
	assert_int_equal(g.events[19 * 19 - 1].y, 18);
	sht_sgf_game_free(&g);
	sht_sgf_free(c);
	free(t.s);
}

static void
test_many_trees_and_repairs_at_scale(void **state)
{
	struct text t = text_new();
	struct sht_sgf_collection *c;
	struct sht_sgf_game g;
	struct sht_sgf_error err;

	(void)state;
	/* UNITS game trees, the last with UNITS stray words (each a repair) before its move. */
	for (long k = 0; k < UNITS - 1; k++)
		append(&t, "(;B[%s])", point_name(k));
	append(&t, "(;GM[1]");
	for (long k = 0; k < UNITS; k++)
		append(&t, " junk");
	append(&t, ";B[%s])", point_name(UNITS - 1));
	c = parse_text(&t);
	assert_int_equal(c->ntrees, UNITS);
	assert_int_equal(c->nwarnings, UNITS);
	assert_string_equal(sht_sgf_get(c->trees[UNITS / 2], "B"), point_name(UNITS / 2));
	if (!sht_sgf_game(c, UNITS - 1, &g, &err))
		fail_msg("game error %s", err.message);
	assert_int_equal(g.nmoves, 1);
	assert_int_equal(g.events[0].x, (UNITS - 1) % 19);
	sht_sgf_game_free(&g);
	sht_sgf_free(c);
	free(t.s);
}

/* Rectangles let a few bytes name hundreds of points: a point repeated in one node is one
 * event (before, this node gave 81 + 81 + 1 and counted two handicap stones on one point)... */
static void
test_setup_repeated_in_a_node_is_one_event(void **state)
{
	struct sht_sgf_collection *c = parse("(;SZ[9]AB[aa:ii][aa:ii][ee]AW[];B[ee])");
	struct sht_sgf_game g = game_of(c);

	(void)state;
	assert_int_equal(g.nevents, 81 + 1);
	assert_int_equal(g.events[80].x, 8);
	assert_int_equal(g.events[80].y, 8);
	assert_int_equal(g.events[81].kind, SHT_SGF_MOVE);
	sht_sgf_game_free(&g);
	sht_sgf_free(c);
}

/* ...and a main line's setup is bounded, so a request cannot expand to gigabytes. */
static void
test_setup_expansion_is_bounded(void **state)
{
	struct sht_sgf_collection *c;
	struct sht_sgf_game g;
	struct sht_sgf_error err;
	struct text t = text_new();
	long nodes = SHT_SGF_MAX_SETUP_POINTS / 625;

	(void)state;
	/* Whole 25x25 boards filled and cleared by turns: exactly the bound is read... */
	append(&t, "(;SZ[25]");
	for (long k = 0; k < nodes; k++)
		append(&t, k % 2 ? ";AE[aa:yy]" : ";AB[aa:yy]");
	append(&t, ")");
	c = parse_text(&t);
	g = game_of(c);
	assert_int_equal(g.nevents, SHT_SGF_MAX_SETUP_POINTS);
	assert_int_equal(g.events[g.nevents - 1].color, SHT_EMPTY);
	sht_sgf_game_free(&g);
	sht_sgf_free(c);
	/* ...and one node more is refused at its property, not expanded. */
	t.len--; /* the ')' */
	append(&t, ";AB[aa:yy])");
	c = parse_text(&t);
	assert_false(sht_sgf_game(c, 0, &g, &err));
	assert_non_null(strstr(err.message, "more than 1000000 points"));
	assert_int_equal(err.column, (int)t.len - 9);
	sht_sgf_free(c);
	free(t.s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escapes_and_values),
		cmocka_unit_test(test_values_read_in_place_keep_the_text),
		cmocka_unit_test(test_leniency),
		cmocka_unit_test(test_errors_have_positions),
		cmocka_unit_test(test_repairs_are_reported),
		cmocka_unit_test(test_game_extraction),
		cmocka_unit_test(test_game_errors),
		cmocka_unit_test(test_fox_komi),
		cmocka_unit_test(test_fox_records),
		cmocka_unit_test(test_passes_as_empty_nodes),
		cmocka_unit_test(test_encodings),
		cmocka_unit_test(test_utf8_detection_at_every_offset),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_round_trip_of_odd_files),
		cmocka_unit_test(test_round_trip_of_an_encoding_named_in_a_value),
		cmocka_unit_test(test_deep_nesting_is_safe),
		cmocka_unit_test(test_siblings_at_scale),
		cmocka_unit_test(test_depth_at_scale),
		cmocka_unit_test(test_long_property_lists_at_scale),
		cmocka_unit_test(test_many_trees_and_repairs_at_scale),
		cmocka_unit_test(test_setup_repeated_in_a_node_is_one_event),
		cmocka_unit_test(test_setup_expansion_is_bounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
