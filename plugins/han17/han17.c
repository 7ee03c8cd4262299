/* The Han-era 17-line board plugin (docs/rules.md section 4): 289 points, 150 stones a side. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "native.h"
#include "shoutan/ruleset.h"

enum { P_SIZE, P_SUPPLY, P_FIRST, P_KOMI, P_TAX, P_ILLEGAL, P_CYCLES, P_COUNT };

/* Each choice's values, named: the enum gives the index the host passes, the list its YAML
 * spelling, tied together by designated initialisers. */
enum player { PLAYER_WHITE, PLAYER_BLACK, PLAYERS };
static const char *const players[] = { [PLAYER_WHITE] = "white", [PLAYER_BLACK] = "black",
	[PLAYERS] = NULL };
enum illegal { ILLEGAL_VOID, ILLEGAL_LOSS, ILLEGALS };
static const char *const illegal[] = { [ILLEGAL_VOID] = "void", [ILLEGAL_LOSS] = "loss",
	[ILLEGALS] = NULL };
enum cycle { CYCLE_DRAW, CYCLE_NO_RESULT, CYCLES };
static const char *const cycles[] = { [CYCLE_DRAW] = "draw", [CYCLE_NO_RESULT] = "no-result",
	[CYCLES] = NULL };
/* `stones` for a player who never runs out. */
#define STONES_UNLIMITED (-1)

static const struct sht_param_spec params[P_COUNT] = {
	[P_SIZE] = { "size", SHT_PARAM_INT, 2, 25, NULL, "17", 0,
		"Lines each way: 17 (the Wangdu board; 《艺经》: 纵横各十七道, 合二百八十九道)." },
	[P_SUPPLY] = { "stones", SHT_PARAM_INT, STONES_UNLIMITED, 625, NULL, "150", 0,
		"Stones per side (白黑棋子各一百五十枚); a player with none left must pass; -1 "
		"for no limit." },
	[P_FIRST] = { "first", SHT_PARAM_CHOICE, 0, 0, players, "white", 1,
		"Who moves first: White, after the ancient custom (no Han record survives)." },
	[P_KOMI] = { "komi", SHT_PARAM_DECIMAL, -10000, 10000, NULL, "0", 1,
		"Compensation to White, in points; none is attested." },
	[P_TAX] = { "group_tax", SHT_PARAM_BOOL, 0, 0, NULL, "false", 1,
		"Whether each living group pays 2 points (还棋头); not attested for Han." },
	[P_ILLEGAL] = { "illegal_move", SHT_PARAM_CHOICE, 0, 0, illegal, "void", 1,
		"Consequence of a forbidden move; no Han rule survives." },
	[P_CYCLES] = { "cycles", SHT_PARAM_CHOICE, 0, 0, cycles, "draw", 1,
		"Outcome of an unbroken repetition." },
};

static void *
han17_configure(const struct sht_param_value *values, char *err, size_t errlen)
{
	if (!sht_plugin_komi_ok(values[P_KOMI].number, false, err, errlen))
		return NULL;
	return sht_plugin_values_copy(values, P_COUNT, err, errlen);
}

static void
han17_setup(const void *rules, struct sht_rules_setup *s)
{
	const struct sht_param_value *v = rules;

	s->width = s->height = (int)v[P_SIZE].number;
	s->ko = SHT_RULES_KO_SIMPLE;
	s->first_player = SHT_CHOICE(v, P_FIRST) == PLAYER_WHITE ? SHT_RP_WHITE : SHT_RP_BLACK;
	s->supply[SHT_RP_BLACK] = s->supply[SHT_RP_WHITE] = (int)v[P_SUPPLY].number;
	s->komi = (int)(v[P_KOMI].number / 50);
}

static int
han17_consequence(const void *rules, int violation)
{
	/* With no stones left a player must pass: a stone placed anyway is void. */
	return sht_plugin_void_or_loss(violation, SHT_CHOICE((const struct sht_param_value *)rules,
	    P_ILLEGAL) == ILLEGAL_LOSS);
}

static int
han17_cycle(const void *rules)
{
	return SHT_CHOICE((const struct sht_param_value *)rules, P_CYCLES) == CYCLE_DRAW ?
	    SHT_CYCLE_DRAW : SHT_CYCLE_NO_RESULT;
}

static int
han17_score(const void *rules, const struct sht_host *host, const struct sht_position *pos,
    struct sht_score_result *out, char *err, size_t errlen)
{
	const struct sht_param_value *v = rules;
	/* Area counting with the dame split: "the best win by gaining more 道". */
	struct sht_tally_policy policy = { sizeof(policy), SHT_COUNTING_AREA, 1,
		v[P_TAX].number ? SHT_SEKI_EYES_NOBODY : SHT_SEKI_EYES_COUNT,
		v[P_TAX].number ? SHT_TAX_PER_GROUP : SHT_TAX_NONE, 0, 0, 0 };

	(void)err;
	(void)errlen;
	host->tally(pos, &policy, out);
	sht_native_points(out, "dao", "道");
	return 0;
}

static void
han17_describe(const void *rules, char *buf, size_t len)
{
	const struct sht_param_value *v = rules;
	long n = v[P_SIZE].number, stones = v[P_SUPPLY].number;
	char komi[64], supply[64];

	buf[0] = '\0';
	sht_plugin_komi_text(v[P_KOMI].number, false, komi, sizeof(komi));
	if (stones == STONES_UNLIMITED)
		snprintf(supply, sizeof(supply), "no limit on stones");
	else
		snprintf(supply, sizeof(supply), "%ld stones a side, and a player out of stones "
		    "passes", stones);
	sht_plugin_text_add(buf, len, "The Eastern Han board of the Wangdu tomb has 17 lines "
	    "each way, 289 points and 150 stones a side (Handan Chun, 《艺经》); no playing "
	    "rules survive.  This ruleset: %ld lines each way (%ld points), %s.  Area counting "
	    "with the dame split%s, %s, %s moves first.  Simple ko; an unbroken repetition %s; "
	    "a forbidden move %s.  The best players win by gaining more 道 (points), so results "
	    "are given in 道.", n, n * n, supply,
	    v[P_TAX].number ? " and 2 points paid per living group (还棋头)" : "", komi,
	    SHT_CHOICE(v, P_FIRST) == PLAYER_WHITE ? "White" : "Black",
	    SHT_CHOICE(v, P_CYCLES) == CYCLE_DRAW ? "is a draw" : "has no result",
	    SHT_CHOICE(v, P_ILLEGAL) == ILLEGAL_VOID ? "is void and the turn lost" : "loses");
}

static const struct sht_ruleset_plugin plugin = {
	.abi_version = SHT_RULESET_ABI_VERSION,
	.size = sizeof(struct sht_ruleset_plugin),
	.family = "han17",
	.title = "Han-era 17-line board (reconstruction)",
	.description = "The Han-era 17-line board (a reconstruction): 150 stones a side, area "
	    "counting, White first.",
	.sources = "docs/rules.md section 4: SL-17, GB, HAN, ZZY1 (Huan Tan); reconstruction "
	    "marked [R].",
	.params = params,
	.nparams = P_COUNT,
	.configure = han17_configure,
	.release = sht_plugin_values_free,
	.setup = han17_setup,
	.consequence = han17_consequence,
	.cycle = han17_cycle,
	.score = han17_score,
	.describe = han17_describe,
	.decided = sht_native_decided_chinese,
};

__attribute__((visibility("default"))) const struct sht_ruleset_plugin *shoutan_ruleset_plugin(void);

const struct sht_ruleset_plugin *
shoutan_ruleset_plugin(void)
{
	return &plugin;
}
