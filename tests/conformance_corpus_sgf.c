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
walk(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	int n = 0, cap = 0;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap)
			names = realloc(names, sizeof(*names) * (size_t)(cap = cap ? cap * 2 : 64));
		names[n++] = strdup(e->d_name);
	}
	closedir(d);
	/* A stable order, so the report reads the same on every machine. */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
			char *t = names[j];

			names[j] = names[j - 1];
			names[j - 1] = t;
		}
	for (int i = 0; i < n; i++) {
		char path[4096];
		struct stat st;
		size_t len = strlen(names[i]);

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			walk(path);
		else if (len > 4 && strcasecmp(names[i] + len - 4, ".sgf") == 0)
			check_file(path);
		free(names[i]);
	}
	free(names);
}

int
main(int argc, char **argv)
{
	const char *dir = corpus_dir(argc, argv, "games");

	walk(dir);
	printf("corpus SGF: %d files, %d parsed, %d refused with a positioned error, %d unclean; "
	    "%d games, %d replay with no illegal move (simple ko), %d stop at an illegal move\n",
	    files, parsed, refused, unclean, games, replayed_clean, stopped);
	printf("%d passed, %d failed\n", parsed + refused, unclean);
	return unclean == 0 && files > 0 ? 0 : 1;
}
