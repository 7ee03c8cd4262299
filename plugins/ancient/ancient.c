/*
 * The ancient Chinese rules plugin (docs/rules.md section 5): seated stones, White first, the
 * group tax.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "native.h"
#include "shoutan/ruleset.h"

enum { P_SIZE, P_SEATED, P_FIRST, P_COUNTING, P_TAX, P_GROUP_UNIT, P_SEKI_TAX, P_HANDICAP, P_KOMI,
	P_ILLEGAL, P_CYCLES, P_UNIT, P_COUNT };

/* Each choice's values, named: the enum gives the index the host passes, the list its YAML
 * spelling, tied together by designated initialisers. */
enum seating { SEATED_DIAGONAL, SEATED_MIRROR, SEATED_NONE, SEATINGS };
static const char *const seatings[] = { [SEATED_DIAGONAL] = "diagonal",
	[SEATED_MIRROR] = "mirror", [SEATED_NONE] = "none", [SEATINGS] = NULL };
enum player { PLAYER_WHITE, PLAYER_BLACK, PLAYERS };
static const char *const players[] = { [PLAYER_WHITE] = "white", [PLAYER_BLACK] = "black",
	[PLAYERS] = NULL };
enum counting { COUNTING_AREA, COUNTING_TERRITORY, COUNTINGS };
static const char *const countings[] = { [COUNTING_AREA] = "area",
	[COUNTING_TERRITORY] = "territory", [COUNTINGS] = NULL };
enum group_unit { GROUP_UNIT_CONNECTED, GROUP_UNIT_ILR, GROUP_UNITS };
static const char *const group_units[] = { [GROUP_UNIT_CONNECTED] = "connected",
	[GROUP_UNIT_ILR] = "ilr", [GROUP_UNITS] = NULL };
enum seki_tax { SEKI_TAX_ILR, SEKI_TAX_EYES_NEEDED, SEKI_TAX_HALF, SEKI_TAXES };
static const char *const seki_taxes[] = { [SEKI_TAX_ILR] = "ilr",
	[SEKI_TAX_EYES_NEEDED] = "eyes-needed", [SEKI_TAX_HALF] = "half", [SEKI_TAXES] = NULL };
enum handicap { HANDICAP_N_ZI, HANDICAP_NONE, HANDICAPS };
static const char *const handicaps[] = { [HANDICAP_N_ZI] = "n-zi", [HANDICAP_NONE] = "none",
	[HANDICAPS] = NULL };
enum illegal { ILLEGAL_VOID, ILLEGAL_LOSS, ILLEGALS };
static const char *const illegal[] = { [ILLEGAL_VOID] = "void", [ILLEGAL_LOSS] = "loss",
	[ILLEGALS] = NULL };
enum cycle { CYCLE_DRAW, CYCLE_NO_RESULT, CYCLE_REPLAY, CYCLES };
static const char *const cycles[] = { [CYCLE_DRAW] = "draw", [CYCLE_NO_RESULT] = "no-result",
	[CYCLE_REPLAY] = "replay", [CYCLES] = NULL };
enum result_unit { UNIT_ZI, UNIT_LU, UNITS };
static const char *const units[] = { [UNIT_ZI] = "zi", [UNIT_LU] = "lu", [UNITS] = NULL };

static const struct sht_param_spec params[P_COUNT] = {
	[P_SIZE] = { "size", SHT_PARAM_INT, 7, 25, NULL, "19", 0,
		"Lines each way of the board." },
	[P_SEATED] = { "seated", SHT_PARAM_CHOICE, 0, 0, seatings, "diagonal", 0,
		"座子, the four stones on the 4-4 points before play: diagonal as in the ten "
		"当湖十局 records (White D16 and Q4, Black D4 and Q16), mirror as in Tang and Song "
		"records, or none." },
	[P_FIRST] = { "first", SHT_PARAM_CHOICE, 0, 0, players, "white", 0,
		"Who moves first: White in the records; a few start with Black." },
	[P_COUNTING] = { "counting", SHT_PARAM_CHOICE, 0, 0, countings, "area", 0,
		"area: Ming-Qing count of stones and owned points with the dame split; territory: "
		"the Tang and Song method, territory less the stones lost to capture." },
	[P_TAX] = { "group_tax", SHT_PARAM_BOOL, 0, 0, NULL, "true", 0,
		"还棋头: each living group returns one zi (2 points) to the opponent." },
	[P_GROUP_UNIT] = { "group_unit", SHT_PARAM_CHOICE, 0, 0, group_units, "connected", 1,
		"What the tax counts as one group: connected (chains the opponent cannot cut "
		"apart: a tiger's mouth, two miai points, territory only they reach), or ilr "
		"(independent-life regions: only chains sharing territory are one)." },
	[P_SEKI_TAX] = { "seki_tax", SHT_PARAM_CHOICE, 0, 0, seki_taxes, "ilr", 1,
		"Seki under the tax: ilr (as for independent-life regions: seki groups pay "
		"nothing and their eyes count for nobody), eyes-needed (Spight: 2 per independent "
		"group, 1 per one-eyed seki group), half (seki eyes split)." },
	[P_HANDICAP] = { "handicap_compensation", SHT_PARAM_CHOICE, 0, 0, handicaps, "n-zi", 1,
		"Handicap N stones returns N zi (\"handicap 3 stones, return 3 stones\"), or nothing." },
	[P_KOMI] = { "komi", SHT_PARAM_DECIMAL, -10000, 10000, NULL, "0", 0,
		"No komi in ancient play; in points when set." },
	[P_ILLEGAL] = { "illegal_move", SHT_PARAM_CHOICE, 0, 0, illegal, "void", 1,
		"Consequence of a forbidden move; the sources are silent." },
	[P_CYCLES] = { "cycles", SHT_PARAM_CHOICE, 0, 0, cycles, "draw", 1,
		"Outcome of an unbroken repetition." },
	[P_UNIT] = { "result_unit", SHT_PARAM_CHOICE, 0, 0, units, "zi", 0,
		"Native unit: zi (黑胜7子半) for counting, lu (路, points) for the Tang method." },
};

static void *
ancient_configure(const struct sht_param_value *values, char *err, size_t errlen)
{
	if (!sht_plugin_komi_ok(values[P_KOMI].number, false, err, errlen))
		return NULL;
	return sht_plugin_values_copy(values, P_COUNT, err, errlen);
}

static void
ancient_setup(const void *rules, struct sht_rules_setup *s)
{
	const struct sht_param_value *v = rules;
	int n = (int)v[P_SIZE].number, far = n - 4, seating = SHT_CHOICE(v, P_SEATED);
	/* The 4-4 points: (3, 3) from each corner, counted from the top left. */
	int white = seating == SEATED_DIAGONAL ? SHT_RP_WHITE : SHT_RP_BLACK;

	s->width = s->height = n;
	s->ko = SHT_RULES_KO_SIMPLE;
	s->first_player = SHT_CHOICE(v, P_FIRST) == PLAYER_WHITE ? SHT_RP_WHITE : SHT_RP_BLACK;
	s->komi = (int)(v[P_KOMI].number / 50);
	if (seating != SEATED_NONE) {
		/* Diagonal: White on dd and pp (D16, Q4), Black on dp and pd (D4, Q16). */
		struct sht_rules_seated seats[4] = {
			{ 3, 3, white }, { far, far, white },
			{ 3, far, 3 - white }, { far, 3, 3 - white },
		};

		memcpy(s->seated, seats, sizeof(seats));
		s->nseated = 4;
	}
}

static int
ancient_consequence(const void *rules, int violation)
{
	/* No stone supply here, so no stone is ever placed with none left. */
	return sht_plugin_void_or_loss(violation, SHT_CHOICE((const struct sht_param_value *)rules,
	    P_ILLEGAL) == ILLEGAL_LOSS);
}

static int
ancient_cycle(const void *rules)
{
	static const int map[] = { [CYCLE_DRAW] = SHT_CYCLE_DRAW,
		[CYCLE_NO_RESULT] = SHT_CYCLE_NO_RESULT, [CYCLE_REPLAY] = SHT_CYCLE_REPLAY };

	return map[SHT_CHOICE((const struct sht_param_value *)rules, P_CYCLES)];
}

static int
ancient_score(const void *rules, const struct sht_host *host, const struct sht_position *pos,
    struct sht_score_result *out, char *err, size_t errlen)
{
	const struct sht_param_value *v = rules;
	/* Handicap N stones returns N zi (4 half points a stone), when asked. */
	struct sht_tally_policy policy = { sizeof(policy), SHT_COUNTING_AREA, 1,
		SHT_SEKI_EYES_COUNT, SHT_TAX_NONE, SHT_CHOICE(v, P_HANDICAP) == HANDICAP_N_ZI ? 4 : 0,
		0, 0 };

	(void)err;
	(void)errlen;
	if (SHT_CHOICE(v, P_COUNTING) == COUNTING_TERRITORY) {
		/* Tang: territory less the stones each side lost, less 2 per living group. */
		policy.counting = SHT_COUNTING_TERRITORY;
		policy.split_dame = 0;
		policy.count_losses = 1;
	}
	if (v[P_TAX].number) {
		/* [group unit][seki tax]: how seki groups pay is the same under either unit. */
		static const int tax[GROUP_UNITS][SEKI_TAXES] = {
			[GROUP_UNIT_CONNECTED] = { [SEKI_TAX_ILR] = SHT_TAX_PER_CONNECTED_GROUP,
				[SEKI_TAX_EYES_NEEDED] = SHT_TAX_EYES_NEEDED_CONNECTED,
				[SEKI_TAX_HALF] = SHT_TAX_PER_CONNECTED_GROUP },
			[GROUP_UNIT_ILR] = { [SEKI_TAX_ILR] = SHT_TAX_PER_GROUP,
				[SEKI_TAX_EYES_NEEDED] = SHT_TAX_EYES_NEEDED,
				[SEKI_TAX_HALF] = SHT_TAX_PER_GROUP },
		};
		static const int eyes[] = { [SEKI_TAX_ILR] = SHT_SEKI_EYES_NOBODY,
			[SEKI_TAX_EYES_NEEDED] = SHT_SEKI_EYES_COUNT,
			[SEKI_TAX_HALF] = SHT_SEKI_EYES_SPLIT };
		int s = SHT_CHOICE(v, P_SEKI_TAX);

		policy.tax = tax[SHT_CHOICE(v, P_GROUP_UNIT)][s];
		policy.seki_eyes = eyes[s];
	}
	host->tally(pos, &policy, out);
	if (SHT_CHOICE(v, P_UNIT) == UNIT_ZI)
		sht_native_zi(out);
	else
		sht_native_points(out, "lu", "路");
	return 0;
}

static void
ancient_describe(const void *rules, char *buf, size_t len)
{
	const struct sht_param_value *v = rules;
	long n = v[P_SIZE].number;
	int seating = SHT_CHOICE(v, P_SEATED), cycle = SHT_CHOICE(v, P_CYCLES);
	bool area = SHT_CHOICE(v, P_COUNTING) == COUNTING_AREA, tax = v[P_TAX].number != 0;
	const char *group_unit_text = SHT_CHOICE(v, P_GROUP_UNIT) == GROUP_UNIT_CONNECTED ?
	    "chains the opponent cannot cut apart" : "an independent-life region";
	char komi[64];

	buf[0] = '\0';
	sht_plugin_komi_text(v[P_KOMI].number, false, komi, sizeof(komi));
	if (seating == SEATED_NONE)
		sht_plugin_text_add(buf, len, "No seated stones; ");
	else
		sht_plugin_text_add(buf, len, "Four seated stones (座子) on the 4-4 points before "
		    "play (%s); ", seating == SEATED_DIAGONAL ? "diagonal: White on the upper left "
		    "and lower right" : "mirror: Black on the upper left and lower right");
	sht_plugin_text_add(buf, len, "%ldx%ld, %s moves first, %s.  ", n, n,
	    SHT_CHOICE(v, P_FIRST) == PLAYER_WHITE ? "White" : "Black", komi);
	if (area)
		sht_plugin_text_add(buf, len, "Ming-Qing counting: the dame are filled (split "
		    "between the sides), dead stones removed, and stones and owned points counted");
	else
		sht_plugin_text_add(buf, len, "The Tang and Song method: territory less the stones "
		    "lost to capture");
	if (!tax)
		sht_plugin_text_add(buf, len, "; no group tax.  ");
	else if (area)
		sht_plugin_text_add(buf, len, "; of the two points each living group needs, one goes "
		    "to the opponent, so each extra living group returns one zi (还棋头; a group: "
		    "%s; seki: %s).  ", group_unit_text,
		    SHT_CHOICE(v, P_SEKI_TAX) == SEKI_TAX_ILR ? "seki groups pay nothing "
		    "and their eyes count for nobody" : SHT_CHOICE(v, P_SEKI_TAX) ==
		    SEKI_TAX_EYES_NEEDED ? "1 per one-eyed seki group" : "seki eyes split");
	else
		sht_plugin_text_add(buf, len, ", less two points per living group (还棋头; a group: "
		    "%s).  ", group_unit_text);
	sht_plugin_text_add(buf, len, "%s.  Simple ko; an unbroken repetition %s; a forbidden "
	    "move %s.  Results in %s.",
	    SHT_CHOICE(v, P_HANDICAP) == HANDICAP_N_ZI ? "Handicap N stones returns N zi" :
	    "No handicap compensation",
	    cycle == CYCLE_DRAW ? "is a draw" : cycle == CYCLE_NO_RESULT ? "has no result" :
	    "is replayed",
	    SHT_CHOICE(v, P_ILLEGAL) == ILLEGAL_VOID ? "is void and the turn lost" : "loses",
	    SHT_CHOICE(v, P_UNIT) == UNIT_ZI ? "zi with half-zi precision (黑胜7子半)" :
	    "路 (points)");
}

static const struct sht_ruleset_plugin plugin = {
	.abi_version = SHT_RULESET_ABI_VERSION,
	.size = sizeof(struct sht_ruleset_plugin),
	.family = "ancient",
	.title = "Ancient Chinese rules: seated stones and the group tax",
	.description = "Ancient Chinese rules, Tang-Song and Ming-Qing: seated stones, White "
	    "first, no komi, the group tax (还棋头).",
	.sources = "docs/rules.md section 5: SL-FSP, SCC, AEB (当湖十局, 金花椀, Rotten "
	    "axe-handle, Chengdu 1094), ZZY1, ZZY2; the tax's group unit, seki under the tax and "
	    "handicap are reconstructions [R].",
	.params = params,
	.nparams = P_COUNT,
	.configure = ancient_configure,
	.release = sht_plugin_values_free,
	.setup = ancient_setup,
	.consequence = ancient_consequence,
	.cycle = ancient_cycle,
	.score = ancient_score,
	.describe = ancient_describe,
	.decided = sht_native_decided_chinese,
};

__attribute__((visibility("default"))) const struct sht_ruleset_plugin *shoutan_ruleset_plugin(void);

const struct sht_ruleset_plugin *
shoutan_ruleset_plugin(void)
{
	return &plugin;
}
