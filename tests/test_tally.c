/* Unit tests of the shared score arithmetic's texts (lib/tally.c), against printf's forms. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "shoutan/tally.h"

/* The texts as they were written with snprintf, the form clients and records read. */
static void
printf_half(int half, char *buf, size_t len)
{
	long long m = half < 0 ? -(long long)half : half;
	char whole[32];
	size_t n;

	snprintf(whole, sizeof(whole), "%s%lld%s", half < 0 ? "-" : "", m / 2, m % 2 ? ".5" : "");
	/* Cut to len - 1 bytes, as snprintf cuts. */
	n = strlen(whole) < len ? strlen(whole) : len - 1;
	memcpy(buf, whole, n);
	buf[n] = '\0';
}

static void
test_half_points_are_printfs(void **state)
{
	static const int edges[] = { INT_MIN, INT_MIN + 1, INT_MAX, INT_MAX - 1, -1, 0, 1, 2, 3 };
	char got[16], want[16];

	(void)state;
	for (int h = -100000; h <= 100000; h++) {
		printf_half(h, want, sizeof(want));
		assert_string_equal(sht_half_points_text(h, got, sizeof(got)), want);
	}
	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
		printf_half(edges[i], want, sizeof(want));
		assert_string_equal(sht_half_points_text(edges[i], got, sizeof(got)), want);
		/* A short buffer is cut as snprintf cuts it. */
		for (size_t len = 1; len < 6; len++) {
			printf_half(edges[i], want, len);
			assert_string_equal(sht_half_points_text(edges[i], got, len), want);
		}
	}
}

static void
test_result_texts_are_printfs(void **state)
{
	(void)state;
	for (int margin = -2001; margin <= 2001; margin++)
		for (int winner = SHT_WINNER_NONE; winner <= SHT_WINNER_WHITE; winner++) {
			struct sht_score_result r = { .margin = margin, .winner = winner };
			char num[16], re[24], text[SHT_SCORE_TEXT];

			printf_half(abs(margin), num, sizeof(num));
			if (winner == SHT_WINNER_BLACK || winner == SHT_WINNER_WHITE) {
				snprintf(re, sizeof(re), "%c+%s", winner == SHT_WINNER_BLACK ? 'B' : 'W',
				    num);
				if (margin == 0) /* a tie the rules give to one side (Ing) */
					snprintf(text, sizeof(text), "%s wins the tie",
					    winner == SHT_WINNER_BLACK ? "Black" : "White");
				else
					snprintf(text, sizeof(text), "%s wins by %s point%s",
					    winner == SHT_WINNER_BLACK ? "Black" : "White", num,
					    abs(margin) == 2 ? "" : "s");
			} else if (winner == SHT_WINNER_DRAW) {
				snprintf(re, sizeof(re), "0");
				snprintf(text, sizeof(text), "Draw");
			} else {
				snprintf(re, sizeof(re), "Void");
				snprintf(text, sizeof(text), "No result");
			}
			sht_result_texts(&r);
			assert_string_equal(r.re, re);
			assert_string_equal(r.text, text);
		}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_half_points_are_printfs),
		cmocka_unit_test(test_result_texts_are_printfs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
