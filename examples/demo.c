/* The engine's demo: replays an SGF game record, then prints the final board and its area count. */
#include <stdio.h>
#include <stdlib.h>

#include "shoutan/area.h"
#include "shoutan/board.h"
#include "shoutan/sgf.h"

static char *
read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (f == NULL)
		return NULL;
	do {
		if (n == cap) {
			char *nb = realloc(buf, cap = cap ? cap * 2 : 65536);

			if (nb == NULL) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got > 0);
	fclose(f);
	*len = n;
	return buf;
}

int
main(int argc, char **argv)
{
	struct sht_sgf_error err;
	struct sht_sgf_collection *c;
	struct sht_sgf_game g;
	struct sht_sgf_replay_stop stop;
	struct sht_board *b;
	struct sht_area area;
	size_t len;
	char *data, *text;
	char v[8];

	if (argc != 2) {
		fprintf(stderr, "usage: %s GAME.sgf\n", argv[0]);
		return 2;
	}
	if ((data = read_file(argv[1], &len)) == NULL) {
		perror(argv[1]);
		return 1;
	}
	c = sht_sgf_parse(data, len, &err);
	free(data);
	if (c == NULL) {
		fprintf(stderr, "%s:%d:%d: %s\n", argv[1], err.line, err.column, err.message);
		return 1;
	}
	if (!sht_sgf_game(c, 0, &g, &err)) {
		fprintf(stderr, "%s:%d:%d: %s\n", argv[1], err.line, err.column, err.message);
		sht_sgf_free(c);
		return 1;
	}
	b = sht_sgf_replay(&g, NULL, 0, &stop);
	if (b == NULL) {
		fprintf(stderr, "out of memory\n");
		return 1;
	}
	if (stop.move > 0) {
		const struct sht_sgf_event *e = &g.events[stop.event];
		int line, col;

		sht_sgf_position(c, e->offset, &line, &col);
		fprintf(stderr, "%s:%d:%d: move %d (%s %s) is illegal: %s; showing the position "
		    "before it\n", argv[1], line, col, stop.move, e->color == SHT_BLACK ? "B" : "W",
		    sht_vertex_format(b, sht_board_point(b, e->x, e->y), v, sizeof(v)),
		    sht_verdict_name((enum sht_verdict)stop.verdict));
	}
	len = sht_board_to_diagram(b, NULL, 0) + 1;
	text = malloc(len);
	sht_board_to_diagram(b, text, len);
	fputs(text, stdout);
	free(text);
	sht_area_compute(b, NULL, &area);
	printf("moves %d, captures B %d W %d\n", g.nmoves, sht_board_captures(b, SHT_BLACK),
	    sht_board_captures(b, SHT_WHITE));
	printf("area with every stone alive: black %d (%d stones + %d territory), white %d "
	    "(%d + %d), dame %d\n", area.black_stones + area.black_territory, area.black_stones,
	    area.black_territory, area.white_stones + area.white_territory, area.white_stones,
	    area.white_territory, area.dame_points);
	printf("recorded result: %s\n", g.result != NULL ? g.result : "(none)");
	sht_board_free(b);
	sht_sgf_game_free(&g);
	sht_sgf_free(c);
	return 0;
}
