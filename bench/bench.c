/* The engine benchmark (run on request): moves per second, area maps per second, SGF MB/s, the
 * dead-stone judge and the settle step on real games, and their count through the host in both
 * modes. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "host.h"
#include "shoutan/area.h"
#include "shoutan/board.h"
#include "shoutan/dead.h"
#include "shoutan/settle.h"
#include "shoutan/sgf.h"

#define GAMES 2000
#define MAX_GAME_MOVES 1200

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint32_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)rng;
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A point whose neighbours are all the mover's stones or the edge: filling it is pointless and
 * would keep random games from ending. */
static int
is_own_eye(const struct sht_board *b, int p, enum sht_color c, const int offs[4])
{
	for (int d = 0; d < 4; d++) {
		enum sht_color n = sht_board_at(b, p + offs[d]);

		if (n != c && n != SHT_OFFBOARD)
			return 0;
	}
	return 1;
}

struct game {
	int n;
	int moves[MAX_GAME_MOVES];
};

/* Plays a random game to its end (two passes) and records it. */
static void
random_game(struct sht_board *b, struct game *g)
{
	int offs[4], points[SHT_MAX_SIZE * SHT_MAX_SIZE], npoints = 0, passes = 0;

	sht_board_clear(b);
	sht_board_neighbor_offsets(b, offs);
	for (int y = 0; y < sht_board_height(b); y++)
		for (int x = 0; x < sht_board_width(b); x++)
			points[npoints++] = sht_board_point(b, x, y);
	g->n = 0;
	while (passes < 2 && g->n < MAX_GAME_MOVES) {
		enum sht_color c = sht_board_to_move(b);
		int start = (int)(rnd() % (uint32_t)npoints), chosen = SHT_PASS;

		for (int k = 0; k < npoints; k++) {
			int p = points[(start + k) % npoints];

			if (sht_board_at(b, p) == SHT_EMPTY && !is_own_eye(b, p, c, offs) &&
			    sht_board_check(b, c, p, NULL) == SHT_LEGAL) {
				chosen = p;
				break;
			}
		}
		sht_board_play(b, c, chosen, NULL);
		g->moves[g->n++] = chosen;
		passes = chosen == SHT_PASS ? passes + 1 : 0;
	}
}

static double
replay_rate(struct sht_board *b, const struct game *games, int ngames, int rounds)
{
	long total = 0;
	double t0 = now();

	for (int r = 0; r < rounds; r++)
		for (int i = 0; i < ngames; i++) {
			enum sht_color c = SHT_BLACK;

			sht_board_clear(b);
			for (int k = 0; k < games[i].n; k++) {
				if (sht_board_play(b, c, games[i].moves[k], NULL) != SHT_LEGAL) {
					fprintf(stderr, "replay diverged\n");
					exit(1);
				}
				c = SHT_OTHER(c);
			}
			total += games[i].n;
		}
	return (double)total / (now() - t0);
}

static double
moves_rate(enum sht_ko_rule ko, bool track, struct game *games, struct sht_board **final)
{
	struct sht_board_options o;
	struct sht_board *b;
	double rate;

	sht_board_options_init(&o, 19, 19);
	o.ko = ko;
	o.track_history = track;
	b = sht_board_new(&o);
	for (int i = 0; i < GAMES; i++)
		random_game(b, &games[i]);
	rate = replay_rate(b, games, GAMES, 5);
	if (final != NULL) {
		for (int i = 0; i < GAMES; i++) {
			enum sht_color c = SHT_BLACK;

			final[i] = sht_board_new(&o);
			for (int k = 0; k < games[i].n; k++, c = SHT_OTHER(c))
				sht_board_play(final[i], c, games[i].moves[k], NULL);
		}
	}
	sht_board_free(b);
	return rate;
}

struct file {
	char *data;
	size_t len;
	char *path;
};

static void
collect(const char *dir, struct file **files, int *n, int *cap, size_t *bytes)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		char path[4096];
		struct stat st;
		size_t len = strlen(e->d_name);

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (stat(path, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			collect(path, files, n, cap, bytes);
		} else if (len > 4 && strcmp(e->d_name + len - 4, ".sgf") == 0) {
			FILE *f = fopen(path, "rb");

			if (f == NULL)
				continue;
			if (*n == *cap) {
				*cap = *cap ? *cap * 2 : 256;
				*files = realloc(*files, sizeof(**files) * (size_t)*cap);
			}
			(*files)[*n].data = malloc((size_t)st.st_size + 1);
			(*files)[*n].path = strdup(path);
			(*files)[*n].len = fread((*files)[*n].data, 1, (size_t)st.st_size, f);
			*bytes += (*files)[*n].len;
			(*n)++;
			fclose(f);
		}
	}
	closedir(d);
}

/* Records judged per kind: one judgement each at the library's level; through the host, the
 * default mode and the thorough one (up to nine counts, most of a second on a slow record). */
#define JUDGED_ONCE 2000
#define SCORED_AUTO 300
#define SCORED_THOROUGH 40

static int
compare_ms(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* One line of figures for the records of one kind: ms[] sorted in place; `extra` is what else
 * the line reports (playouts, the settle step, counts); the slowest record is named, as the
 * place to look next. */
static void
print_timed(const char *what, const char *kind, double *ms, int n, const char *extra,
    const char *slowest)
{
	double total = 0;
	int over = 0;

	if (n == 0) {
		printf("%s_19x19_%s_ms: skipped (no such 19x19 records of 150+ moves)\n", what, kind);
		return;
	}
	qsort(ms, (size_t)n, sizeof(*ms), compare_ms);
	for (int i = 0; i < n; i++) {
		total += ms[i];
		over += ms[i] > 20.0;
	}
	printf("%s_19x19_%s_ms: mean %.1f, median %.1f, p90 %.1f, worst %.1f, over 20 ms %d, %s "
	    "(%d games; slowest %s)\n", what, kind, total / n, ms[n / 2], ms[n * 9 / 10], ms[n - 1],
	    over, extra, n, slowest);
}

/* The corpus's 19x19 records of more than 150 moves, replayed under the japanese ruleset, by
 * kind: [1] those that end by two passes (finished: the regression games), [0] the others
 * (unfinished: the Edo-period books stop before the end), as their figures differ and the 20 ms
 * target is for a finished position. */
struct real_games {
	struct sht_replay *replays[2];
	const char **paths[2];
	int n[2];
};

static void
load_real_games(const struct sht_ruleset *rs, const struct file *files, int nfiles, int want,
    struct real_games *rg)
{
	for (int k = 0; k < 2; k++) {
		rg->replays[k] = calloc((size_t)want, sizeof(struct sht_replay));
		rg->paths[k] = calloc((size_t)want, sizeof(char *));
	}
	for (int i = 0; i < nfiles && (rg->n[0] < want || rg->n[1] < want); i++) {
		struct sht_game game;
		struct sht_replay r;
		struct sht_error err;
		int kind;

		if (!sht_game_from_sgf(files[i].data, files[i].len, 0, &game, &err))
			continue;
		if (game.g.width != 19 || game.g.height != 19 || game.g.nmoves <= 150 ||
		    !sht_judge_replay(rs, &game, NULL, &r, &err)) {
			sht_game_free(&game);
			continue;
		}
		sht_game_free(&game);
		kind = sht_board_consecutive_passes(r.board) >= 2;
		if (rg->n[kind] < want) {
			rg->paths[kind][rg->n[kind]] = files[i].path;
			rg->replays[kind][rg->n[kind]++] = r;
		} else {
			sht_replay_free(&r);
		}
	}
}

/*
 * One judgement and the settle step (territory counting), at the library's level, timed per
 * record, with the playouts the verdict took: what dead: "auto" does once.  Then the whole
 * count through the host (sht_judge_score, as a `score` request runs it) in both modes:
 * "auto", which counts a finished game once and a record that stopped before the end two or
 * three times, and "auto-thorough", three to nine counts.  For each: the mean, the median, the
 * 90th percentile and the worst record, how many took over 20 ms.
 */
static void
judge_real_games(const struct file *files, int nfiles)
{
	static const char *const kinds[2] = { "unfinished", "finished" };
	const char *plugins, *rulesets;
	char why[256];
	struct sht_registry *reg;
	const struct sht_ruleset *rs;
	struct real_games rg = { { NULL, NULL }, { NULL, NULL }, { 0, 0 } };

	sht_default_dirs(&plugins, &rulesets);
	if ((reg = sht_registry_load(plugins, rulesets, why, sizeof(why))) == NULL ||
	    (rs = sht_registry_find(reg, "japanese")) == NULL) {
		printf("dead_19x19_ms: skipped (no rulesets: %s)\n", reg == NULL ? why : "no japanese");
		sht_registry_free(reg);
		return;
	}
	load_real_games(rs, files, nfiles, JUDGED_ONCE, &rg);
	for (int k = 1; k >= 0; k--) {
		double *ms = malloc(sizeof(double) * (size_t)(rg.n[k] + 1)), worst = 0, settle = 0;
		const char *slowest = "-";
		long playouts = 0;
		char extra[96];

		for (int i = 0; i < rg.n[k]; i++) {
			const struct sht_board *b = rg.replays[k][i].board;
			int points = sht_board_capacity(b);
			uint8_t *dead = calloc((size_t)points, 1), *unsure = calloc((size_t)points, 1);
			uint8_t *owner = calloc((size_t)points, 1);
			uint16_t *conf = calloc((size_t)points, sizeof(uint16_t));
			struct sht_dead_result res = { dead, unsure, owner, conf, NULL, 0 };
			struct sht_dead_options opt = { 0, 0, true, false };
			struct sht_settle_options so = { .counting = SHT_SETTLE_TERRITORY,
				.owner = owner, .confidence = conf, .finished = k == 1 };
			struct sht_settle_result sr;
			double t = now(), t1;

			sht_dead_judge(b, &opt, &res);
			t1 = now();
			if (sht_settle(b, dead, &so, &sr))
				sht_settle_result_free(&sr);
			settle += (now() - t1) * 1e3;
			ms[i] = (now() - t) * 1e3;
			playouts += res.playouts;
			if (ms[i] > worst) {
				worst = ms[i];
				slowest = rg.paths[k][i];
			}
			if (k == 1 && ms[i] > 20.0)
				printf("judgement_19x19_finished_over_20ms: %s (%.1f ms)\n",
				    rg.paths[k][i], ms[i]);
			free(dead);
			free(unsure);
			free(owner);
			free(conf);
		}
		snprintf(extra, sizeof(extra), "playouts %.0f, settle step %.2f",
		    rg.n[k] ? (double)playouts / rg.n[k] : 0, rg.n[k] ? settle / rg.n[k] : 0);
		print_timed("judgement", kinds[k], ms, rg.n[k], extra, slowest);
		free(ms);
	}
	for (int thorough = 0; thorough < 2; thorough++)
		for (int k = 1; k >= 0; k--) {
			int n = rg.n[k] < (thorough ? SCORED_THOROUGH : SCORED_AUTO) ? rg.n[k] :
			    (thorough ? SCORED_THOROUGH : SCORED_AUTO);
			double *ms = malloc(sizeof(double) * (size_t)(n + 1)), worst = 0;
			const char *slowest = "-";
			long counts = 0;
			char extra[64];

			for (int i = 0; i < n; i++) {
				struct sht_dead_spec spec = { .mode = SHT_DEAD_AUTO, .thorough = thorough };
				struct sht_score_report rep;
				struct sht_error err;
				double t = now();

				ms[i] = 0;
				if (!sht_judge_score(rs, &rg.replays[k][i], &spec, &rep, &err))
					continue;
				ms[i] = (now() - t) * 1e3;
				counts += rep.counts;
				sht_score_report_free(&rep);
				if (ms[i] > worst) {
					worst = ms[i];
					slowest = rg.paths[k][i];
				}
			}
			snprintf(extra, sizeof(extra), "counts %.2f", n ? (double)counts / n : 0);
			print_timed(thorough ? "score_auto_thorough" : "score_auto", kinds[k], ms, n,
			    extra, slowest);
			free(ms);
		}
	for (int k = 0; k < 2; k++) {
		for (int i = 0; i < rg.n[k]; i++)
			sht_replay_free(&rg.replays[k][i]);
		free(rg.replays[k]);
		free(rg.paths[k]);
	}
	sht_registry_free(reg);
}

int
main(int argc, char **argv)
{
	static struct game games[GAMES];
	struct sht_board **final = calloc(GAMES, sizeof(*final));
	const char *corpus = argc > 1 ? argv[1] : "../shared/corpus";
	struct file *files = NULL;
	int nfiles = 0, cap = 0, rounds;
	size_t bytes = 0;
	long maps = 0, total_moves = 0;
	double t0, elapsed, sink = 0;

	printf("moves_per_s_simple_ko: %.0f\n", moves_rate(SHT_KO_SIMPLE, false, games, NULL));
	printf("moves_per_s_simple_ko_with_cycle_detection: %.0f\n",
	    moves_rate(SHT_KO_SIMPLE, true, games, NULL));
	printf("moves_per_s_superko: %.0f\n", moves_rate(SHT_KO_POSITIONAL, true, games, final));
	for (int i = 0; i < GAMES; i++)
		total_moves += games[i].n;
	printf("random_game_mean_moves: %.1f\n", (double)total_moves / GAMES);

	t0 = now();
	do {
		for (int i = 0; i < GAMES; i++) {
			struct sht_area a;

			sht_area_compute(final[i], NULL, &a);
			sink += a.black_territory - a.white_territory;
		}
		maps += GAMES;
		elapsed = now() - t0;
	} while (elapsed < 2.0);
	printf("area_maps_per_s: %.0f\n", (double)maps / elapsed);

	/* Dead-stone judgement (as many playouts as it takes, up to 256) on the finished random
	 * games. */
	{
		int points = sht_board_capacity(final[0]), judged = 0;
		uint8_t *dead = malloc((size_t)points), *unsure = malloc((size_t)points);
		uint8_t *owner = malloc((size_t)points);
		uint16_t *conf = malloc(sizeof(uint16_t) * (size_t)points);
		struct sht_dead_result res = { dead, unsure, owner, conf, NULL, 0 };
		struct sht_dead_options opt = { 0, 0, false, false };

		t0 = now();
		do {
			sht_dead_judge(final[judged % GAMES], &opt, &res);
			judged++;
			elapsed = now() - t0;
		} while (elapsed < 2.0);
		printf("dead_judge_ms_19x19: %.2f\n", elapsed * 1e3 / judged);
		free(dead);
		free(unsure);
		free(owner);
		free(conf);
	}

	collect(corpus, &files, &nfiles, &cap, &bytes);
	if (nfiles == 0) {
		printf("sgf_mb_per_s: skipped (no .sgf files under %s)\n", corpus);
	} else {
		t0 = now();
		rounds = 0;
		do {
			for (int i = 0; i < nfiles; i++) {
				struct sht_sgf_collection *c = sht_sgf_parse(files[i].data,
				    files[i].len, NULL);
				struct sht_sgf_game g;

				if (c != NULL && sht_sgf_game(c, 0, &g, NULL)) {
					sink += g.nmoves;
					sht_sgf_game_free(&g);
				}
				sht_sgf_free(c);
			}
			rounds++;
			elapsed = now() - t0;
		} while (elapsed < 2.0);
		printf("sgf_mb_per_s: %.1f\n", (double)bytes * rounds / elapsed / 1e6);
		printf("sgf_files: %d (%.1f MB)\n", nfiles, (double)bytes / 1e6);
		judge_real_games(files, nfiles);
	}
	for (int i = 0; i < GAMES; i++)
		sht_board_free(final[i]);
	for (int i = 0; i < nfiles; i++) {
		free(files[i].data);
		free(files[i].path);
	}
	free(files);
	free(final);
	return sink == 0.123 ? 1 : 0;
}
