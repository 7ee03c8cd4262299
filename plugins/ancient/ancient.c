/*
 * The ancient Chinese rules plugin (docs/rules.md section 5): seated stones, White first, the
 * group tax.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "native.h"
#include "shoutan/ruleset.h"

enum { P_SIZE, P_SEATED, P_FIRST, P_COUNTING, P_TAX, P_SEKI_TAX, P_HANDICAP, P_KOMI, P_ILLEGAL,
	P_CYCLES, P_UNIT, P_COUNT };

static const char *const seatings[] = { "diagonal", "mirror", "none", NULL };
static const char *const players[] = { "white", "black", NULL };
static const char *const countings[] = { "area", "territory", NULL };
static const char *const seki_taxes[] = { "ilr", "eyes-needed", "half", NULL };
static const char *const handicaps[] = { "n-zi", "none", NULL };
static const char *const illegal[] = { "void", "loss", NULL };
static const char *const cycles[] = { "draw", "no-result", "replay", NULL };
static const char *const units[] = { "zi", "lu", NULL };

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
	[P_SEKI_TAX] = { "seki_tax", SHT_PARAM_CHOICE, 0, 0, seki_taxes, "ilr", 1,
		"Seki under the tax: ilr (groups are independent-life regions; seki groups pay "
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
	int white = seating == 0 ? SHT_RP_WHITE : SHT_RP_BLACK;

	s->width = s->height = n;
	s->ko = SHT_RULES_KO_SIMPLE;
	s->first_player = SHT_CHOICE(v, P_FIRST) == 0 ? SHT_RP_WHITE : SHT_RP_BLACK;
	s->komi = (int)(v[P_KOMI].number / 50);
	if (seating != 2) {
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
	const struct sht_param_value *v = rules;

	if (violation == SHT_VIOLATION_OCCUPIED || violation == SHT_VIOLATION_OFF_BOARD)
		return SHT_CONSEQUENCE_REJECT;
	return SHT_CHOICE(v, P_ILLEGAL) == 0 ? SHT_CONSEQUENCE_VOID : SHT_CONSEQUENCE_LOSS;
}

static int
ancient_cycle(const void *rules)
{
	static const int map[] = { SHT_CYCLE_DRAW, SHT_CYCLE_NO_RESULT, SHT_CYCLE_REPLAY };

	return map[SHT_CHOICE((const struct sht_param_value *)rules, P_CYCLES)];
}

static int
ancient_score(const void *rules, const struct sht_host *host, const struct sht_position *pos,
    struct sht_score_result *out, char *err, size_t errlen)
{
	const struct sht_param_value *v = rules;
	/* Handicap N stones returns N zi (4 half points a stone), when asked. */
	struct sht_tally_policy policy = { sizeof(policy), SHT_COUNTING_AREA, 1,
		SHT_SEKI_EYES_COUNT, SHT_TAX_NONE, SHT_CHOICE(v, P_HANDICAP) == 0 ? 4 : 0, 0, 0 };

	(void)err;
	(void)errlen;
	if (SHT_CHOICE(v, P_COUNTING) == 1) {
		/* Tang: territory less the stones each side lost, less 2 per living group. */
		policy.counting = SHT_COUNTING_TERRITORY;
		policy.split_dame = 0;
		policy.count_losses = 1;
	}
	if (v[P_TAX].number) {
		static const int tax[] = { SHT_TAX_PER_GROUP, SHT_TAX_EYES_NEEDED, SHT_TAX_PER_GROUP };
		static const int eyes[] = { SHT_SEKI_EYES_NOBODY, SHT_SEKI_EYES_COUNT,
			SHT_SEKI_EYES_SPLIT };
		int s = SHT_CHOICE(v, P_SEKI_TAX);

		policy.tax = tax[s];
		policy.seki_eyes = eyes[s];
	}
	host->tally(pos, &policy, out);
	if (SHT_CHOICE(v, P_UNIT) == 0)
		sht_native_zi(out);
	else
		sht_native_points(out, "lu", "路");
	return 0;
}

static const struct sht_ruleset_plugin plugin = {
	.abi_version = SHT_RULESET_ABI_VERSION,
	.size = sizeof(struct sht_ruleset_plugin),
	.family = "ancient",
	.title = "Ancient Chinese rules: seated stones and the group tax",
	.description = "Four seated stones (座子) on the 4-4 points before play, White first, no "
	    "komi, results in zi with half-zi precision (黑胜7子半).  Ming-Qing counting fills "
	    "the dame, removes dead stones and counts stones and owned points; of the two points "
	    "each living group needs, one goes to the opponent, so each extra living group returns "
	    "one zi (还棋头).  The Tang and Song method counts territory less the stones lost to "
	    "capture and two points per living group.",
	.sources = "docs/rules.md section 5: SL-FSP, SCC, AEB (当湖十局, 金花椀, Rotten "
	    "axe-handle, Chengdu 1094), ZZY1, ZZY2; seki under the tax and handicap are "
	    "reconstructions [R].",
	.params = params,
	.nparams = P_COUNT,
	.configure = ancient_configure,
	.release = sht_plugin_values_free,
	.setup = ancient_setup,
	.consequence = ancient_consequence,
	.cycle = ancient_cycle,
	.score = ancient_score,
};

__attribute__((visibility("default"))) const struct sht_ruleset_plugin *shoutan_ruleset_plugin(void);

const struct sht_ruleset_plugin *
shoutan_ruleset_plugin(void)
{
	return &plugin;
}
