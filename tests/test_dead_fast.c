/* Unit tests that the dead-stone judge's own shortcuts (lib/dead.c, included here for its static
 * functions) answer exactly what the board's functions and the judge's first versions of them
 * answer, on positions from long random games: a shortcut that differs would change playouts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../lib/dead.c"

/* is_eye as the judge first wrote it, a loop over the neighbours and the diagonals. */
static bool
eye_reference(const struct sht_board *b, int c, int p)
{
	static const int diag_dx[4] = { -1, 1, -1, 1 }, diag_dy[4] = { -1, -1, 1, 1 };
	int opp = 0, off = 0;

	for (int d = 0; d < 4; d++) {
		int q = b->color[p + b->dir[d]];

		if (q != c && q != SHT_OFFBOARD)
			return false;
	}
	for (int d = 0; d < 4; d++) {
		int q = b->color[p + diag_dy[d] * b->stride + diag_dx[d]];

		if (q == SHT_OFFBOARD)
			off = 1;
		else if (q == 3 - c)
			opp++;
	}
	return opp + off < 2;
}

/* Every shortcut at every empty point, for both colours. */
static void
check_position(struct sht_board *b, uint8_t *seen)
{
	for (int p = 0; p < b->npoints; p++) {
		if (b->color[p] != SHT_EMPTY)
			continue;
		for (int c = SHT_BLACK; c <= SHT_WHITE; c++) {
			bool legal = sht_board_check(b, (enum sht_color)c, p, NULL) == SHT_LEGAL;
			bool fill = sht_board_can_fill(b, c, p, seen);
			bool eye = eye_reference(b, c, p);

			assert_int_equal(sht_board_legal_quick(b, c, p), legal);
			assert_int_equal(sht_board_can_fill_quick(b, c, p, seen), fill);
			assert_int_equal(is_eye(b, c, p), eye);
			assert_int_equal(random_ok(b, c, p, seen),
			    !(eye || (joins_chain(b, c, p) && !fill)) && legal);
		}
	}
	for (int p = 0; p < b->npoints; p++)
		assert_int_equal(seen[p], 0); /* the scratch is left clear */
}

/* A pass taken back by pass_undo_restore leaves the board as sht_board_restore does. */
static void
check_pass_undo(const struct sht_board *b, struct sht_board_snapshot *snap)
{
	struct sht_board *x = sht_board_clone(b), *y = sht_board_clone(b);
	struct pass_undo u;
	int c = sht_board_to_move(b);

	assert_non_null(x);
	assert_non_null(y);
	sht_board_save(y, snap);
	pass_undo_save(x, &u);
	assert_int_equal(sht_board_play(x, (enum sht_color)c, SHT_PASS, NULL), SHT_LEGAL);
	assert_int_equal(sht_board_play(y, (enum sht_color)c, SHT_PASS, NULL), SHT_LEGAL);
	pass_undo_restore(x, &u);
	sht_board_restore(y, snap);
	assert_memory_equal(x->color, y->color, (size_t)x->npoints);
	assert_memory_equal(x->chain, y->chain, sizeof(*x->chain) * (size_t)x->npoints);
	assert_memory_equal(x->next, y->next, sizeof(*x->next) * (size_t)x->npoints);
	assert_memory_equal(x->libs, y->libs, sizeof(*x->libs) * (size_t)x->npoints);
	assert_memory_equal(x->size, y->size, sizeof(*x->size) * (size_t)x->npoints);
	assert_int_equal(x->stones, y->stones);
	assert_memory_equal(x->bits, y->bits, sizeof(x->bits));
	assert_true(x->hash == y->hash);
	assert_int_equal(x->ko_point, y->ko_point);
	assert_int_equal(x->ko_player, y->ko_player);
	assert_int_equal(x->to_move, y->to_move);
	assert_int_equal(x->moves, y->moves);
	assert_int_equal(x->passes, y->passes);
	assert_int_equal(x->nremoved, y->nremoved);
	assert_memory_equal(x->captures, y->captures, sizeof(x->captures));
	assert_memory_equal(x->stones_left, y->stones_left, sizeof(x->stones_left));
	sht_board_free(x);
	sht_board_free(y);
}

/* Random games on a board made as the playouts make theirs (simple ko, no history, no stone
 * limit), with or without multi-stone suicide, checked every few moves.  Moves are uniform
 * over the empty points, eyes included, so that chains are captured, kos taken and (where
 * allowed) chains suicided. */
static void
random_games(int size, bool suicide, uint64_t seed, int games)
{
	struct sht_board_options o;
	struct sht_board *b;
	struct sht_board_snapshot *snap;
	uint8_t *seen;
	int kos = 0, suicides = 0;

	sht_board_options_init(&o, size, size);
	o.track_history = false;
	o.multi_stone_suicide = suicide;
	b = sht_board_new(&o);
	assert_non_null(b);
	snap = sht_board_snapshot_new(b);
	assert_non_null(snap);
	seen = calloc((size_t)b->npoints, 1);
	assert_non_null(seen);
	for (int g = 0; g < games; g++) {
		int c = SHT_BLACK;

		sht_board_clear(b);
		for (int m = 0; m < 3 * size * size; m++) {
			int p = (int)(next_random(&seed) % (uint64_t)b->npoints);
			struct sht_move_info info;

			if (m % 5 == 0) {
				check_position(b, seen);
				check_pass_undo(b, snap);
			}
			if (sht_board_play(b, (enum sht_color)c, p, &info) != SHT_LEGAL)
				continue;
			kos += b->ko_point != SHT_NO_POINT;
			suicides += info.suicided > 0;
			c = 3 - c;
		}
	}
	/* The positions had what the shortcuts must get right. */
	assert_true(kos > 0);
	assert_true(suicide ? suicides > 0 : suicides == 0);
	free(seen);
	sht_board_snapshot_free(snap);
	sht_board_free(b);
}

static void
test_shortcuts_9x9(void **state)
{
	(void)state;
	random_games(9, false, UINT64_C(0x9e3779b97f4a7c15), 20);
}

static void
test_shortcuts_9x9_suicide(void **state)
{
	(void)state;
	random_games(9, true, UINT64_C(0x243f6a8885a308d3), 20);
}

static void
test_shortcuts_19x19(void **state)
{
	(void)state;
	random_games(19, false, UINT64_C(0x13198a2e03707344), 3);
}

static void
test_shortcuts_13x13_suicide(void **state)
{
	(void)state;
	random_games(13, true, UINT64_C(0xa4093822299f31d0), 8);
}

/* Whether the playouts' shape table matches at vertex `at` of a 9x9 board with these stones
 * (vertices run together: "D5F5"). */
static bool
shape_at(const char *black, const char *white, const char *at)
{
	struct sht_board_options o;
	struct sht_board *b;
	bool hit;
	char v[4];

	sht_board_options_init(&o, 9, 9);
	b = sht_board_new(&o);
	assert_non_null(b);
	for (int c = SHT_BLACK; c <= SHT_WHITE; c++)
		for (const char *s = c == SHT_BLACK ? black : white; *s != '\0'; s += 2) {
			v[0] = s[0];
			v[1] = s[1];
			v[2] = '\0';
			assert_true(sht_board_setup(b, (enum sht_color)c, sht_vertex_parse(b, v)));
		}
	pat3_init();
	hit = pat3_match(pat3_code(b, sht_vertex_parse(b, at)));
	sht_board_free(b);
	return hit;
}

/* The shapes the playouts answer the last move with: each in any orientation and for either
 * colour, the edge ones only on the edge, and nothing around a lone stone or on an empty board. */
static void
test_shapes(void **state)
{
	(void)state;
	/* Enclosing hane: X O X over the point, the row of the point empty beside it. */
	assert_true(shape_at("D5F5", "E5", "E4"));
	assert_true(shape_at("D5F5", "E5", "E6"));
	assert_true(shape_at("D4D6", "D5", "C5")); /* turned: down a column */
	assert_true(shape_at("D5", "C5E5", "D4")); /* colours swapped */
	assert_false(shape_at("D5F5", "E5", "E3")); /* two rows away: not beside it */
	/* Unprotected cut: X O over O and the point. */
	assert_true(shape_at("D6", "E6D5", "E5"));
	/* Edge chase: X . over O and the point, which is on the first line. */
	assert_true(shape_at("D2", "D1", "E1"));
	/* Every shape has stones of both colours: none around one colour's, a lone stone, or on
	 * an empty board. */
	assert_false(shape_at("D5D6E6", "", "E5"));
	assert_false(shape_at("", "D5", "E5"));
	assert_false(shape_at("", "", "E5"));
	assert_false(shape_at("", "", "A1"));
}

/* A 9x9 position from nine rows, top first: X black, O white, . empty. */
static struct sht_board *
diagram(const char *const rows[9])
{
	struct sht_board_options o;
	struct sht_board *b;

	sht_board_options_init(&o, 9, 9);
	b = sht_board_new(&o);
	assert_non_null(b);
	for (int y = 0; y < 9; y++)
		for (int x = 0; x < 9; x++)
			if (rows[y][x] != '.')
				assert_true(sht_board_setup(b, rows[y][x] == 'X' ? SHT_BLACK :
				    SHT_WHITE, sht_board_point(b, x, y)));
	return b;
}

/* The judge's verdict with a given playout count (0: as many as it needs); returns how many
 * it played, and the dead map in dead. */
static int
judge_with(const struct sht_board *b, int playouts, uint8_t *dead)
{
	int n = sht_board_capacity(b);
	uint8_t *unsure = calloc((size_t)n, 1), *owner = calloc((size_t)n, 1);
	uint16_t *confidence = calloc((size_t)n, sizeof(*confidence));
	struct sht_dead_result res = { dead, unsure, owner, confidence, NULL, 0 };
	struct sht_dead_options opt = { .playouts = playouts };

	assert_true(sht_dead_judge(b, &opt, &res));
	free(unsure);
	free(owner);
	free(confidence);
	return res.playouts;
}

/*
 * The playouts stop once the verdict is settled (MIN_PLAYOUTS): Black's wall on the third line
 * against White's pass-alive group, with a white stone inside Black's two columns, is settled
 * well before the full count, with the verdict the full count gives; the same walls a line
 * apart leave nine dame that either side fills half the time, which never settle, so the full
 * count is played; a count the caller gives is played.
 */
static void
test_playouts_stop_when_settled(void **state)
{
	static const char *const touching[9] = {
		"..XOOOOO.", "..XOOOOOO", "..XOOOOOO", "..XOOOOOO", ".OXOO.OOO",
		"..XOOOOOO", "..XOOOOOO", "..XOOOOOO", "..XOOOOO.",
	};
	static const char *const apart[9] = {
		"..X.OOOO.", "..X.OOOOO", "..X.OOOOO", "..X.OOOOO", ".OX.O.OOO",
		"..X.OOOOO", "..X.OOOOO", "..X.OOOOO", "..X.OOOO.",
	};
	struct sht_board *b = diagram(touching);
	int n = sht_board_capacity(b), stone = sht_board_point(b, 1, 4);
	uint8_t *dead = calloc((size_t)n, 1), *full = calloc((size_t)n, 1);

	(void)state;
	assert_in_range(judge_with(b, 0, dead), MIN_PLAYOUTS, DEFAULT_PLAYOUTS / 2);
	assert_int_equal(judge_with(b, DEFAULT_PLAYOUTS, full), DEFAULT_PLAYOUTS);
	assert_memory_equal(dead, full, (size_t)n);
	assert_int_equal(dead[stone], 1);
	assert_int_equal(judge_with(b, 100, dead), 100);
	sht_board_free(b);
	b = diagram(apart);
	assert_int_equal(judge_with(b, 0, dead), DEFAULT_PLAYOUTS);
	assert_int_equal(dead[stone], 1);
	sht_board_free(b);
	free(dead);
	free(full);
}

/*
 * What stops the playouts (verdict_settled), on counts made up for a 9x9 board with Black's
 * five-stone chain on the top edge and nothing else: after 64 playouts Black owns every empty
 * point in all of them, and the chain's stones are White's in 10% of the stone-playouts — one
 * stone half the time, the four others never.  The kill verdict (40%) is settled; the "unsure"
 * flag (neither side at 80%) is not, for 90% is within three standard errors of it at 64, and
 * the half-owned stone's own owner is not.  Neither decides a verdict, so the count stops,
 * unless the caller reads the unsure flag (a rescue); a share of 30% near the kill threshold
 * keeps it going.
 */
static void
test_settled_asks_what_decides(void **state)
{
	static const char *const rows[9] = {
		"XXXXX....", ".........", ".........", ".........", ".........",
		".........", ".........", ".........", ".........",
	};
	struct sht_board *b = diagram(rows);
	int n = sht_board_capacity(b), playouts = 64;
	int *owned_b = calloc((size_t)n, sizeof(int)), *owned_w = calloc((size_t)n, sizeof(int));
	uint8_t *color = malloc((size_t)n), *certain = calloc((size_t)n, 1);

	(void)state;
	for (int p = 0; p < n; p++) {
		color[p] = (uint8_t)sht_board_at(b, p);
		owned_b[p] = color[p] == SHT_OFFBOARD ? 0 : playouts;
	}
	owned_b[sht_board_point(b, 0, 0)] = playouts / 2;
	owned_w[sht_board_point(b, 0, 0)] = playouts / 2;
	assert_true(verdict_settled(b, color, certain, owned_b, owned_w, playouts, false));
	assert_false(verdict_settled(b, color, certain, owned_b, owned_w, playouts, true));
	/* 30% White: 3 standard errors of 0.3 at 64 reach past 0.4. */
	for (int x = 1; x < 5; x++) {
		owned_b[sht_board_point(b, x, 0)] = playouts * 3 / 4;
		owned_w[sht_board_point(b, x, 0)] = playouts / 4;
	}
	assert_false(verdict_settled(b, color, certain, owned_b, owned_w, playouts, false));
	sht_board_free(b);
	free(owned_b);
	free(owned_w);
	free(color);
	free(certain);
}

/*
 * A round of rescues stops once every rescue has failed beyond doubt (rescues_failed): a rescue
 * stands only when its rescuer holds its own stones in four playouts of five, so a rescuer that
 * holds them in none has failed, and the round need not go on; one that holds them in nearly
 * all, or in three of four (0.75, within three standard errors of 0.8 at 64), keeps it going,
 * and so does a rescuer that is pass-alive after its capture (RACE_RESCUER_CERTAIN).
 */
static void
test_failed_rescues_stop_the_round(void **state)
{
	static const char *const rows[9] = {
		"XX.......", ".........", ".........", ".........", ".........",
		".........", ".........", ".........", ".........",
	};
	struct sht_board *b = diagram(rows);
	int n = sht_board_capacity(b), playouts = 64;
	int a = sht_board_point(b, 0, 0), c = sht_board_point(b, 1, 0);
	int *owned_b = calloc((size_t)n, sizeof(int)), *owned_w = calloc((size_t)n, sizeof(int));
	uint8_t *color = malloc((size_t)n), *alive = calloc((size_t)n, 1);

	(void)state;
	for (int p = 0; p < n; p++)
		color[p] = (uint8_t)sht_board_at(b, p);
	alive[a] = alive[c] = RACE_RESCUER;
	owned_w[a] = owned_w[c] = playouts;
	assert_true(rescues_failed(b, color, alive, owned_b, owned_w, playouts));
	owned_b[a] = owned_b[c] = playouts - 2;
	owned_w[a] = owned_w[c] = 2;
	assert_false(rescues_failed(b, color, alive, owned_b, owned_w, playouts));
	owned_b[a] = owned_b[c] = playouts * 3 / 4;
	owned_w[a] = owned_w[c] = playouts / 4;
	assert_false(rescues_failed(b, color, alive, owned_b, owned_w, playouts));
	owned_b[a] = owned_b[c] = 0;
	owned_w[a] = owned_w[c] = playouts;
	alive[sht_board_point(b, 8, 8)] = RACE_RESCUER_CERTAIN;
	assert_false(rescues_failed(b, color, alive, owned_b, owned_w, playouts));
	sht_board_free(b);
	free(owned_b);
	free(owned_w);
	free(color);
	free(alive);
}

/*
 * A race the loser of a snapback wins: in the top right corner White's H9 H8 (three liberties)
 * and Black's J8 (two), both called dead, inside Black's wall, with White's J6 J5 below, which
 * keep a White stone at J7 out of atari.  White moving first wins (J7, then J9 takes J8).  Black moving first wins too: after G9, White J7 and Black H7, White's J9
 * takes J8 into a snapback, and Black J8 takes White's three stones back (snapback).  Without
 * the snapback the reading had White win moving second; with Black to move, Black wins.
 */
static void
test_race_won_by_snapback(void **state)
{
	static const char *const rows[9] = {
		"....XX.O.", "....XXXOX", "....XXX..", "....XXX.O", "....XXX.O",
		"....XXXXX", ".........", ".........", ".........",
	};
	struct sht_board *b = diagram(rows);
	int n = sht_board_capacity(b), found;
	uint8_t *certain = calloc((size_t)n, 1), *dead = calloc((size_t)n, 1);
	uint8_t *lost = calloc((size_t)n, 1), *alive = calloc((size_t)n, 1);

	(void)state;
	assert_non_null(certain);
	assert_non_null(dead);
	assert_non_null(lost);
	assert_non_null(alive);
	assert_int_equal(sht_board_to_move(b), SHT_BLACK);
	dead[sht_vertex_parse(b, "H9")] = dead[sht_vertex_parse(b, "H8")] = 1;
	dead[sht_vertex_parse(b, "J8")] = 1;
	found = read_races(b, certain, dead, lost, alive, false);
	assert_int_equal(found, 1);
	assert_true(lost[sht_vertex_parse(b, "H9")] && lost[sht_vertex_parse(b, "H8")]);
	assert_false(lost[sht_vertex_parse(b, "J8")]);
	assert_int_equal(alive[sht_vertex_parse(b, "J8")], RACE_WINNER);
	sht_board_free(b);
	free(certain);
	free(dead);
	free(lost);
	free(alive);
}

/*
 * A race won whose capture leaves the winner dead (fill_liberties_of_lost): White's chain at B9
 * and Black's A6-A8 share their two liberties, A9 and B6, and White wins the race with B6 (it
 * joins White's chain at A5 and leaves Black one liberty).  But taking Black's three stones
 * also fills A9, and leaves White a straight three on the edge; moving first, Black kills the
 * whole White group (A1, then A3 takes A2 and White's liberty with it).  Judged again with the
 * three stones merely gone, White had four points at A6-A9 and lived.  Black to move.
 */
static void
test_race_winner_dies_once_it_has_captured(void **state)
{
	static const char *const rows[9] = {
		".OOOX....", "XOXXX....", "XOOX.....", "X.OX.....", "OOXX.....",
		"OOX......", ".OXX.....", "OX.......", ".X.......",
	};
	struct sht_board *b = diagram(rows);
	uint8_t *dead = calloc((size_t)sht_board_capacity(b), 1);

	(void)state;
	assert_non_null(dead);
	judge_with(b, 0, dead);
	for (const char *const *v = (const char *const[]){ "B9", "C9", "D9", "B8", "C7", "C6",
	    "A5", "B5", "A4", "B3", "A2", NULL }; *v != NULL; v++)
		if (!dead[sht_vertex_parse(b, *v)])
			fail_msg("White's %s is called alive", *v);
	for (const char *const *v = (const char *const[]){ "E9", "D8", "D6", "C5", "B2", NULL };
	    *v != NULL; v++)
		assert_false(dead[sht_vertex_parse(b, *v)]);
	sht_board_free(b);
	free(dead);
}

/* read_races with `rescues` on a 9x9 board whose white stones are all called dead and whose
 * black stones all alive, as the playouts may call an edge group that lives by capturing the
 * stones inside it: the mark of the white chain at `captor` when the black chain at `inner` is
 * read as captured (RESCUE_LOST): RACE_RESCUER (the playouts, run again, decide whether it
 * stands) or RACE_RESCUER_CERTAIN (pass-alive after the capture); 0 when nothing is read. */
static int
rescued(const char *const rows[9], const char *inner, const char *captor)
{
	struct sht_board *b = diagram(rows);
	int n = sht_board_capacity(b), found, mark;
	uint8_t *certain = calloc((size_t)n, 1), *dead = calloc((size_t)n, 1);
	uint8_t *lost = calloc((size_t)n, 1), *alive = calloc((size_t)n, 1);

	assert_non_null(certain);
	assert_non_null(dead);
	assert_non_null(lost);
	assert_non_null(alive);
	sht_pass_alive_map(b, false, certain);
	for (int p = 0; p < n; p++)
		dead[p] = b->color[p] == SHT_WHITE;
	found = read_races(b, certain, dead, lost, alive, true);
	mark = lost[sht_vertex_parse(b, inner)] == RESCUE_LOST ?
	    alive[sht_vertex_parse(b, captor)] : 0;
	/* Nothing else is marked: a rescue names one chain and its captors. */
	for (int p = 0; p < n; p++)
		if (lost[p] != 0 || alive[p] != 0)
			assert_true(b->color[p] == SHT_BLACK ? lost[p] == RESCUE_LOST :
			    alive[p] == mark);
	assert_int_equal(found > 0, mark != 0);
	sht_board_free(b);
	free(certain);
	free(dead);
	free(lost);
	free(alive);
	return mark;
}

/*
 * A chain called dead that captures a small chain called alive beside it, whoever moves first,
 * is read as its captor (read_rescue): White's edge group takes A2 B2 (if Black extends to A3,
 * White A4 leaves them one liberty, and White's group keeps three), and is pass-alive after it,
 * with the eye at E2 F2 and the one the capture leaves.  With C1 filled and six points at
 * E1-G2 for the other eye the capture is the same, but White is not pass-alive after it (F1 is
 * no liberty of White's): the playouts decide.  With E2 F2 filled
 * White's group is short of liberties: after Black A3 and White A4 Black captures it at C1, so
 * moving first Black wins, and nothing is read.  White captures A2 B2 C2 as it did A2 B2: a
 * rescue only if it leaves White pass-alive (RESCUE_MAX_STONES: a capture of three stones
 * leaves an eye of their shape, which may be a dead one).
 */
static void
test_rescue_by_capture(void **state)
{
	static const char *const lives[9] = {
		"X.XXXXXXX", "XXXXXXXXX", ".XX.XX.XX", "XXXXXXXXX", "XXXXXXXXX",
		".OXOXXXXX", ".OOOOOOXX", "XXOO..OX.", ".O.OOOOXX",
	};
	static const char *const open_eye_space[9] = {
		"X.XXXXXXX", "XXXXXXXXX", ".XX.XX.XX", "XXXXXXXXX", "XXXXXXXXX",
		".OXOXXXXX", ".OOOOOOOX", "XXOO...OX", ".OOO...OX",
	};
	static const char *const short_of_liberties[9] = {
		"X.XXXXXXX", "XXXXXXXXX", ".XX.XX.XX", "XXXXXXXXX", "XXXXXXXXX",
		".OXOXXXXX", ".OOOOOXX.", "XXOOOXXXX", ".O.OXX.X.",
	};
	static const char *const three_stones[9] = {
		"X.XXXXXXX", "XXXXXXXXX", ".XX.XX.XX", "XXXXXXXXX", "XXXXXXXXX",
		".OXOXXXXX", ".OOOOOOXX", "XXXO..OX.", ".OOOOOOXX",
	};
	static const char *const three_stones_open_eye_space[9] = {
		"X.XXXXXXX", "XXXXXXXXX", ".XX.XX.XX", "XXXXXXXXX", "XXXXXXXXX",
		".OXOXXXXX", ".OOOOOOOX", "XXXO...OX", ".OOO...OX",
	};

	(void)state;
	assert_int_equal(rescued(lives, "B2", "B3"), RACE_RESCUER_CERTAIN);
	assert_int_equal(rescued(open_eye_space, "B2", "B3"), RACE_RESCUER);
	assert_int_equal(rescued(short_of_liberties, "B2", "B3"), 0);
	assert_int_equal(rescued(three_stones, "B2", "B3"), RACE_RESCUER_CERTAIN);
	assert_int_equal(rescued(three_stones_open_eye_space, "B2", "B3"), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shapes),
		cmocka_unit_test(test_playouts_stop_when_settled),
		cmocka_unit_test(test_settled_asks_what_decides),
		cmocka_unit_test(test_rescue_by_capture),
		cmocka_unit_test(test_race_won_by_snapback),
		cmocka_unit_test(test_race_winner_dies_once_it_has_captured),
		cmocka_unit_test(test_failed_rescues_stop_the_round),
		cmocka_unit_test(test_shortcuts_9x9),
		cmocka_unit_test(test_shortcuts_9x9_suicide),
		cmocka_unit_test(test_shortcuts_19x19),
		cmocka_unit_test(test_shortcuts_13x13_suicide),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
