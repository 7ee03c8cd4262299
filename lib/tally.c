/* The score arithmetic every counting method shares: counts and a policy in, a breakdown out. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "shoutan/area.h"
#include "shoutan/ruleset.h"
#include "shoutan/tally.h"

/* Appends s to buf (of len bytes, holding *used) as snprintf would: truncated, always ended. */
static void
append(char *buf, size_t len, size_t *used, const char *s)
{
	while (*s != '\0' && *used + 1 < len)
		buf[(*used)++] = *s++;
	if (len > 0)
		buf[*used < len ? *used : len - 1] = '\0';
}

/* Half points as text: 15 -> "7.5", 14 -> "7", written without printf (a count calls it for
 * every result it gives). */
char *
sht_half_points_text(int half, char *buf, size_t len)
{
	/* The magnitude as unsigned, so that INT_MIN has one too. */
	unsigned m = half < 0 ? 0U - (unsigned)half : (unsigned)half;
	char digits[16], *d = digits + sizeof(digits);
	size_t used = 0;

	*--d = '\0';
	if (m % 2)
		*--d = '5', *--d = '.';
	m /= 2;
	do {
		*--d = (char)('0' + m % 10);
		m /= 10;
	} while (m != 0);
	if (half < 0)
		*--d = '-';
	if (len > 0)
		buf[0] = '\0';
	append(buf, len, &used, d);
	return buf;
}

static void
tally_side(const struct sht_counts *k, const struct sht_tally_policy *pol, int c,
    struct sht_side_score *s)
{
	int other = 3 - c;
	int seki = pol->seki_eyes == SHT_SEKI_EYES_COUNT ? 0 : k->seki_territory[c];
	/* The tax's unit: ILRs, or the chains that cannot be cut apart (sht_area_tax_groups). */
	bool connected = pol->tax == SHT_TAX_PER_CONNECTED_GROUP ||
	    pol->tax == SHT_TAX_EYES_NEEDED_CONNECTED;
	bool eyes_needed = pol->tax == SHT_TAX_EYES_NEEDED ||
	    pol->tax == SHT_TAX_EYES_NEEDED_CONNECTED;
	int groups = connected ? k->tax_groups[c] : k->groups[c];
	int seki_eyed = connected ? k->tax_seki_groups_eyed[c] : k->seki_groups_eyed[c];

	memset(s, 0, sizeof(*s));
	s->territory = 2 * (k->territory[c] - seki);
	s->groups = groups;
	if (pol->tax != SHT_TAX_NONE)
		s->tax = 4 * groups;
	if (eyes_needed)
		s->tax += 2 * seki_eyed;
	if (pol->counting == SHT_COUNTING_AREA) {
		int shared = pol->seki_eyes == SHT_SEKI_EYES_SPLIT ?
		    k->seki_territory[SHT_RP_BLACK] + k->seki_territory[SHT_RP_WHITE] : 0;

		s->stones = 2 * k->stones[c];
		/* Half of the shared points each, in half points: exactly their number. */
		s->dame_share = pol->split_dame ? k->dame + shared : 0;
	} else if (pol->count_losses) {
		s->prisoners = -2 * (k->captures[other] + k->dead[c]);
	} else {
		s->prisoners = 2 * (k->captures[c] + k->dead[other]);
	}
	if (c == SHT_RP_WHITE) {
		s->komi = k->komi;
		if (k->handicap > 1 && k->handicap > pol->handicap_free_stones)
			s->handicap_compensation = pol->handicap_per_stone *
			    (k->handicap - pol->handicap_free_stones);
	}
	s->total = s->stones + s->territory + s->dame_share + s->prisoners - s->tax + s->komi +
	    s->handicap_compensation;
}

void
sht_tally(const struct sht_counts *counts, const struct sht_tally_policy *policy,
    struct sht_score_result *out)
{
	tally_side(counts, policy, SHT_RP_BLACK, &out->black);
	tally_side(counts, policy, SHT_RP_WHITE, &out->white);
	out->margin = out->black.total - out->white.total;
	out->winner = out->margin > 0 ? SHT_WINNER_BLACK : out->margin < 0 ? SHT_WINNER_WHITE :
	    SHT_WINNER_DRAW;
	sht_result_texts(out);
}

void
sht_result_texts(struct sht_score_result *out)
{
	char num[16]; /* an int in half points: at most 11 digits and ".5" */
	size_t re = 0, text = 0;

	sht_half_points_text(abs(out->margin), num, sizeof(num));
	out->re[0] = out->text[0] = '\0';
	switch (out->winner) {
	case SHT_WINNER_BLACK:
	case SHT_WINNER_WHITE:
		/* "B+3.5", "Black wins by 3.5 points" */
		append(out->re, sizeof(out->re), &re, out->winner == SHT_WINNER_BLACK ? "B+" : "W+");
		append(out->re, sizeof(out->re), &re, num);
		if (out->margin == 0) {
			/* A tie the rules give to one side (Ing: Black wins ties). */
			append(out->text, sizeof(out->text), &text, out->winner == SHT_WINNER_BLACK ?
			    "Black wins the tie" : "White wins the tie");
			break;
		}
		append(out->text, sizeof(out->text), &text, out->winner == SHT_WINNER_BLACK ?
		    "Black wins by " : "White wins by ");
		append(out->text, sizeof(out->text), &text, num);
		append(out->text, sizeof(out->text), &text, abs(out->margin) == 2 ? " point" :
		    " points");
		break;
	case SHT_WINNER_DRAW:
		append(out->re, sizeof(out->re), &re, "0");
		append(out->text, sizeof(out->text), &text, "Draw");
		break;
	default:
		append(out->re, sizeof(out->re), &re, "Void");
		append(out->text, sizeof(out->text), &text, "No result");
		break;
	}
}
