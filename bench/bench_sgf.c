/* The SGF parse-time benchmark (run on request): each hostile shape at doubling sizes, so a step
 * that is not linear shows as time per byte growing with the size. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "shoutan/sgf.h"

struct text {
	char *s;
	size_t len, cap;
};

static void
append(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
append(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			fprintf(stderr, "shoutan-bench-sgf: vsnprintf failed\n");
			exit(1);
		}
		if ((size_t)n < t->cap - t->len)
			break;
		t->cap = t->cap * 2 + (size_t)n + 1;
		t->s = realloc(t->s, t->cap);
		if (t->s == NULL) {
			fprintf(stderr, "shoutan-bench-sgf: out of memory\n");
			exit(1);
		}
	}
	t->len += (size_t)n;
}

/* The i-th point of a 19x19 board as SGF letters, so values differ from node to node. */
static const char *
point(long i)
{
	static char p[3];

	p[0] = (char)('a' + i % 19);
	p[1] = (char)('a' + i / 19 % 19);
	p[2] = '\0';
	return p;
}

/* n variations of the root, each one move: "(;B[aa])(;B[ba])..." (the 54 s file). */
static void
gen_siblings(struct text *t, long n)
{
	append(t, "(;GM[1]SZ[19]");
	for (long i = 0; i < n; i++)
		append(t, "(;B[%s])", point(i));
	append(t, ")");
}

/* A main line of n moves. */
static void
gen_mainline(struct text *t, long n)
{
	append(t, "(;GM[1]SZ[19]");
	for (long i = 0; i < n; i++)
		append(t, ";%c[%s]", i % 2 ? 'W' : 'B', point(i));
	append(t, ")");
}

/* Variations nested n deep: "(;B[aa](;B[ba](;..." closed at the end. */
static void
gen_nested(struct text *t, long n)
{
	for (long i = 0; i < n; i++)
		append(t, "(;B[%s]", point(i));
	for (long i = 0; i < n; i++)
		append(t, ")");
}

/* A comb: every node of an n-deep line has a one-move side variation before its continuation. */
static void
gen_comb(struct text *t, long n)
{
	for (long i = 0; i < n; i++)
		append(t, "(;B[%s](;W[%s])", point(i), point(i + 1));
	for (long i = 0; i < n; i++)
		append(t, ")");
}

/* One node with n properties (identifiers AA to ZZ, over and over). */
static void
gen_properties(struct text *t, long n)
{
	append(t, "(;GM[1]");
	for (long i = 0; i < n; i++)
		append(t, "%c%c[%ld]", (char)('A' + i / 26 % 26), (char)('A' + i % 26), i % 10);
	append(t, ")");
}

/* One property with n values: AB[aa][ba]... */
static void
gen_values(struct text *t, long n)
{
	append(t, "(;GM[1]SZ[19]AB");
	for (long i = 0; i < n; i++)
		append(t, "[%s]", point(i));
	append(t, ")");
}

/* One comment of 8n bytes, with an escaped ']' and a soft line break in every 8 bytes. */
static void
gen_comment(struct text *t, long n)
{
	append(t, "(;GM[1]C[");
	for (long i = 0; i < n; i++)
		append(t, i % 2 ? "ab\\]cdef" : "abc\\\ndef");
	append(t, "])");
}

/* A collection of n game trees. */
static void
gen_trees(struct text *t, long n)
{
	for (long i = 0; i < n; i++)
		append(t, "(;B[%s])", point(i));
}

/* n repairs: stray words with no value between the moves, each one a warning. */
static void
gen_repairs(struct text *t, long n)
{
	append(t, "(;GM[1]");
	for (long i = 0; i < n; i++)
		append(t, " junk");
	append(t, ";B[aa])");
}

/* n nodes each setting a whole 25x25 board (";AB[aa:yy]"): parsing is linear, and game_s shows
 * extraction stopping at SHT_SGF_MAX_SETUP_POINTS instead of expanding 625 points a node. */
static void
gen_setup(struct text *t, long n)
{
	append(t, "(;GM[1]SZ[25]");
	for (long i = 0; i < n; i++)
		append(t, i % 2 ? ";AE[aa:yy]" : ";AB[aa:yy]");
	append(t, ")");
}

static const struct shape {
	const char *name;
	void (*generate)(struct text *, long);
} shapes[] = {
	{ "siblings", gen_siblings },
	{ "mainline", gen_mainline },
	{ "nested", gen_nested },
	{ "comb", gen_comb },
	{ "properties", gen_properties },
	{ "values", gen_values },
	{ "comment", gen_comment },
	{ "trees", gen_trees },
	{ "repairs", gen_repairs },
	{ "setup", gen_setup },
};

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Seconds one parse takes: the fastest of a few, repeated for at least 0.2 s unless one run
 * alone is slow (then once). */
static double
time_parse(const struct text *t)
{
	double best = 0, spent = 0;

	for (int run = 0; run < 50 && (run < 3 || spent < 0.2); run++) {
		struct sht_sgf_error err;
		double t0 = now(), dt;
		struct sht_sgf_collection *c = sht_sgf_parse(t->s, t->len, &err);

		dt = now() - t0;
		if (c == NULL) {
			fprintf(stderr, "shoutan-bench-sgf: the generated file does not parse: %s\n",
			    err.message);
			exit(1);
		}
		sht_sgf_free(c);
		if (run == 0 || dt < best)
			best = dt;
		spent += dt;
		if (dt > 1.0)
			break;
	}
	return best;
}

/* Seconds for what a request does after the parse: extract the last game tree, and write the
 * collection back (the writer is the other walk over every node). */
static void
time_after_parse(const struct text *t, double *game_s, double *write_s)
{
	struct sht_sgf_collection *c = sht_sgf_parse(t->s, t->len, NULL);
	struct sht_sgf_game g;
	double t0;
	size_t len;
	char *out;

	t0 = now();
	if (sht_sgf_game(c, c->ntrees - 1, &g, NULL))
		sht_sgf_game_free(&g);
	*game_s = now() - t0;
	t0 = now();
	out = sht_sgf_write(c, &len);
	*write_s = now() - t0;
	free(out);
	sht_sgf_free(c);
}

static void
usage(void)
{
	fprintf(stderr, "usage: shoutan-bench-sgf [-t SECONDS] [-n MAX_UNITS] [SHAPE...]\n"
	    "  each shape at 10,000 units doubling up to MAX_UNITS (default 320000); a shape\n"
	    "  stops growing once one parse takes more than SECONDS (default 10)\n  shapes:");
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
		fprintf(stderr, " %s", shapes[i].name);
	fprintf(stderr, "\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	double limit = 10;
	long max_units = 320000;
	int first_shape = 1;

	for (; first_shape < argc && argv[first_shape][0] == '-'; first_shape++) {
		const char *opt = argv[first_shape];

		if (first_shape + 1 >= argc)
			usage();
		if (strcmp(opt, "-t") == 0)
			limit = atof(argv[++first_shape]);
		else if (strcmp(opt, "-n") == 0)
			max_units = atol(argv[++first_shape]);
		else
			usage();
	}
	printf("%-10s %8s %10s %10s %8s %8s %10s %10s\n", "shape", "units", "bytes", "parse_s",
	    "MB/s", "ns/byte", "game_s", "write_s");
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		const struct shape *sh = &shapes[i];
		bool wanted = first_shape >= argc;

		for (int a = first_shape; a < argc; a++)
			wanted |= strcmp(argv[a], sh->name) == 0;
		if (!wanted)
			continue;
		for (long n = 10000; n <= max_units; n *= 2) {
			struct text t = { malloc(4096), 0, 4096 };
			double parse_s, game_s, write_s;

			if (t.s == NULL) {
				fprintf(stderr, "shoutan-bench-sgf: out of memory\n");
				return 1;
			}
			sh->generate(&t, n);
			parse_s = time_parse(&t);
			time_after_parse(&t, &game_s, &write_s);
			printf("%-10s %8ld %10zu %10.4f %8.1f %8.1f %10.4f %10.4f\n", sh->name, n,
			    t.len, parse_s, (double)t.len / parse_s / 1e6, parse_s * 1e9 / (double)t.len,
			    game_s, write_s);
			fflush(stdout);
			free(t.s);
			if (parse_s > limit)
				break;
		}
	}
	return 0;
}
