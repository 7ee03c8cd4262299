/* The modern Chinese rules plugin (docs/rules.md section 2): area counting, superko, komi in zi. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "native.h"
#include "shoutan/ruleset.h"

enum { P_SIZE, P_KOMI, P_KOMI_UNIT, P_KO, P_SUICIDE, P_CYCLES, P_EDITION, P_ILLEGAL,
	P_HANDICAP, P_FIRST, P_UNIT, P_SEKI, P_DAME, P_PASS_STONES, P_LAST_PASS,
	P_FIRST_PASS_BONUS, P_TIES, P_COUNT };

/* Each choice's values, named: the enum gives the index the host passes, the list its YAML
 * spelling, tied together by designated initialisers. */
enum komi_unit { KOMI_ZI, KOMI_POINTS, KOMI_UNITS };
static const char *const komi_units[] = { [KOMI_ZI] = "zi", [KOMI_POINTS] = "points",
	[KOMI_UNITS] = NULL };
enum ko_rule { KO_SIMPLE, KO_POSITIONAL, KO_SITUATIONAL, KO_CHINESE_PRACTICE, KO_RULES };
static const char *const ko_rules[] = { [KO_SIMPLE] = "simple", [KO_POSITIONAL] = "positional",
	[KO_SITUATIONAL] = "situational", [KO_CHINESE_PRACTICE] = "chinese-practice",
	[KO_RULES] = NULL };
enum cycle { CYCLE_DRAW, CYCLE_REPLAY, CYCLE_NO_RESULT, CYCLES };
static const char *const cycles[] = { [CYCLE_DRAW] = "draw", [CYCLE_REPLAY] = "replay",
	[CYCLE_NO_RESULT] = "no-result", [CYCLES] = NULL };
enum edition { EDITION_2002, EDITION_1988, EDITIONS };
static const char *const editions[] = { [EDITION_2002] = "2002", [EDITION_1988] = "1988",
	[EDITIONS] = NULL };
enum illegal { ILLEGAL_VOID, ILLEGAL_WARNING, ILLEGAL_LOSS, ILLEGALS };
static const char *const illegal[] = { [ILLEGAL_VOID] = "void", [ILLEGAL_WARNING] = "warning",
	[ILLEGAL_LOSS] = "loss", [ILLEGALS] = NULL };
enum handicap { HANDICAP_HALF, HANDICAP_N_MINUS_1, HANDICAP_NONE, HANDICAPS };
static const char *const handicaps[] = { [HANDICAP_HALF] = "half",
	[HANDICAP_N_MINUS_1] = "n-minus-1", [HANDICAP_NONE] = "none", [HANDICAPS] = NULL };
enum player { PLAYER_BLACK, PLAYER_WHITE, PLAYERS };
static const char *const players[] = { [PLAYER_BLACK] = "black", [PLAYER_WHITE] = "white",
	[PLAYERS] = NULL };
enum result_unit { UNIT_ZI, UNIT_POINTS, UNITS };
static const char *const units[] = { [UNIT_ZI] = "zi", [UNIT_POINTS] = "points",
	[UNITS] = NULL };
enum seki_eyes { SEKI_OWNER, SEKI_NOBODY, SEKI_EYES };
static const char *const seki_eyes[] = { [SEKI_OWNER] = "owner", [SEKI_NOBODY] = "nobody",
	[SEKI_EYES] = NULL };
enum dame { DAME_SPLIT, DAME_NOBODY, DAMES };
static const char *const dames[] = { [DAME_SPLIT] = "split", [DAME_NOBODY] = "nobody",
	[DAMES] = NULL };

enum last_pass { LAST_PASS_EITHER, LAST_PASS_WHITE, LAST_PASSES };
static const char *const last_passes[] = { [LAST_PASS_EITHER] = "either",
	[LAST_PASS_WHITE] = "white", [LAST_PASSES] = NULL };

enum ties { TIES_DRAW, TIES_BLACK, TIES };
static const char *const ties[] = { [TIES_DRAW] = "draw", [TIES_BLACK] = "black",
	[TIES] = NULL };

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
	[P_DAME] = { "dame", SHT_PARAM_CHOICE, 0, 0, dames, "split", 0,
		"Points that reach both colours: split, half to each side (the Chinese count), or "
		"nobody's (Tromp-Taylor).  The margin is the same; the totals differ." },
	[P_PASS_STONES] = { "pass_stones", SHT_PARAM_BOOL, 0, 0, NULL, "false", 0,
		"AGA: each pass hands the opponent a prisoner, so the territory count (territory + "
		"prisoners + pass stones) gives the area count's result; the score's notes give the "
		"second count and say whether the two agree." },
	[P_LAST_PASS] = { "last_pass", SHT_PARAM_CHOICE, 0, 0, last_passes, "either", 0,
		"Whose pass ends the game: either player's second consecutive pass, or White's only "
		"(AGA: a game closing on Black's pass needs one more White pass)." },
	[P_FIRST_PASS_BONUS] = { "first_pass_bonus", SHT_PARAM_DECIMAL, 0, 10000, NULL, "0", 0,
		"Points added to White's komi when White makes the game's first pass (WMSG 2008: "
		"1, so komi 6.5 becomes 7.5)." },
	[P_TIES] = { "ties", SHT_PARAM_CHOICE, 0, 0, ties, "draw", 0,
		"A margin of 0 is a draw, or a win for Black (Ing: komi 8, Black wins ties)." },
};

static void *
chinese_configure(const struct sht_param_value *values, char *err, size_t errlen)
{
	bool in_zi = SHT_CHOICE(values, P_KOMI_UNIT) == KOMI_ZI;

	if (!sht_plugin_komi_ok(values[P_KOMI].number, in_zi, err, errlen) ||
	    !sht_plugin_komi_ok(values[P_FIRST_PASS_BONUS].number, false, err, errlen))
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
	/* chinese-practice plays simple ko; its cycles end the game as `cycles` says. */
	s->ko = ko == KO_POSITIONAL ? SHT_RULES_KO_POSITIONAL : ko == KO_SITUATIONAL ?
	    SHT_RULES_KO_SITUATIONAL : SHT_RULES_KO_SIMPLE;
	s->multi_stone_suicide = (int)v[P_SUICIDE].number;
	s->first_player = SHT_CHOICE(v, P_FIRST) == PLAYER_BLACK ? SHT_RP_BLACK : SHT_RP_WHITE;
	/* Hundredths of a zi to half points is /25, of a point /50. */
	s->komi = (int)(SHT_CHOICE(v, P_KOMI_UNIT) == KOMI_ZI ? komi / 25 : komi / 50);
	s->warnings_to_lose = 2;
	if (SHT_CHOICE(v, P_LAST_PASS) == LAST_PASS_WHITE)
		s->last_pass = SHT_RP_WHITE;
}

static int
chinese_consequence(const void *rules, int violation)
{
	const struct sht_param_value *v = rules;

	switch (violation) {
	case SHT_VIOLATION_NOT_YOUR_TURN:
		return SHT_CHOICE(v, P_EDITION) == EDITION_1988 ? SHT_CONSEQUENCE_LOSS :
		    SHT_CONSEQUENCE_WARNING;
	case SHT_VIOLATION_TAKE_BACK:
	case SHT_VIOLATION_DISTURBED:
		/* Referee rules: the stones are restored and a warning given. */
		return SHT_CONSEQUENCE_WARNING;
	case SHT_VIOLATION_SUICIDE:
	case SHT_VIOLATION_KO:
	case SHT_VIOLATION_SUPERKO:
	case SHT_VIOLATION_NO_STONES: {
		static const int map[] = { [ILLEGAL_VOID] = SHT_CONSEQUENCE_VOID,
			[ILLEGAL_WARNING] = SHT_CONSEQUENCE_WARNING,
			[ILLEGAL_LOSS] = SHT_CONSEQUENCE_LOSS };

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
	static const int map[] = { [CYCLE_DRAW] = SHT_CYCLE_DRAW, [CYCLE_REPLAY] = SHT_CYCLE_REPLAY,
		[CYCLE_NO_RESULT] = SHT_CYCLE_NO_RESULT };

	return map[SHT_CHOICE((const struct sht_param_value *)rules, P_CYCLES)];
}

/* The note's "Black 61 + 12 prisoners" for one side of the territory count. */
static void
side_text(char *buf, size_t len, const char *name, const struct sht_side_score *s,
    int pass_stones)
{
	snprintf(buf, len, "%s %d%s + %d prisoner%s (%d pass stone%s)%s", name,
	    s->territory / 2, s->territory % 2 ? ".5" : "", s->prisoners / 2,
	    s->prisoners == 2 ? "" : "s", pass_stones, pass_stones == 1 ? "" : "s",
	    s->komi ? " + komi" : "");
}

/*
 * AGA 2008: the same result by territory counting, where each pass hands the opponent a
 * prisoner and White passes last.  Area minus territory is the difference in turns taken
 * (stones played + passes) plus the handicap stones, so with White's pass last the two agree
 * once the area count gives White N - 1 points for N handicap stones.  The area count stands;
 * the note gives the second count, and says so when a record's turns break the identity (an
 * unfinished record, or one closing on Black's pass without White's).
 */
static void
aga_second_count(const struct sht_param_value *v, const struct sht_host *host,
    const struct sht_position *pos, struct sht_score_result *out)
{
	struct sht_counts k;
	struct sht_tally_policy territory = { sizeof(territory), SHT_COUNTING_TERRITORY, 0,
		SHT_SEKI_EYES_COUNT, SHT_TAX_NONE, 0, 0, 0 };
	struct sht_score_result t;
	char b[64], w[64];
	int pass_stones[3], owed = 0, gap;

	if (out->size < offsetof(struct sht_score_result, note) + sizeof(out->note))
		return;
	memset(&k, 0, sizeof(k));
	k.size = sizeof(k);
	host->count(pos, &k);
	if (k.size < offsetof(struct sht_counts, closing_passes) + sizeof(k.closing_passes))
		return;
	/* A record closing on Black's pass owes White's last pass: its stone counts. */
	if (SHT_CHOICE(v, P_LAST_PASS) == LAST_PASS_WHITE && k.closing_passes > 0 &&
	    k.to_move == SHT_RP_WHITE)
		owed = 1;
	pass_stones[SHT_RP_BLACK] = k.passes[SHT_RP_WHITE] + owed;
	pass_stones[SHT_RP_WHITE] = k.passes[SHT_RP_BLACK];
	memset(&t, 0, sizeof(t));
	t.size = sizeof(t);
	host->tally(pos, &territory, &t);
	t.black.prisoners += 2 * pass_stones[SHT_RP_BLACK];
	t.black.total += 2 * pass_stones[SHT_RP_BLACK];
	t.white.prisoners += 2 * pass_stones[SHT_RP_WHITE];
	t.white.total += 2 * pass_stones[SHT_RP_WHITE];
	t.margin = t.black.total - t.white.total;
	side_text(b, sizeof(b), "Black", &t.black, pass_stones[SHT_RP_BLACK]);
	side_text(w, sizeof(w), "White", &t.white, pass_stones[SHT_RP_WHITE]);
	gap = t.margin - out->margin;
	out->note[0] = '\0';
	if (gap == 0)
		sht_plugin_text_add(out->note, sizeof(out->note), "AGA territory count with pass "
		    "stones%s: %s, %s: the same margin as the area count",
		    owed ? " (and White's last pass)" : "", b, w);
	else
		sht_plugin_text_add(out->note, sizeof(out->note), "AGA territory count with pass "
		    "stones: %s, %s: %d%s point%s %s Black than the area count, which stands "
		    "(uneven turns: the record is unfinished or not closed by White's pass)", b, w,
		    abs(gap) / 2, abs(gap) % 2 ? ".5" : "", abs(gap) == 2 ? "" : "s",
		    gap > 0 ? "better for" : "worse for");
}

/* WMSG 2008's komi point when White passes first, and Ing's tie that Black wins: changes
 * to tally's result that the policy does not express, rewritten by the host's texts. */
static void
adjust_komi_and_ties(const struct sht_param_value *v, const struct sht_host *host,
    const struct sht_position *pos, struct sht_score_result *out)
{
	bool changed = false;

	if (host->size < offsetof(struct sht_host, result_texts) + sizeof(host->result_texts) ||
	    host->result_texts == NULL)
		return;
	if (v[P_FIRST_PASS_BONUS].number != 0) {
		struct sht_counts k;

		memset(&k, 0, sizeof(k));
		k.size = sizeof(k);
		host->count(pos, &k);
		if (k.size >= offsetof(struct sht_counts, first_pass) + sizeof(k.first_pass) &&
		    k.first_pass == SHT_RP_WHITE) {
			/* Hundredths of a point to half points. */
			int bonus = (int)(v[P_FIRST_PASS_BONUS].number / 50);

			out->white.komi += bonus;
			out->white.total += bonus;
			out->margin -= bonus;
			changed = true;
		}
	}
	if (changed || SHT_CHOICE(v, P_TIES) == TIES_BLACK) {
		out->winner = out->margin > 0 ? SHT_WINNER_BLACK : out->margin < 0 ?
		    SHT_WINNER_WHITE : SHT_CHOICE(v, P_TIES) == TIES_BLACK ? SHT_WINNER_BLACK :
		    SHT_WINNER_DRAW;
		host->result_texts(out);
	}
}

static int
chinese_score(const void *rules, const struct sht_host *host, const struct sht_position *pos,
    struct sht_score_result *out, char *err, size_t errlen)
{
	const struct sht_param_value *v = rules;
	enum handicap h = (enum handicap)SHT_CHOICE(v, P_HANDICAP);
	/* Handicap: N/2 zi is N points (2 half points a stone); AGA gives N - 1 points (the
	 * first stone free); or nothing. */
	struct sht_tally_policy policy = { sizeof(policy), SHT_COUNTING_AREA,
		SHT_CHOICE(v, P_DAME) == DAME_SPLIT,
		SHT_CHOICE(v, P_SEKI) == SEKI_NOBODY ? SHT_SEKI_EYES_NOBODY : SHT_SEKI_EYES_COUNT,
		SHT_TAX_NONE, h == HANDICAP_NONE ? 0 : 2, h == HANDICAP_N_MINUS_1 ? 1 : 0, 0 };

	(void)err;
	(void)errlen;
	host->tally(pos, &policy, out);
	adjust_komi_and_ties(v, host, pos, out);
	if (v[P_PASS_STONES].number)
		aga_second_count(v, host, pos, out);
	if (SHT_CHOICE(v, P_UNIT) == UNIT_ZI)
		sht_native_zi(out);
	else
		sht_native_points(out, "points", "目");
	return 0;
}

static void
chinese_describe(const void *rules, char *buf, size_t len)
{
	const struct sht_param_value *v = rules;
	long komi = v[P_KOMI].number, n = v[P_SIZE].number;
	bool in_zi = SHT_CHOICE(v, P_KOMI_UNIT) == KOMI_ZI, split = SHT_CHOICE(v, P_DAME) ==
	    DAME_SPLIT;
	int ko = SHT_CHOICE(v, P_KO);
	bool ties_black = SHT_CHOICE(v, P_TIES) == TIES_BLACK;
	char komi_text[64];

	buf[0] = '\0';
	sht_plugin_komi_text(komi, in_zi, komi_text, sizeof(komi_text));
	sht_plugin_text_add(buf, len, "Area counting (数子法) on %ldx%ld: each side counts its "
	    "live stones and the empty points it alone surrounds%s; eyes in seki count for %s.  ",
	    n, n, split ? ", and half of the dame" : "; points that reach both colours count "
	    "for nobody", SHT_CHOICE(v, P_SEKI) == SEKI_OWNER ? "their owner" : "nobody");
	if (split) {
		/* The count Black needs: half the board plus half the komi (in points). */
		long need = n * n * 50 + (in_zi ? komi : komi / 2), whole;
		static const char *const quarter[] = { "", "¼", "½", "¾" };

		/* A komi for Black larger than half a small board: any count wins, and a negative
		 * need must not index the quarters. */
		if (need < 0)
			need = 0;
		whole = need / 100;

		sht_plugin_text_add(buf, len, "The baseline is half the board (%ld%s) and %s, so "
		    "Black wins with a count %s %ld%s%s.  ", n * n / 2, n * n % 2 ? ".5" : "",
		    komi_text, ties_black ? "of" : "above", whole, quarter[need % 100 / 25],
		    ties_black ? " or more" : "");
	} else {
		sht_plugin_text_add(buf, len, "The margin is Black's count less White's, less %s.  ",
		    komi != 0 ? komi_text : "nothing (no komi)");
	}
	if (v[P_FIRST_PASS_BONUS].number != 0) {
		long bonus = v[P_FIRST_PASS_BONUS].number;

		/* A whole number of half points (configure checked it). */
		sht_plugin_text_add(buf, len, "When White makes the game's first pass, White gets "
		    "%ld%s point%s more.  ", bonus / 100, bonus % 100 ? ".5" : "",
		    bonus == 100 ? "" : "s");
	}
	if (ties_black)
		sht_plugin_text_add(buf, len, "A tie is a win for Black.  ");
	if (v[P_PASS_STONES].number)
		sht_plugin_text_add(buf, len, "Each pass hands the opponent a prisoner (a pass "
		    "stone), so territory + prisoners gives the same result; the notes give that "
		    "second count.  ");
	if (SHT_CHOICE(v, P_LAST_PASS) == LAST_PASS_WHITE)
		sht_plugin_text_add(buf, len, "White passes last: a game closing on Black's pass "
		    "needs one more White pass.  ");
	switch ((enum handicap)SHT_CHOICE(v, P_HANDICAP)) {
	case HANDICAP_HALF:
		sht_plugin_text_add(buf, len, "Handicap: Black returns half the handicap count "
		    "(N/2 zi, N points, for N stones).  ");
		break;
	case HANDICAP_N_MINUS_1:
		sht_plugin_text_add(buf, len, "Handicap: Black returns N - 1 points for N "
		    "stones (AGA).  ");
		break;
	default:
		sht_plugin_text_add(buf, len, "No handicap compensation.  ");
	}
	if (SHT_CHOICE(v, P_FIRST) == PLAYER_WHITE)
		sht_plugin_text_add(buf, len, "White moves first in an even game.  ");
	sht_plugin_text_add(buf, len, "%s",
	    ko == KO_POSITIONAL ? "Positional superko: no whole-board position may repeat" :
	    ko == KO_SITUATIONAL ? "Situational superko: no position may repeat with the same "
	    "player to move" : "Simple ko");
	if (ko == KO_SIMPLE || ko == KO_CHINESE_PRACTICE)
		sht_plugin_text_add(buf, len, "; an unbroken repetition %s",
		    SHT_CHOICE(v, P_CYCLES) == CYCLE_DRAW ? "is a draw" :
		    SHT_CHOICE(v, P_CYCLES) == CYCLE_REPLAY ? "is replayed" : "has no result");
	sht_plugin_text_add(buf, len, ".  %s; a forbidden move %s.  ", v[P_SUICIDE].number ?
	    "Suicide of two or more stones is legal (of one stone, never)" :
	    "Suicide is forbidden",
	    SHT_CHOICE(v, P_ILLEGAL) == ILLEGAL_VOID ? "is void and the turn lost" :
	    SHT_CHOICE(v, P_ILLEGAL) == ILLEGAL_WARNING ? "is void, with a warning" : "loses");
	sht_plugin_text_add(buf, len, "Two moves in a row: %s; two warnings lose.  Results in "
	    "%s.", SHT_CHOICE(v, P_EDITION) == EDITION_1988 ? "the game is lost (1988)" :
	    "the second is void, with a warning (2002)",
	    SHT_CHOICE(v, P_UNIT) == UNIT_ZI ? "zi (黑胜¾子)" : "points");
}

static const struct sht_ruleset_plugin plugin = {
	.abi_version = SHT_RULESET_ABI_VERSION,
	.size = sizeof(struct sht_ruleset_plugin),
	.family = "chinese",
	.title = "Modern Chinese rules (area counting)",
	.description = "Modern Chinese rules (CWA 1988, 2002) and the area-counting rulesets "
	    "of computer go (Tromp-Taylor, New Zealand): stones and surrounded points counted, "
	    "superko, komi in zi or points.",
	.sources = "docs/rules.md section 2: CN88, CN-REF88 17-20, CN-REF02, CN-CNT, CN-KOMI, "
	    "SL-541, SL-CSK; the Tromp-Taylor, New Zealand, AGA, Ing and WMSG 2008 variants from "
	    "docs/rules.md section 6 (TT, AGA, ING, WMSG).",
	.params = params,
	.nparams = P_COUNT,
	.configure = chinese_configure,
	.release = sht_plugin_values_free,
	.setup = chinese_setup,
	.consequence = chinese_consequence,
	.cycle = chinese_cycle,
	.score = chinese_score,
	.describe = chinese_describe,
	.decided = sht_native_decided_chinese,
};

__attribute__((visibility("default"))) const struct sht_ruleset_plugin *shoutan_ruleset_plugin(void);

const struct sht_ruleset_plugin *
shoutan_ruleset_plugin(void)
{
	return &plugin;
}
