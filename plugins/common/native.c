/* What the project's plugins share: their instances, komi checks, native result texts, descriptions. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "native.h"

static const char *
winner_zh(int w)
{
	return w == SHT_WINNER_BLACK ? "黑" : "白";
}

void
sht_native_zi(struct sht_score_result *r)
{
	/* Half points to quarter zi: 1 zi = 4 half points. */
	int q = abs(r->margin), whole = q / 4, frac = q % 4;
	static const char *const quarter[] = { "", "¼", "", "¾" };

	snprintf(r->native_unit, sizeof(r->native_unit), "zi");
	r->native_margin = (long)r->margin * 25; /* hundredths of a zi */
	if (r->winner == SHT_WINNER_NONE) {
		snprintf(r->native_text, sizeof(r->native_text), "无胜负");
		return;
	}
	if (r->winner == SHT_WINNER_DRAW) {
		snprintf(r->native_text, sizeof(r->native_text), "和棋");
		return;
	}
	if (q == 0) { /* a tie the rules give to one side */
		snprintf(r->native_text, sizeof(r->native_text), "和棋%s胜", winner_zh(r->winner));
		return;
	}
	if (frac == 2) /* a half: 子半, or 半子 alone */
		snprintf(r->native_text, sizeof(r->native_text), whole ? "%s胜%d子半" : "%s胜半子",
		    winner_zh(r->winner), whole);
	else if (whole == 0)
		snprintf(r->native_text, sizeof(r->native_text), "%s胜%s子", winner_zh(r->winner),
		    quarter[frac]);
	else
		snprintf(r->native_text, sizeof(r->native_text), "%s胜%d%s子", winner_zh(r->winner),
		    whole, quarter[frac]);
}

void
sht_native_points(struct sht_score_result *r, const char *unit, const char *character)
{
	int h = abs(r->margin);

	snprintf(r->native_unit, sizeof(r->native_unit), "%s", unit);
	r->native_margin = (long)r->margin * 50;
	if (r->winner == SHT_WINNER_NONE)
		snprintf(r->native_text, sizeof(r->native_text), "无胜负");
	else if (r->winner == SHT_WINNER_DRAW)
		snprintf(r->native_text, sizeof(r->native_text), "和棋");
	else if (h == 0) /* a tie the rules give to one side */
		snprintf(r->native_text, sizeof(r->native_text), "和棋%s胜", winner_zh(r->winner));
	else if (h % 2)
		snprintf(r->native_text, sizeof(r->native_text), "%s胜%d%s半", winner_zh(r->winner),
		    h / 2, character);
	else
		snprintf(r->native_text, sizeof(r->native_text), "%s胜%d%s", winner_zh(r->winner),
		    h / 2, character);
}

void
sht_native_japanese(struct sht_score_result *r)
{
	int h = abs(r->margin);
	const char *who = r->winner == SHT_WINNER_BLACK ? "黒" : "白";

	snprintf(r->native_unit, sizeof(r->native_unit), "mu");
	r->native_margin = (long)r->margin * 50;
	if (r->winner == SHT_WINNER_NONE)
		snprintf(r->native_text, sizeof(r->native_text), "無勝負");
	else if (r->winner == SHT_WINNER_DRAW || h == 0)
		snprintf(r->native_text, sizeof(r->native_text), "持碁");
	else if (h == 1)
		snprintf(r->native_text, sizeof(r->native_text), "%s半目勝ち", who);
	else
		snprintf(r->native_text, sizeof(r->native_text), "%s%d目%s勝ち", who, h / 2,
		    h % 2 ? "半" : "");
}

void
sht_native_korean(struct sht_score_result *r)
{
	int h = abs(r->margin);
	const char *who = r->winner == SHT_WINNER_BLACK ? "흑" : "백";

	snprintf(r->native_unit, sizeof(r->native_unit), "jip");
	r->native_margin = (long)r->margin * 50;
	if (r->winner == SHT_WINNER_NONE)
		snprintf(r->native_text, sizeof(r->native_text), "무효");
	else if (r->winner == SHT_WINNER_DRAW || h == 0)
		snprintf(r->native_text, sizeof(r->native_text), "무승부");
	else if (h == 1)
		snprintf(r->native_text, sizeof(r->native_text), "%s 반집 승", who);
	else
		snprintf(r->native_text, sizeof(r->native_text), "%s %d집%s 승", who, h / 2,
		    h % 2 ? "반" : "");
}

void
sht_native_decided(struct sht_score_result *r, int decision, enum sht_native_language lang)
{
	/* The loser's name for a loss, the winner's for a win, in each language's own words:
	 * 判负 (judged lost) and 中盘胜 (won before counting); 反則負け and 中押し勝ち; 반칙패
	 * and 불계승. */
	static const char *const names[3][3] = {
		{ "", "黑", "白" }, { "", "黒", "白" }, { "", "흑", "백" },
	};
	/* After the name: the draws and no results name nobody. */
	static const char *const texts[3][8] = {
		{ "", "方犯规判负", "方累计警告判负", "中盘胜", "方超时判负", "和棋", "无胜负",
		    "无胜负，重赛" },
		{ "", "の反則負け", "の反則負け（警告累積）", "の中押し勝ち", "の時間切れ負け",
		    "持碁", "無勝負", "無勝負（打ち直し）" },
		{ "", " 반칙패", " 반칙패 (경고 누적)", " 불계승", " 시간패", "무승부", "무효",
		    "무효 (재대국)" },
	};
	int winner = r->winner == SHT_WINNER_BLACK ? SHT_RP_BLACK : r->winner == SHT_WINNER_WHITE ?
	    SHT_RP_WHITE : SHT_RP_EMPTY;
	int named;

	if (decision < SHT_DECISION_VIOLATION || decision > SHT_DECISION_REPLAY) {
		r->native_text[0] = '\0';
		return;
	}
	/* A win is told by the winner's name, a loss by the loser's. */
	named = decision == SHT_DECISION_RESIGNATION || winner == SHT_RP_EMPTY ? winner :
	    SHT_RP_BLACK + SHT_RP_WHITE - winner;
	snprintf(r->native_text, sizeof(r->native_text), "%s%s", names[lang][named],
	    texts[lang][decision]);
}

void
sht_native_decided_chinese(const void *rules, int decision, struct sht_score_result *out)
{
	(void)rules;
	sht_native_decided(out, decision, SHT_NATIVE_CHINESE);
}

void *
sht_plugin_values_copy(const struct sht_param_value *values, int n, char *err, size_t errlen)
{
	struct sht_param_value *copy = malloc(sizeof(*copy) * (size_t)n);

	if (copy == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	memcpy(copy, values, sizeof(*copy) * (size_t)n);
	return copy;
}

void
sht_plugin_values_free(void *rules)
{
	free(rules);
}

bool
sht_plugin_komi_ok(long hundredths, bool in_zi, char *err, size_t errlen)
{
	/* 3.75 zi is 7.5 points; 3.7 zi, or 6.3 points, is no whole number of half points. */
	if (hundredths % (in_zi ? 25 : 50) == 0)
		return true;
	snprintf(err, errlen, "komi %s%ld.%02ld %s is not a whole number of half points",
	    hundredths < 0 ? "-" : "", labs(hundredths) / 100, labs(hundredths) % 100,
	    in_zi ? "zi" : "points");
	return false;
}

void
sht_plugin_text_add(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strnlen(buf, len);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

/* A non-negative number of hundredths with its fraction: 7.5, 7, 3¾ (quarters, for zi). */
static void
hundredths_text(long h, bool quarters, char *buf, size_t len)
{
	static const char *const quarter[] = { "", "¼", "½", "¾" };

	if (quarters)
		snprintf(buf, len, "%ld%s", h / 100, quarter[h % 100 / 25]);
	else if (h % 100 != 0)
		snprintf(buf, len, "%ld.%ld", h / 100, h % 100 / 10);
	else
		snprintf(buf, len, "%ld", h / 100);
}

void
sht_plugin_komi_text(long hundredths, bool in_zi, char *buf, size_t len)
{
	char value[24], points[24];
	const char *sign = hundredths < 0 ? "-" : "";
	long h = labs(hundredths);

	if (hundredths == 0) {
		snprintf(buf, len, "no komi");
		return;
	}
	/* Komi is a whole number of half points (sht_plugin_komi_ok), so the fractions are
	 * quarters of a zi or halves of a point. */
	hundredths_text(h, in_zi, value, sizeof(value));
	if (!in_zi) {
		snprintf(buf, len, "komi %s%s points", sign, value);
		return;
	}
	hundredths_text(h * 2, false, points, sizeof(points));
	snprintf(buf, len, "komi %s%s zi (%s%s points)", sign, value, sign, points);
}

int
sht_plugin_void_or_loss(int violation, bool loss)
{
	if (violation == SHT_VIOLATION_OCCUPIED || violation == SHT_VIOLATION_OFF_BOARD)
		return SHT_CONSEQUENCE_REJECT;
	if (violation == SHT_VIOLATION_NO_STONES)
		return SHT_CONSEQUENCE_VOID;
	return loss ? SHT_CONSEQUENCE_LOSS : SHT_CONSEQUENCE_VOID;
}
