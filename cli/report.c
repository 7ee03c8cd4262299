/* The research summary of a batch's results: tallies read row by row, a text report, SVG charts. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "picture.h"
#include "report.h"

#define MAX_RULESETS 64
/* Margin differences in half points, from -HIST_HALF to +HIST_HALF (200 points); beyond, the
 * end bins. */
#define HIST_HALF 400
#define HIST_BINS (2 * HIST_HALF + 1)

enum { WIN_B, WIN_W, WIN_DRAW, WIN_NONE };
enum { AGREE_EXACT, AGREE_WINNER, AGREE_NO, AGREE_NONE };

struct ruleset_stats {
	char *name;
	long results, errors;
	long wins[4];
	long agree[4];
};

struct pair_stats {
	long games, flips, same;
	double sum, sumsq, min, max;
	long *hist;           /* HIST_BINS counts, allocated at the pair's first game */
};

/* A row of categories (board sizes, periods) against the ruleset pairs: games and flips. */
struct category {
	char *label;
	long *games, *flips;  /* per pair index */
};

struct categories {
	struct category *list;
	int n, cap;
};

struct collection {
	char *name;
	long games;
	long counted[MAX_RULESETS], exact[MAX_RULESETS], winner[MAX_RULESETS];
};

/* One game's results while its rows come in. */
struct game_row {
	int ruleset;
	int winner;           /* WIN_* */
	double margin;
	bool scored;
	int agree;            /* AGREE_* */
};

struct report {
	struct ruleset_stats rulesets[MAX_RULESETS];
	int nrulesets;
	struct pair_stats *pairs;   /* MAX_RULESETS * MAX_RULESETS, [a * MAX_RULESETS + b], a < b */
	struct categories sizes, periods;
	struct collection *collections;
	int ncollections, cap_collections;
	long games, rows, bad_lines;
	/* The game being read. */
	char *key;
	char size[32], period[16];
	int collection;
	struct game_row current[MAX_RULESETS];
	int ncurrent;
};

struct report *
report_new(void)
{
	struct report *r = calloc(1, sizeof(*r));

	if (r != NULL && (r->pairs = calloc(MAX_RULESETS * MAX_RULESETS, sizeof(*r->pairs))) ==
	    NULL) {
		free(r);
		return NULL;
	}
	return r;
}

static void
categories_free(struct categories *c)
{
	for (int i = 0; i < c->n; i++) {
		free(c->list[i].label);
		free(c->list[i].games);
		free(c->list[i].flips);
	}
	free(c->list);
}

void
report_free(struct report *r)
{
	if (r == NULL)
		return;
	for (int i = 0; i < r->nrulesets; i++)
		free(r->rulesets[i].name);
	for (int i = 0; i < MAX_RULESETS * MAX_RULESETS; i++)
		free(r->pairs[i].hist);
	free(r->pairs);
	categories_free(&r->sizes);
	categories_free(&r->periods);
	for (int i = 0; i < r->ncollections; i++)
		free(r->collections[i].name);
	free(r->collections);
	free(r->key);
	free(r);
}

static int
ruleset_index(struct report *r, const char *name)
{
	for (int i = 0; i < r->nrulesets; i++)
		if (strcmp(r->rulesets[i].name, name) == 0)
			return i;
	if (r->nrulesets == MAX_RULESETS)
		return -1;
	r->rulesets[r->nrulesets].name = strdup(name);
	return r->rulesets[r->nrulesets].name != NULL ? r->nrulesets++ : -1;
}

static struct category *
category(struct categories *c, const char *label)
{
	struct category *k;

	for (int i = 0; i < c->n; i++)
		if (strcmp(c->list[i].label, label) == 0)
			return &c->list[i];
	if (c->n == c->cap) {
		int cap = c->cap ? c->cap * 2 : 8;
		struct category *bigger = realloc(c->list, (size_t)cap * sizeof(*bigger));

		if (bigger == NULL)
			return NULL;
		c->list = bigger;
		c->cap = cap;
	}
	k = &c->list[c->n];
	k->label = strdup(label);
	k->games = calloc(MAX_RULESETS * MAX_RULESETS, sizeof(*k->games));
	k->flips = calloc(MAX_RULESETS * MAX_RULESETS, sizeof(*k->flips));
	if (k->label == NULL || k->games == NULL || k->flips == NULL) {
		free(k->label);
		free(k->games);
		free(k->flips);
		return NULL;
	}
	return &c->list[c->n++];
}

/* A record's collection: its folder, or the archive (and the folder in it) it came from. */
static int
collection_index(struct report *r, const char *file)
{
	const char *slash = strrchr(file, '/'), *colon = strrchr(file, ':');
	const char *end = colon != NULL && (slash == NULL || colon > slash) ? colon : slash;
	size_t len = end != NULL ? (size_t)(end - file) : 0;
	struct collection *c;

	for (int i = 0; i < r->ncollections; i++)
		if (strlen(r->collections[i].name) == len &&
		    strncmp(r->collections[i].name, file, len) == 0)
			return i;
	if (r->ncollections == r->cap_collections) {
		int cap = r->cap_collections ? r->cap_collections * 2 : 16;
		struct collection *bigger = realloc(r->collections, (size_t)cap * sizeof(*bigger));

		if (bigger == NULL)
			return -1;
		r->collections = bigger;
		r->cap_collections = cap;
	}
	c = &r->collections[r->ncollections];
	memset(c, 0, sizeof(*c));
	if ((c->name = malloc(len + 2)) == NULL)
		return -1;
	if (len == 0)
		strcpy(c->name, ".");
	else
		memcpy(c->name, file, len), c->name[len] = '\0';
	return r->ncollections++;
}

/* The century of a record's date ("1850-03-01", "1814-10-23,1815-02-16"): its first year. */
static void
period_of(const char *date, char *out, size_t size)
{
	for (const char *p = date; p != NULL && *p != '\0'; p++)
		if (strspn(p, "0123456789") == 4 && (p == date || p[-1] < '0' || p[-1] > '9')) {
			int year = atoi(p);

			snprintf(out, size, "%d00s", year / 100);
			return;
		}
	snprintf(out, size, "no date");
}

/* The game's rows, once all of them are in: each ruleset's tallies and each pair's. */
static void
flush_game(struct report *r)
{
	struct category *size, *period;

	if (r->key == NULL)
		return;
	size = category(&r->sizes, r->size);
	period = category(&r->periods, r->period);
	r->games++;
	if (r->collection >= 0)
		r->collections[r->collection].games++;
	for (int i = 0; i < r->ncurrent; i++) {
		const struct game_row *a = &r->current[i];

		if (!a->scored)
			continue;
		for (int j = 0; j < r->ncurrent; j++) {
			const struct game_row *b = &r->current[j];
			int lo = a->ruleset < b->ruleset ? a->ruleset : b->ruleset;
			int hi = a->ruleset < b->ruleset ? b->ruleset : a->ruleset;
			struct pair_stats *p = &r->pairs[lo * MAX_RULESETS + hi];
			double d;
			int bin;

			/* Each pair once, in the order the rulesets first came. */
			if (!b->scored || a->ruleset != lo || b->ruleset != hi || lo == hi)
				continue;
			d = b->margin - a->margin;
			if (p->hist == NULL && (p->hist = calloc(HIST_BINS, sizeof(*p->hist))) == NULL)
				continue;
			if (p->games == 0 || d < p->min)
				p->min = d;
			if (p->games == 0 || d > p->max)
				p->max = d;
			p->games++;
			p->sum += d;
			p->sumsq += d * d;
			p->same += fabs(d) < 0.01;
			bin = (int)lround(d * 2);
			bin = bin < -HIST_HALF ? -HIST_HALF : bin > HIST_HALF ? HIST_HALF : bin;
			p->hist[bin + HIST_HALF]++;
			p->flips += a->winner != b->winner;
			if (size != NULL) {
				size->games[lo * MAX_RULESETS + hi]++;
				size->flips[lo * MAX_RULESETS + hi] += a->winner != b->winner;
			}
			if (period != NULL) {
				period->games[lo * MAX_RULESETS + hi]++;
				period->flips[lo * MAX_RULESETS + hi] += a->winner != b->winner;
			}
		}
	}
	free(r->key);
	r->key = NULL;
	r->ncurrent = 0;
}

void
report_add(struct report *r, const json_t *row)
{
	const char *file = json_string_value(json_object_get(row, "file"));
	const char *ruleset = json_string_value(json_object_get(row, "ruleset"));
	const char *winner = json_string_value(json_object_get(row, "winner"));
	const char *agrees = json_string_value(json_object_get(row, "agrees"));
	const json_t *tree = json_object_get(row, "tree");
	char key[4096];
	int rs;

	r->rows++;
	/* A record that could not be read at all names no ruleset: no game to tally. */
	if (file == NULL || ruleset == NULL || (rs = ruleset_index(r, ruleset)) < 0)
		return;
	snprintf(key, sizeof(key), "%s\n%lld", file, json_is_integer(tree) ?
	    (long long)json_integer_value(tree) : -1LL);
	if (r->key == NULL || strcmp(r->key, key) != 0) {
		const json_t *w = json_object_get(row, "width"), *h = json_object_get(row, "height");

		flush_game(r);
		r->key = strdup(key);
		if (json_is_integer(w) && json_is_integer(h))
			snprintf(r->size, sizeof(r->size), "%lldx%lld", (long long)json_integer_value(w),
			    (long long)json_integer_value(h));
		else
			snprintf(r->size, sizeof(r->size), "no size");
		period_of(json_string_value(json_object_get(row, "date")), r->period,
		    sizeof(r->period));
		r->collection = collection_index(r, file);
	}
	if (r->ncurrent < MAX_RULESETS) {
		struct game_row *g = &r->current[r->ncurrent++];
		struct ruleset_stats *s = &r->rulesets[rs];

		g->ruleset = rs;
		g->scored = winner != NULL;
		g->margin = json_number_value(json_object_get(row, "margin"));
		g->winner = winner == NULL ? WIN_NONE : strcmp(winner, "B") == 0 ? WIN_B :
		    strcmp(winner, "W") == 0 ? WIN_W : strcmp(winner, "draw") == 0 ? WIN_DRAW :
		    WIN_NONE;
		g->agree = agrees == NULL ? AGREE_NONE : strcmp(agrees, "exact") == 0 ? AGREE_EXACT :
		    strcmp(agrees, "winner") == 0 ? AGREE_WINNER : AGREE_NO;
		if (!g->scored) {
			s->errors++;
			return;
		}
		s->results++;
		s->wins[g->winner]++;
		s->agree[g->agree]++;
		if (r->collection >= 0 && g->agree != AGREE_NONE) {
			struct collection *c = &r->collections[r->collection];

			c->counted[rs]++;
			c->exact[rs] += g->agree == AGREE_EXACT;
			c->winner[rs] += g->agree != AGREE_NO;
		}
	}
}

bool
report_add_line(struct report *r, const char *line, size_t len)
{
	json_t *row = json_loadb(line, len, 0, NULL);

	if (!json_is_object(row)) {
		json_decref(row);
		r->bad_lines++;
		return false;
	}
	report_add(r, row);
	json_decref(row);
	return true;
}

/* The part of the collections' names that all share, up to a '/', left out when shown. */
static size_t
common_prefix(const struct report *r)
{
	size_t n;

	if (r->ncollections < 2)
		return 0;
	n = strlen(r->collections[0].name);
	for (int i = 1; i < r->ncollections; i++) {
		size_t k = 0;

		while (k < n && r->collections[i].name[k] == r->collections[0].name[k])
			k++;
		n = k;
	}
	while (n > 0 && r->collections[0].name[n - 1] != '/')
		n--;
	/* Not the whole of any name. */
	for (int i = 0; i < r->ncollections; i++)
		if (strlen(r->collections[i].name) <= n)
			return 0;
	return n;
}

/* Categories in their natural order: board sizes by width then height, periods by year;
 * "no size" and "no date" last. */
static int
category_order(const void *a, const void *b)
{
	const char *x = ((const struct category *)a)->label, *y = ((const struct category *)b)->label;
	bool nx = x[0] < '0' || x[0] > '9', ny = y[0] < '0' || y[0] > '9';
	long wx, wy;

	if (nx || ny)
		return nx - ny;
	wx = strtol(x, NULL, 10);
	wy = strtol(y, NULL, 10);
	if (wx != wy)
		return wx < wy ? -1 : 1;
	return strcmp(x, y);
}

static void
sort_categories(struct report *r)
{
	/* An empty report has no lists at all. */
	if (r->sizes.n > 1)
		qsort(r->sizes.list, (size_t)r->sizes.n, sizeof(*r->sizes.list), category_order);
	if (r->periods.n > 1)
		qsort(r->periods.list, (size_t)r->periods.n, sizeof(*r->periods.list),
		    category_order);
}

/* The width of the collections' column: the longest name shown, within reason. */
static int
collection_width(const struct report *r, size_t prefix)
{
	int w = 10;

	for (int i = 0; i < r->ncollections; i++)
		if ((int)(strlen(r->collections[i].name) - prefix) > w)
			w = (int)(strlen(r->collections[i].name) - prefix);
	return w > 60 ? 60 : w;
}

static double
pct(long part, long whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0;
}

/* The median of a pair's differences from its half-point histogram (exact within 200 points). */
static double
median(const struct pair_stats *p)
{
	long seen = 0, half = (p->games + 1) / 2;

	for (int i = 0; i < HIST_BINS; i++)
		if ((seen += p->hist[i]) >= half)
			return (i - HIST_HALF) / 2.0;
	return 0;
}

static void
print_categories(const struct report *r, const struct categories *c, const char *title, FILE *f)
{
	fprintf(f, "\n%s (games whose winner changes, of the games both rulesets scored)\n", title);
	fprintf(f, "%-28s", "rulesets");
	for (int k = 0; k < c->n; k++)
		fprintf(f, " %18s", c->list[k].label);
	fputc('\n', f);
	for (int a = 0; a < r->nrulesets; a++)
		for (int b = a + 1; b < r->nrulesets; b++) {
			char pair[64];

			if (r->pairs[a * MAX_RULESETS + b].games == 0)
				continue;
			snprintf(pair, sizeof(pair), "%s/%s", r->rulesets[a].name, r->rulesets[b].name);
			fprintf(f, "%-28s", pair);
			for (int k = 0; k < c->n; k++) {
				long g = c->list[k].games[a * MAX_RULESETS + b];
				long fl = c->list[k].flips[a * MAX_RULESETS + b];
				char cell[40];

				if (g == 0)
					snprintf(cell, sizeof(cell), "-");
				else
					snprintf(cell, sizeof(cell), "%ld/%ld %.1f%%", fl, g, pct(fl, g));
				fprintf(f, " %18s", cell);
			}
			fputc('\n', f);
		}
}

void
report_print(struct report *r, FILE *f)
{
	size_t prefix;
	int width;

	flush_game(r);
	sort_categories(r);
	fprintf(f, "%ld games, %ld result rows\n", r->games, r->rows);
	if (r->bad_lines > 0)
		fprintf(f, "%ld lines were not result rows and were left out\n", r->bad_lines);
	fprintf(f, "\nrulesets (agreement with the recorded result, of the games that record one)\n");
	fprintf(f, "%-16s %7s %7s %7s %6s %7s %14s %14s %7s\n", "ruleset", "games", "B wins",
	    "W wins", "draws", "errors", "exact", "same winner", "no RE");
	for (int i = 0; i < r->nrulesets; i++) {
		const struct ruleset_stats *s = &r->rulesets[i];
		long counted = s->agree[AGREE_EXACT] + s->agree[AGREE_WINNER] + s->agree[AGREE_NO];
		char exact[32], winner[32];

		snprintf(exact, sizeof(exact), "%ld %.1f%%", s->agree[AGREE_EXACT],
		    pct(s->agree[AGREE_EXACT], counted));
		snprintf(winner, sizeof(winner), "%ld %.1f%%", s->agree[AGREE_EXACT] +
		    s->agree[AGREE_WINNER], pct(s->agree[AGREE_EXACT] + s->agree[AGREE_WINNER],
		    counted));
		fprintf(f, "%-16s %7ld %7ld %7ld %6ld %7ld %14s %14s %7ld\n", s->name, s->results,
		    s->wins[WIN_B], s->wins[WIN_W], s->wins[WIN_DRAW], s->errors, exact, winner,
		    s->agree[AGREE_NONE]);
	}
	fprintf(f, "\nruleset pairs A/B (margin difference B - A in points, Black's margins)\n");
	fprintf(f, "%-28s %7s %17s %9s %7s %7s %7s %8s %7s\n", "rulesets", "games",
	    "winner changes", "same", "mean", "sd", "median", "min", "max");
	for (int a = 0; a < r->nrulesets; a++)
		for (int b = a + 1; b < r->nrulesets; b++) {
			const struct pair_stats *p = &r->pairs[a * MAX_RULESETS + b];
			double mean, sd;
			char pair[64], flips[32];

			if (p->games == 0)
				continue;
			mean = p->sum / (double)p->games;
			sd = sqrt(fmax(0, p->sumsq / (double)p->games - mean * mean));
			snprintf(pair, sizeof(pair), "%s/%s", r->rulesets[a].name, r->rulesets[b].name);
			snprintf(flips, sizeof(flips), "%ld %.1f%%", p->flips, pct(p->flips, p->games));
			fprintf(f, "%-28s %7ld %17s %9ld %+7.2f %7.2f %+7.1f %+8.1f %+7.1f\n", pair,
			    p->games, flips, p->same, mean, sd, median(p), p->min, p->max);
		}
	print_categories(r, &r->sizes, "winner changes by board size", f);
	print_categories(r, &r->periods, "winner changes by period (the record's date)", f);
	prefix = common_prefix(r);
	width = collection_width(r, prefix);
	fprintf(f, "\nagreement with the record by collection (exact / same winner, %% of the games "
	    "that record a result)\n");
	fprintf(f, "%-*s %6s", width, "collection", "games");
	for (int i = 0; i < r->nrulesets; i++)
		fprintf(f, " %13.13s", r->rulesets[i].name);
	fputc('\n', f);
	for (int c = 0; c < r->ncollections; c++) {
		const struct collection *col = &r->collections[c];

		fprintf(f, "%-*.*s %6ld", width, width, col->name + prefix, col->games);
		for (int i = 0; i < r->nrulesets; i++) {
			char cell[32];

			if (col->counted[i] == 0)
				snprintf(cell, sizeof(cell), "-");
			else
				snprintf(cell, sizeof(cell), "%.0f / %.0f", pct(col->exact[i],
				    col->counted[i]), pct(col->winner[i], col->counted[i]));
			fprintf(f, " %13s", cell);
		}
		fputc('\n', f);
	}
}

/* ---- SVG ---- */

/* Text as XML character data or an attribute's value, as the pictures escape it. */
static void
svg_text(FILE *f, const char *s)
{
	struct sht_text t;

	sht_text_init(&t, 0);
	sht_svg_escaped(&t, s);
	if (!t.failed && t.len > 0)
		fwrite(t.s, 1, t.len, f);
	sht_text_free(&t);
}

enum { PANEL_W = 230, PANEL_H = 150, PANELS_A_ROW = 4, MARGIN = 20, HIST_RANGE = 20 };

/* One pair's histogram, differences from -HIST_RANGE to +HIST_RANGE points a bar a point (the
 * end bars hold everything beyond), at (x, y). */
static void
svg_histogram(FILE *f, const struct report *r, int a, int b, int x, int y)
{
	const struct pair_stats *p = &r->pairs[a * MAX_RULESETS + b];
	long bars[2 * HIST_RANGE + 1] = { 0 }, top = 1;
	int plot_x = x + 30, plot_w = PANEL_W - 40, plot_y = y + 28, plot_h = PANEL_H - 58;
	double bar_w = (double)plot_w / (2 * HIST_RANGE + 1);

	for (int i = 0; i < HIST_BINS; i++) {
		/* A half-point difference joins the bar of the point below it. */
		int point = (int)floor((i - HIST_HALF) / 2.0);

		point = point < -HIST_RANGE ? -HIST_RANGE : point > HIST_RANGE ? HIST_RANGE : point;
		bars[point + HIST_RANGE] += p->hist[i];
	}
	for (int i = 0; i <= 2 * HIST_RANGE; i++)
		if (bars[i] > top)
			top = bars[i];
	fprintf(f, "<g>\n<text x=\"%d\" y=\"%d\" class=\"t\">", x + 4, y + 12);
	svg_text(f, r->rulesets[b].name);
	fputs(" \xe2\x88\x92 ", f);
	svg_text(f, r->rulesets[a].name);
	fprintf(f, "</text>\n<text x=\"%d\" y=\"%d\" class=\"s\">%ld games, winner changes in %ld "
	    "(%.1f%%)</text>\n", x + 4, y + 24, p->games, p->flips, pct(p->flips, p->games));
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" class=\"frame\"/>\n", plot_x,
	    plot_y, plot_w, plot_h);
	for (int i = 0; i <= 2 * HIST_RANGE; i++) {
		double h = (double)plot_h * (double)bars[i] / (double)top;

		if (bars[i] == 0)
			continue;
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" class=\"%s\">"
		    "<title>%+d: %ld</title></rect>\n", plot_x + i * bar_w, plot_y + plot_h - h,
		    bar_w * 0.9, h, i == HIST_RANGE ? "zero" : i == 0 || i == 2 * HIST_RANGE ? "end" :
		    "bar", i - HIST_RANGE, bars[i]);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"s\">%ld</text>\n", x + 2, plot_y + 9, top);
	for (int v = -HIST_RANGE; v <= HIST_RANGE; v += 10)
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"s\" text-anchor=\"middle\">%+d</text>\n",
		    plot_x + (v + HIST_RANGE + 0.5) * bar_w, plot_y + plot_h + 12, v);
	fputs("</g>\n", f);
}

/* A grid of cells, one row per label and one column per heading, each a share drawn as the
 * shade of its cell with its text; returns the height used. */
struct grid {
	const char *title;
	int nrows, ncols;
	const char *(*row)(const void *ctx, int i);
	const char *(*col)(const void *ctx, int j);
	/* The share (0 to 1, negative for none) and the cell's text. */
	double (*cell)(const void *ctx, int i, int j, char *text, size_t size);
	const void *ctx;
};

static int
svg_grid(FILE *f, const struct grid *g, int y)
{
	enum { LABEL_W = 230, CELL_W = 96, CELL_H = 18, LABEL_CHARS = 40 };

	fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"h\">", MARGIN, y + 14);
	svg_text(f, g->title);
	fputs("</text>\n", f);
	y += 24;
	for (int j = 0; j < g->ncols; j++) {
		fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"s\" text-anchor=\"middle\">",
		    MARGIN + LABEL_W + j * CELL_W + CELL_W / 2, y + 12);
		svg_text(f, g->col(g->ctx, j));
		fputs("</text>\n", f);
	}
	y += CELL_H;
	for (int i = 0; i < g->nrows; i++, y += CELL_H) {
		const char *label = g->row(g->ctx, i);
		size_t len = strlen(label);

		fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"s\">", MARGIN, y + 13);
		/* A long name keeps its end, which tells collections apart, after an ellipsis
		 * (not in the middle of a UTF-8 character); the whole name is its tooltip. */
		if (len > LABEL_CHARS) {
			const char *tail = label + len - LABEL_CHARS;

			while ((*tail & 0xc0) == 0x80)
				tail++;
			fputs("<title>", f);
			svg_text(f, label);
			fputs("</title>\xe2\x80\xa6", f);
			label = tail;
		}
		svg_text(f, label);
		fputs("</text>\n", f);
		for (int j = 0; j < g->ncols; j++) {
			char text[48] = "";
			double v = g->cell(g->ctx, i, j, text, sizeof(text));
			int cx = MARGIN + LABEL_W + j * CELL_W;

			if (v >= 0)
				fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
				    "fill=\"rgb(%d,%d,%d)\"/>\n", cx, y, CELL_W - 2, CELL_H - 2,
				    255 - (int)(v * 175), 255 - (int)(v * 120), 255 - (int)(v * 40));
			fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"s\" text-anchor=\"middle\">", cx +
			    CELL_W / 2, y + 13);
			svg_text(f, text);
			fputs("</text>\n", f);
		}
	}
	return y + 16;
}

/* The grids' rows and columns: ruleset pairs against categories, collections against
 * rulesets. */
struct pair_grid {
	const struct report *r;
	const struct categories *c;
	int pairs[MAX_RULESETS * MAX_RULESETS][2];
	char labels[MAX_RULESETS * MAX_RULESETS][64];
	int npairs;
	double max_share;
};

static const char *
pair_row(const void *ctx, int i)
{
	return ((const struct pair_grid *)ctx)->labels[i];
}

static const char *
category_col(const void *ctx, int j)
{
	return ((const struct pair_grid *)ctx)->c->list[j].label;
}

static double
pair_cell(const void *ctx, int i, int j, char *text, size_t size)
{
	const struct pair_grid *g = ctx;
	int k = g->pairs[i][0] * MAX_RULESETS + g->pairs[i][1];
	long games = g->c->list[j].games[k], flips = g->c->list[j].flips[k];

	if (games == 0)
		return -1;
	snprintf(text, size, "%ld/%ld (%.1f%%)", flips, games, pct(flips, games));
	return g->max_share > 0 ? (double)flips / (double)games / g->max_share : 0;
}

struct collection_grid {
	const struct report *r;
	size_t prefix;
};

static const char *
collection_row(const void *ctx, int i)
{
	const struct collection_grid *g = ctx;

	return g->r->collections[i].name + g->prefix;
}

static const char *
ruleset_col(const void *ctx, int j)
{
	return ((const struct collection_grid *)ctx)->r->rulesets[j].name;
}

static double
collection_cell(const void *ctx, int i, int j, char *text, size_t size)
{
	const struct collection *c = &((const struct collection_grid *)ctx)->r->collections[i];

	if (c->counted[j] == 0)
		return -1;
	snprintf(text, size, "%.0f%% / %.0f%%", pct(c->exact[j], c->counted[j]),
	    pct(c->winner[j], c->counted[j]));
	return (double)c->winner[j] / (double)c->counted[j];
}

static void
pair_grid_fill(struct pair_grid *g, const struct report *r, const struct categories *c)
{
	g->r = r;
	g->c = c;
	g->npairs = 0;
	g->max_share = 0;
	for (int a = 0; a < r->nrulesets; a++)
		for (int b = a + 1; b < r->nrulesets; b++) {
			if (r->pairs[a * MAX_RULESETS + b].games == 0)
				continue;
			g->pairs[g->npairs][0] = a;
			g->pairs[g->npairs][1] = b;
			snprintf(g->labels[g->npairs], sizeof(g->labels[0]), "%s / %s",
			    r->rulesets[a].name, r->rulesets[b].name);
			for (int k = 0; k < c->n; k++) {
				long games = c->list[k].games[a * MAX_RULESETS + b];

				if (games > 0 && (double)c->list[k].flips[a * MAX_RULESETS + b] /
				    (double)games > g->max_share)
					g->max_share = (double)c->list[k].flips[a * MAX_RULESETS + b] /
					    (double)games;
			}
			g->npairs++;
		}
}

bool
report_svg(struct report *r, FILE *f)
{
	struct pair_grid *pg = malloc(sizeof(*pg));
	struct collection_grid cg = { r, 0 };
	int npairs = 0, rows, width, height, y;
	char title[128];

	if (pg == NULL)
		return false;
	flush_game(r);
	sort_categories(r);
	for (int a = 0; a < r->nrulesets; a++)
		for (int b = a + 1; b < r->nrulesets; b++)
			npairs += r->pairs[a * MAX_RULESETS + b].games > 0;
	rows = (npairs + PANELS_A_ROW - 1) / PANELS_A_ROW;
	pair_grid_fill(pg, r, &r->sizes);
	width = 2 * MARGIN + PANELS_A_ROW * PANEL_W;
	if (width < 2 * MARGIN + 230 + 96 * (r->nrulesets > r->sizes.n ? r->nrulesets :
	    r->sizes.n))
		width = 2 * MARGIN + 230 + 96 * (r->nrulesets > r->sizes.n ? r->nrulesets :
		    r->sizes.n);
	if (width < 2 * MARGIN + 230 + 96 * r->periods.n)
		width = 2 * MARGIN + 230 + 96 * r->periods.n;
	height = 60 + rows * PANEL_H + 3 * 60 + 18 * (2 * pg->npairs + r->ncollections) + 40;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" "
	    "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n"
	    "<style type=\"text/css\">.t{font-size:12px;font-weight:bold}.s{font-size:10px}"
	    ".h{font-size:15px;"
	    "font-weight:bold}.frame{fill:none;stroke:#999}.bar{fill:#4a6fa5}.zero{fill:#c0504d}"
	    ".end{fill:#9b9b9b}</style>\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
	    width, height, width, height);
	snprintf(title, sizeof(title), "Margin differences between rulesets, in points (%ld games; "
	    "grey: beyond \xc2\xb1%d; red: none)", r->games, HIST_RANGE);
	fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"h\">", MARGIN, 30);
	svg_text(f, title);
	fputs("</text>\n", f);
	y = 44;
	for (int a = 0, k = 0; a < r->nrulesets; a++)
		for (int b = a + 1; b < r->nrulesets; b++) {
			if (r->pairs[a * MAX_RULESETS + b].games == 0)
				continue;
			svg_histogram(f, r, a, b, MARGIN + (k % PANELS_A_ROW) * PANEL_W,
			    y + (k / PANELS_A_ROW) * PANEL_H);
			k++;
		}
	y += rows * PANEL_H + 10;
	y = svg_grid(f, &(struct grid){ "Winner changes by board size", pg->npairs, r->sizes.n,
	    pair_row, category_col, pair_cell, pg }, y);
	pair_grid_fill(pg, r, &r->periods);
	y = svg_grid(f, &(struct grid){ "Winner changes by period (the record's date)", pg->npairs,
	    r->periods.n, pair_row, category_col, pair_cell, pg }, y);
	cg.prefix = common_prefix(r);
	svg_grid(f, &(struct grid){ "Agreement with the recorded result by collection (exact / same "
	    "winner)", r->ncollections, r->nrulesets, collection_row, ruleset_col, collection_cell,
	    &cg }, y);
	fputs("</svg>\n", f);
	free(pg);
	return !ferror(f);
}
