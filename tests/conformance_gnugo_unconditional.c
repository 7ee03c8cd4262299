/* Conformance: Benson pass-alive status against GNU Go's 664 unconditional_status cases. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus.h"
#include "shoutan/area.h"
#include "shoutan/board.h"
#include "shoutan/sgf.h"

/*
 * GNU Go's unconditional life plays out captures that Benson's test does not, so it may call
 * alive or owned what Benson leaves undecided: we count those as misses.  The reverse, a point
 * we call certain that GNU Go does not, would be an unsound claim and fails the run.
 */
static const char *
our_status(const struct sht_board *b, const uint8_t *owner, int p)
{
	enum sht_color c = sht_board_at(b, p);

	if (owner[p] == SHT_EMPTY)
		return "undecided";
	if (c == SHT_EMPTY)
		return owner[p] == SHT_BLACK ? "black_territory" : "white_territory";
	return owner[p] == c ? "alive" : "dead";
}

/* Runs a GNU Go setup string ("boardsize 2 ; clear_board ; play black A1 ; ..."). */
static struct sht_board *
apply_setup(struct sht_board *b, char *setup)
{
	for (char *cmd = strtok(setup, ";"); cmd != NULL; cmd = strtok(NULL, ";")) {
		char color[16], vertex[8];
		int n;

		if (sscanf(cmd, " boardsize %d", &n) == 1) {
			struct sht_board_options o;

			sht_board_free(b);
			sht_board_options_init(&o, n, n);
			b = sht_board_new(&o);
		} else if (strstr(cmd, "clear_board") != NULL) {
			sht_board_clear(b);
		} else if (sscanf(cmd, " play %15s %7s", color, vertex) == 2) {
			sht_board_play(b, color[0] == 'b' ? SHT_BLACK : SHT_WHITE,
			    sht_vertex_parse(b, vertex), NULL);
		}
	}
	return b;
}

int
main(int argc, char **argv)
{
	const char *dir = corpus_dir(argc, argv, "peer/gnugo/unconditional_status_tests.tsv");
	size_t len;
	char *data = corpus_read(corpus_join(dir, "peer/gnugo/unconditional_status_tests.tsv"), &len);
	char *save = NULL;
	int passed = 0, missed = 0, unsound = 0, errors = 0;

	if (data == NULL)
		return 1;
	strtok_r(data, "\n", &save); /* header */
	for (char *line = strtok_r(NULL, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		char *field[9] = { 0 };
		char *sgftext;
		int upto;
		struct sht_sgf_collection *c;
		struct sht_sgf_game g;
		struct sht_board *b;
		uint8_t *owner;
		const char *got;
		size_t sgflen;
		char path[1024];

		if (corpus_split_tabs(line, field, 9) < 8)
			continue;
		snprintf(path, sizeof(path), "peer/gnugo/%s", field[2]);
		sgftext = corpus_read(corpus_join(dir, path), &sgflen);
		c = sgftext ? sht_sgf_parse(sgftext, sgflen, NULL) : NULL;
		free(sgftext);
		if (c == NULL || !sht_sgf_game(c, 0, &g, NULL)) {
			printf("ERROR case %s: cannot load %s\n", field[1], field[2]);
			errors++;
			sht_sgf_free(c);
			continue;
		}
		upto = field[3][0] ? atoi(field[3]) : 0;
		b = sht_sgf_replay(&g, NULL, upto, NULL);
		if (field[4][0])
			b = apply_setup(b, field[4]);
		owner = malloc((size_t)sht_board_capacity(b));
		/* GNU Go plays without suicide. */
		sht_pass_alive_map(b, false, owner);
		got = our_status(b, owner, sht_vertex_parse(b, field[6]));
		if (strcmp(got, field[7]) == 0) {
			passed++;
		} else if (strcmp(got, "undecided") == 0) {
			missed++;
			if (getenv("SHOUTAN_VERBOSE") != NULL)
				printf("MISS case %s (%s %s): GNU Go says %s\n", field[1], field[2],
				    field[6], field[7]);
		} else {
			unsound++;
			printf("UNSOUND case %s (%s %s): GNU Go says %s, we say %s\n", field[1],
			    field[2], field[6], field[7], got);
		}
		free(owner);
		sht_board_free(b);
		sht_sgf_game_free(&g);
		sht_sgf_free(c);
	}
	free(data);
	printf("GNU Go unconditional_status: %d agree, %d that GNU Go settles and Benson leaves "
	    "undecided, %d unsound, %d unreadable\n", passed, missed, unsound, errors);
	printf("%d passed, %d failed\n", passed + missed, unsound + errors);
	return unsound + errors == 0 ? 0 : 1;
}
