/* Conformance: Benson pass-alive maps against KataGo's board-area cases (testboardarea.txt). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus.h"
#include "shoutan/area.h"
#include "shoutan/board.h"

#define HEADER "Safe big territories 0 Unsafe big territories 0 Non pass alive stones 0 Suicide "

struct kboard {
	int w, h;
	char rows[25][32];
};

static int passed, failed, checked_tests, maps;

/* Compares our pass-alive map of one board with KataGo's map printed after `header`. */
static void
check_board(const char *test, const struct kboard *kb, const char *expected, int which)
{
	struct sht_board_options o;
	struct sht_board *b;
	char text[25 * 33 + 1] = "";
	uint8_t *owner;
	const char *at = strstr(expected, HEADER);
	bool ok = true;

	if (at == NULL)
		return;
	for (int y = 0; y < kb->h; y++) {
		strcat(text, kb->rows[y]);
		strcat(text, "\n");
	}
	sht_board_options_init(&o, kb->w, kb->h);
	b = sht_board_from_diagram(text, &o);
	if (b == NULL) {
		printf("FAIL %s board %d: diagram did not load\n", test, which);
		failed++;
		return;
	}
	owner = malloc((size_t)sht_board_capacity(b));
	/* One map without and one with multi-stone suicide: the opponent's right to empty its
	 * own stones changes which regions are vital. */
	for (; at != NULL; at = strstr(at + 1, HEADER)) {
		const char *line = strchr(at, '\n') + 1;
		char mismatch[4096] = "";
		char suicide = at[strlen(HEADER)];

		if (suicide != '0' && suicide != '1')
			break;
		sht_pass_alive_map(b, suicide == '1', owner);
		maps++;
		for (int y = 0; y < kb->h; y++) {
			for (int x = 0; x < kb->w; x++) {
				int p = sht_board_point(b, x, y);
				char want = line[x];
				char got = owner[p] == SHT_BLACK ? 'X' : owner[p] == SHT_WHITE ? 'O' : '.';

				if (want != got) {
					ok = false;
					snprintf(mismatch + strlen(mismatch),
					    sizeof(mismatch) - strlen(mismatch),
					    " (%d,%d) want %c got %c;", x, y, want, got);
				}
			}
			line = strchr(line, '\n') + 1;
		}
		if (!ok) {
			printf("FAIL %s board %d:%.400s\n", test, which, mismatch);
			break;
		}
		/* Only the maps of this board: stop at the section separator. */
		{
			const char *sep = strstr(at, "-----");
			const char *next = strstr(at + 1, HEADER);

			if (sep != NULL && next != NULL && sep < next)
				break;
		}
	}
	if (ok)
		passed++;
	else
		failed++;
	free(owner);
	sht_board_free(b);
}

int
main(int argc, char **argv)
{
	const char *dir = corpus_dir(argc, argv, "peer/katago/testboardarea.txt");
	size_t len;
	char *data = corpus_read(corpus_join(dir, "peer/katago/testboardarea.txt"), &len);
	char *test = data;

	if (data == NULL)
		return 1;
	while ((test = strstr(test, "=== TEST: ")) != NULL) {
		char name[128];
		char *end = strstr(test + 1, "=== TEST: ");
		char *exp, *cursor;
		struct kboard boards[4];
		int nboards = 0;
		size_t tlen = end ? (size_t)(end - test) : strlen(test);
		char *block = strndup(test, tlen);

		sscanf(test, "=== TEST: %127[^[\n]", name);
		test += tlen;
		/* Only static positions: blocks that play moves or run procedures change the
		 * board in ways the transcription does not list. */
		if (strstr(block, "\nMOVE ") || strstr(block, "PROCEDURAL") ||
		    strstr(block, "\nLOOP") || strstr(block, "PRINT ") ||
		    (exp = strstr(block, "EXPECTED-OUTPUT <<<")) == NULL) {
			free(block);
			continue;
		}
		for (cursor = block; (cursor = strstr(cursor, "\nBOARD ")) != NULL && cursor < exp;) {
			struct kboard *kb = &boards[nboards];
			char *line;

			if (nboards == 4 || sscanf(cursor, "\nBOARD %dx%d", &kb->w, &kb->h) != 2)
				break;
			line = strchr(cursor + 1, '\n') + 1;
			/* Some diagrams carry GTP coordinates: a header of column letters and row
			 * numbers before each row. */
			if (strncmp(line + strspn(line, " "), "A B", 3) == 0)
				line = strchr(line, '\n') + 1;
			for (int y = 0; y < kb->h; y++) {
				int k = 0;

				for (; *line != '\n' && *line != '\0'; line++)
					if (*line != ' ' && (*line < '0' || *line > '9'))
						kb->rows[y][k++] = *line == '`' ? '.' : *line;
				kb->rows[y][k] = '\0';
				line++;
			}
			nboards++;
			cursor = line - 1;
		}
		/* With several boards the expected output has one section per board. */
		{
			char *section = exp;

			for (int i = 0; i < nboards; i++) {
				char *sep = strstr(section, "-----");

				if (sep != NULL)
					*sep = '\0';
				check_board(name, &boards[i], section, i + 1);
				if (sep == NULL)
					break;
				section = sep + 5;
			}
		}
		checked_tests++;
		free(block);
	}
	free(data);
	printf("KataGo board-area cases: %d tests with static positions, %d Benson maps compared\n",
	    checked_tests, maps);
	printf("%d passed, %d failed\n", passed, failed);
	return failed == 0 ? 0 : 1;
}
