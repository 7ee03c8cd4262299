/* The Sunjang baduk plugin (docs/rules.md section 6.2): Korea's sixteen prescribed stones and tengen, and Sunjang counting (interior stones removed, prisoners ignored, nothing in seki). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "native.h"
#include "shoutan/ruleset.h"

enum { P_SIZE, P_SEATED, P_HANDICAP, P_KOMI, P_ILLEGAL, P_CYCLES, P_COUNT };

enum seating { SEATED_SUNJANG, SEATED_NONE, SEATINGS };
static const char *const seatings[] = { [SEATED_SUNJANG] = "sunjang", [SEATED_NONE] = "none",
	[SEATINGS] = NULL };
enum illegal { ILLEGAL_VOID, ILLEGAL_LOSS, ILLEGALS };
static const char *const illegal[] = { [ILLEGAL_VOID] = "void", [ILLEGAL_LOSS] = "loss",
	[ILLEGALS] = NULL };
enum cycle { CYCLE_DRAW, CYCLE_NO_RESULT, CYCLES };
static const char *const cycles[] = { [CYCLE_DRAW] = "draw", [CYCLE_NO_RESULT] = "no-result",
	[CYCLES] = NULL };
#define SUNJANG_SIZE 19L

static const struct sht_param_spec params[P_COUNT] = {
	[P_SIZE] = { "size", SHT_PARAM_INT, 5, 25, NULL, "19", 0,
		"Lines each way." },
	[P_SEATED] = { "seated", SHT_PARAM_CHOICE, 0, 0, seatings, "sunjang", 1,
		"The sixteen prescribed stones on the fourth line and Black's obligatory first "
		"move at tengen, placed before play, White then moving (namu; Sensei's: the first "
		"16 moves are prescribed and Black plays tengen); which colour takes which point is "
		"the layout Wikipedia's diagram shows, read from the picture, one of the mirrored "
		"and rotated forms records use (GoGoD)." },
	[P_HANDICAP] = { "handicap", SHT_PARAM_INT, 0, 8, NULL, "0", 1,
		"Handicap stones, 2 to 8 (0 for an even game): the tengen stone becomes White's "
		"and Black's stones go on the seventh line's points A to H in the BGA's order; which "
		"point each letter marks is read from its order (A, C, E, G the 7-7 points)." },
	[P_KOMI] = { "komi", SHT_PARAM_DECIMAL, -10000, 10000, NULL, "4.5", 1,
		"Compensation to White in points: 4.5 in the mid-20th century (Sensei's); the "
		"BGA's revival tournaments used 6, none in handicap games." },
	[P_ILLEGAL] = { "illegal_move", SHT_PARAM_CHOICE, 0, 0, illegal, "void", 1,
		"Consequence of a forbidden move; no source says." },
	[P_CYCLES] = { "cycles", SHT_PARAM_CHOICE, 0, 0, cycles, "draw", 1,
		"Outcome of an unbroken repetition; no source says." },
};

/* The prescribed stones, (x, y) from the top left on 19 lines: eight a side on the fourth
 * line, three apart; each colour is its own image under a half turn. */
static const struct sht_rules_seated prescribed[16] = {
	{ 3, 15, SHT_RP_BLACK }, { 6, 15, SHT_RP_BLACK }, { 12, 15, SHT_RP_BLACK },
	{ 3, 9, SHT_RP_BLACK }, { 15, 9, SHT_RP_BLACK }, { 6, 3, SHT_RP_BLACK },
	{ 12, 3, SHT_RP_BLACK }, { 15, 3, SHT_RP_BLACK },
	{ 9, 15, SHT_RP_WHITE }, { 15, 15, SHT_RP_WHITE }, { 3, 12, SHT_RP_WHITE },
	{ 15, 12, SHT_RP_WHITE }, { 3, 6, SHT_RP_WHITE }, { 15, 6, SHT_RP_WHITE },
	{ 3, 3, SHT_RP_WHITE }, { 9, 3, SHT_RP_WHITE },
};

/* The seventh line's eight points A to H, round from the top left 7-7 point clockwise:
 * G13, K13, N13, N10, N7, K7, G7, G10. */
static const int seventh[8][2] = {
	{ 6, 6 }, { 9, 6 }, { 12, 6 }, { 12, 9 }, { 12, 12 }, { 9, 12 }, { 6, 12 }, { 6, 9 },
};
/* The BGA's letters for each handicap: 2 G C, 3 C G E, 4 A C G E, 5 A C G E D,
 * 6 A H G C D E, 7 the same and B, 8 all. */
static const char *const handicap_letters[9] = { "", "", "GC", "CGE", "ACGE", "ACGED",
	"AHGCDE", "AHGCDEB", "ABCDEFGH" };

static void *
sunjang_configure(const struct sht_param_value *values, char *err, size_t errlen)
{
	if (!sht_plugin_komi_ok(values[P_KOMI].number, false, err, errlen))
		return NULL;
	if (values[P_HANDICAP].number == 1) {
		snprintf(err, errlen, "a handicap is 2 to 8 stones (one stone is Black playing "
		    "twice, which a record shows as it was played)");
		return NULL;
	}
	if (SHT_CHOICE(values, P_SEATED) == SEATED_SUNJANG &&
	    values[P_SIZE].number != SUNJANG_SIZE) {
		snprintf(err, errlen, "the prescribed stones are laid out for 19 lines, not %ld: use "
		    "seated: none on another board", values[P_SIZE].number);
		return NULL;
	}
	if (values[P_HANDICAP].number > 0 && SHT_CHOICE(values, P_SEATED) != SEATED_SUNJANG) {
		snprintf(err, errlen, "Sunjang handicap stones go with the prescribed stones "
		    "(seated: sunjang)");
		return NULL;
	}
	return sht_plugin_values_copy(values, P_COUNT, err, errlen);
}

static void
sunjang_setup(const void *rules, struct sht_rules_setup *s)
{
	const struct sht_param_value *v = rules;
	int handicap = (int)v[P_HANDICAP].number;

	s->width = s->height = (int)v[P_SIZE].number;
	s->ko = SHT_RULES_KO_SIMPLE;
	s->komi = (int)(v[P_KOMI].number / 50);
	s->first_player = SHT_RP_BLACK;
	if (SHT_CHOICE(v, P_SEATED) != SEATED_SUNJANG)
		return;
	memcpy(s->seated, prescribed, sizeof(prescribed));
	s->nseated = 16;
	/* Tengen: Black's first move, placed; White's in a handicap game. */
	s->seated[s->nseated++] = (struct sht_rules_seated){ 9, 9, handicap > 0 ? SHT_RP_WHITE :
	    SHT_RP_BLACK };
	for (const char *l = handicap_letters[handicap]; *l != '\0'; l++)
		s->seated[s->nseated++] = (struct sht_rules_seated){ seventh[*l - 'A'][0],
		    seventh[*l - 'A'][1], SHT_RP_BLACK };
	s->first_player = SHT_RP_WHITE;
}

static int
sunjang_consequence(const void *rules, int violation)
{
	return sht_plugin_void_or_loss(violation, SHT_CHOICE((const struct sht_param_value *)rules,
	    P_ILLEGAL) == ILLEGAL_LOSS);
}

static int
sunjang_cycle(const void *rules)
{
	return SHT_CHOICE((const struct sht_param_value *)rules, P_CYCLES) == CYCLE_DRAW ?
	    SHT_CYCLE_DRAW : SHT_CYCLE_NO_RESULT;
}

/*
 * The interior stones of colour c: live stones none of whose neighbours lies outside c's area
 * (an opponent's stone or territory, a dame point).  Removing them all leaves every border
 * stone, the ones that touch the outside, so the borders stay as they were, cutting points
 * and all; each removed stone's point becomes territory.
 */
static int
interior_stones(const struct sht_host *host, const struct sht_position *pos, int c)
{
	int w = host->width(pos), h = host->height(pos), n = 0;
	static const int dx[4] = { 0, -1, 1, 0 }, dy[4] = { -1, 0, 0, 1 };

	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			bool inside = true;

			if (host->color_at(pos, x, y) != c || host->owner_at(pos, x, y) != c)
				continue;
			for (int d = 0; d < 4 && inside; d++) {
				int nx = x + dx[d], ny = y + dy[d];

				if (nx >= 0 && nx < w && ny >= 0 && ny < h &&
				    host->owner_at(pos, nx, ny) != c)
					inside = false;
			}
			n += inside;
		}
	return n;
}

static int
sunjang_score(const void *rules, const struct sht_host *host, const struct sht_position *pos,
    struct sht_score_result *out, char *err, size_t errlen)
{
	/* Territory counting with no points in seki; the prisoners are then taken out. */
	struct sht_tally_policy policy = { sizeof(policy), SHT_COUNTING_TERRITORY, 0,
		SHT_SEKI_EYES_NOBODY, SHT_TAX_NONE, 0, 0, 0 };
	struct sht_side_score *side[3] = { NULL, &out->black, &out->white };
	int interior[3] = { 0, 0, 0 };

	(void)rules;
	host->tally(pos, &policy, out);
	if (host->size < offsetof(struct sht_host, owner_at) + sizeof(host->owner_at) ||
	    host->owner_at == NULL || host->result_texts == NULL) {
		snprintf(err, errlen, "Sunjang counting needs the host's owner_at (a newer host)");
		return 1;
	}
	for (int c = SHT_RP_BLACK; c <= SHT_RP_WHITE; c++) {
		interior[c] = interior_stones(host, pos, c);
		side[c]->total += 2 * interior[c] - side[c]->prisoners;
		side[c]->territory += 2 * interior[c];
		side[c]->prisoners = 0;
	}
	out->margin = out->black.total - out->white.total;
	out->winner = out->margin > 0 ? SHT_WINNER_BLACK : out->margin < 0 ? SHT_WINNER_WHITE :
	    SHT_WINNER_DRAW;
	host->result_texts(out);
	sht_native_korean(out);
	if (out->size >= offsetof(struct sht_score_result, note) + sizeof(out->note))
		snprintf(out->note, sizeof(out->note), "Sunjang count: interior stones removed and "
		    "counted as territory (Black %d, White %d); prisoners ignored; nothing in seki",
		    interior[SHT_RP_BLACK], interior[SHT_RP_WHITE]);
	return 0;
}

static void
sunjang_describe(const void *rules, char *buf, size_t len)
{
	const struct sht_param_value *v = rules;
	long n = v[P_SIZE].number, handicap = v[P_HANDICAP].number;
	char komi[64];

	buf[0] = '\0';
	sht_plugin_komi_text(v[P_KOMI].number, false, komi, sizeof(komi));
	sht_plugin_text_add(buf, len, "Sunjang baduk (Korea, 16th century to the 1950s) on %ldx%ld",
	    n, n);
	if (SHT_CHOICE(v, P_SEATED) == SEATED_SUNJANG) {
		sht_plugin_text_add(buf, len, ": sixteen prescribed stones on the fourth line (Black "
		    "D4, G4, N4, D10, Q10, G16, N16, Q16; White K4, Q4, D7, Q7, D13, Q13, D16, K16 [R: "
		    "the orientation]) and tengen, placed before play");
		if (handicap > 0)
			sht_plugin_text_add(buf, len, "; a %ld-stone handicap: tengen is White's and "
			    "Black's stones stand on the seventh line (%s of A-H, from G13 clockwise [R])",
			    handicap, handicap_letters[handicap]);
		else
			sht_plugin_text_add(buf, len, ", tengen being Black's obligatory first move");
		sht_plugin_text_add(buf, len, "; White moves first");
	}
	sht_plugin_text_add(buf, len, ".  Simple ko; an unbroken repetition %s; a forbidden move "
	    "%s.  Sunjang counting: after the dame are filled, the interior stones (those touching "
	    "nothing outside their own area) are removed and their points counted as territory "
	    "[R: which stones, where the sources say only 'as many as possible, leaving nearly "
	    "continuous borders']; prisoners are ignored; points in seki count for nobody.  %s%s "
	    "[R].  Results in 집.", SHT_CHOICE(v, P_CYCLES) == CYCLE_DRAW ? "is a draw" :
	    "has no result", SHT_CHOICE(v, P_ILLEGAL) == ILLEGAL_VOID ? "is void and the turn lost" :
	    "loses", v[P_KOMI].number != 0 ? "White receives " : "", v[P_KOMI].number != 0 ? komi :
	    "No komi");
}

static void
sunjang_decided(const void *rules, int decision, struct sht_score_result *out)
{
	(void)rules;
	sht_native_decided(out, decision, SHT_NATIVE_KOREAN);
}

static const struct sht_ruleset_plugin plugin = {
	.abi_version = SHT_RULESET_ABI_VERSION,
	.size = sizeof(struct sht_ruleset_plugin),
	.family = "sunjang",
	.title = "Sunjang baduk (reconstruction)",
	.description = "Sunjang baduk: sixteen prescribed stones and tengen, White then moves; "
	    "territory counting with the interior stones removed, prisoners ignored, nothing in "
	    "seki.",
	.sources = "docs/rules.md section 6.2: SL-SJ, BGA-SJ, GG-SJ (GoGoD), namu; "
	    "reconstructions marked [R].",
	.params = params,
	.nparams = P_COUNT,
	.configure = sunjang_configure,
	.release = sht_plugin_values_free,
	.setup = sunjang_setup,
	.consequence = sunjang_consequence,
	.cycle = sunjang_cycle,
	.score = sunjang_score,
	.describe = sunjang_describe,
	.decided = sunjang_decided,
};

__attribute__((visibility("default"))) const struct sht_ruleset_plugin *shoutan_ruleset_plugin(void);

const struct sht_ruleset_plugin *
shoutan_ruleset_plugin(void)
{
	return &plugin;
}
