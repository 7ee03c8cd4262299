/* The modern Chinese rules plugin (docs/rules.md section 2): area counting, superko, komi in zi. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "native.h"
#include "shoutan/ruleset.h"

enum { P_SIZE, P_KOMI, P_KOMI_UNIT, P_KO, P_SUICIDE, P_CYCLES, P_EDITION, P_ILLEGAL,
	P_HANDICAP, P_FIRST, P_UNIT, P_SEKI, P_COUNT };

static const char *const komi_units[] = { "zi", "points", NULL };
static const char *const ko_rules[] = { "simple", "positional", "situational", "chinese-practice",
	NULL };
static const char *const cycles[] = { "draw", "replay", "no-result", NULL };
static const char *const editions[] = { "2002", "1988", NULL };
static const char *const illegal[] = { "void", "warning", "loss", NULL };
static const char *const handicaps[] = { "half", "n-minus-1", "none", NULL };
static const char *const players[] = { "black", "white", NULL };
static const char *const units[] = { "zi", "points", NULL };
static const char *const seki_eyes[] = { "owner", "nobody", NULL };

static const struct sht_param_spec params[P_COUNT] = {
	[P_SIZE] = { "size", SHT_PARAM_INT, 2, 25, NULL, "19", 0,
		"Lines each way of the board." },
	[P_KOMI] = { "komi", SHT_PARAM_DECIMAL, -10000, 10000, NULL, "3.75", 0,
		"White's compensation, in komi_unit (CWA 2002: 3¾ zi)." },
	[P_KOMI_UNIT] = { "komi_unit", SHT_PARAM_CHOICE, 0, 0, komi_units, "zi", 0,
		"Unit of komi: zi (one stone, two points) or points." },
	[P_KO] = { "ko", SHT_PARAM_CHOICE, 0, 0, ko_rules, "positional", 0,
		"Repetition rule.  positional: no whole-board repetition (the written article); "
		"chinese-practice: simple ko, and any repetition ends the game as `cycles` says "
		"(referee practice; the unbalanced cycles that practice forbids are not told apart)." },
	[P_SUICIDE] = { "suicide", SHT_PARAM_BOOL, 0, 0, NULL, "false", 0,
		"Whether a move that kills its own chain of two or more stones is legal." },
	[P_CYCLES] = { "cycles", SHT_PARAM_CHOICE, 0, 0, cycles, "draw", 0,
		"Outcome of a repeated position under simple ko: draw, replay or no-result." },
	[P_EDITION] = { "edition", SHT_PARAM_CHOICE, 0, 0, editions, "2002", 0,
		"Referee rules for two moves in a row: 1988 loses the game, 2002 voids the second "
		"move with a warning." },
	[P_ILLEGAL] = { "illegal_move", SHT_PARAM_CHOICE, 0, 0, illegal, "void", 0,
		"Consequence of suicide or a forbidden ko retake: the move is void and the turn "
		"lost (the referee chapter), a warning as well, or loss." },
	[P_HANDICAP] = { "handicap_compensation", SHT_PARAM_CHOICE, 0, 0, handicaps, "half", 0,
		"What Black returns for N handicap stones: half (N/2 zi = N points, 贴还让子数的一半), "
		"n-minus-1 points (AGA), or none." },
	[P_FIRST] = { "first", SHT_PARAM_CHOICE, 0, 0, players, "black", 0,
		"Who moves first in an even game." },
	[P_UNIT] = { "result_unit", SHT_PARAM_CHOICE, 0, 0, units, "zi", 0,
		"Native unit of the result: zi (黑胜¾子) or points (computer rulesets)." },
	[P_SEKI] = { "seki_eyes", SHT_PARAM_CHOICE, 0, 0, seki_eyes, "owner", 0,
		"Eyes inside seki count for their owner (the Chinese rule) or for nobody (a "
		"variant, as KataGo's area scoring with tax SEKI)." },
};

static void *
chinese_configure(const struct sht_param_value *values, char *err, size_t errlen)
{
	bool in_zi = SHT_CHOICE(values, P_KOMI_UNIT) == 0;

	if (!sht_plugin_komi_ok(values[P_KOMI].number, in_zi, err, errlen))
		return NULL;
	return sht_plugin_values_copy(values, P_COUNT, err, errlen);
}

static void
chinese_setup(const void *rules, struct sht_rules_setup *s)
{
	const struct sht_param_value *v = rules;
	long komi = v[P_KOMI].number;
	int ko = SHT_CHOICE(v, P_KO);

	s->width = s->height = (int)v[P_SIZE].number;
	s->ko = ko == 1 ? SHT_RULES_KO_POSITIONAL : ko == 2 ? SHT_RULES_KO_SITUATIONAL :
	    SHT_RULES_KO_SIMPLE;
	s->multi_stone_suicide = (int)v[P_SUICIDE].number;
	s->first_player = SHT_CHOICE(v, P_FIRST) == 0 ? SHT_RP_BLACK : SHT_RP_WHITE;
	/* Hundredths of a zi to half points is /25, of a point /50. */
	s->komi = (int)(SHT_CHOICE(v, P_KOMI_UNIT) == 0 ? komi / 25 : komi / 50);
	s->warnings_to_lose = 2;
}

static int
chinese_consequence(const void *rules, int violation)
{
	const struct sht_param_value *v = rules;

	switch (violation) {
	case SHT_VIOLATION_NOT_YOUR_TURN:
		return SHT_CHOICE(v, P_EDITION) == 1 ? SHT_CONSEQUENCE_LOSS :
		    SHT_CONSEQUENCE_WARNING;
	case SHT_VIOLATION_TAKE_BACK:
	case SHT_VIOLATION_DISTURBED:
		/* Referee rules: the stones are restored and a warning given. */
		return SHT_CONSEQUENCE_WARNING;
	case SHT_VIOLATION_SUICIDE:
	case SHT_VIOLATION_KO:
	case SHT_VIOLATION_SUPERKO:
	case SHT_VIOLATION_NO_STONES: {
		static const int map[] = { SHT_CONSEQUENCE_VOID, SHT_CONSEQUENCE_WARNING,
			SHT_CONSEQUENCE_LOSS };

		return map[SHT_CHOICE(v, P_ILLEGAL)];
	}
	default:
		/* A stone on an occupied point or off the board is no move: refuse the record. */
		return SHT_CONSEQUENCE_REJECT;
	}
}

static int
chinese_cycle(const void *rules)
{
	static const int map[] = { SHT_CYCLE_DRAW, SHT_CYCLE_REPLAY, SHT_CYCLE_NO_RESULT };

	return map[SHT_CHOICE((const struct sht_param_value *)rules, P_CYCLES)];
}

static int
chinese_score(const void *rules, const struct sht_host *host, const struct sht_position *pos,
    struct sht_score_result *out, char *err, size_t errlen)
{
	const struct sht_param_value *v = rules;
	int h = SHT_CHOICE(v, P_HANDICAP);
	/* Handicap: N/2 zi is N points; AGA gives N - 1 points; or nothing. */
	struct sht_tally_policy policy = { sizeof(policy), SHT_COUNTING_AREA, 1,
		SHT_CHOICE(v, P_SEKI) == 1 ? SHT_SEKI_EYES_NOBODY : SHT_SEKI_EYES_COUNT, SHT_TAX_NONE,
		h == 2 ? 0 : 2, h == 1 ? 1 : 0, 0 };

	(void)err;
	(void)errlen;
	host->tally(pos, &policy, out);
	if (SHT_CHOICE(v, P_UNIT) == 0)
		sht_native_zi(out);
	else
		sht_native_points(out, "points", "目");
	return 0;
}

static const struct sht_ruleset_plugin plugin = {
	.abi_version = SHT_RULESET_ABI_VERSION,
	.size = sizeof(struct sht_ruleset_plugin),
	.family = "chinese",
	.title = "Modern Chinese rules (area counting)",
	.description = "Area counting (数子法): each side counts its live stones, the empty points "
	    "it alone surrounds and half of the dame; eyes in seki count for their owner.  The "
	    "baseline is half the board (180.5 on 19x19) and komi is 3¾ zi, so Black wins with "
	    "more than 184¼.  Handicap: Black returns half the handicap count.  Suicide is "
	    "forbidden; a forbidden move is void and the turn lost; two warnings lose.",
	.sources = "docs/rules.md section 2: CN88, CN-REF88 17-20, CN-REF02, CN-CNT, CN-KOMI, "
	    "SL-541, SL-CSK; Tromp-Taylor and AGA variants from docs/rules.md section 6 (TT, AGA).",
	.params = params,
	.nparams = P_COUNT,
	.configure = chinese_configure,
	.release = sht_plugin_values_free,
	.setup = chinese_setup,
	.consequence = chinese_consequence,
	.cycle = chinese_cycle,
	.score = chinese_score,
};

__attribute__((visibility("default"))) const struct sht_ruleset_plugin *shoutan_ruleset_plugin(void);

const struct sht_ruleset_plugin *
shoutan_ruleset_plugin(void)
{
	return &plugin;
}
