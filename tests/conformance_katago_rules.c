/*
 * Conformance: move legality against KataGo's rules tests (testrules.txt): simple, positional
 * and situational superko, suicide, and the end of triple-ko and eternal-life cycles.  Tests
 * that need KataGo's encore, button or Spight ko rule, or that were generated procedurally,
 * are skipped and counted.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus.h"
#include "shoutan/area.h"
#include "shoutan/board.h"

#define CYCLE_OCCURRENCES 3 /* as SHT_CYCLE_OCCURRENCES in host/host.h */

struct run {
	char diagram[2048];
	int w, h;
	enum sht_ko_rule ko;
	bool suicide;
	struct sht_board *board;
	enum sht_color to_move;
	bool finished, no_result;
	char got[4096];  /* the Illegal lines we print, in order */
	int komi;        /* half points */
};

static int passed, failed, skipped, checks;

static void
reset_board(struct run *r)
{
	struct sht_board_options o;

	sht_board_free(r->board);
	sht_board_options_init(&o, r->w, r->h);
	o.ko = r->ko;
	o.multi_stone_suicide = r->suicide;
	r->board = sht_board_from_diagram(r->diagram, &o);
	r->to_move = SHT_BLACK;
	r->finished = r->no_result = false;
	r->got[0] = '\0';
}

static void
print_illegal(struct run *r)
{
	for (int y = 0; y < r->h; y++)
		for (int x = 0; x < r->w; x++) {
			int p = sht_board_point(r->board, x, y);

			enum sht_verdict v = sht_board_at(r->board, p) == SHT_EMPTY ?
			    sht_board_check(r->board, r->to_move, p, NULL) : SHT_LEGAL;

			/* KataGo prints the moves that ko or superko forbid, not suicides. */
			if (v != SHT_LEGAL && v != SHT_ILLEGAL_SUICIDE)
				snprintf(r->got + strlen(r->got), sizeof(r->got) - strlen(r->got),
				    "Illegal: (%d,%d) %c\n", x, y, r->to_move == SHT_BLACK ? 'X' : 'O');
		}
}

static bool
run_test(const char *name, char *block, struct run *r, char *why, size_t whylen)
{
	char want[4096] = "", *exp_at = strstr(block, "EXPECTED-OUTPUT <<<");
	char *exp = exp_at ? strdup(exp_at) : NULL, *save = NULL;
	int board_rows = 0;
	bool area = false, taxed = false;

	if (exp_at != NULL)
		*exp_at = '\0'; /* the events end where the expected output begins */
	r->ko = SHT_KO_SIMPLE;
	r->suicide = false;
	r->komi = 0;
	/* Rules first: the board is rebuilt for them at NEWHIST. */
	for (char *l = strtok_r(block, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		int x, y;
		char color[8], what[16];
		float komi;

		if (board_rows > 0) {
			snprintf(r->diagram + strlen(r->diagram), sizeof(r->diagram) - strlen(r->diagram),
			    "%s\n", l);
			board_rows--;
			continue;
		}
		if (sscanf(l, "BOARD %dx%d", &r->w, &r->h) == 2) {
			r->diagram[0] = '\0';
			board_rows = r->h;
		} else if (sscanf(l, "RULE komi = %ff", &komi) == 1) {
			r->komi = (int)(komi * 2);
		} else if (strstr(l, "RULE scoringRule = Rules::SCORING_AREA")) {
			area = true;
		} else if (strstr(l, "RULE taxRule = Rules::TAX_NONE")) {
			taxed = false;
		} else if (strstr(l, "RULE taxRule = Rules::TAX_")) {
			taxed = true;
		} else if (strstr(l, "RULE koRule = Rules::KO_SIMPLE"))
			r->ko = SHT_KO_SIMPLE;
		else if (strstr(l, "RULE koRule = Rules::KO_POSITIONAL"))
			r->ko = SHT_KO_POSITIONAL;
		else if (strstr(l, "RULE koRule = Rules::KO_SITUATIONAL"))
			r->ko = SHT_KO_SITUATIONAL;
		else if (strstr(l, "RULE multiStoneSuicideLegal = true"))
			r->suicide = true;
		else if (strstr(l, "RULE multiStoneSuicideLegal = false"))
			r->suicide = false;
		else if (strncmp(l, "NEWHIST", 7) == 0)
			reset_board(r);
		else if (sscanf(l, "MOVE %7s (%d,%d)", color, &x, &y) == 3 ||
		    (sscanf(l, "MOVE %7s %15s", color, what) == 2 && strcmp(what, "pass") == 0 &&
		    (x = -1) == -1)) {
			enum sht_color c = color[0] == 'B' ? SHT_BLACK : SHT_WHITE;
			int p = x < 0 ? SHT_PASS : sht_board_point(r->board, x, y);
			struct sht_move_info info;

			if (r->board == NULL)
				return snprintf(why, whylen, "move before NEWHIST"), false;
			if (sht_board_play(r->board, c, p, &info) != SHT_LEGAL)
				return snprintf(why, whylen, "KataGo's move %s is illegal here: %s", l,
				    sht_verdict_name(info.verdict)), false;
			r->to_move = SHT_OTHER(c);
			/* Play may resume after the end: each move decides afresh. */
			r->finished = r->no_result = false;
			if (sht_board_consecutive_passes(r->board) >= 2) {
				r->finished = true;
			} else if (p != SHT_PASS && r->ko == SHT_KO_SIMPLE &&
			    sht_board_occurrences(r->board, sht_board_hash(r->board), r->to_move) >=
			    CYCLE_OCCURRENCES) {
				r->finished = r->no_result = true;
			}
		} else if (strncmp(l, "PRINT printIllegalMoves", 23) == 0) {
			print_illegal(r);
		} else if (sscanf(l, "ASSERT-LEGAL %7s (%d,%d)", color, &x, &y) == 3) {
			bool want_legal = strstr(l, "-> legal") != NULL;
			bool legal = sht_board_check(r->board, color[0] == 'B' ? SHT_BLACK : SHT_WHITE,
			    sht_board_point(r->board, x, y), NULL) == SHT_LEGAL;

			checks++;
			if (legal != want_legal)
				return snprintf(why, whylen, "%s: we say %s", l, legal ? "legal" :
				    "illegal"), false;
		} else if (sscanf(l, "ASSERT-SCORE white_minus_black = %f", &komi) == 1 && area &&
		    !taxed) {
			struct sht_area a;
			int got;

			/* Area with every stone alive, as KataGo counts a finished area game. */
			sht_area_compute(r->board, NULL, &a);
			got = 2 * (a.white_stones + a.white_territory - a.black_stones -
			    a.black_territory) + r->komi;
			checks++;
			if (got != (int)(komi * 2))
				return snprintf(why, whylen, "%s: we count %g", l, got / 2.0), false;
		} else if (strncmp(l, "ASSERT-GAME-FINISHED", 20) == 0) {
			bool want_done = strstr(l, "true") != NULL;

			checks++;
			if (r->finished != want_done)
				return snprintf(why, whylen, "%s after %d moves: we say %s", l,
				    sht_board_moves_played(r->board), r->finished ? "finished" :
				    "not finished"), false;
		}
	}
	if (exp != NULL) {
		/* The Illegal lines of the expected output, in order; and no-result when printed. */
		char *copy = exp, *s2 = NULL;

		for (char *l = strtok_r(copy, "\n", &s2); l; l = strtok_r(NULL, "\n", &s2)) {
			if (strncmp(l, "Illegal: ", 9) == 0)
				snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s\n", l);
			if (strcmp(l, "isNoResult: 1") == 0 && !r->no_result) {
				free(copy);
				return snprintf(why, whylen, "KataGo ends in no result; we do not"), false;
			}
			if (strcmp(l, "isNoResult: 0") == 0 && r->no_result) {
				free(copy);
				return snprintf(why, whylen, "we end in no result; KataGo does not"), false;
			}
			if (strcmp(l, ">>>") == 0)
				break;
		}
		free(copy);
		checks++;
		if (strcmp(want, r->got) != 0)
			return snprintf(why, whylen, "illegal moves differ:\n--- KataGo\n%s--- ours\n%s",
			    want, r->got), false;
	}
	(void)name;
	return true;
}

int
main(int argc, char **argv)
{
	const char *dir = corpus_dir(argc, argv, "peer/katago/testrules.txt");
	size_t len;
	char *data = corpus_read(corpus_join(dir, "peer/katago/testrules.txt"), &len);
	char *test;
	struct run r;

	if (data == NULL)
		return 1;
	memset(&r, 0, sizeof(r));
	for (test = strstr(data, "=== TEST: "); test != NULL;) {
		char *next = strstr(test + 1, "=== TEST: ");
		size_t tlen = next ? (size_t)(next - test) : strlen(test);
		char *block = strndup(test, tlen), name[160], why[2048] = "";

		sscanf(test, "=== TEST: %159[^[\n]", name);
		/* A BOARD carries over into later tests that have none of their own. */
		if (strstr(block, "PROCEDURAL") || strstr(block, "KO_SPIGHT") ||
		    strstr(block, "hasButton = true") || strstr(block, "SCORING_TERRITORY") ||
		    strstr(block, "encore_phase=1") || strstr(block, "encore_phase=2") ||
		    strstr(block, "koRulesToTest") || strstr(block, "NEWHIST") == NULL) {
			/* Still read its BOARD lines, which later tests may use. */
			char *bd = block;

			while ((bd = strstr(bd, "\nBOARD ")) != NULL) {
				char *line;

				if (sscanf(bd, "\nBOARD %dx%d", &r.w, &r.h) != 2)
					break;
				line = strchr(bd + 1, '\n') + 1;
				r.diagram[0] = '\0';
				for (int y = 0; y < r.h; y++) {
					size_t ll = strcspn(line, "\n");

					snprintf(r.diagram + strlen(r.diagram), sizeof(r.diagram) -
					    strlen(r.diagram), "%.*s\n", (int)ll, line);
					line += ll + (line[ll] ? 1 : 0);
				}
				bd = line - 1;
			}
			skipped++;
		} else if (run_test(name, block, &r, why, sizeof(why))) {
			printf("ok   %s\n", name);
			passed++;
		} else {
			printf("FAIL %s: %s\n", name, why);
			failed++;
		}
		free(block);
		test = next;
	}
	sht_board_free(r.board);
	free(data);
	printf("KataGo rules tests: %d pass (%d checks), %d fail, %d skipped (encore, button, "
	    "Spight ko, territory scoring or procedural)\n", passed, checks, failed, skipped);
	printf("%d passed, %d failed\n", passed, failed);
	return failed == 0 ? 0 : 1;
}
