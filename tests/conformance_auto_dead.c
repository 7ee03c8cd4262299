/*
 * Dead-stone judgement against the real world: every corpus game with a counted result (RE[B+x]
 * or RE[W+x]) is scored under its own rules (RU; Japanese when absent) with dead: auto, and the
 * count is compared with the record.  Prints a table by collection and board size and a total
 * line; it is a measurement, not a pass/fail test, except that no pass-alive chain may be called
 * dead (checked per game) and every game must be scored.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "corpus.h"
#include "host.h"
#include "shoutan/area.h"

struct row {
	char name[96];
	int games, exact, same_winner, unscored;
	int gnugo_exact, gnugo_same_winner, both_exact;
};

/* GNU Go 3.8, when SHOUTAN_GNUGO names it: the same game under the same rules through GTP
 * (loadsgf, final_score).  Its margin in half points and winner, or false. */
static bool
gnugo_score(const char *gnugo, const char *path, bool chinese, char *winner, int *half)
{
	char cmd[8192], line[256];
	FILE *f;
	bool ok = false;

	snprintf(cmd, sizeof(cmd), "printf 'loadsgf %%s\\nfinal_score\\nquit\\n' '%s' | "
	    "'%s' --mode gtp %s 2>/dev/null", path, gnugo,
	    chinese ? "--chinese-rules" : "--japanese-rules");
	f = popen(cmd, "r");
	if (f == NULL)
		return false;
	while (fgets(line, sizeof(line), f) != NULL) {
		char w;
		double m;

		if (sscanf(line, "= %c+%lf", &w, &m) == 2 && (w == 'B' || w == 'W')) {
			*winner = w;
			*half = (int)(m * 2 + 0.5);
			ok = true;
		} else if (strncmp(line, "= 0", 3) == 0) {
			*winner = '0';
			*half = 0;
			ok = true;
		}
	}
	pclose(f);
	return ok;
}

static struct sht_context ctx;
static struct row rows[64];
static int nrows, passalive_dead;

static struct row *
row_for(const char *collection, int size)
{
	char name[96];

	snprintf(name, sizeof(name), "%s %dx%d", collection, size, size);
	for (int i = 0; i < nrows; i++)
		if (strcmp(rows[i].name, name) == 0)
			return &rows[i];
	if (nrows == 64)
		return &rows[63];
	snprintf(rows[nrows].name, sizeof(rows[nrows].name), "%s", name);
	return &rows[nrows++];
}

/* The recorded result as a winner and a margin in half points; false when not counted. */
static bool
counted(const char *re, char *winner, int *half)
{
	char *end;
	double m;

	if (re == NULL || (re[0] != 'B' && re[0] != 'W') || re[1] != '+')
		return false;
	m = strtod(re + 2, &end);
	if (end == re + 2 || (*end != '\0' && *end != ' '))
		return false; /* B+R, W+T, ... */
	*winner = re[0];
	*half = (int)(m * 2 + 0.5);
	return true;
}

static void
score_file(const char *collection, const char *path, bool verbose)
{
	size_t len;
	char *data = corpus_read(path, &len), winner;
	struct sht_game game;
	struct sht_error err;
	const struct sht_ruleset *rs;
	struct sht_replay replay;
	struct sht_dead_spec spec = { SHT_DEAD_AUTO, 0, { 0 } };
	struct sht_score_report rep;
	int half;
	struct row *row;

	if (data == NULL)
		return;
	if (!sht_game_from_sgf(data, len, 0, &game, &err)) {
		free(data);
		return;
	}
	free(data);
	if (!counted(game.g.result, &winner, &half)) {
		sht_game_free(&game);
		return;
	}
	row = row_for(collection, game.g.width);
	row->games++;
	rs = sht_ruleset_for_ru(ctx.registry, game.g.ruleset);
	if (rs == NULL)
		rs = sht_registry_find(ctx.registry, "japanese");
	if (!sht_judge_replay(rs, &game, NULL, &replay, &err)) {
		row->unscored++;
		printf("unscored %s: %s\n", path, err.message);
		sht_game_free(&game);
		return;
	}
	if (!sht_judge_score(rs, &replay, &spec, &rep, &err)) {
		row->unscored++;
		sht_replay_free(&replay);
		sht_game_free(&game);
		return;
	}
	{
		/* No chain Benson proves alive may be judged dead. */
		int n = sht_board_capacity(replay.board);
		uint8_t *owner = malloc((size_t)n);

		sht_pass_alive_map(replay.board, false, owner);
		for (int p = 0; p < n; p++)
			if (rep.dead[p] && owner[p] == sht_board_at(replay.board, p)) {
				printf("PASS-ALIVE CALLED DEAD %s\n", path);
				passalive_dead++;
				break;
			}
		free(owner);
	}
	{
		int got = rep.result.margin;
		char w = rep.result.winner == SHT_WINNER_BLACK ? 'B' :
		    rep.result.winner == SHT_WINNER_WHITE ? 'W' : '0';

		bool exact = w == winner && abs(got) == half;
		const char *gnugo = getenv("SHOUTAN_GNUGO");

		if (w == winner)
			row->same_winner++;
		if (exact)
			row->exact++;
		else if (verbose)
			printf("miss %s (%s): recorded %s, counted %s\n", path, rs->name,
			    game.g.result, rep.result.re);
		if (gnugo != NULL) {
			char gw = '?';
			int gh = -1;

			/* GNU Go knows Japanese and Chinese counting: area rulesets get Chinese. */
			if (gnugo_score(gnugo, path, rs->plugin->desc->family[0] == 'c', &gw, &gh) &&
			    gw == winner) {
				row->gnugo_same_winner++;
				if (gh == half) {
					row->gnugo_exact++;
					row->both_exact += exact;
				}
			}
		}
	}
	sht_score_report_free(&rep);
	sht_replay_free(&replay);
	sht_game_free(&game);
}

struct walk_arg {
	const char *collection;
	bool verbose;
};

static void
score_one(const char *path, void *arg)
{
	const struct walk_arg *w = arg;

	score_file(w->collection, path, w->verbose);
}

int
main(int argc, char **argv)
{
	const char *dir = corpus_dir(argc, argv, "games");
	char err[SHT_ERR_MAX];
	int games = 0, exact = 0, same = 0, unscored = 0, gexact = 0, gsame = 0, both = 0;
	bool with_gnugo = getenv("SHOUTAN_GNUGO") != NULL;
	bool verbose = getenv("SHOUTAN_VERBOSE") != NULL;

	if (argc < 4) {
		fprintf(stderr, "usage: %s CORPUS PLUGINS_DIR RULESETS_DIR\n", argv[0]);
		return 2;
	}
	ctx.registry = sht_registry_load(argv[2], argv[3], err, sizeof(err));
	if (ctx.registry == NULL) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	{
		struct walk_arg gnugo = { "gnugo-regression", verbose };
		struct walk_arg fuego = { "fuego-regression", verbose };
		char path[4096];

		snprintf(path, sizeof(path), "%s/games/gnugo-regression", dir);
		corpus_walk_sgf(path, score_one, &gnugo);
		snprintf(path, sizeof(path), "%s/games/fuego-regression", dir);
		corpus_walk_sgf(path, score_one, &fuego);
	}
	printf("%-30s %6s %6s %12s %12s %18s %22s\n", "collection", "games", "exact",
	    "same winner", "gnugo exact", "gnugo same winner", "exact where gnugo is");
	for (int i = 0; i < nrows; i++) {
		printf("%-30s %6d %6d %12d %12d %18d %22d\n", rows[i].name, rows[i].games,
		    rows[i].exact, rows[i].same_winner, rows[i].gnugo_exact,
		    rows[i].gnugo_same_winner, rows[i].both_exact);
		games += rows[i].games;
		exact += rows[i].exact;
		same += rows[i].same_winner;
		unscored += rows[i].unscored;
		gexact += rows[i].gnugo_exact;
		gsame += rows[i].gnugo_same_winner;
		both += rows[i].both_exact;
	}
	if (!with_gnugo)
		printf("(GNU Go columns empty: set SHOUTAN_GNUGO to a gnugo binary to fill them)\n");
	printf("total: games=%d exact=%d same_winner=%d gnugo_exact=%d gnugo_same_winner=%d\n",
	    games, exact, same, gexact, gsame);
	printf("exact_where_gnugo_exact=%d unscored=%d pass_alive_called_dead=%d\n", both,
	    unscored, passalive_dead);
	printf("%d passed, %d failed\n", games - unscored, unscored + passalive_dead);
	sht_registry_free((struct sht_registry *)ctx.registry);
	return unscored + passalive_dead == 0 ? 0 : 1;
}
