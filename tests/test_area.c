/* Unit tests of the scoring primitives: area maps with dead stones, regions, ILRs, Benson. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "shoutan/area.h"
#include "shoutan/board.h"

static struct sht_board *
diagram(const char *text)
{
	struct sht_board *b = sht_board_from_diagram(text, NULL);

	assert_non_null(b);
	return b;
}

static void
test_empty_board_is_neutral(void **state)
{
	struct sht_board *b = diagram(". . .\n. . .\n. . .\n");
	struct sht_area a;

	(void)state;
	sht_area_compute(b, NULL, &a);
	assert_int_equal(a.neutral_points, 9);
	assert_int_equal(a.black_territory + a.white_territory + a.dame_points, 0);
	assert_int_equal(sht_area_owner(&a, sht_board_point(b, 1, 1)), SHT_EMPTY);
	sht_board_free(b);
}

/* Black's corner with a white stone in it, beside a white group: the dead-stone tests' board. */
static const char corner_with_white_stone[] =
    ". O . X . .\n"
    ". . . X . .\n"
    "X X X X . .\n"
    ". . . . O O\n"
    ". . . . O .\n";

static void
test_dead_stones_become_territory(void **state)
{
	/* The white stone in black's corner is marked dead: its point and the points around it
	 * become black's, and it is no longer a white live stone. */
	struct sht_board *b = diagram(corner_with_white_stone);
	uint8_t *dead = calloc((size_t)sht_board_capacity(b), 1);
	struct sht_area a;

	(void)state;
	sht_area_compute(b, NULL, &a);
	/* Alive, the white stone makes the corner region touch both colours. */
	assert_int_equal(sht_area_owner(&a, sht_board_point(b, 0, 0)), SHT_EMPTY);
	assert_int_equal(a.white_stones, 4);
	dead[sht_board_point(b, 1, 0)] = 1;
	sht_area_compute(b, dead, &a);
	assert_int_equal(sht_area_owner(&a, sht_board_point(b, 0, 0)), SHT_BLACK);
	assert_int_equal(sht_area_owner(&a, sht_board_point(b, 1, 0)), SHT_BLACK);
	assert_int_equal(a.white_stones, 3);
	assert_int_equal(a.black_stones, 6);
	/* Corner: 6 points (5 empty + the dead stone); the rest is shared or white's. */
	assert_int_equal(a.black_territory, 6);
	assert_int_equal(a.white_territory, 1);
	assert_int_equal(a.black_stones + a.black_territory + a.white_stones + a.white_territory +
	    a.dame_points + a.neutral_points, 30);
	free(dead);
	sht_board_free(b);
}

static void
test_counts_map_is_the_map_counted(void **state)
{
	/* The counts with their map are the one-call counts, and the map is sht_area_compute's
	 * with the same dead stone taken off. */
	struct sht_board *b = diagram(corner_with_white_stone);
	int n = sht_board_capacity(b);
	uint8_t *dead = calloc((size_t)n, 1);
	uint8_t *seki1 = calloc((size_t)n, 1), *seki2 = calloc((size_t)n, 1);
	struct sht_counts one, with_map;
	struct sht_area a, map;

	(void)state;
	dead[sht_board_point(b, 1, 0)] = 1;
	sht_area_compute(b, dead, &a);
	memset(&map, 0xff, sizeof(map));
	sht_area_counts(b, dead, &one, seki1);
	sht_area_counts_map(b, dead, &with_map, seki2, &map);
	assert_memory_equal(&one, &with_map, sizeof(one));
	assert_memory_equal(seki1, seki2, (size_t)n);
	assert_memory_equal(&a, &map, sizeof(a));
	assert_int_equal(sht_area_owner(&map, sht_board_point(b, 1, 0)), SHT_BLACK);
	assert_int_equal(with_map.dead[SHT_WHITE], 1);
	assert_int_equal(with_map.dead[SHT_BLACK], 0);
	free(dead);
	free(seki1);
	free(seki2);
	sht_board_free(b);
}

static void
test_regions(void **state)
{
	struct sht_board *b = diagram(
	    ". X . O .\n"
	    "X X . O O\n"
	    ". . . . .\n");
	int *label = calloc((size_t)sht_board_capacity(b), sizeof(int));
	struct sht_region r[8];
	int n;

	(void)state;
	n = sht_area_regions(b, NULL, label, r, 8);
	assert_int_equal(n, 3);
	/* The corner point A3 touches black only; E3 white only; the rest both. */
	assert_int_equal(r[label[sht_board_point(b, 0, 0)] - 1].borders, 1 << SHT_BLACK);
	assert_int_equal(r[label[sht_board_point(b, 4, 0)] - 1].borders, 1 << SHT_WHITE);
	assert_int_equal(r[label[sht_board_point(b, 2, 2)] - 1].borders,
	    (1 << SHT_BLACK) | (1 << SHT_WHITE));
	assert_int_equal(r[label[sht_board_point(b, 2, 2)] - 1].size, 7);
	assert_int_equal(label[sht_board_point(b, 1, 0)], 0);
	free(label);
	sht_board_free(b);
}

static void
test_ilr_chain_in_atari_is_not_independent(void **state)
{
	/* Black's corner group has one liberty, its own single eye: it is in atari and so no
	 * independent-life region, although no dame touches it. */
	struct sht_board *b = diagram(
	    ". X O . .\n"
	    "X X O . .\n"
	    "O O O . .\n"
	    ". . . . .\n");
	int *group = calloc((size_t)sht_board_capacity(b), sizeof(int)), counts[3];
	uint8_t *seki = calloc((size_t)sht_board_capacity(b), 1);

	(void)state;
	sht_area_ilr(b, NULL, group, counts, seki);
	assert_int_equal(counts[SHT_BLACK], 0);
	assert_int_equal(counts[SHT_WHITE], 1);
	assert_false(seki[sht_board_point(b, 1, 0)]); /* unsettled, not seki */
	assert_int_equal(group[sht_board_point(b, 0, 0)], 0);
	assert_int_not_equal(group[sht_board_point(b, 4, 3)], 0); /* white's territory */
	free(group);
	free(seki);
	sht_board_free(b);
}

static void
test_benson_needs_two_vital_regions(void **state)
{
	/* Two black chains sharing two eyes between them are alive together. */
	struct sht_board *b = diagram(
	    ". X . X . X\n"
	    "X X X X X X\n"
	    "O O O O O O\n"
	    ". . . . . .\n");
	uint8_t *status = calloc((size_t)sht_board_capacity(b), 1);

	(void)state;
	assert_int_equal(sht_benson(b, SHT_BLACK, false, status), 9);
	assert_int_equal(status[sht_board_point(b, 0, 0)], 2);
	assert_int_equal(status[sht_board_point(b, 4, 0)], 2);
	memset(status, 0, (size_t)sht_board_capacity(b));
	assert_int_equal(sht_benson(b, SHT_WHITE, false, status), 0);
	free(status);
	sht_board_free(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_board_is_neutral),
		cmocka_unit_test(test_dead_stones_become_territory),
		cmocka_unit_test(test_counts_map_is_the_map_counted),
		cmocka_unit_test(test_regions),
		cmocka_unit_test(test_ilr_chain_in_atari_is_not_independent),
		cmocka_unit_test(test_benson_needs_two_vital_regions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
