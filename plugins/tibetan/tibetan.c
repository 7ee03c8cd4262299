/* The Tibetan go plugin, mig mang (docs/rules.md section 4.1): 17x17, twelve seated stones on the third line, White first, no stone where the opponent just captured. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "native.h"
#include "shoutan/ruleset.h"

enum { P_SIZE, P_SEATED, P_SUPPLY, P_FIRST, P_CAPTURE_BAN, P_KOMI, P_CORNER_BONUS,
	P_CENTRE_BONUS, P_ILLEGAL, P_CYCLES, P_COUNT };

/* Each choice's values, named: the enum gives the index the host passes, the list its YAML
 * spelling, tied together by designated initialisers. */
enum seating { SEATED_TIBETAN, SEATED_NONE, SEATINGS };
static const char *const seatings[] = { [SEATED_TIBETAN] = "tibetan", [SEATED_NONE] = "none",
	[SEATINGS] = NULL };
enum player { PLAYER_WHITE, PLAYER_BLACK, PLAYERS };
static const char *const players[] = { [PLAYER_WHITE] = "white", [PLAYER_BLACK] = "black",
	[PLAYERS] = NULL };
enum illegal { ILLEGAL_VOID, ILLEGAL_LOSS, ILLEGALS };
static const char *const illegal[] = { [ILLEGAL_VOID] = "void", [ILLEGAL_LOSS] = "loss",
	[ILLEGALS] = NULL };
enum cycle { CYCLE_DRAW, CYCLE_NO_RESULT, CYCLES };
static const char *const cycles[] = { [CYCLE_DRAW] = "draw", [CYCLE_NO_RESULT] = "no-result",
	[CYCLES] = NULL };
#define STONES_UNLIMITED (-1)
/* The board the seated layout is for. */
#define TIBETAN_SIZE 17L

static const struct sht_param_spec params[P_COUNT] = {
	[P_SIZE] = { "size", SHT_PARAM_INT, 5, 25, NULL, "17", 0,
		"Lines each way: 17 (the mig mang board)." },
	[P_SEATED] = { "seated", SHT_PARAM_CHOICE, 0, 0, seatings, "tibetan", 1,
		"Twelve stones on the third line before play, on lines 3, 7, 11 and 15, their "
		"colours alternating round the ring (all sources); which colour takes which point "
		"is Ludii's layout (White on C15, Black on C3), the sources' diagrams being "
		"pictures." },
	[P_SUPPLY] = { "stones", SHT_PARAM_INT, STONES_UNLIMITED, 625, NULL, "151", 1,
		"Stones per side (Fairbairn: 151 each), besides the seated ones; a player with none "
		"left must pass.  No source says whether the seated stones are among them." },
	[P_FIRST] = { "first", SHT_PARAM_CHOICE, 0, 0, players, "white", 0,
		"Who moves first: White (all sources)." },
	[P_CAPTURE_BAN] = { "capture_ban", SHT_PARAM_BOOL, 0, 0, NULL, "true", 0,
		"A stone may not be played where the opponent has just removed stones (Sensei's, "
		"Wikipedia); every point of the capture, for the next move only, the plural the "
		"Russian text and Ludii give.  It contains the ko rule and delays a snapback." },
	[P_KOMI] = { "komi", SHT_PARAM_DECIMAL, -10000, 10000, NULL, "0", 1,
		"Compensation to White in points, as every ruleset gives komi; negative for one "
		"to Black, who moves second.  No source mentions one." },
	[P_CORNER_BONUS] = { "corner_bonus", SHT_PARAM_DECIMAL, 0, 10000, NULL, "20", 1,
		"Points for the side that controls (occupies or surrounds) all four 1-1 points "
		"(Sensei's: 20; Wikipedia: 40, perhaps the same in zi)." },
	[P_CENTRE_BONUS] = { "centre_bonus", SHT_PARAM_DECIMAL, 0, 10000, NULL, "5", 1,
		"Points more for that side when it also controls tengen (Sensei's: 5; "
		"Wikipedia: 10)." },
	[P_ILLEGAL] = { "illegal_move", SHT_PARAM_CHOICE, 0, 0, illegal, "void", 1,
		"Consequence of a forbidden move; no source says." },
	[P_CYCLES] = { "cycles", SHT_PARAM_CHOICE, 0, 0, cycles, "draw", 1,
		"Outcome of an unbroken repetition; no source says." },
};

static void *
tibetan_configure(const struct sht_param_value *values, char *err, size_t errlen)
{
	if (!sht_plugin_komi_ok(values[P_KOMI].number, false, err, errlen) ||
	    !sht_plugin_komi_ok(values[P_CORNER_BONUS].number, false, err, errlen) ||
	    !sht_plugin_komi_ok(values[P_CENTRE_BONUS].number, false, err, errlen))
		return NULL;
	if (SHT_CHOICE(values, P_SEATED) == SEATED_TIBETAN &&
	    values[P_SIZE].number != TIBETAN_SIZE) {
		snprintf(err, errlen, "the seated stones are laid out for 17 lines, not %ld: use "
		    "seated: none on another board", values[P_SIZE].number);
		return NULL;
	}
	return sht_plugin_values_copy(values, P_COUNT, err, errlen);
}

static void
tibetan_setup(const void *rules, struct sht_rules_setup *s)
{
	const struct sht_param_value *v = rules;

	s->width = s->height = (int)v[P_SIZE].number;
	s->ko = SHT_RULES_KO_SIMPLE;
	if (s->size >= offsetof(struct sht_rules_setup, capture_ban) + sizeof(s->capture_ban))
		s->capture_ban = (int)v[P_CAPTURE_BAN].number;
	s->first_player = SHT_CHOICE(v, P_FIRST) == PLAYER_WHITE ? SHT_RP_WHITE : SHT_RP_BLACK;
	s->supply[SHT_RP_BLACK] = s->supply[SHT_RP_WHITE] = (int)v[P_SUPPLY].number;
	s->komi = (int)(v[P_KOMI].number / 50);
	if (SHT_CHOICE(v, P_SEATED) == SEATED_TIBETAN) {
		/* Round the third line from C15 (x 2, y 2 from the top left), every fourth point,
		 * the colours alternating: Ludii's Mig Mang, its first player (White) on C15. */
		static const struct sht_rules_seated ring[12] = {
			{ 2, 2, SHT_RP_WHITE }, { 6, 2, SHT_RP_BLACK }, { 10, 2, SHT_RP_WHITE },
			{ 14, 2, SHT_RP_BLACK }, { 14, 6, SHT_RP_WHITE }, { 14, 10, SHT_RP_BLACK },
			{ 14, 14, SHT_RP_WHITE }, { 10, 14, SHT_RP_BLACK }, { 6, 14, SHT_RP_WHITE },
			{ 2, 14, SHT_RP_BLACK }, { 2, 10, SHT_RP_WHITE }, { 2, 6, SHT_RP_BLACK },
		};

		memcpy(s->seated, ring, sizeof(ring));
		s->nseated = 12;
	}
}

static int
tibetan_consequence(const void *rules, int violation)
{
	return sht_plugin_void_or_loss(violation, SHT_CHOICE((const struct sht_param_value *)rules,
	    P_ILLEGAL) == ILLEGAL_LOSS);
}

static int
tibetan_cycle(const void *rules)
{
	return SHT_CHOICE((const struct sht_param_value *)rules, P_CYCLES) == CYCLE_DRAW ?
	    SHT_CYCLE_DRAW : SHT_CYCLE_NO_RESULT;
}

/* The colour that controls every point listed (x, y pairs), or SHT_RP_EMPTY. */
static int
controls_all(const struct sht_host *host, const struct sht_position *pos, const int *xy, int n)
{
	int owner = host->owner_at(pos, xy[0], xy[1]);

	for (int i = 1; i < n && owner != SHT_RP_EMPTY; i++)
		if (host->owner_at(pos, xy[2 * i], xy[2 * i + 1]) != owner)
			owner = SHT_RP_EMPTY;
	return owner;
}

static int
tibetan_score(const void *rules, const struct sht_host *host, const struct sht_position *pos,
    struct sht_score_result *out, char *err, size_t errlen)
{
	const struct sht_param_value *v = rules;
	/* Area counting with the dame split: the counters on the board and each territory. */
	struct sht_tally_policy policy = { sizeof(policy), SHT_COUNTING_AREA, 1,
		SHT_SEKI_EYES_COUNT, SHT_TAX_NONE, 0, 0, 0 };
	int n = host->width(pos), last = n - 1, centre = n / 2, who;
	const int corners[8] = { 0, 0, last, 0, 0, last, last, last };
	/* Hundredths of a point to half points. */
	int corner = (int)(v[P_CORNER_BONUS].number / 50), middle = (int)(v[P_CENTRE_BONUS].number / 50);

	host->tally(pos, &policy, out);
	sht_native_points(out, "points", "目");
	if ((corner == 0 && middle == 0) ||
	    host->size < offsetof(struct sht_host, owner_at) + sizeof(host->owner_at) ||
	    out->size < offsetof(struct sht_score_result, bonus) + sizeof(out->bonus))
		return 0;
	(void)err;
	(void)errlen;
	who = controls_all(host, pos, corners, 4);
	if (who == SHT_RP_EMPTY)
		return 0;
	out->bonus[who] = corner;
	if (n % 2 == 1 && host->owner_at(pos, centre, centre) == who)
		out->bonus[who] += middle;
	if (who == SHT_RP_BLACK)
		out->black.total += out->bonus[who];
	else
		out->white.total += out->bonus[who];
	out->margin = out->black.total - out->white.total;
	out->winner = out->margin > 0 ? SHT_WINNER_BLACK : out->margin < 0 ? SHT_WINNER_WHITE :
	    SHT_WINNER_DRAW;
	host->result_texts(out);
	sht_native_points(out, "points", "目");
	snprintf(out->note, sizeof(out->note), "Tibetan bonus: %s controls the four 1-1 points "
	    "(+%d%s)%s", who == SHT_RP_BLACK ? "Black" : "White", corner / 2, corner % 2 ? ".5" :
	    "", out->bonus[who] > corner ? " and tengen" : "");
	return 0;
}

static void
tibetan_describe(const void *rules, char *buf, size_t len)
{
	const struct sht_param_value *v = rules;
	long n = v[P_SIZE].number, stones = v[P_SUPPLY].number;

	buf[0] = '\0';
	sht_plugin_text_add(buf, len, "Tibetan go (mig mang) on %ldx%ld", n, n);
	if (SHT_CHOICE(v, P_SEATED) == SEATED_TIBETAN)
		sht_plugin_text_add(buf, len, ", with twelve seated stones on the third line, on "
		    "lines 3, 7, 11 and 15, their colours alternating round the ring (White on C15, "
		    "L15, P11, P3, G3, C7; Black on G15, P15, P7, L3, C3, C11) [R: the orientation]");
	if (stones == STONES_UNLIMITED)
		sht_plugin_text_add(buf, len, "; no limit on stones");
	else
		sht_plugin_text_add(buf, len, "; %ld stones a side to play, and a player out of "
		    "stones passes", stones);
	sht_plugin_text_add(buf, len, ".  %s moves first.  ", SHT_CHOICE(v, P_FIRST) ==
	    PLAYER_WHITE ? "White" : "Black");
	if (v[P_CAPTURE_BAN].number)
		sht_plugin_text_add(buf, len, "A stone may not be played where the opponent has "
		    "just removed stones (every point of the capture, for the next move), so a "
		    "snapback waits a move and the ko rule is contained in it.  ");
	else
		sht_plugin_text_add(buf, len, "Simple ko.  ");
	sht_plugin_text_add(buf, len, "Area counting with the dame split [R: Ludii and the "
	    "Russian account count stones and territory; Sensei's says the sources are silent]");
	if (v[P_KOMI].number != 0) {
		char komi[64];

		sht_plugin_komi_text(v[P_KOMI].number, false, komi, sizeof(komi));
		sht_plugin_text_add(buf, len, ", %s to White", komi);
	} else {
		sht_plugin_text_add(buf, len, ", no komi");
	}
	if (v[P_CORNER_BONUS].number != 0)
		sht_plugin_text_add(buf, len, "; a side that controls all four 1-1 points gets %ld%s "
		    "points, and %ld%s more if it also controls tengen [R: Sensei's 20 and 5, "
		    "Wikipedia 40 and 10]", v[P_CORNER_BONUS].number / 100,
		    v[P_CORNER_BONUS].number % 100 ? ".5" : "", v[P_CENTRE_BONUS].number / 100,
		    v[P_CENTRE_BONUS].number % 100 ? ".5" : "");
	sht_plugin_text_add(buf, len, ".  An unbroken repetition %s; a forbidden move %s.",
	    SHT_CHOICE(v, P_CYCLES) == CYCLE_DRAW ? "is a draw" : "has no result",
	    SHT_CHOICE(v, P_ILLEGAL) == ILLEGAL_VOID ? "is void and the turn lost" : "loses");
}

static const struct sht_ruleset_plugin plugin = {
	.abi_version = SHT_RULESET_ABI_VERSION,
	.size = sizeof(struct sht_ruleset_plugin),
	.family = "tibetan",
	.title = "Tibetan go, mig mang (reconstruction)",
	.description = "Tibetan go (mig mang): 17x17, twelve seated stones, White first, no play "
	    "where the opponent just captured, area counting with corner and centre bonuses.",
	.sources = "docs/rules.md section 4.1: LUD (Ludii's Mig Mang, after Fairbairn, Go World "
	    "58), SL-TIB, WP-GV; reconstructions marked [R].",
	.params = params,
	.nparams = P_COUNT,
	.configure = tibetan_configure,
	.release = sht_plugin_values_free,
	.setup = tibetan_setup,
	.consequence = tibetan_consequence,
	.cycle = tibetan_cycle,
	.score = tibetan_score,
	.describe = tibetan_describe,
	.decided = sht_native_decided_chinese,
};

__attribute__((visibility("default"))) const struct sht_ruleset_plugin *shoutan_ruleset_plugin(void);

const struct sht_ruleset_plugin *
shoutan_ruleset_plugin(void)
{
	return &plugin;
}
