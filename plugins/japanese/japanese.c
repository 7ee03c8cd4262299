/* The Japanese 1989 / Korean rules plugin (docs/rules.md section 3): territory, simple ko. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "native.h"
#include "shoutan/ruleset.h"

enum { P_SIZE, P_KOMI, P_ILLEGAL, P_CYCLES, P_NOTATION, P_SEKI, P_END_COUNT, P_COUNT };

/* Each choice's values, named: the enum gives the index the host passes, the list its YAML
 * spelling, tied together by designated initialisers. */
enum illegal { ILLEGAL_LOSS, ILLEGAL_VOID, ILLEGALS };
static const char *const illegal[] = { [ILLEGAL_LOSS] = "loss", [ILLEGAL_VOID] = "void",
	[ILLEGALS] = NULL };
enum cycle { CYCLE_NO_RESULT, CYCLE_DRAW, CYCLE_REPLAY, CYCLES };
static const char *const cycles[] = { [CYCLE_NO_RESULT] = "no-result", [CYCLE_DRAW] = "draw",
	[CYCLE_REPLAY] = "replay", [CYCLES] = NULL };
enum notation { NOTATION_JAPANESE, NOTATION_KOREAN, NOTATIONS };
static const char *const notations[] = { [NOTATION_JAPANESE] = "japanese",
	[NOTATION_KOREAN] = "korean", [NOTATIONS] = NULL };
enum seki { SEKI_NOBODY, SEKI_TERRITORY, SEKIS };
static const char *const seki_eyes[] = { [SEKI_NOBODY] = "nobody",
	[SEKI_TERRITORY] = "territory", [SEKIS] = NULL };
enum end_count { END_SETTLED, END_AS_IT_STANDS, END_COUNTS };
static const char *const end_counts[] = { [END_SETTLED] = "settled",
	[END_AS_IT_STANDS] = "as-it-stands", [END_COUNTS] = NULL };

static const struct sht_param_spec params[P_COUNT] = {
	[P_SIZE] = { "size", SHT_PARAM_INT, 2, 25, NULL, "19", 0,
		"Lines each way of the board." },
	[P_KOMI] = { "komi", SHT_PARAM_DECIMAL, -10000, 10000, NULL, "6.5", 0,
		"White's compensation in points (6.5 since 2002)." },
	[P_ILLEGAL] = { "illegal_move", SHT_PARAM_CHOICE, 0, 0, illegal, "loss", 0,
		"Consequence of any rule violation found before the result is confirmed "
		"(Art. 14: 反則負け, loss)." },
	[P_CYCLES] = { "cycles", SHT_PARAM_CHOICE, 0, 0, cycles, "no-result", 0,
		"A repeated whole-board position the players do not break (triple ko, eternal "
		"life): no result (無勝負, Art. 12)." },
	[P_NOTATION] = { "notation", SHT_PARAM_CHOICE, 0, 0, notations, "japanese", 0,
		"Native result text: Japanese (黒6目半勝ち) or Korean (흑 6집반 승)." },
	[P_SEKI] = { "seki_eyes", SHT_PARAM_CHOICE, 0, 0, seki_eyes, "nobody", 0,
		"Empty points a seki group surrounds alone: nobody's (Art. 8), or its territory "
		"(IGS's rules, and the NNGS server's count)." },
	[P_END_COUNT] = { "end_count", SHT_PARAM_CHOICE, 0, 0, end_counts, "settled", 0,
		"A game that ended by passes: counted once its dame are filled and the protecting "
		"moves they force are made (settled), or as its board stands, as a server counted "
		"it, a region an unfilled point leaves open being dame (as-it-stands)." },
};

static void *
japanese_configure(const struct sht_param_value *values, char *err, size_t errlen)
{
	if (!sht_plugin_komi_ok(values[P_KOMI].number, false, err, errlen))
		return NULL;
	return sht_plugin_values_copy(values, P_COUNT, err, errlen);
}

static void
japanese_setup(const void *rules, struct sht_rules_setup *s)
{
	const struct sht_param_value *v = rules;

	s->width = s->height = (int)v[P_SIZE].number;
	s->ko = SHT_RULES_KO_SIMPLE; /* Art. 4 and 6: no superko */
	s->multi_stone_suicide = 0;
	s->first_player = SHT_RP_BLACK;
	s->komi = (int)(v[P_KOMI].number / 50);
	/* Japanese: a ko is not retaken in the confirmation without passing for it; Korean:
	 * life is judged by local play, where the defender has no ko threats.  Either way a
	 * group that only a ko can capture is dead. */
	s->ko_life = SHT_KO_LIFE_DEAD;
}

static int
japanese_consequence(const void *rules, int violation)
{
	const struct sht_param_value *v = rules;

	if (violation == SHT_VIOLATION_OCCUPIED || violation == SHT_VIOLATION_OFF_BOARD)
		return SHT_CONSEQUENCE_REJECT;
	return SHT_CHOICE(v, P_ILLEGAL) == ILLEGAL_LOSS ? SHT_CONSEQUENCE_LOSS :
	    SHT_CONSEQUENCE_VOID;
}

static int
japanese_cycle(const void *rules)
{
	static const int map[] = { [CYCLE_NO_RESULT] = SHT_CYCLE_NO_RESULT,
		[CYCLE_DRAW] = SHT_CYCLE_DRAW, [CYCLE_REPLAY] = SHT_CYCLE_REPLAY };

	return map[SHT_CHOICE((const struct sht_param_value *)rules, P_CYCLES)];
}

static int
japanese_score(const void *rules, const struct sht_host *host, const struct sht_position *pos,
    struct sht_score_result *out, char *err, size_t errlen)
{
	const struct sht_param_value *v = rules;
	/* Territory + prisoners; eyes in seki are no territory (Art. 8) unless the ruleset
	 * counts them; dame count for nobody; no handicap compensation. */
	struct sht_tally_policy policy = { sizeof(policy), SHT_COUNTING_TERRITORY, 0,
		SHT_CHOICE(v, P_SEKI) == SEKI_TERRITORY ? SHT_SEKI_EYES_COUNT : SHT_SEKI_EYES_NOBODY,
		SHT_TAX_NONE, 0, 0, 0 };

	(void)err;
	(void)errlen;
	host->tally(pos, &policy, out);
	if (out->size >= offsetof(struct sht_score_result, as_it_stands) + sizeof(int))
		out->as_it_stands = SHT_CHOICE(v, P_END_COUNT) == END_AS_IT_STANDS;
	if (SHT_CHOICE(v, P_NOTATION) == NOTATION_JAPANESE)
		sht_native_japanese(out);
	else
		sht_native_korean(out);
	return 0;
}

static void
japanese_describe(const void *rules, char *buf, size_t len)
{
	const struct sht_param_value *v = rules;
	long n = v[P_SIZE].number;
	int cycle = SHT_CHOICE(v, P_CYCLES);
	char komi[64];

	buf[0] = '\0';
	sht_plugin_komi_text(v[P_KOMI].number, false, komi, sizeof(komi));
	sht_plugin_text_add(buf, len, "Territory counting on %ldx%ld: empty points surrounded by "
	    "one side's live stones%s, plus prisoners (captured during play "
	    "and dead stones removed at the end).  Dame count for nobody.  Simple ko only; a "
	    "repeated position the players do not break %s.  %s; %s.  Results in %s.%s", n, n,
	    SHT_CHOICE(v, P_SEKI) == SEKI_TERRITORY ? ", eyes in seki included" :
	    " that are not in seki",
	    cycle == CYCLE_NO_RESULT ? "has no result" : cycle == CYCLE_DRAW ? "is a draw" :
	    "is replayed",
	    SHT_CHOICE(v, P_ILLEGAL) == ILLEGAL_LOSS ? "Any violation loses" :
	    "A violation is void and the turn lost",
	    komi,
	    SHT_CHOICE(v, P_NOTATION) == NOTATION_JAPANESE ? "目 (黒6目半勝ち)" :
	    "집 (흑 6집반 승)",
	    SHT_CHOICE(v, P_END_COUNT) == END_AS_IT_STANDS ? "  A game that ended by passes is "
	    "counted as its board stands: no dame are filled, and a region an unfilled point "
	    "leaves open is dame." : "");
}

/* A forfeit, resignation or cycle in the notation's language: 反則負け, or 반칙패. */
static void
japanese_decided(const void *rules, int decision, struct sht_score_result *out)
{
	sht_native_decided(out, decision, SHT_CHOICE((const struct sht_param_value *)rules,
	    P_NOTATION) == NOTATION_JAPANESE ? SHT_NATIVE_JAPANESE : SHT_NATIVE_KOREAN);
}

static const struct sht_ruleset_plugin plugin = {
	.abi_version = SHT_RULESET_ABI_VERSION,
	.size = sizeof(struct sht_ruleset_plugin),
	.family = "japanese",
	.title = "Japanese 1989 / Korean rules (territory counting)",
	.description = "The Japanese 1989 and Korean rules: territory and prisoners, no "
	    "territory in seki, simple ko, a violation loses.",
	.sources = "docs/rules.md section 3: J89 Art. 4-14, SL-JR; Korean: SL-KR (KBA 2016).",
	.params = params,
	.nparams = P_COUNT,
	.configure = japanese_configure,
	.release = sht_plugin_values_free,
	.setup = japanese_setup,
	.consequence = japanese_consequence,
	.cycle = japanese_cycle,
	.score = japanese_score,
	.describe = japanese_describe,
	.decided = japanese_decided,
};

__attribute__((visibility("default"))) const struct sht_ruleset_plugin *shoutan_ruleset_plugin(void);

const struct sht_ruleset_plugin *
shoutan_ruleset_plugin(void)
{
	return &plugin;
}
