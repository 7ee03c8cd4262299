/*
 * Tests of the rulesets through the host, as a user meets them: docs/rules.md's worked examples on
 * positions built for them, the consequences of violations, seated stones and White first, the
 * Han stone supply, handicap compensation, seki, YAML errors with positions, and plugin loading
 * (a wrong ABI version, a failing init, a file with no entry point).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "host.h"
#include "shoutan/tally.h"

static struct sht_registry *registry;
static struct sht_context ctx;
static const char *plugins_dir, *rulesets_dir, *test_plugins_dir;

/* ---- helpers ---- */

static void write_file(const char *dir, const char *name, const char *text);

/* Rulesets a researcher writes as YAML (no C), loaded from a fresh temporary folder beside the
 * shipped ones for one test.  files: name, text, name, text, ..., NULL. */
struct variants {
	char dir[64];
	const char *const *files;
	struct sht_registry *registry;
	struct sht_context ctx;
};

static void
variants_load(struct variants *v, const char *const *files)
{
	char err[SHT_ERR_MAX];

	snprintf(v->dir, sizeof(v->dir), "/tmp/shoutan-variants-XXXXXX");
	assert_non_null(mkdtemp(v->dir));
	v->files = files;
	for (int i = 0; files[i] != NULL; i += 2)
		write_file(v->dir, files[i], files[i + 1]);
	v->registry = sht_registry_load(plugins_dir, v->dir, err, sizeof(err));
	if (v->registry == NULL)
		fail_msg("%s", err);
	memset(&v->ctx, 0, sizeof(v->ctx));
	v->ctx.registry = v->registry;
}

static void
variants_free(struct variants *v)
{
	char path[1100];

	sht_registry_free(v->registry);
	for (int i = 0; v->files[i] != NULL; i += 2) {
		snprintf(path, sizeof(path), "%s/%s", v->dir, v->files[i]);
		unlink(path);
	}
	rmdir(v->dir);
}

static const char columns[] = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

/* A game object from a diagram (top row first): its stones as setup, then `moves`. */
static json_t *
game_of(const char *diagram, const char *moves)
{
	json_t *black = json_array(), *white = json_array(), *mv = json_array();
	int w = 0, h = 0, x = 0;
	char v[16];
	char *copy = strdup(moves), *save = NULL;

	for (const char *s = diagram; *s; s++) {
		if (*s == '\n') {
			if (x > 0) {
				w = x;
				h++;
			}
			x = 0;
		} else if (*s != ' ') {
			x++;
		}
	}
	x = 0;
	for (int y = 0, row = 0; *diagram; diagram++) {
		if (*diagram == '\n') {
			if (x > 0)
				row++;
			x = 0;
			y = row;
			continue;
		}
		if (*diagram == ' ')
			continue;
		snprintf(v, sizeof(v), "%c%d", columns[x], h - y);
		if (*diagram == 'X')
			json_array_append_new(black, json_string(v));
		else if (*diagram == 'O')
			json_array_append_new(white, json_string(v));
		x++;
	}
	for (char *m = strtok_r(copy, ",", &save); m; m = strtok_r(NULL, ",", &save))
		json_array_append_new(mv, json_string(m));
	free(copy);
	/* Handicap 0 said outright: black setup stones alone are a position, not a handicap. */
	return json_pack("{s:[i,i], s:{s:o, s:o}, s:o, s:i}", "size", w, h, "setup", "black", black,
	    "white", white, "moves", mv, "handicap", 0);
}

static json_t *
call(const char *method, json_t *params, struct sht_error *err)
{
	bool unknown;
	json_t *r = sht_method_call(&ctx, method, params, &unknown, err);

	json_decref(params);
	return r;
}

static json_t *
must(const char *method, json_t *params)
{
	struct sht_error err;
	json_t *r = call(method, params, &err);

	if (r == NULL)
		fail_msg("%s failed: %s", method, err.message);
	return r;
}

/* Looks up "key" or "a.b": one level of nesting is all the tests need. */
static const json_t *
field(const json_t *o, const char *path)
{
	const char *dot = strchr(path, '.');

	if (dot != NULL) {
		char first[32];

		snprintf(first, sizeof(first), "%.*s", (int)(dot - path), path);
		o = json_object_get(o, first);
		path = dot + 1;
	}
	return json_object_get(o, path);
}

static const char *
str(const json_t *o, const char *path)
{
	return json_string_value(field(o, path));
}

static double
num(const json_t *o, const char *path)
{
	return json_number_value(field(o, path));
}

static json_t *
score(const char *ruleset, const char *diagram, const char *moves, const char *extra_json)
{
	json_t *params = json_pack("{s:s, s:o, s:s}", "ruleset", ruleset, "game",
	    game_of(diagram, moves), "dead", "none");

	if (extra_json != NULL) {
		json_t *extra = json_loads(extra_json, 0, NULL);

		json_object_update(params, extra);
		json_decref(extra);
	}
	return must("score", params);
}

/* ---- positions ---- */

/* 19x19 split by a wall: black owns columns up to b(y), so its count is the sum of b(y) + 1;
 * rows 0..k-1 have b = 8, the rest b = 9, giving 190 - k. */
static char *
split_board(int k)
{
	char *d = malloc(19 * 20 + 1), *p = d;

	for (int y = 0; y < 19; y++) {
		int b = y < k ? 8 : 9;

		for (int x = 0; x < 19; x++)
			*p++ = x == b ? 'X' : x == b + 1 ? 'O' : '.';
		*p++ = '\n';
	}
	*p = '\0';
	return d;
}

/* docs/rules.md section 5's tax example: A_B 184, A_W 177, no dame; five black groups (bands cut by
 * white walls) and three white ones (cut by black walls across the right side). */
static const char tax_board[] =
    "..........XO.......\n"
    "XXXXXXXXXXXO.......\n"
    "OOOOOOOOOOOO.......\n"
    "XXXXXXXXXXXOOOOOOOO\n"
    "..........XXXXXXXXX\n"
    "XXXXXXXXXXXOOOOOOOO\n"
    "OOOOOOOOOOOO.......\n"
    "XXXXXXXXXXXO.......\n"
    "..........XO.......\n"
    "XXXXXXXXXXXO.......\n"
    "OOOOOOOOOOOO.......\n"
    "XXXXXXXXXXXOOOOOOOO\n"
    "..........XXXXXXXXX\n"
    "XXXXXXXXXXXOOOOOOOO\n"
    "OOOOOOOOOOOO.......\n"
    "XXXXXXXXXXXO.......\n"
    "...........XO......\n"
    "...........XO......\n"
    "...........XO......\n";

/* ---- tests ---- */

static void
test_chinese_counts_at_three_and_three_quarter_zi(void **state)
{
	/* docs/rules.md section 2: Black 184 -> W+0.5 白胜¼子; 185 -> B+1.5 黑胜¾子;
	 * 183 -> W+2.5 白胜1¼子. */
	static const struct { int count; const char *re, *native; } cases[] = {
		{ 184, "W+0.5", "白胜¼子" },
		{ 185, "B+1.5", "黑胜¾子" },
		{ 183, "W+2.5", "白胜1¼子" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *d = split_board(190 - cases[i].count);
		json_t *r = score("chinese", d, "B pass,W pass", NULL);

		assert_int_equal((int)num(r, "black.total"), cases[i].count);
		assert_string_equal(str(r, "re"), cases[i].re);
		assert_string_equal(str(r, "native.text"), cases[i].native);
		assert_string_equal(str(r, "native.unit"), "zi");
		assert_true(num(r, "white.komi") == 7.5);
		json_decref(r);
		free(d);
	}
}

static void
test_ancient_group_tax_example(void **state)
{
	json_t *r;

	(void)state;
	/* With the tax: C_B = 184 - (5 - 3) = 182, Black wins by 1½ zi (B+3). */
	r = score("ancient", tax_board, "W pass,B pass", NULL);
	assert_int_equal((int)num(r, "black.groups"), 5);
	assert_int_equal((int)num(r, "white.groups"), 3);
	assert_int_equal((int)(num(r, "black.stones") + num(r, "black.territory")), 184);
	assert_int_equal((int)(num(r, "white.stones") + num(r, "white.territory")), 177);
	assert_string_equal(str(r, "re"), "B+3");
	assert_string_equal(str(r, "native.text"), "黑胜1子半");
	json_decref(r);
	/* Without it (Chinese counting, no komi): B+7, 黑胜3子半. */
	r = score("chinese", tax_board, "B pass,W pass", "{\"komi\": 0}");
	assert_string_equal(str(r, "re"), "B+7");
	assert_string_equal(str(r, "native.text"), "黑胜3子半");
	json_decref(r);
}

static void
test_tax_arithmetic_with_eight_black_groups(void **state)
{
	/* The example's third line: with 8 black groups C_B = 179, White wins by 1½ zi. */
	struct sht_counts k;
	struct sht_tally_policy pol = { sizeof(pol), SHT_COUNTING_AREA, 1, SHT_SEKI_EYES_NOBODY,
		SHT_TAX_PER_GROUP, 0, 0, 0 };
	struct sht_score_result r;

	(void)state;
	memset(&k, 0, sizeof(k));
	k.stones[1] = 100;
	k.territory[1] = 84;
	k.stones[2] = 100;
	k.territory[2] = 77;
	k.groups[1] = 8;
	k.groups[2] = 3;
	memset(&r, 0, sizeof(r));
	sht_tally(&k, &pol, &r);
	assert_int_equal(r.margin, -6); /* half points: W+3 */
	assert_string_equal(r.re, "W+3");
	k.groups[1] = 5;
	sht_tally(&k, &pol, &r);
	assert_string_equal(r.re, "B+3");
	pol.tax = SHT_TAX_NONE;
	sht_tally(&k, &pol, &r);
	assert_string_equal(r.re, "B+7");
	/* The same over the groups historians count, which the ancient plugin taxes. */
	k.groups[1] = k.groups[2] = 0;
	k.tax_groups[1] = 8;
	k.tax_groups[2] = 3;
	pol.tax = SHT_TAX_PER_CONNECTED_GROUP;
	sht_tally(&k, &pol, &r);
	assert_string_equal(r.re, "W+3");
	k.tax_groups[1] = 5;
	sht_tally(&k, &pol, &r);
	assert_string_equal(r.re, "B+3");
}

/*
 * A seki with an eye each: the black corner (B9 A8 B8, eye A9) and the white chain (D9 C8 D8 E8
 * F8 F9, eye E9) share C9 and nothing else; neither side can fill C9 without going into atari.
 * Around them: a black wall with 18 points of territory, a black two-eyed group in the lower
 * right, a white wall with 12 points.  Play adds a capture: White throws in at J9, Black takes it
 * with H9 and J8, so Black has one prisoner and two fewer points of territory.
 *
 * Final count, worked by hand: Black 27 stones, territory 19 (18 + the seki eye A9), White 21
 * stones, territory 13 (12 + the seki eye E9), dame 1 (C9), ILRs Black 2, White 1, komi 0.5.
 *   area, seki eyes count, no tax:   B 27+19+0.5 = 46.5   W 21+13+0.5+0.5 = 35   B+11.5
 *   area, seki eyes for nobody:      B 27+18+0.5 = 45.5   W 21+12+0.5+0.5 = 34   B+11.5
 *   area, tax 2 per ILR (还棋头):    B 45.5-4    = 41.5   W 34-2          = 32   B+9.5
 *   territory less losses, no tax:  B 19-0      = 19     W 13-1+0.5      = 12.5 B+6.5
 *   territory + prisoners, no seki: B 18+1      = 19     W 12+0+0.5      = 12.5 B+6.5
 *   territory less losses, tax:     B 18-0-4    = 14     W 12-1-2+0.5    = 9.5  B+4.5
 * (KataGo's GroupTaxSekiScoring runs the same six combinations on a board of its own.)
 */
static const char seki_board[] =
    ". X . O . O X . .\n"
    "X X O O O O X . .\n"
    "O O X X X X X . .\n"
    ". O X . . . . . .\n"
    ". O X . . . . . .\n"
    ". O X X X X X X X\n"
    ". O O O O O O O O\n"
    ". . . . O X X X X\n"
    ". . . . O X . X .\n";

static void
test_seki_under_six_counting_combinations(void **state)
{
	static const struct {
		const char *ruleset, *re;
		double black_territory, black_total, white_total;
	} cases[] = {
		{ "chinese", "B+11.5", 19, 46.5, 35 },
		{ "area-seki", "B+11.5", 18, 45.5, 34 },
		{ "ancient", "B+9.5", 18, 41.5, 32 },
		{ "territory-plain", "B+6.5", 19, 19, 12.5 },
		{ "japanese", "B+6.5", 18, 19, 12.5 },
		/* IGS's count: territory and prisoners with the seki eyes, one each. */
		{ "igs", "B+6.5", 19, 20, 13.5 },
		{ "ancient-tang", "B+4.5", 18, 14, 9.5 },
	};
	/* Two variants a researcher would write: no C, one value changed each. */
	static const char *const files[] = {
		"area-seki.yaml", "plugin: chinese\nparameters:\n  seki_eyes: nobody\n",
		"territory-plain.yaml", "plugin: ancient\nparameters:\n  counting: territory\n"
		"  group_tax: false\n",
		NULL,
	};
	struct variants v;

	(void)state;
	variants_load(&v, files);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct sht_ruleset *rs = sht_registry_find(registry, cases[i].ruleset);
		bool white_first;
		struct sht_error e;
		bool unknown;
		json_t *r;


		if (rs == NULL)
			rs = sht_registry_find(v.registry, cases[i].ruleset);
		assert_non_null(rs);
		white_first = rs->setup.first_player == SHT_RP_WHITE;
		json_t *params = json_pack("{s:s, s:o, s:s, s:f}", "ruleset", cases[i].ruleset, "game",
		    game_of(seki_board, white_first ? "W J9,B H9,W pass,B J8,W pass,B pass" :
		    "B pass,W J9,B H9,W pass,B J8,W pass,B pass"), "dead", "none", "komi", 0.5);

		r = sht_method_call(sht_registry_find(registry, cases[i].ruleset) ? &ctx : &v.ctx,
		    "score", params, &unknown, &e);
		json_decref(params);
		if (r == NULL)
			fail_msg("%s: %s", cases[i].ruleset, e.message);
		if (strcmp(str(r, "re"), cases[i].re) != 0 ||
		    num(r, "black.territory") != cases[i].black_territory ||
		    num(r, "black.total") != cases[i].black_total ||
		    num(r, "white.total") != cases[i].white_total)
			fail_msg("%s: %s, black territory %g total %g, white total %g", cases[i].ruleset,
			    str(r, "re"), num(r, "black.territory"), num(r, "black.total"),
			    num(r, "white.total"));
		/* The seki: 3 black and 6 white stones, found and reported. */
		assert_int_equal((int)json_array_size(json_object_get(r, "seki")), 9);
		json_decref(r);
	}
	variants_free(&v);
}

static void
test_bent_four_marked_dead(void **state)
{
	/* Bent four in the corner: dead under the Japanese rules (Art. 7, pass-for-ko).  Marked
	 * dead by the players (one stone marks its chain), the white corner's two stones are
	 * Black's prisoners and their points Black's territory.  Recognising it unaided is the
	 * dead-stone judge's work (docs/dead-stones.md). */
	static const char d[] =
	    "O O X . X . .\n"
	    ". O X . X . .\n"
	    "X X X . X . .\n"
	    ". . . . X . .\n"
	    "X X X X X . .\n"
	    ". . . . . . .\n"
	    ". . . . . . .\n";
	json_t *r = must("score", json_pack("{s:s, s:o, s:[s], s:i}", "ruleset", "japanese", "game",
	    game_of(d, "B pass,W pass"), "dead", "A7", "komi", 0));

	(void)state;
	assert_int_equal((int)json_array_size(json_object_get(r, "dead")), 3);
	assert_true(num(r, "black.prisoners") == 3);
	/* The corner (A7 B7 B6 A6: 3 dead stones' points and one empty) is Black's. */
	assert_true(num(r, "black.territory") >= 4);
	assert_string_equal(str(r, "winner"), "B");
	json_decref(r);
}

static void
test_tang_territory_examples(void **state)
{
	/* docs/rules.md section 5, from GoGoD's comments: territory - stones lost - 2 per group. */
	static const struct {
		int terr_b, lost_b, groups_b, terr_w, lost_w, groups_w;
		const char *re, *re_without_tax;
	} games[] = {
		{ 52, 6, 3, 51, 6, 3, "B+1", "B+1" },   /* 金花椀, c. 850: 40 to 39 */
		{ 37, 9, 5, 45, 22, 3, "B+1", "B+5" },  /* Rotten axe-handle: 18 to 17 */
		{ 55, 9, 2, 58, 7, 4, "W+1", "W+5" },   /* Chengdu 1094: 42 to 43 */
	};
	struct sht_tally_policy pol = { sizeof(pol), SHT_COUNTING_TERRITORY, 0, SHT_SEKI_EYES_NOBODY,
		SHT_TAX_PER_GROUP, 0, 0, 1 };
	struct sht_score_result r;
	struct sht_counts k;

	(void)state;
	for (size_t i = 0; i < sizeof(games) / sizeof(games[0]); i++) {
		memset(&k, 0, sizeof(k));
		k.territory[1] = games[i].terr_b;
		k.territory[2] = games[i].terr_w;
		k.captures[2] = games[i].lost_b; /* what Black lost, White took */
		k.captures[1] = games[i].lost_w;
		k.groups[1] = games[i].groups_b;
		k.groups[2] = games[i].groups_w;
		pol.tax = SHT_TAX_PER_GROUP;
		sht_tally(&k, &pol, &r);
		assert_string_equal(r.re, games[i].re);
		assert_int_equal(r.black.total, 2 * (games[i].terr_b - games[i].lost_b -
		    2 * games[i].groups_b));
		/* The ancient plugin's tax counts the groups historians count (tax_groups): the
		 * same sums when the editors' groups are those. */
		k.tax_groups[1] = games[i].groups_b;
		k.tax_groups[2] = games[i].groups_w;
		k.groups[1] = k.groups[2] = 0;
		pol.tax = SHT_TAX_PER_CONNECTED_GROUP;
		sht_tally(&k, &pol, &r);
		assert_string_equal(r.re, games[i].re);
		assert_int_equal(r.black.groups, games[i].groups_b);
		assert_int_equal(r.white.total, 2 * (games[i].terr_w - games[i].lost_w -
		    2 * games[i].groups_w));
		pol.tax = SHT_TAX_NONE;
		sht_tally(&k, &pol, &r);
		assert_string_equal(r.re, games[i].re_without_tax);
	}
}

/* A 9x9 end where the group unit decides the tax: Black's wall (row 7) and its tail (D5 down to
 * the eye D1-D3) meet only at the tiger's mouth D6, so historians count one black group where
 * the ILRs are two; White's two groups share no point.  A_B = 20 stones + 21 territory, A_W =
 * 18 + 20, dame C6 and D6 (tests/data/board/tax-tiger-mouth.case is the same board). */
static const char tiger_mouth_board[] =
    ".........\n"
    ".........\n"
    "XXXXXXXXX\n"
    "OO..XOOOO\n"
    ".OOXOO...\n"
    ".OXXXO...\n"
    ".OX.XO...\n"
    ".OX.XO...\n"
    ".OX.XO...\n";

static void
test_tax_groups_as_historians_count_them(void **state)
{
	/* Worked by hand.  Ming-Qing (area, half the 2 dame each, 2 points a group): Black
	 * 41 + 1 - 2 x 1 = 40, White 38 + 1 - 2 x 2 = 35, B+5 (2½ zi); with ILRs Black pays for 2
	 * groups, 38 to 35, B+3.  Tang (territory - stones lost - 2 a group): Black 21 - 0 - 2 =
	 * 19, White 20 - 0 - 4 = 16, B+3; with ILRs 17 to 16, B+1. */
	static const struct {
		const char *ruleset, *re, *native;
		int black_groups;
		double black_total, white_total;
	} cases[] = {
		{ "ancient", "B+5", "黑胜2子半", 1, 40, 35 },
		{ "ancient-tang", "B+3", "黑胜3路", 1, 19, 16 },
		{ "ancient-ilr", "B+3", "黑胜1子半", 2, 38, 35 },
		{ "ancient-tang-ilr", "B+1", "黑胜1路", 2, 17, 16 },
	};
	static const char *const files[] = {
		"ancient-ilr.yaml", "plugin: ancient\nparameters:\n  group_unit: ilr\n",
		"ancient-tang-ilr.yaml", "plugin: ancient\nparameters:\n  seated: mirror\n"
		"  counting: territory\n  result_unit: lu\n  group_unit: ilr\n",
		NULL,
	};
	struct variants v;

	(void)state;
	variants_load(&v, files);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool shipped = sht_registry_find(registry, cases[i].ruleset) != NULL;
		json_t *params = json_pack("{s:s, s:o, s:s}", "ruleset", cases[i].ruleset, "game",
		    game_of(tiger_mouth_board, "W pass,B pass"), "dead", "none");
		struct sht_error e;
		bool unknown;
		json_t *r = sht_method_call(shipped ? &ctx : &v.ctx, "score", params, &unknown, &e);

		json_decref(params);
		if (r == NULL)
			fail_msg("%s: %s", cases[i].ruleset, e.message);
		if (strcmp(str(r, "re"), cases[i].re) != 0 ||
		    strcmp(str(r, "native.text"), cases[i].native) != 0 ||
		    num(r, "black.groups") != cases[i].black_groups ||
		    num(r, "white.groups") != 2 ||
		    num(r, "black.total") != cases[i].black_total ||
		    num(r, "white.total") != cases[i].white_total)
			fail_msg("%s: %s %s, groups %g and %g, totals %g and %g", cases[i].ruleset,
			    str(r, "re"), str(r, "native.text"), num(r, "black.groups"),
			    num(r, "white.groups"), num(r, "black.total"), num(r, "white.total"));
		json_decref(r);
	}
	variants_free(&v);
	/* seki_tax: eyes-needed over these groups: 2 points a group in no seki, 1 an eyed seki
	 * group, read from tax_seki_groups_eyed and not the ILRs' seki_groups_eyed. */
	{
		struct sht_tally_policy pol = { sizeof(pol), SHT_COUNTING_AREA, 1,
			SHT_SEKI_EYES_COUNT, SHT_TAX_EYES_NEEDED_CONNECTED, 0, 0, 0 };
		struct sht_counts k;
		struct sht_score_result res;

		memset(&k, 0, sizeof(k));
		k.groups[1] = k.seki_groups_eyed[1] = 7;
		k.tax_groups[1] = 2;
		k.tax_seki_groups_eyed[1] = 1;
		k.tax_groups[2] = 1;
		memset(&res, 0, sizeof(res));
		sht_tally(&k, &pol, &res);
		assert_int_equal(res.black.tax, 4 * 2 + 2 * 1);
		assert_int_equal(res.black.groups, 2);
		assert_int_equal(res.white.tax, 4);
	}
}

static void
test_handicap_compensation(void **state)
{
	/* Four handicap stones, White first: Chinese returns N/2 zi = 4 points to White. */
	json_t *params = json_pack("{s:s, s:{s:i, s:{s:[s,s,s,s]}, s:[s,s], s:i}, s:s}",
	    "ruleset", "chinese", "game", "size", 9, "setup", "black", "C3", "G7", "C7", "G3",
	    "moves", "W pass", "B pass", "handicap", 4, "dead", "none");
	json_t *r = must("score", params);

	(void)state;
	assert_true(num(r, "white.handicap_compensation") == 4);
	json_decref(r);
	/* Japanese rules give none. */
	params = json_pack("{s:s, s:{s:i, s:{s:[s,s,s,s]}, s:[s,s]}, s:s}", "ruleset", "japanese",
	    "game", "size", 9, "setup", "black", "C3", "G7", "C7", "G3", "moves", "W pass",
	    "B pass", "dead", "none");
	r = must("score", params);
	assert_true(num(r, "white.handicap_compensation") == 0);
	json_decref(r);
	/* AGA gives N - 1, 3 points, with its own komi of 7.5 on top (handicap games under the
	 * AGA rules keep komi only when the players set it; the record's KM is read first). */
	params = json_pack("{s:s, s:{s:i, s:{s:[s,s,s,s]}, s:[s,s], s:i, s:f}, s:s}", "ruleset",
	    "aga", "game", "size", 9, "setup", "black", "C3", "G7", "C7", "G3", "moves", "W pass",
	    "B pass", "handicap", 4, "komi", 0.5, "dead", "none");
	r = must("score", params);
	assert_true(num(r, "white.handicap_compensation") == 3);
	/* 4 stones and 77 points of territory against 3 + 0.5: Black by 77.5. */
	assert_true(num(r, "margin") == 77.5);
	assert_string_equal(str(r, "re"), "B+77.5");
	json_decref(r);
}

/* A KGS record's RU[AGA] is scored under the AGA rules, without the ruleset named. */
static void
test_ru_aga_is_scored_under_aga(void **state)
{
	json_t *r = must("score", json_pack("{s:{s:s}, s:s}", "game", "sgf",
	    "(;SZ[9]RU[AGA]HA[2]AB[cc][gg];W[ee];B[];W[])", "dead", "none"));

	(void)state;
	assert_string_equal(str(r, "ruleset"), "aga");
	assert_true(num(r, "white.handicap_compensation") == 1);
	json_decref(r);
}

static void
test_seated_stones_and_white_first(void **state)
{
	json_t *r, *moves;

	(void)state;
	/* No setup in the game: the ruleset seats White on D16 and Q4, Black on D4 and Q16. */
	r = must("replay", json_pack("{s:s, s:{s:[s,s]}}", "ruleset", "ancient", "game", "moves",
	    "W K10", "B C3"));
	assert_string_equal(json_string_value(json_array_get(json_object_get(r, "position"), 3)),
	    "...O...........X...");
	assert_string_equal(json_string_value(json_array_get(json_object_get(r, "position"), 15)),
	    "...X...........O...");
	moves = json_object_get(r, "moves");
	assert_string_equal(str(json_array_get(moves, 0), "verdict"), "ok");
	json_decref(r);
	/* Black first is two moves in a row for the side that was not to move: void. */
	r = must("replay", json_pack("{s:s, s:{s:[s]}}", "ruleset", "ancient", "game", "moves",
	    "B K10"));
	moves = json_object_get(r, "moves");
	assert_string_equal(str(json_array_get(moves, 0), "verdict"), "void");
	assert_string_equal(str(json_array_get(moves, 0), "reason"), "not_your_turn");
	json_decref(r);
	/* The mirror seating of Tang and Song records. */
	r = must("replay", json_pack("{s:s, s:{s:[]}}", "ruleset", "ancient-tang", "game", "moves"));
	assert_string_equal(json_string_value(json_array_get(json_object_get(r, "position"), 3)),
	    "...X...........O...");
	json_decref(r);
}

static void
test_consequences_differ_by_ruleset(void **state)
{
	/* White plays a suicide at A9 (the corner eye of black's stones). */
	static const char d[] =
	    ". X . . . . . . .\n"
	    "X . . . . . . . .\n"
	    ". . . . . . . . .\n"
	    ". . . . . . . . .\n"
	    ". . . . . . . . .\n"
	    ". . . . . . . . .\n"
	    ". . . . . . . . .\n"
	    ". . . . . . . . .\n"
	    ". . . . . . . . .\n";
	json_t *r;
	struct sht_error err;

	(void)state;
	r = must("replay", json_pack("{s:s, s:o}", "ruleset", "chinese", "game",
	    game_of(d, "B E5,W A9,B E4")));
	assert_string_equal(str(json_array_get(json_object_get(r, "moves"), 1), "verdict"), "void");
	assert_string_equal(str(json_array_get(json_object_get(r, "moves"), 1), "reason"), "suicide");
	assert_string_equal(str(r, "end.state"), "playing");
	json_decref(r);
	r = must("replay", json_pack("{s:s, s:o}", "ruleset", "japanese", "game",
	    game_of(d, "B E5,W A9,B E4")));
	assert_string_equal(str(r, "end.state"), "loss");
	assert_string_equal(str(r, "end.loser"), "W");
	json_decref(r);
	/* A score after a loss says who won and why. */
	r = score("japanese", d, "B E5,W A9", NULL);
	assert_string_equal(str(r, "re"), "B+F");
	json_decref(r);
	/* Two moves in a row: the 1988 rules lose, 2002 voids with a warning, two warnings lose. */
	r = must("replay", json_pack("{s:s, s:o}", "ruleset", "chinese-1988", "game",
	    game_of(d, "B E5,B E4")));
	assert_string_equal(str(r, "end.state"), "loss");
	json_decref(r);
	r = must("replay", json_pack("{s:s, s:o}", "ruleset", "chinese", "game",
	    game_of(d, "B E5,B E4,W D4,B D5,B D6")));
	assert_string_equal(str(json_array_get(json_object_get(r, "moves"), 1), "verdict"),
	    "warning");
	assert_string_equal(str(r, "end.state"), "loss");
	assert_string_equal(str(r, "end.loser"), "B");
	json_decref(r);
	/* A stone on an occupied point is no move: the record is refused, naming the move. */
	r = call("replay", json_pack("{s:s, s:o}", "ruleset", "chinese", "game",
	    game_of(d, "B E5,W E5")), &err);
	assert_null(r);
	assert_int_equal(err.kind, SHT_ERROR_ILLEGAL_MOVE);
	assert_int_equal(err.move, 2);
	assert_string_equal(err.message, "move 2 (W E5): point is occupied");
}

static void
test_legal_method(void **state)
{
	static const char d[] =
	    ". X O . .\n"
	    "X O . O .\n"
	    ". X O . .\n"
	    ". . . . .\n"
	    ". . . . .\n";
	json_t *r;

	(void)state;
	r = must("legal", json_pack("{s:s, s:o, s:s}", "ruleset", "japanese", "game",
	    game_of(d, ""), "move", "B C4"));
	assert_true(json_is_true(json_object_get(r, "legal")));
	assert_string_equal(json_string_value(json_array_get(json_object_get(r, "captures"), 0)),
	    "B4");
	json_decref(r);
	r = must("legal", json_pack("{s:s, s:o, s:s}", "ruleset", "japanese", "game",
	    game_of(d, "B C4"), "move", "W B4"));
	assert_false(json_is_true(json_object_get(r, "legal")));
	assert_string_equal(str(r, "reason"), "ko");
	assert_string_equal(str(r, "consequence"), "loss");
	json_decref(r);
	r = must("legal", json_pack("{s:s, s:o, s:s}", "ruleset", "chinese", "game",
	    game_of(d, "B C4"), "move", "W B4"));
	assert_string_equal(str(r, "consequence"), "void");
	json_decref(r);
	r = must("legal", json_pack("{s:s, s:o, s:s}", "ruleset", "chinese", "game",
	    game_of(d, "B C4"), "move", "B D2"));
	assert_string_equal(str(r, "reason"), "not_your_turn");
	json_decref(r);
}

/* Writes a YAML file into a temporary rulesets directory. */
static void
write_file(const char *dir, const char *name, const char *text)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void
test_han_stone_supply(void **state)
{
	char dir[] = "/tmp/shoutan-rulesets-XXXXXX";
	char err[SHT_ERR_MAX];
	struct sht_registry *r2;
	struct sht_context c2;
	struct sht_error e;
	bool unknown;
	json_t *res, *params;

	(void)state;
	assert_non_null(mkdtemp(dir));
	/* A researcher's variant: the Han board with three stones a side. */
	write_file(dir, "han-tiny.yaml", "plugin: han17\nparameters:\n  stones: 3\n");
	r2 = sht_registry_load(plugins_dir, dir, err, sizeof(err));
	if (r2 == NULL)
		fail_msg("%s", err);
	memset(&c2, 0, sizeof(c2));
	c2.registry = r2;
	params = json_pack("{s:s, s:{s:[s,s,s,s,s,s,s,s]}}", "ruleset", "han-tiny", "game", "moves",
	    "W A1", "B B1", "W A3", "B B3", "W A5", "B B5", "W A7", "B B7");
	res = sht_method_call(&c2, "replay", params, &unknown, &e);
	json_decref(params);
	assert_non_null(res);
	/* White's fourth stone is void: no stones left, so the turn is lost. */
	assert_string_equal(str(json_array_get(json_object_get(res, "moves"), 6), "verdict"),
	    "void");
	assert_string_equal(str(json_array_get(json_object_get(res, "moves"), 6), "reason"),
	    "no_stones_left");
	assert_string_equal(str(json_array_get(json_object_get(res, "moves"), 7), "verdict"),
	    "void");
	json_decref(res);
	sht_registry_free(r2);
	{
		char path[1100];

		snprintf(path, sizeof(path), "%s/han-tiny.yaml", dir);
		unlink(path);
		rmdir(dir);
	}
}

static void
expect_yaml_error(const char *text, const char *want)
{
	char dir[] = "/tmp/shoutan-yaml-XXXXXX", path[1100], err[SHT_ERR_MAX] = "";
	struct sht_ruleset *rs;

	assert_non_null(mkdtemp(dir));
	write_file(dir, "bad.yaml", text);
	snprintf(path, sizeof(path), "%s/bad.yaml", dir);
	rs = sht_ruleset_load(registry, path, err, sizeof(err));
	if (rs != NULL || strstr(err, want) == NULL)
		fail_msg("want an error containing \"%s\", got \"%s\"", want, err);
	unlink(path);
	rmdir(dir);
}

static void
test_yaml_errors_name_file_line_column(void **state)
{
	(void)state;
	expect_yaml_error("plugin: chinese\nparameters:\n  komi: lots\n",
	    "bad.yaml:3:9: komi: 'lots' is not a number");
	expect_yaml_error("plugin: chinese\nparameters:\n  kom: 7\n",
	    "bad.yaml:3:3: plugin chinese has no parameter 'kom'");
	expect_yaml_error("plugin: chinese\nparameters:\n  size: 99\n",
	    "bad.yaml:3:9: size: 99 is out of range (2 to 25)");
	expect_yaml_error("plugin: chinese\nparameters:\n  ko: maybe\n",
	    "bad.yaml:3:7: ko: 'maybe' is not one of: simple positional");
	expect_yaml_error("plugin: chinese\ncolour: red\n", "bad.yaml:2:1: unknown key 'colour'");
	expect_yaml_error("plugin: nonesuch\n", "bad.yaml:1:9: no plugin named 'nonesuch'");
	expect_yaml_error("plugin: chinese\nparameters: [1, 2]\n",
	    "bad.yaml:2:13: parameters must be a mapping");
	expect_yaml_error("plugin: [chinese\n", "bad.yaml:2:1: YAML error");
	expect_yaml_error("plugin: chinese\nparameters:\n  komi: 3.7\n",
	    "not a whole number of half points");
	/* An alias bomb is read without expanding it, then refused as a wrong type. */
	expect_yaml_error("a: &a [x, x]\nb: &b [*a, *a]\nplugin: chinese\n", "unknown key 'a'");
}

static void
test_plugin_loading_refusals(void **state)
{
	char path[1024], err[SHT_ERR_MAX];
	struct sht_plugin *p;

	(void)state;
	snprintf(path, sizeof(path), "%s/wrong_abi.so", test_plugins_dir);
	p = sht_plugin_load(path, err, sizeof(err));
	assert_null(p);
	/* The message names the file and both versions. */
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, "version 99"));
	assert_non_null(strstr(err, "speaks version 1"));

	snprintf(path, sizeof(path), "%s/failing_init.so", test_plugins_dir);
	assert_null(sht_plugin_load(path, err, sizeof(err)));
	assert_non_null(strstr(err, "failed to initialise: the test plugin refuses to start"));

	snprintf(path, sizeof(path), "%s/no_entry.so", test_plugins_dir);
	assert_null(sht_plugin_load(path, err, sizeof(err)));
	assert_non_null(strstr(err, "no symbol shoutan_ruleset_plugin"));

	snprintf(path, sizeof(path), "%s/does-not-exist.so", test_plugins_dir);
	assert_null(sht_plugin_load(path, err, sizeof(err)));
	assert_non_null(strstr(err, "cannot load plugin"));
}

static void
test_describe_marks_reconstructions(void **state)
{
	json_t *r = must("describe", json_pack("{s:s}", "ruleset", "han17")), *p;
	size_t i;
	int reconstructed = 0;

	(void)state;
	json_array_foreach(json_object_get(r, "parameters"), i, p)
		reconstructed += json_is_true(json_object_get(p, "reconstruction"));
	assert_true(reconstructed >= 3);
	/* 150 stones a side, 17 lines, White first. */
	assert_int_equal(json_integer_value(json_array_get(json_object_get(json_object_get(r,
	    "setup"), "stones"), 0)), 150);
	assert_int_equal(json_integer_value(json_array_get(json_object_get(json_object_get(r,
	    "setup"), "board"), 0)), 17);
	assert_string_equal(str(r, "setup.first"), "W");
	json_decref(r);
}

/* ---- method entries, consequences, descriptions and dame (issue 11) ---- */

/* Each method's entry names it, says what it accepts, and the dispatch checks params from it. */
static void
test_method_entries(void **state)
{
	size_t n;
	const struct sht_method_entry *const *all = sht_method_entries(&n);
	int with_usage = 0;

	(void)state;
	assert_true(n >= 10);
	for (size_t i = 0; i < n; i++) {
		const struct sht_method_entry *e = all[i];
		struct sht_error err;
		json_t *r;

		assert_non_null(e->name);
		assert_non_null(e->summary);
		assert_non_null(e->params);
		assert_non_null(e->run);
		assert_ptr_equal(sht_method_find(e->name), e);
		assert_int_equal(sht_method_pure(e->name), e->pure);
		if (e->usage != NULL) {
			/* The usage line opens with the subcommand, which is the method's name. */
			assert_int_equal(strncmp(e->usage, e->name, strlen(e->name)), 0);
			assert_true(e->usage[strlen(e->name)] == ' ' ||
			    e->usage[strlen(e->name)] == '\0');
			with_usage++;
		}
		/* A param the entry does not list is refused, naming the ones it does. */
		r = call(e->name, json_pack("{s:i}", "bogus_param", 1), &err);
		assert_null(r);
		assert_int_equal(err.kind, SHT_ERROR_BAD_PARAMS);
		assert_non_null(strstr(err.message, "bogus_param"));
		for (int k = 0; e->params[k] != NULL; k++)
			assert_non_null(strstr(err.message, e->params[k]));
	}
	assert_true(with_usage >= 8);
	assert_non_null(sht_method_find("legal")->usage);
	/* Whether a move is legal does not depend on komi: legal took it and ignored it. */
	for (int k = 0; sht_method_find("legal")->params[k] != NULL; k++)
		assert_string_not_equal(sht_method_find("legal")->params[k], "komi");
	assert_null(sht_method_find("nonesuch"));
	assert_false(sht_method_pure("status"));
	assert_false(sht_method_pure("nonesuch"));
}

/* ---- input a user would expect to be told about (issue 11, item 10) ---- */

/* Whether any of a result's notes contains `needle`. */
static bool
has_note(const json_t *result, const char *needle)
{
	size_t i;
	json_t *n;

	json_array_foreach(json_object_get(result, "notes"), i, n)
		if (strstr(json_string_value(n), needle) != NULL)
			return true;
	return false;
}

static json_t *
score_sgf(const char *ruleset, const char *sgf, struct sht_error *err)
{
	json_t *params = json_pack("{s:{s:s}, s:s}", "game", "sgf", sgf, "dead", "none");

	if (ruleset != NULL)
		json_object_set_new(params, "ruleset", json_string(ruleset));
	return call("score", params, err);
}

static void
test_setup_stone_of_both_colours_is_refused(void **state)
{
	struct sht_error err;
	json_t *r;

	(void)state;
	/* SGF: AB and AW of one node on ee; the error names the point and where the second
	 * property stands. */
	assert_null(score_sgf("chinese", "(;SZ[9]AB[dd][ee]\nAW[cc][ee];B[aa])", &err));
	assert_int_equal(err.kind, SHT_ERROR_BAD_SGF);
	assert_int_equal(err.line, 2);
	assert_int_equal(err.column, 1);
	assert_non_null(strstr(err.message, "AB and AW of one node both set point ee (E5)"));
	/* AE beside AB on one point is no position either. */
	assert_null(score_sgf("chinese", "(;SZ[9]AB[ee]AE[ee])", &err));
	assert_non_null(strstr(err.message, "AB and AE of one node both set point ee (E5)"));
	/* In a later node, AW over a black stone is an edit of the position, and stands. */
	r = score_sgf("chinese", "(;SZ[9]AB[dd][ee];AW[cc][ee];B[];W[])", &err);
	assert_non_null(r);
	assert_int_equal((int)num(r, "black.stones"), 1);
	assert_int_equal((int)num(r, "white.stones"), 2);
	json_decref(r);
	/* The JSON game object: a vertex in both lists, named as the request wrote it. */
	assert_null(call("score", json_pack("{s:s, s:{s:i, s:{s:[s,s], s:[s,s]}}}", "ruleset",
	    "chinese", "game", "size", 9, "setup", "black", "D4", "E5", "white", "C3", "e5"),
	    &err));
	assert_int_equal(err.kind, SHT_ERROR_BAD_PARAMS);
	assert_string_equal(err.message, "game.setup.white[1]: e5 is also in game.setup.black (a "
	    "point holds one stone)");
}

/* A JSON move list's vertices in every form the reader takes: GTP letters in either case with
 * one or two digits (a leading zero too), an SGF point, and the near misses it refuses. */
static void
test_json_move_vertices(void **state)
{
	static const char *const refused[] = { "I5", "i5", "T20", "A0", "D0", "Z9", "D100", "D4x",
	    "@4", "[4", "d" };
	struct sht_error err;
	json_t *r, *moves;

	(void)state;
	r = must("replay", json_pack("{s:s, s:{s:i, s:[s,s,s,s,s,s]}}", "ruleset", "chinese",
	    "game", "size", 19, "moves", "B D04", "W t19", "B dd", "W q16", "B A1", "W J10"));
	moves = json_object_get(r, "moves");
	assert_int_equal((int)json_array_size(moves), 6);
	assert_string_equal(str(json_array_get(moves, 0), "vertex"), "D4");
	assert_string_equal(str(json_array_get(moves, 1), "vertex"), "T19");
	assert_string_equal(str(json_array_get(moves, 2), "vertex"), "D16");
	assert_string_equal(str(json_array_get(moves, 3), "vertex"), "Q16");
	assert_string_equal(str(json_array_get(moves, 4), "vertex"), "A1");
	assert_string_equal(str(json_array_get(moves, 5), "vertex"), "J10");
	json_decref(r);
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		char move[16], message[96];

		snprintf(move, sizeof(move), "B %s", refused[i]);
		assert_null(call("replay", json_pack("{s:s, s:{s:i, s:[s]}}", "ruleset", "chinese",
		    "game", "size", 19, "moves", move), &err));
		snprintf(message, sizeof(message), "game.moves[0]: '%s' is not a vertex of the 19x19 "
		    "board", refused[i]);
		assert_string_equal(err.message, message);
	}
	/* On a 9x9 board the tenth row is off it. */
	assert_null(call("replay", json_pack("{s:s, s:{s:i, s:[s]}}", "ruleset", "chinese", "game",
	    "size", 9, "moves", "B A10"), &err));
	assert_string_equal(err.message, "game.moves[0]: 'A10' is not a vertex of the 9x9 board");
}

static void
test_handicap_that_the_stones_do_not_match_is_noted(void **state)
{
	struct sht_error err;
	json_t *r;

	(void)state;
	r = score_sgf("chinese", "(;SZ[9]HA[3]AB[cc][gg];W[ee];B[];W[])", &err);
	assert_non_null(r);
	assert_true(has_note(r, "HA[3], but 2 black stones stand before the first move: the "
	    "handicap is taken as 3"));
	/* Chinese compensation follows the stated handicap: 3 points to White. */
	assert_int_equal((int)num(r, "white.handicap_compensation"), 3);
	json_decref(r);
	r = score_sgf("chinese", "(;SZ[9]HA[2]AB[cc][gg];W[ee];B[];W[])", &err);
	assert_non_null(r);
	assert_false(has_note(r, "HA["));
	json_decref(r);
	r = must("score", json_pack("{s:s, s:s, s:{s:i, s:i, s:{s:[s,s]}, s:[s,s,s]}}", "ruleset",
	    "chinese", "dead", "none", "game", "size", 9, "handicap", 3, "setup", "black", "C7", "G3",
	    "moves", "W E5", "B pass", "W pass"));
	assert_true(has_note(r, "game.handicap 3, but 2 black stones stand before the first move"));
	json_decref(r);
}

static void
test_unrecognised_ru_is_noted(void **state)
{
	struct sht_error err;
	json_t *r;

	(void)state;
	r = score_sgf(NULL, "(;SZ[9]RU[bogus];B[];W[])", &err);
	assert_non_null(r);
	assert_string_equal(str(r, "ruleset"), "chinese");
	assert_true(has_note(r, "the record's RU[bogus] names no ruleset known here: judged "
	    "under chinese"));
	json_decref(r);
	/* A recognised RU, or a ruleset the request names, needs no note. */
	r = score_sgf(NULL, "(;SZ[9]RU[Japanese];B[];W[])", &err);
	assert_non_null(r);
	assert_string_equal(str(r, "ruleset"), "japanese");
	assert_false(has_note(r, "RU["));
	json_decref(r);
	r = score_sgf("japanese", "(;SZ[9]RU[bogus];B[];W[])", &err);
	assert_non_null(r);
	assert_false(has_note(r, "RU["));
	json_decref(r);
	/* replay carries the same note. */
	r = must("replay", json_pack("{s:{s:s}}", "game", "sgf", "(;SZ[9]RU[bogus];B[];W[])"));
	assert_true(has_note(r, "RU[bogus] names no ruleset known here"));
	json_decref(r);
}

/* A record from NNGS or IGS (its PC) that names no other rules is counted as the server
 * counted it, under igs, with a note; an RU naming other rules, or the request's ruleset,
 * decides instead.  "igs" inside another word of PC is no server. */
static void
test_server_record_is_counted_as_the_server_counted(void **state)
{
	static const struct {
		const char *ruleset, *sgf, *judged;
		bool noted;
	} cases[] = {
		{ NULL, "(;SZ[9]PC[NNGS];B[];W[])", "igs", true },
		{ NULL, "(;SZ[9]PC[NNGS Worldwide: nngs.cosmic.org 9696];B[];W[])", "igs", true },
		{ NULL, "(;SZ[9]PC[cg_nngs];B[];W[])", "igs", true },
		{ NULL, "(;SZ[9]PC[IGS-PandaNet]RU[Japanese];B[];W[])", "igs", true },
		{ NULL, "(;SZ[9]PC[NNGS]RU[Chinese];B[];W[])", "chinese", false },
		{ NULL, "(;SZ[9]PC[Twigs Cafe, Kyoto];B[];W[])", "chinese", false },
		{ NULL, "(;SZ[9]PC[Twigs Cafe, on IGS];B[];W[])", "igs", true },
		{ "japanese", "(;SZ[9]PC[NNGS];B[];W[])", "japanese", false },
	};
	struct sht_error err;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *r = score_sgf(cases[i].ruleset, cases[i].sgf, &err);

		if (r == NULL)
			fail_msg("%s: %s", cases[i].sgf, err.message);
		if (strcmp(str(r, "ruleset"), cases[i].judged) != 0 ||
		    has_note(r, "counted as that server counted") != cases[i].noted)
			fail_msg("%s: judged under %s", cases[i].sgf, str(r, "ruleset"));
		json_decref(r);
	}
	/* The note names the server and the record's words. */
	{
		json_t *r = score_sgf(NULL, "(;SZ[9]PC[NNGS];B[];W[])", &err);

		assert_true(has_note(r, "the record is from NNGS (PC[NNGS]) and names no other "
		    "rules: counted as that server counted, under igs"));
		json_decref(r);
	}
}

/* A finished board with one dame open between the walls (E9, beside White's D9 and Black's E8),
 * which leaves Black's 36 points open to White: the Japanese count fills it and Black has them;
 * igs counts the board as it stands, as the servers did, and they are dame. */
static void
test_igs_counts_a_finished_board_as_it_stands(void **state)
{
	static const char *const sgf = "(;SZ[9]KM[0.5]AW[da][db][dc][dd][de][df][dg][dh][di]"
	    "AB[eb][ec][ed][ee][ef][eg][eh][ei];B[];W[])";
	struct sht_error err;
	json_t *r;

	(void)state;
	r = call("score", json_pack("{s:s, s:{s:s}, s:s}", "ruleset", "japanese", "game", "sgf",
	    sgf, "dead", "auto"), &err);
	assert_non_null(r);
	assert_string_equal(str(r, "re"), "B+8.5");
	assert_true(num(r, "black.territory") == 36);
	assert_int_equal((int)json_array_size(json_object_get(r, "settle")), 1);
	json_decref(r);
	r = call("score", json_pack("{s:s, s:{s:s}, s:s}", "ruleset", "igs", "game", "sgf", sgf,
	    "dead", "auto"), &err);
	assert_non_null(r);
	assert_string_equal(str(r, "re"), "W+27.5");
	assert_true(num(r, "black.territory") == 0);
	assert_int_equal((int)json_array_size(json_object_get(r, "settle")), 0);
	assert_true(has_note(r, "the record ends with a pass, and igs counts a finished board as "
	    "it stands: nothing was settled"));
	json_decref(r);
}

/* sgf with every two-letter point of a width x height board moved by the board symmetry g
 * (bit 2 swaps x and y, then bit 0 mirrors x and bit 1 mirrors y), into out. */
static void
mirror_sgf(const char *sgf, int width, int height, int g, char *out, size_t len)
{
	size_t n = strlen(sgf);

	assert_true(n < len);
	memcpy(out, sgf, n + 1);
	for (size_t i = 0; i + 3 < n; i++) {
		int x = sgf[i + 1] - 'a', y = sgf[i + 2] - 'a';

		if (sgf[i] != '[' || sgf[i + 3] != ']' || x < 0 || y < 0 || x >= width || y >= height)
			continue;
		if (g & 4) {
			int t = x;

			x = y;
			y = t;
		}
		if (g & 1)
			x = width - 1 - x;
		if (g & 2)
			y = height - 1 - y;
		out[i + 1] = (char)('a' + x);
		out[i + 2] = (char)('a' + y);
	}
}

/* How many settle moves of each colour and reason the score made: "B dame 3, W boundary 1". */
static void
settle_reasons(const json_t *score, char *buf, size_t len)
{
	static const char *const reasons[] = { "capture", "protect", "connection", "dame",
		"boundary" };
	size_t used = 0;

	buf[0] = '\0';
	for (int c = 0; c < 2; c++)
		for (size_t k = 0; k < sizeof(reasons) / sizeof(reasons[0]); k++) {
			size_t i;
			json_t *m;
			int n = 0;

			json_array_foreach(json_object_get(score, "settle"), i, m)
				n += strcmp(json_string_value(json_object_get(m, "color")),
				    c == 0 ? "B" : "W") == 0 &&
				    strcmp(json_string_value(json_object_get(m, "reason")), reasons[k]) == 0;
			if (n > 0 && used < len)
				used += (size_t)snprintf(buf + used, len - used, "%s%c %s %d",
				    used ? ", " : "", c == 0 ? 'B' : 'W', reasons[k], n);
		}
}

/* A record and its images under the board's symmetries are one game and count alike with
 * dead: auto: the judge works on one canonical image of the position (the playouts' random
 * moves follow the board's order), and the settle step counts all eight of its orders.  The
 * 9x5 position is the one whose orders disagree (tests/cli_test.sh, F1 and E1); the 9x9 one
 * has a dead stone on each side and an open column of dame. */
static void
test_auto_counts_a_mirrored_record_alike(void **state)
{
	static const struct {
		const char *sgf;
		int width, height, symmetries;
	} games[] = {
		{ "(;GM[1]FF[4]SZ[9:5]RU[Japanese]KM[0.5]AB[aa][ba][ca][da][bb][db][ac][bc][cc][dc]"
		  "[bd][dd][be][de][fe]AW[fa][ga][ha][ia][eb][fb][hb][ec][gc][ic][ed][fd][gd][hd][id]"
		  "[he]PL[B])", 9, 5, 4 },
		{ "(;GM[1]FF[4]SZ[9]RU[Japanese]KM[6.5]AB[da][db][dc][dd][de][df][dg][dh][di][cc][bg]"
		  "[hf]AW[fa][fb][fc][fd][fe][ff][fg][fh][fi][gc][bc][hh]PL[W])", 9, 9, 8 },
	};
	struct sht_error err;

	(void)state;
	for (size_t i = 0; i < sizeof(games) / sizeof(games[0]); i++) {
		json_t *first = NULL;
		char first_reasons[256] = "";

		for (int g = 0; g < games[i].symmetries; g++) {
			char sgf[512], reasons[256];
			json_t *params, *r;

			mirror_sgf(games[i].sgf, games[i].width, games[i].height, g, sgf, sizeof(sgf));
			params = json_pack("{s:s, s:{s:s}, s:s}", "ruleset", "japanese", "game", "sgf",
			    sgf, "dead", "auto");
			r = call("score", params, &err);
			assert_non_null(r);
			settle_reasons(r, reasons, sizeof(reasons));
			if (first == NULL) {
				first = r;
				memcpy(first_reasons, reasons, sizeof(reasons));
				continue;
			}
			/* The same moves for the same reasons, whatever order they came in. */
			if (strcmp(reasons, first_reasons) != 0)
				fail_msg("game %zu, symmetry %d: settle moves %s against %s", i, g, reasons,
				    first_reasons);
			if (strcmp(str(r, "re"), str(first, "re")) != 0 ||
			    json_array_size(json_object_get(r, "dead")) !=
			    json_array_size(json_object_get(first, "dead")) ||
			    json_array_size(json_object_get(r, "settle")) !=
			    json_array_size(json_object_get(first, "settle")))
				fail_msg("game %zu, symmetry %d: %s with %zu dead and %zu settle moves, "
				    "against %s, %zu and %zu", i, g, str(r, "re"),
				    json_array_size(json_object_get(r, "dead")),
				    json_array_size(json_object_get(r, "settle")), str(first, "re"),
				    json_array_size(json_object_get(first, "dead")),
				    json_array_size(json_object_get(first, "settle")));
			json_decref(r);
		}
		json_decref(first);
	}
}

/* Fox records are read by the server's conventions, each time with a note (issue 12): KM[0]
 * of an even Japanese game is 6.5, KM[375] is 3.75 zi, B+0 is a win by resignation or time. */
static void
test_fox_record_is_read_with_notes(void **state)
{
	struct sht_error err;
	json_t *r;

	(void)state;
	r = score_sgf(NULL, "(;SZ[9]KM[0]HA[0]RU[Japanese]AP[foxwq]RE[B+0];B[ee];W[cc])", &err);
	assert_non_null(r);
	assert_string_equal(str(r, "ruleset"), "japanese");
	assert_true(num(r, "white.komi") == 6.5);
	assert_true(has_note(r, "the record's KM[0] is read as komi 6.5: the Fox server writes "
	    "KM[0] for the 6.5 komi of its even games under Japanese rules"));
	/* The score is the count of the position, and the note says it is not the result. */
	assert_string_equal(str(r, "how"), "counting");
	assert_true(has_note(r, "the record's RE[B+0] is the Fox server's way of writing a win "
	    "by resignation or time, not by counting"));
	json_decref(r);
	/* The request's komi speaks for the judgement: the record's KM needs no note. */
	r = must("score", json_pack("{s:{s:s}, s:s, s:f}", "game", "sgf",
	    "(;SZ[9]KM[0]HA[0]RU[Japanese]AP[foxwq];B[ee];W[cc])", "dead", "none", "komi", 0.5));
	assert_true(num(r, "white.komi") == 0.5);
	assert_false(has_note(r, "KM["));
	json_decref(r);
	r = score_sgf(NULL, "(;SZ[9]KM[375]HA[0]RU[Chinese]AP[foxwq]RE[W+0.50];B[ee];W[cc])", &err);
	assert_non_null(r);
	assert_true(num(r, "white.komi") == 7.5);
	assert_true(has_note(r, "the record's KM[375] is read as komi 7.5: the Fox server writes "
	    "komi in hundredths of a zi (3.75 zi)"));
	assert_false(has_note(r, "RE["));
	json_decref(r);
	r = score_sgf(NULL, "(;SZ[9]KM[750]RU[Japanese]AP[YuanYu];B[ee];W[cc])", &err);
	assert_non_null(r);
	assert_true(num(r, "white.komi") == 7.5);
	assert_true(has_note(r, "the record's KM[750] is read as komi 7.5: the Fox server writes "
	    "komi in hundredths"));
	json_decref(r);
	/* A handicap game's KM[0] is no komi, and read as written needs no note. */
	r = score_sgf(NULL, "(;SZ[9]KM[0]HA[2]RU[Japanese]AP[foxwq];AB[cc][gg];W[ee])", &err);
	assert_non_null(r);
	assert_true(num(r, "white.komi") == 0);
	assert_false(has_note(r, "KM["));
	json_decref(r);
	/* Not a Fox record: KM[0] is no komi; B+0 is still no count, and the note says why. */
	r = score_sgf(NULL, "(;SZ[9]KM[0]RU[Japanese]RE[W+0];B[ee];W[cc])", &err);
	assert_non_null(r);
	assert_true(num(r, "white.komi") == 0);
	assert_false(has_note(r, "KM["));
	assert_true(has_note(r, "the record's RE[W+0] names a winner by no margin, which no "
	    "count gives: read as a win decided otherwise than by counting"));
	json_decref(r);
	/* B+0 is no count even where passes end the game; replay carries the notes too. */
	r = must("replay", json_pack("{s:{s:s}}", "game", "sgf",
	    "(;SZ[9]KM[0]RU[Japanese]AP[foxwq]RE[B+0];B[ee];W[];B[])"));
	assert_true(has_note(r, "KM[0] is read as komi 6.5"));
	assert_true(has_note(r, "RE[B+0] is the Fox server's way"));
	json_decref(r);
}

/* The handicap is the stones standing when play begins, not the setup events: a vertex listed
 * twice counted two handicap stones (and compensation), and stones cleared by AE still counted,
 * so White was made to open and Black's first move read as following a pass. */
static void
test_handicap_counts_the_stones_on_the_board(void **state)
{
	json_t *once, *twice, *r;

	(void)state;
	once = must("score", json_pack("{s:s, s:{s:i, s:{s:[s]}, s:[s,s]}, s:s}", "ruleset",
	    "chinese", "game", "size", 9, "setup", "black", "D4", "moves", "B pass", "W pass",
	    "dead", "none"));
	twice = must("score", json_pack("{s:s, s:{s:i, s:{s:[s,s]}, s:[s,s]}, s:s}", "ruleset",
	    "chinese", "game", "size", 9, "setup", "black", "D4", "D4", "moves", "B pass",
	    "W pass", "dead", "none"));
	assert_true(num(twice, "white.handicap_compensation") == 0);
	assert_true(num(twice, "margin") == num(once, "margin"));
	json_decref(once);
	json_decref(twice);
	r = must("replay", json_pack("{s:s, s:{s:s}}", "ruleset", "chinese", "game", "sgf",
	    "(;SZ[9]KM[7.5]AB[dd][ee];AE[dd][ee];B[ff];W[];B[])"));
	assert_int_equal((int)num(r, "implied_passes"), 0);
	assert_string_equal(str(json_array_get(json_object_get(r, "moves"), 0), "verdict"), "ok");
	json_decref(r);
}

/* Whose turn it is has one answer: under ancient rules White opens, so a black move first is
 * void, and White is still to move.  replay said B, legal refused W's move, and a replay of the
 * same record with W's move played it. */
static void
test_turn_after_a_move_out_of_turn(void **state)
{
	json_t *r;

	(void)state;
	r = must("replay", json_pack("{s:s, s:{s:i, s:[s]}}", "ruleset", "ancient", "game",
	    "size", 19, "moves", "B E5"));
	assert_string_equal(str(json_array_get(json_object_get(r, "moves"), 0), "verdict"), "void");
	assert_string_equal(str(r, "to_move"), "W");
	json_decref(r);
	r = must("legal", json_pack("{s:s, s:{s:i, s:[s]}, s:s}", "ruleset", "ancient", "game",
	    "size", 19, "moves", "B E5", "move", "W E5"));
	assert_true(json_is_true(json_object_get(r, "legal")));
	json_decref(r);
	r = must("legal", json_pack("{s:s, s:{s:i, s:[s]}, s:s}", "ruleset", "ancient", "game",
	    "size", 19, "moves", "B E5", "move", "B E6"));
	assert_false(json_is_true(json_object_get(r, "legal")));
	assert_string_equal(str(r, "reason"), "not_your_turn");
	json_decref(r);
}

/* One of the tests' own plugins with one ruleset of it, in a registry of their own. */
struct test_plugin_registry {
	struct sht_plugin *plugin;
	struct sht_ruleset *ruleset;
	struct sht_registry registry;
	struct sht_context ctx;
};

static void
test_plugin_registry_load(struct test_plugin_registry *t, const char *plugin_file,
    const char *yaml_name, const char *yaml)
{
	char path[1024], err[SHT_ERR_MAX];

	snprintf(path, sizeof(path), "%s/%s", test_plugins_dir, plugin_file);
	memset(t, 0, sizeof(*t));
	t->plugin = sht_plugin_load(path, err, sizeof(err));
	if (t->plugin == NULL)
		fail_msg("%s", err);
	t->registry.plugins = &t->plugin;
	t->registry.nplugins = 1;
	t->ruleset = sht_ruleset_parse(&t->registry, yaml_name, yaml, strlen(yaml), err,
	    sizeof(err));
	if (t->ruleset == NULL)
		fail_msg("%s", err);
	t->registry.rulesets = &t->ruleset;
	t->registry.nrulesets = 1;
	t->ctx.registry = &t->registry;
}

static void
test_plugin_registry_free(struct test_plugin_registry *t)
{
	sht_ruleset_free(t->ruleset);
	sht_plugin_unload(t->plugin);
}

/* A plugin's consequence that is none is a refusal wherever it is asked for: `legal` said "ok"
 * for an illegal move, where replay (which clamped it) refused the record. */
static void
test_bad_consequence_is_a_refusal_everywhere(void **state)
{
	static const char yaml[] = "plugin: misbehaving\nparameters:\n  action: bad_consequence\n";
	struct test_plugin_registry t;
	struct sht_ruleset *rs;
	struct sht_context *c2 = &t.ctx;
	struct sht_error e;
	bool unknown;
	json_t *params, *r;

	(void)state;
	test_plugin_registry_load(&t, "misbehaving.so", "bad-consequence.yaml", yaml);
	rs = t.ruleset;
	assert_int_equal(sht_ruleset_consequence(rs, SHT_VIOLATION_OCCUPIED),
	    SHT_CONSEQUENCE_REJECT);

	params = json_pack("{s:s, s:{s:i, s:[s]}, s:s}", "ruleset", rs->name, "game", "size", 9,
	    "moves", "B C3", "move", "W C3");
	r = sht_method_call(c2, "legal", params, &unknown, &e);
	json_decref(params);
	if (r == NULL)
		fail_msg("legal: %s", e.message);
	assert_false(json_is_true(json_object_get(r, "legal")));
	assert_string_equal(str(r, "reason"), "occupied");
	assert_string_equal(str(r, "consequence"), "reject");
	json_decref(r);

	/* Replay reads the same ruling: the record is refused. */
	params = json_pack("{s:s, s:{s:i, s:[s,s]}}", "ruleset", rs->name, "game", "size", 9,
	    "moves", "B C3", "W C3");
	r = sht_method_call(c2, "replay", params, &unknown, &e);
	json_decref(params);
	assert_null(r);
	assert_int_equal(e.kind, SHT_ERROR_ILLEGAL_MOVE);

	test_plugin_registry_free(&t);
}

/* host->count hands a plugin the tax's groups, which the host counts only on demand, and a
 * plugin built before they were added gets nothing past the end of its shorter struct.  On the
 * tiger's-mouth board Black's chains are one group and White's two (worked above). */
static void
test_host_count_gives_the_tax_groups(void **state)
{
	static const char *const yaml[] = {
		"plugin: counts_reader\nparameters:\n  counts: current\n",
		"plugin: counts_reader\nparameters:\n  counts: before_tax_groups\n",
	};
	static const int black_groups[] = { 1, -7 }, white_groups[] = { 2, -7 };

	(void)state;
	for (int i = 0; i < 2; i++) {
		struct test_plugin_registry t;
		json_t *params, *r;
		struct sht_error e;
		bool unknown;

		test_plugin_registry_load(&t, "counts_reader.so", "counts-reader.yaml", yaml[i]);
		params = json_pack("{s:s, s:o, s:s}", "ruleset", t.ruleset->name, "game",
		    game_of(tiger_mouth_board, "B pass,W pass"), "dead", "none");
		r = sht_method_call(&t.ctx, "score", params, &unknown, &e);
		json_decref(params);
		if (r == NULL)
			fail_msg("score: %s", e.message);
		if (num(r, "black.groups") != black_groups[i] ||
		    num(r, "white.groups") != white_groups[i])
			fail_msg("%s: groups %g and %g", yaml[i], num(r, "black.groups"),
			    num(r, "white.groups"));
		json_decref(r);
		test_plugin_registry_free(&t);
	}
}

/* Komi in points as a description writes it: "7.5", "7", "6.5". */
static void
points_text(int half_points, char *buf, size_t len)
{
	snprintf(buf, len, "%d%s", half_points / 2, half_points % 2 ? ".5" : "");
}

/* The same komi in zi with quarters, as the Chinese write it: 7.5 points is "3¾". */
static void
zi_text(int half_points, char *buf, size_t len)
{
	static const char *const quarter[] = { "", "¼", "½", "¾" };

	snprintf(buf, len, "%d%s", half_points / 4, quarter[half_points % 4]);
}

/* Whether a ruleset splits the dame, from what it does: one stone of each colour on an empty
 * board leaves every other point dame. */
static bool
splits_dame(const struct sht_ruleset *rs)
{
	char a[24], b[24];
	json_t *r;
	bool split;

	snprintf(a, sizeof(a), "B %c%d", columns[rs->setup.width / 2 - 1], 2);
	snprintf(b, sizeof(b), "W %c%d", columns[rs->setup.width / 2 + 1], rs->setup.height - 1);
	r = must("score", json_pack("{s:s, s:{s:[s,s]}, s:s}", "ruleset", rs->name, "game",
	    "moves", rs->setup.first_player == SHT_RP_WHITE ? b : a,
	    rs->setup.first_player == SHT_RP_WHITE ? a : b, "dead", "none"));
	split = num(r, "black.dame_share") > 0;
	assert_true(split == (num(r, "white.dame_share") > 0));
	json_decref(r);
	return split;
}

/*
 * Every ruleset's description and summary against what it does: `describe tromp-taylor` printed
 * the Chinese ruleset's paragraph ("Suicide is forbidden ... komi 3¾ zi") beside its own
 * parameters.  Each fact a text states is checked against the setup the plugin gave and the
 * score it makes, not against the text's own source.
 */
static void
test_describe_matches_every_ruleset(void **state)
{
	(void)state;
	for (int i = 0; i < registry->nrulesets; i++) {
		const struct sht_ruleset *rs = registry->rulesets[i];
		const struct sht_rules_setup *su = &rs->setup;
		json_t *r = must("describe", json_pack("{s:s}", "ruleset", rs->name));
		const char *text = str(r, "description"), *summary = rs->summary;
		char points[32], zi[32], want[64];
		bool split = splits_dame(rs);

		print_message("%s: %s\n", rs->name, text);
		/* Komi: none, or its value in points (zi rulesets give both). */
		points_text(su->komi, points, sizeof(points));
		zi_text(su->komi, zi, sizeof(zi));
		if (su->komi == 0) {
			assert_non_null(strstr(text, "no komi"));
		} else {
			snprintf(want, sizeof(want), "komi %s points", points);
			if (strstr(text, want) == NULL) {
				snprintf(want, sizeof(want), "(%s points)", points);
				assert_non_null(strstr(text, want));
			}
			assert_null(strstr(text, "no komi"));
		}
		/* Suicide. */
		if (su->multi_stone_suicide)
			assert_non_null(strstr(text, "uicide of two or more stones is legal"));
		else
			assert_null(strstr(text, "is legal"));
		if (su->multi_stone_suicide)
			assert_null(strstr(text, "forbidden;"));
		/* Ko, or Tibetan go's ban that contains it. */
		assert_non_null(strstr(text, su->capture_ban ? "may not be played where the "
		    "opponent has just removed stones" : su->ko == SHT_RULES_KO_POSITIONAL ?
		    "Positional superko" : su->ko == SHT_RULES_KO_SITUATIONAL ?
		    "Situational superko" : "Simple ko"));
		/* Who moves first, and the dame. */
		assert_int_equal(strstr(text, "White moves first") != NULL,
		    su->first_player == SHT_RP_WHITE);
		assert_int_equal(strstr(text, "half of the dame") != NULL ||
		    strstr(text, "dame split") != NULL || strstr(text, "(split") != NULL, split);
		/* Dead stones: the YAML's own default. */
		assert_int_equal(strstr(text, "Every stone on the board is alive") != NULL,
		    rs->default_dead == SHT_DEAD_NONE);

		/* The summary is the YAML's own line: it may leave a fact out, not contradict one. */
		if (strstr(summary, "komi") != NULL) {
			if (su->komi == 0) {
				assert_non_null(strstr(summary, "no komi"));
			} else {
				char zi_want[64];

				snprintf(want, sizeof(want), "komi %s", points);
				snprintf(zi_want, sizeof(zi_want), "komi %s zi", zi);
				if (strstr(summary, zi_want) == NULL) {
					/* "komi 7" must not be the start of "komi 7.5". */
					const char *at = strstr(summary, want);

					assert_non_null(at);
					assert_false(at[strlen(want)] == '.' &&
					    at[strlen(want) + 1] >= '0' && at[strlen(want) + 1] <= '9');
				}
			}
		}
		assert_int_equal(strstr(summary, "suicide legal") != NULL,
		    su->multi_stone_suicide != 0);
		if (strstr(summary, "superko") != NULL)
			assert_non_null(strstr(summary, su->ko == SHT_RULES_KO_POSITIONAL ?
			    "positional superko" : "situational superko"));
		if (strstr(summary, "simple ko") != NULL)
			assert_int_equal(su->ko, SHT_RULES_KO_SIMPLE);
		if (strstr(summary, "dame split") != NULL)
			assert_true(split);
		if (strstr(summary, "no dame share") != NULL)
			assert_false(split);
		assert_int_equal(strstr(summary, "every stone alive") != NULL,
		    rs->default_dead == SHT_DEAD_NONE);
		if (strstr(summary, "White first") != NULL)
			assert_int_equal(su->first_player, SHT_RP_WHITE);
		json_decref(r);
	}
	/* The case the issue found. */
	{
		json_t *r = must("describe", json_pack("{s:s}", "ruleset", "tromp-taylor"));

		assert_null(strstr(str(r, "description"), "Suicide is forbidden"));
		assert_null(strstr(str(r, "description"), "3¾"));
		json_decref(r);
	}
}

/* ---- results decided otherwise than by counting (issue 11, item 8) ---- */

/* White's suicide at A1, in the corner Black's A2 and B1 close: a loss under the Japanese and
 * Korean rules. */
static json_t *
white_suicide_game(void)
{
	return json_pack("{s:i, s:{s:[s,s]}, s:i, s:[s,s]}", "size", 5, "setup", "black", "A2",
	    "B1", "handicap", 0, "moves", "B pass", "W A1");
}

/* Every member that says how the game was decided says it was not by counting; the count is
 * kept apart, under `count`, as a count. */
static void
assert_forfeit(const json_t *r, const char *how, const char *winner, const char *re,
    const char *native, const char *text)
{
	const json_t *count = json_object_get(r, "count");

	assert_string_equal(str(r, "how"), how);
	assert_string_equal(str(r, "winner"), winner);
	assert_true(json_is_null(field(r, "margin")));
	assert_string_equal(str(r, "re"), re);
	assert_true(json_is_null(field(r, "native.margin")));
	assert_string_equal(str(r, "native.text"), native);
	assert_string_equal(str(r, "text"), text);
	assert_non_null(count);
	assert_true(json_is_number(field(count, "margin")));
	assert_true(json_is_number(field(count, "native.margin")));
	assert_null(strstr(str(count, "re"), "+F"));
	assert_true(has_note(r, "the game ended before counting"));
}

static void
test_result_of_a_game_lost_by_a_violation(void **state)
{
	json_t *r;

	(void)state;
	r = must("score", json_pack("{s:s, s:o, s:s}", "ruleset", "japanese", "game",
	    white_suicide_game(), "dead", "none"));
	assert_forfeit(r, "infraction", "B", "B+F", "白の反則負け",
	    "Black wins by forfeit: White, suicide at move 2");
	/* The count, for information: Black's 23 points of territory against komi 6.5. */
	assert_string_equal(str(json_object_get(r, "count"), "re"), "B+16.5");
	assert_string_equal(str(json_object_get(r, "count"), "native.text"), "黒16目半勝ち");
	assert_string_equal(str(r, "native.unit"), "mu");
	json_decref(r);
	r = must("score", json_pack("{s:s, s:o, s:s}", "ruleset", "korean", "game",
	    white_suicide_game(), "dead", "none"));
	assert_forfeit(r, "infraction", "B", "B+F", "백 반칙패",
	    "Black wins by forfeit: White, suicide at move 2");
	json_decref(r);
	/* Chinese 1988: two moves in a row lose at once. */
	r = must("score", json_pack("{s:s, s:{s:i, s:[s,s]}, s:s}", "ruleset", "chinese-1988",
	    "game", "size", 5, "moves", "B C3", "B D3", "dead", "none"));
	assert_forfeit(r, "infraction", "W", "W+F", "黑方犯规判负",
	    "White wins by forfeit: Black, two moves in a row at move 2");
	assert_string_equal(str(json_object_get(r, "count"), "native.text"), "黑胜8¾子");
	json_decref(r);
	/* Chinese 2002: the second warning loses. */
	r = must("score", json_pack("{s:s, s:{s:i, s:[s,s,s]}, s:s}", "ruleset", "chinese",
	    "game", "size", 5, "moves", "B C3", "B D3", "B D3", "dead", "none"));
	assert_forfeit(r, "forfeit", "W", "W+F", "黑方累计警告判负",
	    "White wins by forfeit: Black, 2 warnings, the last at move 3");
	json_decref(r);
	/* A record that says it was resigned, and whose moves do not end it, is counted as it
	 * stands, and the note says what the record says. */
	{
		struct sht_error err;

		r = score_sgf("chinese", "(;SZ[9]RE[W+Resign];B[ee];W[cc])", &err);
		assert_non_null(r);
		assert_string_equal(str(r, "how"), "counting");
		assert_true(has_note(r, "the record's RE[W+Resign] says the game was decided by "
		    "resignation, not by counting"));
		json_decref(r);
		r = score_sgf("chinese", "(;SZ[9]RE[W+7.5];B[ee];W[cc])", &err);
		assert_non_null(r);
		assert_false(has_note(r, "RE["));
		json_decref(r);
	}
	/* A counted game says so, and has no `count` beside. */
	r = score("chinese", "X.O\nX.O\nX.O\n", "B pass,W pass", NULL);
	assert_string_equal(str(r, "how"), "counting");
	assert_true(json_is_number(field(r, "margin")));
	assert_null(json_object_get(r, "count"));
	json_decref(r);
}

/* The referee's outcome for a resignation, a flag's fall and a loss by violation: the same
 * judge finishes each, with the native text of the ruleset. */
static void
test_referee_outcomes_decided_otherwise(void **state)
{
	static const struct {
		const char *ruleset, *events, *how, *re, *text, *native;
	} cases[] = {
		{ "chinese", "[{\"type\":\"resign\",\"color\":\"B\"}]", "resignation", "W+R",
		    "White wins by resignation: Black resigns", "白中盘胜" },
		{ "japanese", "[{\"type\":\"resign\",\"color\":\"W\"}]", "resignation", "B+R",
		    "Black wins by resignation: White resigns", "黒の中押し勝ち" },
		{ "korean", "[{\"type\":\"resign\",\"color\":\"B\"}]", "resignation", "W+R",
		    "White wins by resignation: Black resigns", "백 불계승" },
		{ "chinese", "[{\"type\":\"move\",\"vertex\":\"E5\",\"seconds\":11}]", "time",
		    "W+T", "White wins on time: Black, the flag fell 10000 ms into the move",
		    "黑方超时判负" },
		{ "japanese", "[{\"type\":\"move\",\"vertex\":\"E5\",\"seconds\":11}]", "time",
		    "W+T", "White wins on time: Black, the flag fell 10000 ms into the move",
		    "黒の時間切れ負け" },
		{ "japanese", "[{\"type\":\"move\",\"vertex\":\"E5\"},"
		    "{\"type\":\"take_back\",\"color\":\"W\"}]", "infraction", "B+F",
		    "Black wins by forfeit: White, a move taken back", "白の反則負け" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *params = json_pack("{s:s, s:i, s:{s:s, s:s}, s:o}", "ruleset",
		    cases[i].ruleset, "size", 9, "clock", "type", "absolute", "main", "10s", "events",
		    json_loads(cases[i].events, 0, NULL));
		json_t *r = must("referee", params);
		const json_t *o = json_object_get(r, "outcome");

		assert_string_equal(str(o, "how"), cases[i].how);
		assert_string_equal(str(o, "re"), cases[i].re);
		assert_string_equal(str(o, "winner"), cases[i].re[0] == 'B' ? "B" : "W");
		assert_string_equal(str(o, "text"), cases[i].text);
		assert_string_equal(str(o, "native.text"), cases[i].native);
		assert_null(json_object_get(o, "score"));
		json_decref(r);
	}
}

/* A Tromp-Taylor count has no dame share: a point that reaches both colours is nobody's.  The
 * margin is the one a split would give, since a split adds the same to both sides. */
static void
test_tromp_taylor_totals_have_no_dame_share(void **state)
{
	json_t *tt, *zh, *nz;

	(void)state;
	tt = must("score", json_pack("{s:s, s:{s:[s,s]}}", "ruleset", "tromp-taylor", "game",
	    "moves", "B D4", "W Q16"));
	assert_int_equal((int)num(tt, "black.dame_share"), 0);
	assert_int_equal((int)num(tt, "white.dame_share"), 0);
	assert_true(num(tt, "black.total") == 1);
	assert_true(num(tt, "white.total") == 8.5);
	assert_true(num(tt, "margin") == -7.5);
	assert_string_equal(str(tt, "re"), "W+7.5");
	/* Chinese counting of the same game splits the 359 dame, 179.5 each; New Zealand's, like
	 * Tromp-Taylor's, gives them to nobody.  The margin is the same under all three. */
	zh = must("score", json_pack("{s:s, s:{s:[s,s]}, s:s, s:f}", "ruleset", "chinese",
	    "game", "moves", "B D4", "W Q16", "dead", "none", "komi", 7.5));
	assert_true(num(zh, "black.dame_share") == 179.5);
	assert_true(num(zh, "margin") == num(tt, "margin"));
	nz = must("score", json_pack("{s:s, s:{s:[s,s]}, s:s, s:f}", "ruleset", "new-zealand",
	    "game", "moves", "B D4", "W Q16", "dead", "none", "komi", 7.5));
	assert_int_equal((int)num(nz, "black.dame_share"), 0);
	assert_true(num(nz, "black.total") == 1);
	assert_true(num(nz, "margin") == num(tt, "margin"));
	json_decref(tt);
	json_decref(zh);
	json_decref(nz);
}

/* ---- AGA, WMSG 2008 and Ing (issue 16) ---- */

/* 9x9 split by two walls: Black owns columns A-D (36 points with its wall on D), White E-J
 * (45 with its wall on E). */
static const char split_9x9[] =
    "...XO....\n"
    "...XO....\n"
    "...XO....\n"
    "...XO....\n"
    "...XO....\n"
    "...XO....\n"
    "...XO....\n"
    "...XO....\n"
    "...XO....\n";

/* AGA: a pass hands the opponent a prisoner, so the territory count equals the area count
 * even where a plain territory count does not: here Black passes twice and White fills a
 * point of its own territory, which costs White a point under Japanese counting and nothing
 * under area counting; Black's extra pass gives that point back. */
static void
test_aga_pass_stones_make_both_counts_agree(void **state)
{
	json_t *aga, *ja, *zh;

	(void)state;
	aga = score("aga", split_9x9, "B pass,W H5,B pass,W pass", "{\"komi\": 7.5}");
	ja = score("japanese", split_9x9, "B pass,W H5,B pass,W pass", "{\"komi\": 7.5}");
	zh = score("tromp-taylor", split_9x9, "B pass,W H5,B pass,W pass", "{\"komi\": 7.5}");
	/* Area: 36 against 45 + 7.5.  Plain territory: 27 against 35 + 7.5, a point less. */
	assert_true(num(aga, "margin") == -16.5);
	assert_true(num(zh, "margin") == -16.5);
	assert_true(num(ja, "margin") == -15.5);
	/* The second count: Black 27 + 1 pass stone, White 35 + 2 pass stones + komi. */
	if (!has_note(aga, "Black 27 + 1 prisoner (1 pass stone), White 35 + 2 prisoners "
	    "(2 pass stones) + komi: the same margin as the area count"))
		fail_msg("no AGA second count in %s", json_dumps(aga, 0));
	assert_false(has_note(aga, "has not ended"));
	json_decref(aga);
	json_decref(ja);
	json_decref(zh);

	/* White passes last: White's pass then Black's does not end an AGA game, and the count
	 * takes the pass White still owes.  Other rulesets end at the two passes. */
	aga = score("aga", split_9x9, "B A5,W pass,B pass", "{\"komi\": 7.5}");
	zh = score("tromp-taylor", split_9x9, "B A5,W pass,B pass", "{\"komi\": 7.5}");
	assert_true(has_note(aga, "no 2 consecutive passes with White's last"));
	assert_false(has_note(zh, "has not ended"));
	assert_true(num(aga, "margin") == -16.5);
	if (!has_note(aga, "with pass stones (and White's last pass): Black 26 + 2 prisoners"))
		fail_msg("no owed pass in %s", json_dumps(aga, 0));
	json_decref(aga);
	json_decref(zh);

	/* An unfinished record, Black a turn ahead, breaks the identity: the note says by how
	 * much, and the area count stands. */
	aga = score("aga", split_9x9, "B A5", "{\"komi\": 7.5}");
	assert_true(num(aga, "margin") == -16.5);
	if (!has_note(aga, "1 point worse for Black than the area count, which stands"))
		fail_msg("no uneven-turns note in %s", json_dumps(aga, 0));
	json_decref(aga);
}

/* WMSG 2008: komi 6.5, and 7.5 when White makes the game's first pass. */
static void
test_wmsg_komi_follows_the_first_pass(void **state)
{
	json_t *r;

	(void)state;
	r = score("wmsg2008", split_9x9, "B pass,W pass", NULL);
	assert_true(num(r, "white.komi") == 6.5);
	assert_true(num(r, "margin") == -15.5);
	json_decref(r);
	r = score("wmsg2008", split_9x9, "B A5,W pass,B pass", NULL);
	assert_true(num(r, "white.komi") == 7.5);
	assert_true(num(r, "margin") == -16.5);
	assert_string_equal(str(r, "re"), "W+16.5");
	json_decref(r);
	/* A pass in the middle of the game counts as well: it was the first. */
	r = score("wmsg2008", split_9x9, "B A5,W pass,B A6,W H5,B pass,W pass", NULL);
	assert_true(num(r, "white.komi") == 7.5);
	json_decref(r);
	/* So does a pass an SGF record leaves out (two black moves in a row). */
	r = must("score", json_pack("{s:s, s:{s:s}, s:s}", "ruleset", "wmsg2008", "game", "sgf",
	    "(;GM[1]SZ[9]AB[da][db][dc][dd][de][df][dg][dh][di]AW[ea][eb][ec][ed][ee][ef][eg][eh]"
	    "[ei];B[aa];B[ab];W[];B[])", "dead", "none"));
	assert_true(num(r, "white.komi") == 7.5);
	assert_true(num(r, "margin") == -16.5);
	json_decref(r);
}

/* Ing: komi 8 and Black wins ties.  With komi 9 over a 45-36 split the margin is 0. */
static void
test_ing_black_wins_ties(void **state)
{
	json_t *ing, *zh;

	(void)state;
	ing = score("ing", "....XO...\n....XO...\n....XO...\n....XO...\n....XO...\n"
	    "....XO...\n....XO...\n....XO...\n....XO...\n", "B pass,W pass", "{\"komi\": 9}");
	assert_true(num(ing, "margin") == 0);
	assert_string_equal(str(ing, "winner"), "B");
	assert_string_equal(str(ing, "re"), "B+0");
	assert_string_equal(str(ing, "text"), "Black wins the tie");
	assert_string_equal(str(ing, "native.text"), "和棋黑胜");
	zh = score("tromp-taylor", "....XO...\n....XO...\n....XO...\n....XO...\n....XO...\n"
	    "....XO...\n....XO...\n....XO...\n....XO...\n", "B pass,W pass", "{\"komi\": 9}");
	assert_string_equal(str(zh, "re"), "0");
	json_decref(ing);
	json_decref(zh);
	/* Its own komi is 8: Black by 1. */
	ing = score("ing", split_9x9, "B pass,W pass", NULL);
	assert_true(num(ing, "white.komi") == 8);
	json_decref(ing);
}

/* A method called on a variant's registry. */
static json_t *
must_in(struct variants *v, const char *method, json_t *params)
{
	struct sht_error err;
	bool unknown;
	json_t *r = sht_method_call(&v->ctx, method, params, &unknown, &err);

	json_decref(params);
	if (r == NULL)
		fail_msg("%s failed: %s", method, err.message);
	return r;
}

/* Tibetan go: the twelve seated stones round the third line, White first; no stone where the
 * opponent has just captured (every point of a two-stone capture, for one move); the bonus for
 * the four 1-1 points and tengen. */
static void
test_tibetan_seated_stones_ban_and_bonus(void **state)
{
	static const char *const files[] = { "tibetan-7.yaml",
		"plugin: tibetan\nparameters:\n  size: 7\n  seated: none\n", NULL };
	static const char d[] =
	    ". O O . . . .\n"
	    "O X X . . . .\n"
	    ". O O . . . .\n"
	    ". . . . . . .\n"
	    ". . . . . . .\n"
	    ". . . . . . .\n"
	    ". . . . . . .\n";
	static const char split[] =
	    "..XO...\n..XO...\n..XO...\n..XO...\n..XO...\n..XO...\n..XO...\n";
	struct variants v;
	json_t *r, *pos;
	int black = 0, white = 0;

	(void)state;
	/* A game with no setup of its own gets the seated stones; White opens. */
	r = must("replay", json_pack("{s:s, s:{s:[]}}", "ruleset", "tibetan", "game", "moves"));
	pos = json_object_get(r, "position");
	for (size_t y = 0; y < json_array_size(pos); y++)
		for (const char *c = json_string_value(json_array_get(pos, y)); *c; c++) {
			black += *c == 'X';
			white += *c == 'O';
		}
	assert_int_equal(black, 6);
	assert_int_equal(white, 6);
	/* C15 (the top left of the ring) White's, C3 (bottom left) Black's, G15 Black's. */
	assert_int_equal(json_string_value(json_array_get(pos, 2))[2], 'O');
	assert_int_equal(json_string_value(json_array_get(pos, 14))[2], 'X');
	assert_int_equal(json_string_value(json_array_get(pos, 2))[6], 'X');
	assert_string_equal(str(r, "to_move"), "W");
	json_decref(r);

	variants_load(&v, files);
	/* White takes B6 and C6: neither point is Black's on the next move. */
	r = must_in(&v, "legal", json_pack("{s:s, s:o, s:s}", "ruleset", "tibetan-7", "game",
	    game_of(d, "W D6"), "move", "B B6"));
	assert_false(json_is_true(json_object_get(r, "legal")));
	assert_string_equal(str(r, "reason"), "ko");
	assert_string_equal(str(r, "consequence"), "void");
	json_decref(r);
	r = must_in(&v, "legal", json_pack("{s:s, s:o, s:s}", "ruleset", "tibetan-7", "game",
	    game_of(d, "W D6"), "move", "B C6"));
	assert_false(json_is_true(json_object_get(r, "legal")));
	json_decref(r);
	/* One move later they are open again; under the Japanese rules at once. */
	r = must_in(&v, "legal", json_pack("{s:s, s:o, s:s}", "ruleset", "tibetan-7", "game",
	    game_of(d, "W D6,B G1,W G2"), "move", "B B6"));
	assert_true(json_is_true(json_object_get(r, "legal")));
	json_decref(r);
	r = must("legal", json_pack("{s:s, s:o, s:s}", "ruleset", "japanese", "game",
	    game_of(d, "B pass,W D6"), "move", "B B6"));
	assert_true(json_is_true(json_object_get(r, "legal")));
	json_decref(r);
	/* The replay rules a banned move as the ruleset says: void, the turn lost. */
	r = must_in(&v, "replay", json_pack("{s:s, s:o}", "ruleset", "tibetan-7", "game",
	    game_of(d, "W D6,B B6,W G2")));
	assert_string_equal(str(json_array_get(json_object_get(r, "moves"), 1), "verdict"),
	    "void");
	json_decref(r);

	/* One white stone on an empty board owns it all: 49 points, 20 for the four 1-1
	 * points and 5 for tengen. */
	r = must_in(&v, "score", json_pack("{s:s, s:{s:i, s:[s,s,s]}, s:s}", "ruleset", "tibetan-7",
	    "game", "size", 7, "moves", "W D4", "B pass", "W pass", "dead", "none"));
	assert_true(num(r, "white.bonus") == 25);
	assert_true(num(r, "white.total") == 74);
	assert_null(json_object_get(json_object_get(r, "black"), "bonus"));
	assert_string_equal(str(r, "re"), "W+74");
	assert_true(has_note(r, "Tibetan bonus: White controls the four 1-1 points (+20) and "
	    "tengen"));
	json_decref(r);
	/* Split down the middle, each side has two corners: no bonus, and none shown. */
	r = must_in(&v, "score", json_pack("{s:s, s:o, s:s}", "ruleset", "tibetan-7", "game",
	    game_of(split, "W pass,B pass"), "dead", "none"));
	assert_null(json_object_get(json_object_get(r, "white"), "bonus"));
	assert_true(num(r, "margin") == 21 - 28);
	json_decref(r);
	variants_free(&v);
}

/* Counts the stones of each colour in a replay's position. */
static void
position_stones(const json_t *r, int *black, int *white)
{
	const json_t *pos = json_object_get(r, "position");

	*black = *white = 0;
	for (size_t y = 0; y < json_array_size(pos); y++)
		for (const char *c = json_string_value(json_array_get(pos, y)); *c; c++) {
			*black += *c == 'X';
			*white += *c == 'O';
		}
}

/* The stone at a vertex of a replay's position: 'X', 'O' or '.'. */
static char
stone_at(const json_t *r, const char *vertex)
{
	const json_t *pos = json_object_get(r, "position");
	int h = (int)json_array_size(pos), x = (int)(strchr(columns, vertex[0]) - columns);
	int y = h - atoi(vertex + 1);

	return json_string_value(json_array_get(pos, (size_t)y))[x];
}

/* Sunjang baduk: the sixteen prescribed stones and tengen, White to move; a handicap puts
 * tengen in White's hands and Black's stones on the seventh line; the count removes interior
 * stones into territory and ignores prisoners. */
static void
test_sunjang_layout_and_counting(void **state)
{
	static const char *const files[] = {
		"sunjang-h4.yaml", "plugin: sunjang\nparameters:\n  handicap: 4\n",
		"sunjang-7.yaml", "plugin: sunjang\nparameters:\n  size: 7\n  seated: none\n"
		"  komi: 0\n", NULL };
	static const char wall[] =
	    ".XXO...\n.XXO...\n.XXO...\nOXXO...\n.XXO...\n.XXO...\n.XXO...\n";
	struct variants v;
	json_t *r;
	int black, white;

	(void)state;
	r = must("replay", json_pack("{s:s, s:{s:[]}}", "ruleset", "sunjang", "game", "moves"));
	position_stones(r, &black, &white);
	assert_int_equal(black, 9);
	assert_int_equal(white, 8);
	assert_int_equal(stone_at(r, "K10"), 'X');
	assert_int_equal(stone_at(r, "D4"), 'X');
	assert_int_equal(stone_at(r, "K4"), 'O');
	assert_int_equal(stone_at(r, "Q16"), 'X');
	assert_int_equal(stone_at(r, "D16"), 'O');
	assert_string_equal(str(r, "to_move"), "W");
	json_decref(r);

	variants_load(&v, files);
	r = must_in(&v, "replay", json_pack("{s:s, s:{s:[]}}", "ruleset", "sunjang-h4", "game",
	    "moves"));
	position_stones(r, &black, &white);
	assert_int_equal(black, 12);
	assert_int_equal(white, 9);
	assert_int_equal(stone_at(r, "K10"), 'O');
	assert_int_equal(stone_at(r, "G13"), 'X');
	assert_int_equal(stone_at(r, "N7"), 'X');
	assert_int_equal(stone_at(r, "K7"), '.');
	json_decref(r);

	/* Black's column B is interior (7 stones into territory), its column C the border;
	 * White's A4 is dead: its point is Black's territory, the prisoner ignored.  Black 7 + 7,
	 * White 21: W+7, where Japanese counting (a prisoner, no interior stones) gives W+13. */
	r = must_in(&v, "score", json_pack("{s:s, s:o, s:[s]}", "ruleset", "sunjang-7", "game",
	    game_of(wall, "B pass,W pass"), "dead", "A4"));
	assert_true(num(r, "black.territory") == 14);
	assert_true(num(r, "black.prisoners") == 0);
	assert_true(num(r, "white.territory") == 21);
	assert_string_equal(str(r, "re"), "W+7");
	assert_string_equal(str(r, "native.text"), "백 7집 승");
	assert_true(has_note(r, "interior stones removed and counted as territory (Black 7, "
	    "White 0)"));
	json_decref(r);
	r = must("score", json_pack("{s:s, s:o, s:[s], s:i}", "ruleset", "japanese", "game",
	    game_of(wall, "B pass,W pass"), "dead", "A4", "komi", 0));
	assert_string_equal(str(r, "re"), "W+13");
	json_decref(r);
	variants_free(&v);
}

/* A YAML variant marks its own reconstructions, and describe shows them with the reason. */
static void
test_yaml_reconstructions_are_described(void **state)
{
	json_t *r = must("describe", json_pack("{s:s}", "ruleset", "ing")), *p;
	size_t i;
	bool ko = false;

	(void)state;
	json_array_foreach(json_object_get(r, "parameters"), i, p)
		if (strcmp(str(p, "name"), "ko") == 0) {
			ko = true;
			assert_true(json_is_true(json_object_get(p, "reconstruction")));
			assert_non_null(strstr(str(p, "reconstruction_note"), "Simplified Ing"));
		} else if (strcmp(str(p, "name"), "komi") == 0) {
			assert_false(json_is_true(json_object_get(p, "reconstruction")));
		}
	assert_true(ko);
	json_decref(r);
	expect_yaml_error("plugin: chinese\nreconstructions:\n  kom: why\n",
	    "bad.yaml:3:3: reconstructions: plugin chinese has no parameter 'kom'");
	expect_yaml_error("plugin: chinese\nreconstructions:\n  ko: \"\"\n",
	    "bad.yaml:3:7: reconstructions: ko needs the reason");
	expect_yaml_error("plugin: chinese\nreconstructions: [ko]\n",
	    "bad.yaml:2:18: reconstructions must be a mapping");
}

/* A plugin built before `decided` was added (its descriptor ends at `score`) still loads, and
 * its forfeits read in English rather than in nobody's words. */
static void
test_plugin_without_decided_gives_the_english_text(void **state)
{
	const struct sht_ruleset *chinese = sht_registry_find(registry, "chinese");
	struct sht_ruleset_plugin old = *chinese->plugin->desc;
	struct sht_ruleset older = *chinese;
	struct sht_score_result r;
	struct sht_plugin *p;
	char err[SHT_ERR_MAX];

	(void)state;
	old.size = offsetof(struct sht_ruleset_plugin, decided);
	p = sht_plugin_builtin(&old, err, sizeof(err));
	assert_non_null(p);
	older.plugin = p;
	memset(&r, 0, sizeof(r));
	sht_judge_decide(&older, SHT_DECISION_RESIGNATION, SHT_WHITE, "", &r);
	assert_string_equal(r.re, "B+R");
	assert_string_equal(r.text, "Black wins by resignation: White resigns");
	assert_string_equal(r.native_text, r.text);
	/* The current descriptor writes its own. */
	sht_judge_decide(chinese, SHT_DECISION_RESIGNATION, SHT_WHITE, "", &r);
	assert_string_equal(r.native_text, "黑中盘胜");
	sht_judge_decide(chinese, SHT_DECISION_NO_RESULT, 0, "move 9 repeats a position", &r);
	assert_string_equal(r.re, "Void");
	assert_int_equal(r.winner, SHT_WINNER_NONE);
	assert_string_equal(r.text, "No result: move 9 repeats a position");
	assert_string_equal(r.native_text, "无胜负");
	sht_plugin_unload(p);
}

static int
setup_registry(void **state)
{
	char err[SHT_ERR_MAX];

	(void)state;
	registry = sht_registry_load(plugins_dir, rulesets_dir, err, sizeof(err));
	if (registry == NULL) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	ctx.registry = registry;
	return 0;
}

static int
teardown_registry(void **state)
{
	(void)state;
	sht_registry_free(registry);
	return 0;
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chinese_counts_at_three_and_three_quarter_zi),
		cmocka_unit_test(test_ancient_group_tax_example),
		cmocka_unit_test(test_tax_arithmetic_with_eight_black_groups),
		cmocka_unit_test(test_seki_under_six_counting_combinations),
		cmocka_unit_test(test_server_record_is_counted_as_the_server_counted),
		cmocka_unit_test(test_igs_counts_a_finished_board_as_it_stands),
		cmocka_unit_test(test_auto_counts_a_mirrored_record_alike),
		cmocka_unit_test(test_bent_four_marked_dead),
		cmocka_unit_test(test_tang_territory_examples),
		cmocka_unit_test(test_tax_groups_as_historians_count_them),
		cmocka_unit_test(test_host_count_gives_the_tax_groups),
		cmocka_unit_test(test_handicap_compensation),
		cmocka_unit_test(test_ru_aga_is_scored_under_aga),
		cmocka_unit_test(test_seated_stones_and_white_first),
		cmocka_unit_test(test_consequences_differ_by_ruleset),
		cmocka_unit_test(test_legal_method),
		cmocka_unit_test(test_han_stone_supply),
		cmocka_unit_test(test_yaml_errors_name_file_line_column),
		cmocka_unit_test(test_plugin_loading_refusals),
		cmocka_unit_test(test_describe_marks_reconstructions),
		cmocka_unit_test(test_method_entries),
		cmocka_unit_test(test_setup_stone_of_both_colours_is_refused),
		cmocka_unit_test(test_handicap_that_the_stones_do_not_match_is_noted),
		cmocka_unit_test(test_unrecognised_ru_is_noted),
		cmocka_unit_test(test_fox_record_is_read_with_notes),
		cmocka_unit_test(test_result_of_a_game_lost_by_a_violation),
		cmocka_unit_test(test_referee_outcomes_decided_otherwise),
		cmocka_unit_test(test_plugin_without_decided_gives_the_english_text),
		cmocka_unit_test(test_bad_consequence_is_a_refusal_everywhere),
		cmocka_unit_test(test_turn_after_a_move_out_of_turn),
		cmocka_unit_test(test_handicap_counts_the_stones_on_the_board),
		cmocka_unit_test(test_json_move_vertices),
		cmocka_unit_test(test_describe_matches_every_ruleset),
		cmocka_unit_test(test_tromp_taylor_totals_have_no_dame_share),
		cmocka_unit_test(test_aga_pass_stones_make_both_counts_agree),
		cmocka_unit_test(test_wmsg_komi_follows_the_first_pass),
		cmocka_unit_test(test_ing_black_wins_ties),
		cmocka_unit_test(test_yaml_reconstructions_are_described),
		cmocka_unit_test(test_tibetan_seated_stones_ban_and_bonus),
		cmocka_unit_test(test_sunjang_layout_and_counting),
	};

	if (argc < 4) {
		fprintf(stderr, "usage: %s PLUGINS_DIR RULESETS_DIR TEST_PLUGINS_DIR\n", argv[0]);
		return 2;
	}
	plugins_dir = argv[1];
	rulesets_dir = argv[2];
	test_plugins_dir = argv[3];
	return cmocka_run_group_tests(tests, setup_registry, teardown_registry);
}
