/* Unit tests of the tactical reader the settle step asks whether a chain short of liberties
 * must be protected: ladders, a ladder breaker, a throw-in that takes a chain short of
 * liberties, and the board left as it was. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "shoutan/board.h"
#include "tactics.h"

/* A white stone with two liberties and Black's stones placed so that each atari drives it
 * down and to the right: a ladder across the whole 13x13 board, towards the corner. */
static const char ladder[] =
    ". . . . . . . . . . . . .\n"
    ". . . . . . . . . . . . .\n"
    ". O . X . . . . . . . . .\n"
    ". X O . . . . . . . . . .\n"
    ". . X . . . . . . . . . .\n"
    ". . . . . . . . . . . . .\n"
    ". . . . . . . . . . . . .\n"
    ". . . . . . . . . . . . .\n"
    ". . . . . . . . . . . . .\n"
    ". . . . . . . . . . . . .\n"
    ". . . . . . . . . . . . .\n"
    ". . . . . . . . . . . . .\n"
    ". . . . . . . . . . . . .\n";

static struct sht_board *
diagram_with(const char *text, int x, int y, char stone)
{
	char buf[sizeof(ladder)];
	struct sht_board *b;

	assert_true(strlen(text) < sizeof(buf));
	strcpy(buf, text);
	if (stone != 0) {
		/* Rows are "c " pairs and a newline: 2 * width characters each. */
		int width = (int)(strchr(text, '\n') - text + 1) / 2;

		buf[y * width * 2 + x * 2] = stone;
	}
	b = sht_board_from_diagram(buf, NULL);
	assert_non_null(b);
	return b;
}

static bool
capturable(struct sht_board *b, int x, int y)
{
	struct sht_tactics t;
	uint64_t hash = sht_board_hash(b);
	char before[1024], after[1024];
	bool result;

	sht_board_to_diagram(b, before, sizeof(before));
	sht_tactics_init(&t, b);
	result = sht_tactics_capturable(&t, sht_board_point(b, x, y));
	sht_tactics_release(&t);
	/* The read plays and takes back: the board is as it was. */
	assert_true(sht_board_hash(b) == hash);
	sht_board_to_diagram(b, after, sizeof(after));
	assert_string_equal(before, after);
	return result;
}

static void
test_ladder_works(void **state)
{
	struct sht_board *b = diagram_with(ladder, 0, 0, 0);

	(void)state;
	assert_true(capturable(b, 2, 3));
	sht_board_free(b);
	/* A black stone on the ladder's path only helps Black. */
	b = diagram_with(ladder, 10, 10, 'X');
	assert_true(capturable(b, 2, 3));
	sht_board_free(b);
}

static void
test_ladder_breaker(void **state)
{
	/* A white stone on the diagonal the ladder runs along, eight lines away: White's
	 * extension joins it, and the chain escapes. */
	struct sht_board *b = diagram_with(ladder, 10, 10, 'O');

	(void)state;
	assert_false(capturable(b, 2, 3));
	sht_board_free(b);
	/* Beside the path it does not touch the ladder. */
	b = diagram_with(ladder, 12, 2, 'O');
	assert_true(capturable(b, 2, 3));
	sht_board_free(b);
}

/* White's chain along the bottom has two liberties, C1 and D1, and Black's stone B1 (dead in
 * White's area) stands beside C1.  Black's C1 is a throw-in, no self-atari worth the name:
 * White takes the two stones at D1 and is left with B1 and C1, Black throws in at B1 again,
 * and White, taking at C1, has only B1 left, where Black takes everything.  That a dead stone
 * still does this is why White must protect before the end. */
static const char throw_in[] =
    ". X . X . X .\n"
    "X X X X X X X\n"
    "O O X O O X X\n"
    "O O O O O X X\n"
    "O X . . O X .\n";

static void
test_throw_in_takes_a_chain_short_of_liberties(void **state)
{
	struct sht_board *b = diagram_with(throw_in, 0, 0, 0);

	(void)state;
	assert_true(capturable(b, 1, 3));
	sht_board_free(b);
	/* White takes B1 first, at C1: Black can play neither B1 nor D1 (each is suicide), and
	 * the chain is safe. */
	b = diagram_with(throw_in, 0, 0, 0);
	assert_true(sht_board_play(b, SHT_WHITE, sht_board_point(b, 2, 4), NULL) == SHT_LEGAL);
	assert_true(sht_board_at(b, sht_board_point(b, 1, 4)) == SHT_EMPTY);
	assert_false(capturable(b, 1, 3));
	sht_board_free(b);
}

static void
test_free_chains_are_not_capturable(void **state)
{
	/* A lone stone on the edge has three liberties and room: no reading captures it. */
	struct sht_board *b = diagram_with(ladder, 6, 12, 'O');

	(void)state;
	assert_false(capturable(b, 6, 12));
	sht_board_free(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ladder_works),
		cmocka_unit_test(test_ladder_breaker),
		cmocka_unit_test(test_throw_in_takes_a_chain_short_of_liberties),
		cmocka_unit_test(test_free_chains_are_not_capturable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
