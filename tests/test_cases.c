/*
 * The data-driven board cases: each file in tests/data/board is a diagram plus moves and the
 * answers expected (legality, captures, resulting position, area, pass-alive map, groups).
 * The format is in tests/data/board/README.md; adding a case is adding a file.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "corpus.h"
#include "shoutan/area.h"
#include "shoutan/board.h"
#include "shoutan/dead.h"
#include "shoutan/settle.h"

struct case_file {
	char path[1024];
	char name[256];
};

static enum sht_color
color_of(const char *s)
{
	if (strcmp(s, "B") == 0 || strcmp(s, "black") == 0)
		return SHT_BLACK;
	if (strcmp(s, "W") == 0 || strcmp(s, "white") == 0)
		return SHT_WHITE;
	fail_msg("unknown colour '%s'", s);
	return SHT_EMPTY;
}

static enum sht_verdict
verdict_of(const char *s)
{
	for (int v = SHT_LEGAL; v <= SHT_ILLEGAL_COLOR; v++)
		if (strcmp(s, sht_verdict_name((enum sht_verdict)v)) == 0)
			return (enum sht_verdict)v;
	fail_msg("unknown verdict '%s'", s);
	return SHT_LEGAL;
}

/* Reads the indented diagram lines that follow a directive. */
static char *
read_diagram(char **lines, int nlines, int *i)
{
	size_t cap = 4096, n = 0;
	char *out = malloc(cap);

	out[0] = '\0';
	while (*i + 1 < nlines && (lines[*i + 1][0] == ' ' || lines[*i + 1][0] == '\t')) {
		const char *l = lines[++*i];
		size_t len = strlen(l);

		if (n + len + 2 >= cap)
			out = realloc(out, cap = (n + len) * 2 + 2);
		memcpy(out + n, l, len);
		n += len;
		out[n++] = '\n';
		out[n] = '\0';
	}
	return out;
}

/* The diagram with spaces removed, for comparing with sht_board_to_diagram. */
static void
squeeze(const char *in, char *out)
{
	for (; *in != '\0'; in++)
		if (*in != ' ' && *in != '\t')
			*out++ = *in == 'x' ? 'X' : *in == 'o' ? 'O' : *in == '+' ? '.' : *in;
	*out = '\0';
}

static int
field_int(const char *line, const char *key)
{
	const char *at = strstr(line, key);

	/* The line is not printed: UBSan's null checks give GCC a path where it is NULL, and
	 * -Wformat-overflow then refuses to build an optimised sanitizer build. */
	if (at == NULL)
		fail_msg("'%s' is missing in an expect or play line", key);
	return atoi(at + strlen(key));
}

/*
 * The tax's groups as a diagram: each group a letter, in the order of their first stones from the
 * top row down, upper case for Black's (A, B, ...) and lower case for White's (a, b, ...), on
 * its stones and its territory; '.' elsewhere.
 */
static void
tax_group_map(const struct sht_board *b, char *out, size_t len)
{
	int cap = sht_board_capacity(b), *label = malloc(sizeof(int) * (size_t)cap);
	char *letter = calloc((size_t)cap + 1, 1);
	int next[3] = { 0, 'A', 'a' };
	struct sht_tax_groups counts;
	size_t n = 0;

	assert_true(sht_area_tax_groups(b, NULL, label, &counts));
	/* A group's colour is its stones'; territory comes with a stone of its group. */
	for (int y = 0; y < sht_board_height(b); y++)
		for (int x = 0; x < sht_board_width(b); x++) {
			int p = sht_board_point(b, x, y), c = sht_board_at(b, p);

			if ((c == SHT_BLACK || c == SHT_WHITE) && letter[label[p]] == 0)
				letter[label[p]] = (char)next[c]++;
		}
	for (int y = 0; y < sht_board_height(b) && n + 2 < len; y++) {
		for (int x = 0; x < sht_board_width(b) && n + 2 < len; x++) {
			int p = sht_board_point(b, x, y);

			out[n++] = label[p] == 0 ? '.' : letter[label[p]];
		}
		out[n++] = '\n';
	}
	out[n] = '\0';
	free(letter);
	free(label);
}

static void
run_case(void **state)
{
	const struct case_file *cf = *state;
	size_t len;
	char *text = corpus_read(cf->path, &len);
	char *lines[512];
	int nlines = 0;
	struct sht_board_options o;
	struct sht_board *b = NULL;

	assert_non_null(text);
	for (char *save = NULL, *l = strtok_r(text, "\n", &save); l != NULL && nlines < 512;
	    l = strtok_r(NULL, "\n", &save))
		lines[nlines++] = l;
	sht_board_options_init(&o, 0, 0);
	for (int i = 0; i < nlines; i++) {
		char *l = lines[i], word[32], a[32], v[32], want[32];

		if (l[0] == '#' || l[0] == '\0' || sscanf(l, "%31s", word) != 1)
			continue;
		if (strcmp(word, "rules") == 0) {
			if (strstr(l, "ko=positional"))
				o.ko = SHT_KO_POSITIONAL;
			else if (strstr(l, "ko=situational"))
				o.ko = SHT_KO_SITUATIONAL;
			else if (strstr(l, "ko=simple"))
				o.ko = SHT_KO_SIMPLE;
			o.multi_stone_suicide = strstr(l, "suicide=yes") != NULL;
		} else if (strcmp(word, "board") == 0) {
			char *d = read_diagram(lines, nlines, &i);

			sht_board_free(b);
			b = sht_board_from_diagram(d, &o);
			free(d);
			if (b == NULL)
				fail_msg("%s:%d: the diagram does not load", cf->name, i + 1);
		} else if (strcmp(word, "play") == 0 || strcmp(word, "check") == 0) {
			struct sht_move_info info;
			enum sht_verdict got;
			int p;

			assert_non_null(b);
			if (sscanf(l, "%*s %31s %31s %31s", a, v, want) != 3)
				fail_msg("%s:%d: want 'play COLOUR VERTEX VERDICT'", cf->name, i + 1);
			p = sht_vertex_parse(b, v);
			if (p == SHT_NO_POINT)
				fail_msg("%s:%d: bad vertex %s", cf->name, i + 1, v);
			got = strcmp(word, "play") == 0 ? sht_board_play(b, color_of(a), p, &info) :
			    sht_board_check(b, color_of(a), p, &info);
			if (got != verdict_of(want))
				fail_msg("%s:%d: %s %s %s gave %s", cf->name, i + 1, word, a, v,
				    sht_verdict_name(got));
			if (strstr(l, "captures="))
				assert_int_equal(info.captured, field_int(l, "captures="));
			if (strstr(l, "repeated=yes"))
				assert_true(info.repeated);
			if (strstr(l, "repeated=no"))
				assert_false(info.repeated);
		} else if (strcmp(word, "expect") == 0) {
			char *d = read_diagram(lines, nlines, &i);
			char squeezed[4096], got[4096];

			squeeze(d, squeezed);
			sht_board_to_diagram(b, got, sizeof(got));
			{
				char g2[4096];

				squeeze(got, g2);
				if (strcmp(squeezed, g2) != 0)
					fail_msg("%s:%d: position differs; got\n%s", cf->name, i + 1, got);
			}
			free(d);
		} else if (strcmp(word, "area") == 0) {
			struct sht_area ar;

			sht_area_compute(b, NULL, &ar);
			if (ar.black_stones + ar.black_territory != field_int(l, "black=") ||
			    ar.white_stones + ar.white_territory != field_int(l, "white=") ||
			    ar.dame_points != field_int(l, "dame="))
				fail_msg("%s:%d: area black %d white %d dame %d", cf->name, i + 1,
				    ar.black_stones + ar.black_territory,
				    ar.white_stones + ar.white_territory, ar.dame_points);
		} else if (strcmp(word, "ilr") == 0) {
			int *group = malloc(sizeof(int) * (size_t)sht_board_capacity(b)), counts[3];

			sht_area_ilr(b, NULL, group, counts, NULL);
			if (counts[SHT_BLACK] != field_int(l, "black=") ||
			    counts[SHT_WHITE] != field_int(l, "white="))
				fail_msg("%s:%d: ILR black %d white %d", cf->name, i + 1,
				    counts[SHT_BLACK], counts[SHT_WHITE]);
			free(group);
		} else if (strcmp(word, "taxgroups") == 0) {
			int *label = malloc(sizeof(int) * (size_t)sht_board_capacity(b));
			struct sht_tax_groups tg;

			assert_true(sht_area_tax_groups(b, NULL, label, &tg));
			if (tg.groups[SHT_BLACK] != field_int(l, "black=") ||
			    tg.groups[SHT_WHITE] != field_int(l, "white=") ||
			    (strstr(l, "seki_black=") && tg.seki_eyed[SHT_BLACK] +
			    tg.seki_eyeless[SHT_BLACK] != field_int(l, "seki_black=")) ||
			    (strstr(l, "seki_white=") && tg.seki_eyed[SHT_WHITE] +
			    tg.seki_eyeless[SHT_WHITE] != field_int(l, "seki_white=")))
				fail_msg("%s:%d: tax groups black %d white %d, in seki black %d white %d",
				    cf->name, i + 1, tg.groups[SHT_BLACK], tg.groups[SHT_WHITE],
				    tg.seki_eyed[SHT_BLACK] + tg.seki_eyeless[SHT_BLACK],
				    tg.seki_eyed[SHT_WHITE] + tg.seki_eyeless[SHT_WHITE]);
			free(label);
		} else if (strcmp(word, "taxgroupmap") == 0) {
			char *d = read_diagram(lines, nlines, &i), squeezed[4096], got[4096];

			squeeze(d, squeezed);
			tax_group_map(b, got, sizeof(got));
			if (strcmp(squeezed, got) != 0)
				fail_msg("%s:%d: tax groups differ; got\n%s", cf->name, i + 1, got);
			free(d);
		} else if (strcmp(word, "seki") == 0) {
			char *d = read_diagram(lines, nlines, &i), squeezed[4096], got[4096];
			int *group = malloc(sizeof(int) * (size_t)sht_board_capacity(b)), counts[3];
			uint8_t *seki = malloc((size_t)sht_board_capacity(b));
			size_t n = 0;

			sht_area_ilr(b, NULL, group, counts, seki);
			for (int y = 0; y < sht_board_height(b); y++) {
				for (int x = 0; x < sht_board_width(b); x++) {
					int p = sht_board_point(b, x, y);

					got[n++] = !seki[p] ? '.' : sht_board_at(b, p) == SHT_BLACK ? 'X' : 'O';
				}
				got[n++] = '\n';
			}
			got[n] = '\0';
			squeeze(d, squeezed);
			if (strcmp(squeezed, got) != 0)
				fail_msg("%s:%d: seki stones differ; got\n%s", cf->name, i + 1, got);
			free(group);
			free(seki);
			free(d);
		} else if (strcmp(word, "deadstones") == 0) {
			char *d = read_diagram(lines, nlines, &i), squeezed[4096], got[4096];
			int cap = sht_board_capacity(b);
			uint8_t *dead = calloc((size_t)cap, 1), *unsure = calloc((size_t)cap, 1);
			uint8_t *owner = calloc((size_t)cap, 1);
			uint16_t *conf = calloc((size_t)cap, sizeof(uint16_t));
			struct sht_dead_result res = { dead, unsure, owner, conf, NULL, 0 };
			/* "deadstones thorough": dead: "auto-thorough"'s effort. */
			struct sht_dead_options opt = { 0, 0, strstr(l, "pass-for-ko") != NULL,
				strstr(l, "thorough") != NULL };
			size_t n = 0;

			assert_true(sht_dead_judge(b, &opt, &res));
			for (int y = 0; y < sht_board_height(b); y++) {
				for (int x = 0; x < sht_board_width(b); x++) {
					int p = sht_board_point(b, x, y);

					got[n++] = !dead[p] ? '.' : sht_board_at(b, p) == SHT_BLACK ? 'X' : 'O';
				}
				got[n++] = '\n';
			}
			got[n] = '\0';
			squeeze(d, squeezed);
			if (strcmp(squeezed, got) != 0)
				fail_msg("%s:%d: dead stones differ; got\n%s", cf->name, i + 1, got);
			free(dead);
			free(unsure);
			free(owner);
			free(conf);
			free(d);
		} else if (strcmp(word, "settle") == 0) {
			/* The board the settle step counts: dead: auto's verdict removed, the
			 * settle moves played (lib/settle.c). */
			char *d = read_diagram(lines, nlines, &i), squeezed[4096], got[4096], g2[4096];
			int cap = sht_board_capacity(b);
			uint8_t *dead = calloc((size_t)cap, 1), *unsure = calloc((size_t)cap, 1);
			uint8_t *owner = calloc((size_t)cap, 1);
			uint16_t *conf = calloc((size_t)cap, sizeof(uint16_t));
			struct sht_dead_result res = { dead, unsure, owner, conf, NULL, 0 };
			struct sht_dead_options opt = { 0, 0, false, false };
			struct sht_settle_options so = {
				.counting = strstr(l, "counting=territory") != NULL ?
				    SHT_SETTLE_TERRITORY : SHT_SETTLE_AREA,
				.group_tax = strstr(l, "tax") != NULL,
				.owner = owner,
				.confidence = conf,
				.finished = strstr(l, "finished") != NULL,
				.scan = strstr(l, "scan=") != NULL ? atoi(strstr(l, "scan=") + 5) : 0,
			};
			struct sht_settle_result sr;

			if (strstr(l, "nojudge") != NULL) {
				/* The settle step alone: no ownership, and every stone alive but the
				 * chains named by "dead=V1,V2". */
				const char *list = strstr(l, "dead=");
				char vertex[8];

				so.owner = NULL;
				so.confidence = NULL;
				for (list = list ? list + 5 : NULL; list != NULL &&
				    sscanf(list, "%7[^, ]", vertex) == 1; list = strchr(list, ',') ?
				    strchr(list, ',') + 1 : NULL) {
					int p = sht_vertex_parse(b, vertex);

					assert_true(p >= 0 && sht_board_at(b, p) != SHT_EMPTY);
					for (int t = p;;) {
						dead[t] = 1;
						if ((t = sht_board_chain_next(b, t)) == p)
							break;
					}
				}
			} else {
				assert_true(sht_dead_judge(b, &opt, &res));
			}
			assert_true(sht_settle(b, dead, &so, &sr));
			sht_board_to_diagram(sr.board, got, sizeof(got));
			squeeze(d, squeezed);
			squeeze(got, g2);
			if (strcmp(squeezed, g2) != 0)
				fail_msg("%s:%d: settled board differs; got\n%s", cf->name, i + 1, got);
			if (strstr(l, "groups=") != NULL) {
				/* The tax's groups of the settled board, "groups=BLACK,WHITE". */
				int *label = malloc(sizeof(int) * (size_t)cap), gb = -1, gw = -1;
				struct sht_tax_groups tg;

				assert_true(sht_area_tax_groups(sr.board, NULL, label, &tg));
				sscanf(strstr(l, "groups=") + 7, "%d,%d", &gb, &gw);
				if (tg.groups[SHT_BLACK] != gb || tg.groups[SHT_WHITE] != gw)
					fail_msg("%s:%d: settled groups black %d white %d", cf->name, i + 1,
					    tg.groups[SHT_BLACK], tg.groups[SHT_WHITE]);
				free(label);
			}
			sht_settle_result_free(&sr);
			free(dead);
			free(unsure);
			free(owner);
			free(conf);
			free(d);
		} else if (strcmp(word, "passalive") == 0) {
			char *d = read_diagram(lines, nlines, &i), squeezed[4096], got[4096];
			uint8_t *owner = malloc((size_t)sht_board_capacity(b));
			size_t n = 0;

			sht_pass_alive_map(b, o.multi_stone_suicide, owner);
			for (int y = 0; y < sht_board_height(b); y++) {
				for (int x = 0; x < sht_board_width(b); x++) {
					int p = sht_board_point(b, x, y);

					got[n++] = owner[p] == SHT_BLACK ? 'X' : owner[p] == SHT_WHITE ?
					    'O' : '.';
				}
				got[n++] = '\n';
			}
			got[n] = '\0';
			squeeze(d, squeezed);
			if (strcmp(squeezed, got) != 0)
				fail_msg("%s:%d: pass-alive map differs; got\n%s", cf->name, i + 1, got);
			free(owner);
			free(d);
		} else {
			fail_msg("%s:%d: unknown directive '%s'", cf->name, i + 1, word);
		}
	}
	sht_board_free(b);
	free(text);
}

int
main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "tests/data/board";
	struct case_file *files = calloc(512, sizeof(*files));
	struct CMUnitTest *tests = calloc(512, sizeof(*tests));
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0, rc;

	if (d == NULL) {
		fprintf(stderr, "cannot open %s\n", dir);
		return 1;
	}
	while ((e = readdir(d)) != NULL && n < 512) {
		size_t len = strlen(e->d_name);

		if (len < 6 || strcmp(e->d_name + len - 5, ".case") != 0)
			continue;
		snprintf(files[n].path, sizeof(files[n].path), "%s/%s", dir, e->d_name);
		snprintf(files[n].name, sizeof(files[n].name), "%s", e->d_name);
		tests[n].name = files[n].name;
		tests[n].test_func = run_case;
		tests[n].initial_state = &files[n];
		n++;
	}
	closedir(d);
	if (n == 0) {
		fprintf(stderr, "no .case files in %s\n", dir);
		return 1;
	}
	rc = _cmocka_run_group_tests("board cases", tests, (size_t)n, NULL, NULL);
	free(tests);
	free(files);
	return rc;
}
