/* Conformance: every SGF file in the corpus parses, or is refused with a clean positioned error. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "corpus.h"
#include "shoutan/board.h"
#include "shoutan/sgf.h"

static int files, parsed, refused, games, replayed_clean, stopped, unclean;

static void
check_file(const char *path)
{
	size_t len;
	char *data = corpus_read(path, &len);
	struct sht_sgf_error err;
	struct sht_sgf_collection *c;

	files++;
	if (data == NULL) {
		printf("UNREADABLE %s\n", path);
		unclean++;
		return;
	}
	c = sht_sgf_parse(data, len, &err);
	free(data);
	if (c == NULL) {
		/* A refusal must say where and why. */
		if (err.line < 1 || err.message[0] == '\0') {
			printf("UNCLEAN %s: error without position or message\n", path);
			unclean++;
		} else {
			printf("refused %s:%d:%d: %s\n", path, err.line, err.column, err.message);
			refused++;
		}
		return;
	}
	parsed++;
	for (int t = 0; t < c->ntrees; t++) {
		struct sht_sgf_game g;
		struct sht_sgf_replay_stop stop;
		struct sht_board *b;

		if (!sht_sgf_game(c, t, &g, &err)) {
			printf("refused %s (game %d):%d:%d: %s\n", path, t + 1, err.line, err.column,
			    err.message);
			refused++;
			continue;
		}
		games++;
		b = sht_sgf_replay(&g, NULL, 0, &stop);
		if (stop.move > 0) {
			int line, col;
			char v[8];
			const struct sht_sgf_event *e = &g.events[stop.event];

			sht_sgf_position(c, e->offset, &line, &col);
			printf("illegal %s:%d:%d: move %d (%s %s): %s\n", path, line, col, stop.move,
			    e->color == SHT_BLACK ? "B" : "W",
			    sht_vertex_format(b, sht_board_point(b, e->x, e->y), v, sizeof(v)),
			    sht_verdict_name((enum sht_verdict)stop.verdict));
			stopped++;
		} else {
			replayed_clean++;
		}
		sht_board_free(b);
		sht_sgf_game_free(&g);
	}
	sht_sgf_free(c);
}

static void
check_one(const char *path, void *arg)
{
	(void)arg;
	check_file(path);
}

int
main(int argc, char **argv)
{
	const char *dir = corpus_dir(argc, argv, "games");

	corpus_walk_sgf(dir, check_one, NULL);
	printf("corpus SGF: %d files, %d parsed, %d refused with a positioned error, %d unclean; "
	    "%d games, %d replay with no illegal move (simple ko), %d stop at an illegal move\n",
	    files, parsed, refused, unclean, games, replayed_clean, stopped);
	printf("%d passed, %d failed\n", parsed + refused, unclean);
	return unclean == 0 && files > 0 ? 0 : 1;
}
