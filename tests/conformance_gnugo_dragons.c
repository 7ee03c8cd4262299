/*
 * The dead-stone judge against GNU Go's life-and-death regression tests: the dragon_status
 * cases of ld_owl.tst, semeai.tst, seki.tst and the nicklas files (transcribed in the corpus's
 * peer/gnugo/dragon_status_eval_eye_tests.tsv), each a position (an SGF file, loaded up to a
 * move and with moves played after it, as the test says) and a stone whose group the suite
 * calls alive, dead or critical.  Problems, not finished games: corner groups on an open board,
 * races, seki, groups in the middle of a game.  Nothing in the judge was tuned on them.
 *
 * sht_dead_judge (the japanese ruleset's options: the confirmation of ko) judges each position
 * as if the game ended there; a group the suite calls alive, alive whoever moves first, must
 * not be called dead, and one it calls dead, dead whoever moves first, must be.  A critical
 * group lives or dies by who moves first: counted apart, by the judge's verdict with the side
 * to move the suite's position gives (the move the suite asks about is that side's), which the
 * verdict does not read in every case (only races are read move by move), so those figures say
 * less.  Prints, per suite file and in all: cases read, right, and the cases the suite marks as
 * GNU Go's own known failures; with SHOUTAN_GNUGO=/usr/games/gnugo, GNU Go 3.8's answers to the
 * same cases beside them (GTP loadsgf, the moves, dragon_status: right when its status word is
 * the suite's; the suite was written for GNU Go, which flatters it); SHOUTAN_VERBOSE=1 names
 * every miss; SHOUTAN_THOROUGH=1 judges with the library's thorough option (1024 playouts; dead:
 * "auto-thorough" is a median of counts, which a group's status does not have).  A measurement, not a pass/fail
 * test, except that every case must be read.  Without the corpus it skips (77).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus.h"
#include "gnugo.h"
#include "shoutan/board.h"
#include "shoutan/dead.h"
#include "shoutan/sgf.h"

#define TSV "peer/gnugo/dragon_status_eval_eye_tests.tsv"
#define MAX_SUITES 8

enum expected { ALIVE, DEAD, CRITICAL, NEXPECTED };

static const char *const expected_names[NEXPECTED] = { "alive", "dead", "critical" };

struct suite {
	char name[32];
	int cases[NEXPECTED], right[NEXPECTED], known_fail;
	int gnugo_right[NEXPECTED], gnugo_failed;
};

static struct suite suites[MAX_SUITES];
static int nsuites;

static struct suite *
suite_named(const char *name)
{
	for (int i = 0; i < nsuites; i++)
		if (strcmp(suites[i].name, name) == 0)
			return &suites[i];
	if (nsuites == MAX_SUITES || strlen(name) >= sizeof(suites[0].name))
		return NULL;
	snprintf(suites[nsuites].name, sizeof(suites[0].name), "%s", name);
	return &suites[nsuites++];
}

/* Plays the suite's moves after the load ("play white H9 ; play black G8"); false on one that
 * cannot be read or played. */
static bool
play_setup(struct sht_board *b, char *setup)
{
	char *save = NULL;

	for (char *cmd = strtok_r(setup, ";", &save); cmd != NULL;
	    cmd = strtok_r(NULL, ";", &save)) {
		char color[16], vertex[8];
		int p;

		if (strspn(cmd, " ") == strlen(cmd))
			continue;
		if (sscanf(cmd, " play %15s %7s", color, vertex) != 2 ||
		    (p = sht_vertex_parse(b, vertex)) < 0 ||
		    sht_board_play(b, color[0] == 'b' || color[0] == 'B' ? SHT_BLACK : SHT_WHITE,
		    p, NULL) != SHT_LEGAL)
			return false;
	}
	return true;
}

/* The position the case names: the SGF at path up to before move `upto` (0: every move), then
 * the setup moves; NULL when it cannot be read. */
static struct sht_board *
position(const char *path, int upto, char *setup)
{
	size_t len;
	char *data = corpus_read(path, &len);
	struct sht_sgf_error err;
	struct sht_sgf_collection *c = data != NULL ? sht_sgf_parse(data, len, &err) : NULL;
	struct sht_sgf_game g;
	struct sht_sgf_replay_stop stop;
	struct sht_board *b = NULL;

	free(data);
	if (c == NULL)
		return NULL;
	if (sht_sgf_game(c, 0, &g, &err)) {
		b = sht_sgf_replay(&g, NULL, upto, &stop);
		if (b != NULL && (stop.move != 0 || !play_setup(b, setup))) {
			sht_board_free(b);
			b = NULL;
		}
		sht_sgf_game_free(&g);
	}
	sht_sgf_free(c);
	return b;
}

/* GNU Go's status word for the case (alive, dead, critical, unknown) into word; false when it
 * gave none.  setup is the suite's moves after the load, commands separated by ';'. */
static bool
gnugo_status(const char *gnugo, const char *path, const char *upto, const char *setup,
    const char *vertex, char *word, size_t size)
{
	char script[8192], answer[256];
	int at;

	if (strpbrk(path, " \t\r\n") != NULL)
		return false; /* a GTP argument ends at white space */
	at = snprintf(script, sizeof(script), "loadsgf %s %s\n", path, upto);
	for (const char *c = setup; *c != '\0' && at < (int)sizeof(script) - 1; c++)
		script[at++] = *c == ';' ? '\n' : *c;
	snprintf(script + at, sizeof(script) - (size_t)at, "\ndragon_status %s", vertex);
	if (!gnugo_ask(gnugo, false, script, answer, sizeof(answer)))
		return false;
	snprintf(word, size, "%.*s", (int)strcspn(answer, " "), answer);
	return true;
}

/* Whether the judge calls the stone at vertex dead; -1 when it cannot say (no stone there, no
 * memory). */
static int
judged_dead(const struct sht_board *b, const char *vertex)
{
	int n = sht_board_capacity(b), p = sht_vertex_parse(b, vertex), verdict = -1;
	uint8_t *buf = calloc((size_t)n, 4);
	uint16_t *confidence = calloc((size_t)n, sizeof(uint16_t));
	struct sht_dead_result r = { buf, buf + n, buf + 2 * n, confidence, buf + 3 * n, 0 };
	struct sht_dead_options o = { .pass_for_ko = true,
		.thorough = getenv("SHOUTAN_THOROUGH") != NULL };

	if (buf != NULL && confidence != NULL && p >= 0 &&
	    (sht_board_at(b, p) == SHT_BLACK || sht_board_at(b, p) == SHT_WHITE) &&
	    sht_dead_judge(b, &o, &r))
		verdict = r.dead[p];
	free(buf);
	free(confidence);
	return verdict;
}

int
main(int argc, char **argv)
{
	const char *dir = corpus_dir(argc, argv, TSV);
	const char *gnugo = getenv("SHOUTAN_GNUGO");
	bool verbose = getenv("SHOUTAN_VERBOSE") != NULL;
	char *data, *save = NULL, base[2048];
	size_t len;
	struct suite all = { "total", { 0 }, { 0 }, 0, { 0 }, 0 };
	int unread = 0;

	/* The suite's SGF paths are relative to peer/gnugo. */
	snprintf(base, sizeof(base), "%s", corpus_join(dir, "peer/gnugo"));
	data = corpus_read(corpus_join(dir, TSV), &len);
	if (data == NULL)
		return 1;
	strtok_r(data, "\n", &save); /* header */
	for (char *line = strtok_r(NULL, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		char *field[9] = { 0 }, path[4096], word[16] = "", theirs[16];
		struct sht_board *b;
		struct suite *s;
		enum expected want;
		int dead, written;
		bool right;

		/* tst id sgf upto_move setup_since_load command args expected known_fail */
		if (corpus_split_tabs(line, field, 9) < 9 || strcmp(field[5], "dragon_status") != 0)
			continue;
		sscanf(field[7], "%15s", word);
		for (want = ALIVE; want < NEXPECTED && strcmp(word, expected_names[want]) != 0;
		    want++)
			;
		s = suite_named(field[0]);
		written = snprintf(path, sizeof(path), "%s/%s", base, field[2]);
		if (s == NULL || want == NEXPECTED || written < 0 || (size_t)written >= sizeof(path) ||
		    (b = position(path, atoi(field[3]), field[4])) == NULL) {
			printf("unread %s %s: %s\n", field[0], field[1], field[2]);
			unread++;
			continue;
		}
		dead = judged_dead(b, field[6]);
		if (dead < 0) {
			printf("unread %s %s: no verdict at %s\n", field[0], field[1], field[6]);
			unread++;
			sht_board_free(b);
			continue;
		}
		/* A critical group is the side to move's: it lives when its owner moves first. */
		right = want == ALIVE ? !dead : want == DEAD ? dead :
		    dead == (sht_board_to_move(b) != sht_board_at(b, sht_vertex_parse(b, field[6])));
		s->cases[want]++;
		all.cases[want]++;
		s->right[want] += right;
		all.right[want] += right;
		s->known_fail += strcmp(field[8], "yes") == 0;
		all.known_fail += strcmp(field[8], "yes") == 0;
		if (gnugo != NULL && gnugo_status(gnugo, path, field[3], field[4], field[6], theirs,
		    sizeof(theirs))) {
			s->gnugo_right[want] += strcmp(theirs, word) == 0;
			all.gnugo_right[want] += strcmp(theirs, word) == 0;
			if (verbose && strcmp(theirs, word) != 0)
				printf("gnugo miss %s %s %s at %s: expected %s, gnugo %s\n", field[0],
				    field[1], field[2], field[6], field[7], theirs);
		} else if (gnugo != NULL) {
			s->gnugo_failed++;
			all.gnugo_failed++;
		}
		if (verbose && !right)
			printf("miss %s %s %s at %s: expected %s, judged %s (%s to move)%s\n",
			    field[0], field[1], field[2], field[6], field[7], dead ? "dead" : "alive",
			    sht_board_to_move(b) == SHT_BLACK ? "black" : "white",
			    strcmp(field[8], "yes") == 0 ? " (a known failure of GNU Go's too)" : "");
		sht_board_free(b);
	}
	free(data);
	printf("suite        | alive right | dead right | critical right | known_fail%s\n",
	    gnugo != NULL ? " | g.alive g.dead g.critical failed" : "");
	for (int i = 0; i <= nsuites; i++) {
		const struct suite *s = i < nsuites ? &suites[i] : &all;

		printf("%-12s | %5d %5d | %4d %5d | %8d %5d | %10d", s->name, s->cases[ALIVE],
		    s->right[ALIVE], s->cases[DEAD], s->right[DEAD], s->cases[CRITICAL],
		    s->right[CRITICAL], s->known_fail);
		if (gnugo != NULL)
			printf(" | %7d %6d %10d %6d", s->gnugo_right[ALIVE], s->gnugo_right[DEAD],
			    s->gnugo_right[CRITICAL], s->gnugo_failed);
		printf("\n");
	}
	printf("(critical: right when the judge calls the group alive with its owner to move, dead "
	    "with the opponent to move; known_fail: the cases the suite marks as GNU Go's own "
	    "failures)\n");
	printf("unread=%d\n", unread);
	printf("%d passed, %d failed\n", all.cases[ALIVE] + all.cases[DEAD] + all.cases[CRITICAL],
	    unread);
	return unread > 0 ? 1 : 0;
}
