/* Unit tests of the board engine: captures, suicide, ko, superko, cycles, setup, snapshots. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "shoutan/board.h"

static struct sht_board *
diagram(const char *text, enum sht_ko_rule ko, bool suicide)
{
	struct sht_board_options o;
	struct sht_board *b;

	sht_board_options_init(&o, 0, 0);
	o.ko = ko;
	o.multi_stone_suicide = suicide;
	b = sht_board_from_diagram(text, &o);
	assert_non_null(b);
	return b;
}

static int
at(struct sht_board *b, const char *v)
{
	int p = sht_vertex_parse(b, v);

	assert_int_not_equal(p, SHT_NO_POINT);
	return p;
}

static enum sht_verdict
play(struct sht_board *b, enum sht_color c, const char *v)
{
	return sht_board_play(b, c, at(b, v), NULL);
}

static void
test_capture_and_liberties(void **state)
{
	struct sht_board *b = diagram(
	    ". X O .\n"
	    "X O . .\n"
	    ". X . .\n"
	    ". . . .\n", SHT_KO_SIMPLE, false);
	struct sht_move_info info;
	const int *removed;

	(void)state;
	/* B2 on a 4x4 board: row 2 from the bottom is the third diagram row. */
	assert_int_equal(sht_board_chain_liberties(b, at(b, "B3")), 1);
	assert_int_equal(sht_board_play(b, SHT_BLACK, at(b, "C3"), &info), SHT_LEGAL);
	assert_int_equal(info.captured, 1);
	assert_int_equal(sht_board_at(b, at(b, "B3")), SHT_EMPTY);
	assert_int_equal(sht_board_last_removed(b, &removed), 1);
	assert_int_equal(removed[0], at(b, "B3"));
	assert_int_equal(sht_board_captures(b, SHT_BLACK), 1);
	/* The white stone at C4 now has D4 and B4... B4 is black: only D4 remains. */
	assert_int_equal(sht_board_chain_liberties(b, at(b, "C4")), 1);
	sht_board_free(b);
}

static void
test_suicide_rules(void **state)
{
	const char *pos =
	    ". X . .\n"
	    "X . X .\n"
	    ". X . .\n"
	    ". . . .\n";
	struct sht_board *b = diagram(pos, SHT_KO_SIMPLE, true);
	struct sht_move_info info;

	(void)state;
	/* A single stone with no liberties is never legal, even where suicide is allowed. */
	assert_int_equal(play(b, SHT_WHITE, "B3"), SHT_ILLEGAL_SUICIDE);
	assert_int_equal(sht_board_at(b, at(b, "B3")), SHT_EMPTY);
	sht_board_free(b);

	/* Multi-stone suicide: legal only when asked for, and it removes the mover's chain. */
	b = diagram(
	    "O X . .\n"
	    ". X . .\n"
	    "X . . .\n"
	    ". . . .\n", SHT_KO_SIMPLE, false);
	assert_int_equal(play(b, SHT_WHITE, "A3"), SHT_ILLEGAL_SUICIDE);
	sht_board_free(b);
	b = diagram(
	    "O X . .\n"
	    ". X . .\n"
	    "X . . .\n"
	    ". . . .\n", SHT_KO_SIMPLE, true);
	assert_int_equal(sht_board_play(b, SHT_WHITE, at(b, "A3"), &info), SHT_LEGAL);
	assert_int_equal(info.suicided, 2);
	assert_int_equal(sht_board_at(b, at(b, "A4")), SHT_EMPTY);
	assert_int_equal(sht_board_at(b, at(b, "A3")), SHT_EMPTY);
	assert_int_equal(sht_board_captures(b, SHT_BLACK), 2);
	sht_board_free(b);
}

static void
test_simple_ko(void **state)
{
	struct sht_board *b = diagram(
	    ". X O .\n"
	    "X O . O\n"
	    ". X O .\n"
	    ". . . .\n", SHT_KO_SIMPLE, false);

	(void)state;
	assert_int_equal(play(b, SHT_BLACK, "C3"), SHT_LEGAL); /* captures B3 */
	assert_int_equal(sht_board_ko_point(b, SHT_WHITE), at(b, "B3"));
	assert_int_equal(play(b, SHT_WHITE, "B3"), SHT_ILLEGAL_KO);
	/* A threat elsewhere and the answer lift the ban. */
	assert_int_equal(play(b, SHT_WHITE, "A1"), SHT_LEGAL);
	assert_int_equal(play(b, SHT_BLACK, "D1"), SHT_LEGAL);
	assert_int_equal(play(b, SHT_WHITE, "B3"), SHT_LEGAL);
	assert_int_equal(sht_board_ko_point(b, SHT_BLACK), at(b, "C3"));
	/* Capturing two stones is never a ko. */
	sht_board_free(b);
}

/* Tibetan go's rule (opt.capture_ban): every point the opponent just captured is closed for
 * one move, whatever the size of the capture; the ban survives a snapshot and a clone. */
static void
test_capture_ban(void **state)
{
	static const char position[] =
	    ". O O . .\n"
	    "O X X . .\n"
	    ". O O . .\n"
	    ". . . . .\n"
	    ". . . . .\n";
	struct sht_board_options o;
	struct sht_board *b, *copy;
	struct sht_board_snapshot *snap;

	(void)state;
	sht_board_options_init(&o, 0, 0);
	o.capture_ban = true;
	b = sht_board_from_diagram(position, &o);
	assert_non_null(b);
	assert_int_equal(play(b, SHT_WHITE, "D4"), SHT_LEGAL); /* takes B4 and C4 */
	assert_int_equal(sht_board_captures(b, SHT_WHITE), 2);
	assert_int_equal(play(b, SHT_BLACK, "B4"), SHT_ILLEGAL_KO);
	assert_int_equal(play(b, SHT_BLACK, "C4"), SHT_ILLEGAL_KO);
	/* Kept by a snapshot and a clone. */
	snap = sht_board_snapshot_new(b);
	assert_non_null(snap);
	sht_board_save(b, snap);
	assert_int_equal(play(b, SHT_BLACK, "E1"), SHT_LEGAL);
	sht_board_restore(b, snap);
	assert_int_equal(play(b, SHT_BLACK, "C4"), SHT_ILLEGAL_KO);
	copy = sht_board_clone(b);
	assert_non_null(copy);
	assert_int_equal(play(copy, SHT_BLACK, "B4"), SHT_ILLEGAL_KO);
	sht_board_free(copy);
	/* The ban lasts one move: after Black plays elsewhere it is lifted. */
	assert_int_equal(play(b, SHT_BLACK, "E1"), SHT_LEGAL);
	assert_int_equal(play(b, SHT_WHITE, "E2"), SHT_LEGAL);
	assert_int_equal(play(b, SHT_BLACK, "B4"), SHT_LEGAL);
	sht_board_snapshot_free(snap);
	sht_board_free(b);

	/* Without the rule the point is open at once. */
	o.capture_ban = false;
	b = sht_board_from_diagram(position, &o);
	assert_int_equal(play(b, SHT_WHITE, "D4"), SHT_LEGAL);
	assert_int_equal(play(b, SHT_BLACK, "B4"), SHT_LEGAL);
	sht_board_free(b);
}

/* A position whose only moves recreate an earlier board: positional superko forbids, simple
 * ko allows and reports the repetition. */
static void
test_cycle_detection(void **state)
{
	const char *pos =
	    ". X O .\n"
	    "X O . O\n"
	    ". X O .\n"
	    ". . . .\n";
	struct sht_board *b = diagram(pos, SHT_KO_SIMPLE, false);
	struct sht_move_info info;

	(void)state;
	/* Passes are states too: (start, white to move) is new, (start, black to move) is not. */
	assert_int_equal(sht_board_play(b, SHT_BLACK, SHT_PASS, &info), SHT_LEGAL);
	assert_false(info.repeated);
	assert_int_equal(sht_board_play(b, SHT_WHITE, SHT_PASS, &info), SHT_LEGAL);
	assert_true(info.repeated);
	/* Black takes the ko; white may not retake at once, passes; black passes; now the
	 * retake is allowed under simple ko and recreates (start, black to move): a cycle. */
	assert_int_equal(sht_board_play(b, SHT_BLACK, at(b, "C3"), &info), SHT_LEGAL);
	assert_false(info.repeated);
	assert_int_equal(play(b, SHT_WHITE, "B3"), SHT_ILLEGAL_KO);
	assert_int_equal(sht_board_play(b, SHT_WHITE, SHT_PASS, &info), SHT_LEGAL);
	assert_false(info.repeated);
	assert_int_equal(sht_board_play(b, SHT_BLACK, SHT_PASS, &info), SHT_LEGAL);
	assert_true(info.repeated); /* (after the take, white to move) again */
	assert_int_equal(sht_board_play(b, SHT_WHITE, at(b, "B3"), &info), SHT_LEGAL);
	assert_true(info.repeated);
	assert_int_equal(sht_board_occurrences(b, sht_board_hash(b), SHT_BLACK), 3);
	sht_board_free(b);

	/* Under positional superko the retake itself is forbidden. */
	b = diagram(pos, SHT_KO_POSITIONAL, false);
	assert_int_equal(play(b, SHT_BLACK, "C3"), SHT_LEGAL);
	assert_int_equal(sht_board_play(b, SHT_WHITE, SHT_PASS, NULL), SHT_LEGAL);
	assert_int_equal(sht_board_play(b, SHT_BLACK, SHT_PASS, NULL), SHT_LEGAL);
	assert_int_equal(play(b, SHT_WHITE, "B3"), SHT_ILLEGAL_SUPERKO);
	sht_board_free(b);

	/* Under situational superko it is forbidden too: white retaking recreates the start
	 * with black to move, and black was to move there. */
	b = diagram(pos, SHT_KO_SITUATIONAL, false);
	assert_int_equal(play(b, SHT_BLACK, "C3"), SHT_LEGAL);
	assert_int_equal(sht_board_play(b, SHT_WHITE, SHT_PASS, NULL), SHT_LEGAL);
	assert_int_equal(sht_board_play(b, SHT_BLACK, SHT_PASS, NULL), SHT_LEGAL);
	assert_int_equal(play(b, SHT_WHITE, "B3"), SHT_ILLEGAL_SUPERKO);
	sht_board_free(b);
}

static void
test_setup_and_supply(void **state)
{
	struct sht_board_options o;
	struct sht_board *b;

	(void)state;
	sht_board_options_init(&o, 5, 5);
	o.supply[SHT_BLACK] = 2;
	b = sht_board_new(&o);
	assert_non_null(b);
	assert_true(sht_board_setup(b, SHT_WHITE, at(b, "C3")));
	assert_int_equal(sht_board_moves_played(b), 0);
	assert_int_equal(sht_board_stones_left(b, SHT_BLACK), 2);
	assert_int_equal(play(b, SHT_BLACK, "A1"), SHT_LEGAL);
	assert_int_equal(play(b, SHT_BLACK, "A2"), SHT_LEGAL);
	assert_int_equal(sht_board_stones_left(b, SHT_BLACK), 0);
	assert_int_equal(play(b, SHT_BLACK, "A3"), SHT_ILLEGAL_NO_STONES);
	assert_int_equal(sht_board_play(b, SHT_BLACK, SHT_PASS, NULL), SHT_LEGAL);
	/* AE removes a stone, splitting nothing here, and the chain count follows. */
	assert_true(sht_board_setup(b, SHT_EMPTY, at(b, "A1")));
	assert_int_equal(sht_board_chain_size(b, at(b, "A2")), 1);
	assert_int_equal(sht_board_chain_liberties(b, at(b, "A2")), 3);
	/* Setup that splits a chain. */
	assert_true(sht_board_setup(b, SHT_BLACK, at(b, "A1")));
	assert_true(sht_board_setup(b, SHT_BLACK, at(b, "A3")));
	assert_int_equal(sht_board_chain_size(b, at(b, "A1")), 3);
	assert_true(sht_board_setup(b, SHT_EMPTY, at(b, "A2")));
	assert_int_equal(sht_board_chain_size(b, at(b, "A1")), 1);
	assert_int_equal(sht_board_chain_size(b, at(b, "A3")), 1);
	assert_false(sht_board_setup(b, SHT_BLACK, SHT_PASS));
	sht_board_free(b);
}

static void
test_vertices(void **state)
{
	struct sht_board_options o;
	struct sht_board *b;
	char buf[8];

	(void)state;
	sht_board_options_init(&o, 25, 25);
	b = sht_board_new(&o);
	assert_int_equal(sht_vertex_parse(b, "A25"), sht_board_point(b, 0, 0));
	assert_int_equal(sht_vertex_parse(b, "J1"), sht_board_point(b, 8, 24));
	assert_int_equal(sht_vertex_parse(b, "Z1"), sht_board_point(b, 24, 24));
	assert_int_equal(sht_vertex_parse(b, "I5"), SHT_NO_POINT);
	assert_int_equal(sht_vertex_parse(b, "A26"), SHT_NO_POINT);
	assert_int_equal(sht_vertex_parse(b, "A0"), SHT_NO_POINT);
	assert_int_equal(sht_vertex_parse(b, "pass"), SHT_PASS);
	assert_int_equal(sht_vertex_parse(b, "PASS"), SHT_PASS);
	assert_int_equal(sht_vertex_parse(b, ""), SHT_NO_POINT);
	assert_string_equal(sht_vertex_format(b, sht_board_point(b, 8, 24), buf, sizeof(buf)), "J1");
	assert_string_equal(sht_vertex_format(b, SHT_PASS, buf, sizeof(buf)), "pass");
	sht_board_free(b);
	sht_board_options_init(&o, 2, 2);
	assert_non_null(b = sht_board_new(&o));
	sht_board_free(b);
	sht_board_options_init(&o, 1, 19);
	assert_null(sht_board_new(&o));
	sht_board_options_init(&o, 26, 19);
	assert_null(sht_board_new(&o));
}

static int
count_stones(const struct sht_board *b)
{
	int n = 0;

	for (int p = 0; p < sht_board_capacity(b); p++)
		n += sht_board_at(b, p) == SHT_BLACK || sht_board_at(b, p) == SHT_WHITE;
	return n;
}

/* Recount everything from scratch and compare with the incremental state. */
static void
verify_invariants(const struct sht_board *b)
{
	int n = sht_board_capacity(b), offs[4];
	uint8_t *seen = calloc((size_t)n, 1);

	sht_board_neighbor_offsets(b, offs);
	for (int p = 0; p < n; p++) {
		enum sht_color c = sht_board_at(b, p);
		int size = 0, libs = 0, s = p;
		uint8_t *lib = calloc((size_t)n, 1);

		if (c != SHT_BLACK && c != SHT_WHITE) {
			free(lib);
			continue;
		}
		/* Flood fill the chain. */
		int *stack = malloc((size_t)n * sizeof(int)), top = 0;
		uint8_t *in = calloc((size_t)n, 1);

		stack[top++] = p;
		in[p] = 1;
		while (top > 0) {
			s = stack[--top];
			size++;
			assert_int_equal(sht_board_chain_id(b, s), sht_board_chain_id(b, p));
			for (int d = 0; d < 4; d++) {
				int q = s + offs[d];

				if (sht_board_at(b, q) == c && !in[q]) {
					in[q] = 1;
					stack[top++] = q;
				} else if (sht_board_at(b, q) == SHT_EMPTY && !lib[q]) {
					lib[q] = 1;
					libs++;
				}
			}
		}
		assert_int_equal(sht_board_chain_size(b, p), size);
		assert_int_equal(sht_board_chain_liberties(b, p), libs);
		/* The ring visits exactly the chain. */
		s = p;
		int ring = 0;
		do {
			assert_true(in[s]);
			ring++;
			s = sht_board_chain_next(b, s);
		} while (s != p && ring <= size);
		assert_int_equal(ring, size);
		assert_true(libs > 0);
		free(stack);
		free(in);
		free(lib);
	}
	free(seen);
}

static uint64_t rng_state = 12345;

static uint32_t
rnd(void)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(rng_state >> 33);
}

/* Random games checked move by move against a from-scratch recount, and the hash checked
 * against a board rebuilt from the same stones. */
static void
test_random_games_keep_invariants(void **state)
{
	struct sht_board_options o;

	(void)state;
	for (int game = 0; game < 40; game++) {
		int size = 5 + (int)(rnd() % 9);
		struct sht_board *b;
		struct sht_board_snapshot *snap;
		int passes = 0;

		sht_board_options_init(&o, size, size);
		o.ko = (enum sht_ko_rule)(game % 3);
		o.multi_stone_suicide = game % 2;
		b = sht_board_new(&o);
		snap = sht_board_snapshot_new(b);
		for (int move = 0; move < size * size * 3 && passes < 2; move++) {
			enum sht_color c = sht_board_to_move(b);
			int p = SHT_PASS;

			for (int tries = 0; tries < 20; tries++) {
				int cand = sht_board_point(b, (int)(rnd() % (unsigned)size),
				    (int)(rnd() % (unsigned)size));

				if (sht_board_check(b, c, cand, NULL) == SHT_LEGAL) {
					p = cand;
					break;
				}
			}
			/* Try-and-take-back must leave no trace. */
			if (move % 7 == 0 && p != SHT_PASS) {
				uint64_t h = sht_board_hash(b);

				sht_board_save(b, snap);
				assert_int_equal(sht_board_play(b, c, p, NULL), SHT_LEGAL);
				sht_board_restore(b, snap);
				assert_true(sht_board_hash(b) == h);
				verify_invariants(b);
			}
			assert_int_equal(sht_board_play(b, c, p, NULL), SHT_LEGAL);
			passes = p == SHT_PASS ? passes + 1 : 0;
			verify_invariants(b);
		}
		/* The incremental hash equals the hash of the same stones set up from scratch. */
		{
			struct sht_board *fresh = sht_board_new(&o);

			for (int y = 0; y < size; y++)
				for (int x = 0; x < size; x++) {
					int p = sht_board_point(b, x, y);

					if (sht_board_at(b, p) != SHT_EMPTY)
						sht_board_setup(fresh, sht_board_at(b, p),
						    sht_board_point(fresh, x, y));
				}
			assert_true(sht_board_hash(fresh) == sht_board_hash(b));
			sht_board_free(fresh);
		}
		{
			struct sht_board *copy = sht_board_clone(b);

			assert_non_null(copy);
			assert_true(sht_board_hash(copy) == sht_board_hash(b));
			verify_invariants(copy);
			sht_board_free(copy);
		}
		sht_board_snapshot_free(snap);
		sht_board_free(b);
	}
}

static void
test_empty_board_hash_and_diagram(void **state)
{
	struct sht_board *b = diagram("X . O\n. . .\n", SHT_KO_SIMPLE, false);
	char buf[32];

	(void)state;
	assert_int_equal(sht_board_width(b), 3);
	assert_int_equal(sht_board_height(b), 2);
	sht_board_to_diagram(b, buf, sizeof(buf));
	assert_string_equal(buf, "X.O\n...\n");
	sht_board_clear(b);
	assert_true(sht_board_hash(b) == 0);
	sht_board_free(b);
	assert_null(sht_board_from_diagram("X .\n. . .\n", NULL));
	assert_null(sht_board_from_diagram("X ?\n. .\n", NULL));
}

/* The Zobrist keys are promised to be the same in every process and release: the key of
 * (colour c, x, y) is draw c * 625 + y * 25 + x of splitmix64 from the seed "SHUOTAN1",
 * whatever the board's size.  A lone stone's hash is its key. */
static uint64_t
documented_key(int c, int x, int y)
{
	uint64_t draw = (uint64_t)(((c - 1) * SHT_MAX_SIZE + y) * SHT_MAX_SIZE + x);
	uint64_t z = UINT64_C(0x5348554f54414e31) + (draw + 1) * UINT64_C(0x9e3779b97f4a7c15);

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static void
test_zobrist_keys_are_the_documented_draws(void **state)
{
	static const int sizes[][2] = { { 2, 2 }, { 9, 9 }, { 19, 19 }, { 25, 25 }, { 7, 13 } };

	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct sht_board_options o;
		struct sht_board *b;

		sht_board_options_init(&o, sizes[i][0], sizes[i][1]);
		b = sht_board_new(&o);
		assert_non_null(b);
		for (int y = 0; y < sizes[i][1]; y++)
			for (int x = 0; x < sizes[i][0]; x++)
				for (int c = SHT_BLACK; c <= SHT_WHITE; c++) {
					sht_board_clear(b);
					assert_int_equal(sht_board_play(b, (enum sht_color)c,
					    sht_board_point(b, x, y), NULL), SHT_LEGAL);
					assert_true(sht_board_hash(b) == documented_key(c, x, y));
				}
		sht_board_free(b);
	}
}

/* sht_board_play decides legality in the same look at the neighbours that makes the move:
 * it must say exactly what sht_board_check says, and leave the board untouched when it
 * refuses.  Random positions under every ko rule, with and without multi-stone suicide,
 * every point of the board tried for both colours. */
static void
test_play_reports_what_check_reports(void **state)
{
	(void)state;
	for (int game = 0; game < 24; game++) {
		int size = 3 + game % 5;
		struct sht_board_options o;
		struct sht_board *b;

		sht_board_options_init(&o, size, size);
		o.ko = (enum sht_ko_rule)(game % 3);
		o.multi_stone_suicide = (game / 3) % 2;
		b = sht_board_new(&o);
		for (int move = 0; move < size * size * 4; move++) {
			enum sht_color to_move = sht_board_to_move(b);
			int legal[2 * 25 * 25 + 2][2], nlegal = 0;

			for (int p = 0; p < sht_board_capacity(b); p++)
				for (int c = SHT_BLACK; c <= SHT_WHITE; c++) {
					struct sht_board *copy = sht_board_clone(b);
					struct sht_move_info checked, played;
					enum sht_verdict v = sht_board_check(b, (enum sht_color)c, p,
					    &checked);

					assert_non_null(copy);
					assert_int_equal(sht_board_play(copy, (enum sht_color)c, p,
					    &played), v);
					assert_int_equal(played.verdict, checked.verdict);
					assert_int_equal(played.captured, checked.captured);
					assert_int_equal(played.suicided, checked.suicided);
					assert_int_equal(played.repeated, checked.repeated);
					assert_true(played.hash_after == checked.hash_after);
					if (v == SHT_LEGAL) {
						assert_true(sht_board_hash(copy) == checked.hash_after);
						if (c == (int)to_move) {
							legal[nlegal][0] = c;
							legal[nlegal++][1] = p;
						}
					} else {
						assert_true(sht_board_hash(copy) == sht_board_hash(b));
						assert_int_equal(sht_board_moves_played(copy),
						    sht_board_moves_played(b));
						assert_int_equal(sht_board_to_move(copy), to_move);
						assert_int_equal(sht_board_occurrences(copy,
						    sht_board_hash(b), to_move), sht_board_occurrences(b,
						    sht_board_hash(b), to_move));
					}
					sht_board_free(copy);
				}
			/* Mostly stones, sometimes a pass, so that states repeat. */
			{
				int pick = (int)(rnd() % (unsigned)(nlegal + 1 + nlegal / 8));

				if (pick >= nlegal)
					pick = 0; /* the pass: point 0 comes first in the scan */
				assert_int_equal(sht_board_play(b, (enum sht_color)legal[pick][0],
				    legal[pick][1], NULL), SHT_LEGAL);
			}
			assert_int_equal(sht_board_stone_count(b, SHT_BLACK) +
			    sht_board_stone_count(b, SHT_WHITE), count_stones(b));
		}
		sht_board_free(b);
	}
}

/* The history after many states, across the growth of its tables and a restore to a snapshot
 * taken before that growth, against a plain list of the states: every count exact. */
static int
reference_count(const uint64_t (*states)[2], int n, uint64_t hash, int to_move)
{
	int count = 0;

	for (int i = 0; i < n; i++)
		count += states[i][0] == hash && (int)states[i][1] == to_move;
	return count;
}

static void
check_history(const struct sht_board *b, const uint64_t (*states)[2], int n, int all)
{
	int most = 0;

	for (int i = 0; i < all; i++)
		for (int c = SHT_BLACK; c <= SHT_WHITE; c++)
			assert_int_equal(sht_board_occurrences(b, states[i][0], (enum sht_color)c),
			    reference_count(states, n, states[i][0], c));
	for (int i = 0; i < n; i++) {
		int k = reference_count(states, n, states[i][0], (int)states[i][1]);

		most = k > most ? k : most;
	}
	assert_int_equal(sht_board_most_occurrences(b), most);
	/* The replay's question, for every count up to one past the most. */
	for (int k = 0; k <= most + 1; k++)
		assert_int_equal(sht_board_occurs_at_least(b, k), most >= k);
}

/* Plays random states up to `limit`, recording each in states; saves the board into snap when
 * the list reaches `save_at`.  Random stones with a pass now and then: on a 4x4 board captures
 * come soon and positions recur, so counts above one are common. */
static void
play_random_states(struct sht_board *b, uint64_t (*states)[2], int *n, int limit, int save_at,
    struct sht_board_snapshot *snap)
{
	while (*n < limit) {
		enum sht_color c = sht_board_to_move(b);
		int p = SHT_PASS;

		for (int tries = 0; tries < 8 && rnd() % 5 != 0; tries++) {
			int cand = sht_board_point(b, (int)(rnd() % 4), (int)(rnd() % 4));

			if (sht_board_check(b, c, cand, NULL) == SHT_LEGAL) {
				p = cand;
				break;
			}
		}
		if (*n == 0) {
			states[*n][0] = sht_board_hash(b);
			states[(*n)++][1] = (uint64_t)c;
		}
		assert_int_equal(sht_board_play(b, c, p, NULL), SHT_LEGAL);
		states[*n][0] = sht_board_hash(b);
		states[(*n)++][1] = (uint64_t)sht_board_to_move(b);
		if (*n == save_at)
			sht_board_save(b, snap);
	}
}

static void
test_history_counts_survive_growth_and_restore(void **state)
{
	enum { STATES = 1500, SAVED = 100 };
	static uint64_t states[STATES + 1][2];
	struct sht_board_options o;
	struct sht_board *b, *copy;
	struct sht_board_snapshot *snap;
	int n = 0;

	(void)state;
	sht_board_options_init(&o, 4, 4);
	b = sht_board_new(&o);
	snap = sht_board_snapshot_new(b);
	assert_non_null(snap);
	play_random_states(b, states, &n, STATES, SAVED, snap);
	check_history(b, (const uint64_t (*)[2])states, n, n);
	sht_board_restore(b, snap);
	check_history(b, (const uint64_t (*)[2])states, SAVED, n);
	copy = sht_board_clone(b);
	assert_non_null(copy);
	check_history(copy, (const uint64_t (*)[2])states, SAVED, n);
	sht_board_free(copy);
	/* The restored history goes on as if the later states had never been, in tables made
	 * larger ahead of need (sht_board_reserve_history re-indexes what is there). */
	assert_true(sht_board_reserve_history(b, 3 * STATES));
	check_history(b, (const uint64_t (*)[2])states, SAVED, n);
	n = SAVED;
	play_random_states(b, states, &n, STATES, -1, snap);
	check_history(b, (const uint64_t (*)[2])states, n, n);
	sht_board_snapshot_free(snap);
	sht_board_free(b);
}

/* A history kept on request, a plain list the moves do not read: the same answers as the
 * index, across a restore and in a copy, while the moves report no repetition; superko, which
 * asks at every move, ignores the option. */
static void
test_history_on_request(void **state)
{
	enum { STATES = 600, SAVED = 80 };
	static uint64_t states[STATES + 1][2];
	struct sht_board_options o;
	struct sht_board *b, *copy;
	struct sht_board_snapshot *snap;
	struct sht_move_info info;
	int n = 0;

	(void)state;
	sht_board_options_init(&o, 4, 4);
	o.history_on_request = true;
	b = sht_board_new(&o);
	assert_true(sht_board_options(b)->history_on_request);
	snap = sht_board_snapshot_new(b);
	assert_non_null(snap);
	assert_int_equal(sht_board_most_occurrences(b), 0);
	play_random_states(b, states, &n, STATES, SAVED, snap);
	check_history(b, (const uint64_t (*)[2])states, n, n);
	assert_true(sht_board_most_occurrences(b) >= 3); /* a 4x4 board repeats itself */
	/* Two passes come back to the state before them: the list knows, the move does not say. */
	assert_int_equal(sht_board_play(b, sht_board_to_move(b), SHT_PASS, &info), SHT_LEGAL);
	assert_int_equal(sht_board_play(b, sht_board_to_move(b), SHT_PASS, &info), SHT_LEGAL);
	assert_false(info.repeated);
	assert_true(sht_board_occurrences(b, sht_board_hash(b), sht_board_to_move(b)) >= 2);
	sht_board_restore(b, snap);
	check_history(b, (const uint64_t (*)[2])states, SAVED, n);
	copy = sht_board_clone(b);
	assert_non_null(copy);
	check_history(copy, (const uint64_t (*)[2])states, SAVED, n);
	sht_board_free(copy);
	n = SAVED;
	play_random_states(b, states, &n, STATES, -1, snap);
	check_history(b, (const uint64_t (*)[2])states, n, n);
	sht_board_snapshot_free(snap);
	sht_board_free(b);

	o.ko = SHT_KO_POSITIONAL;
	b = sht_board_new(&o);
	assert_false(sht_board_options(b)->history_on_request);
	sht_board_free(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_capture_and_liberties),
		cmocka_unit_test(test_suicide_rules),
		cmocka_unit_test(test_simple_ko),
		cmocka_unit_test(test_capture_ban),
		cmocka_unit_test(test_cycle_detection),
		cmocka_unit_test(test_setup_and_supply),
		cmocka_unit_test(test_vertices),
		cmocka_unit_test(test_random_games_keep_invariants),
		cmocka_unit_test(test_empty_board_hash_and_diagram),
		cmocka_unit_test(test_zobrist_keys_are_the_documented_draws),
		cmocka_unit_test(test_play_reports_what_check_reports),
		cmocka_unit_test(test_history_counts_survive_growth_and_restore),
		cmocka_unit_test(test_history_on_request),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
