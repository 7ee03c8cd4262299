/*
 * Dead-stone judgement against the real world: every game with a counted result in every corpus
 * collection (each folder under games/ with an index.tsv) is scored under its own rules with
 * dead: auto and compared with the record, optionally beside GNU Go 3.8 on a sample of the same
 * games.  Prints a table by collection and board size and a total line; it is a measurement, not
 * a pass/fail test, except that no pass-alive chain may be called dead (checked per game),
 * every counted game must be scored, and with SHOUTAN_MIRROR=G (1-7, the board's symmetries as
 * sht_board_symmetric_point numbers them) every game must also count the same with its moves
 * and setup moved by G.
 *
 * Environment: SHOUTAN_GNUGO=/usr/games/gnugo adds GNU Go's columns (GTP loadsgf, komi,
 * final_score, default level); SHOUTAN_GNUGO_SAMPLE=N limits GNU Go to about N games per
 * collection and size, every k-th counted game in index order, and the sample's Shoutan columns
 * are printed beside GNU Go's; SHOUTAN_GNUGO_CACHE=FILE keeps GNU Go's answers (path, rules,
 * komi, score, ms a line) so a later run asks GNU Go only about games it has not answered, which
 * makes a comparison on every game affordable (GNU Go takes seconds a game; the cache is a
 * measurement aid, never a project file); SHOUTAN_VERBOSE=1 names every game Shoutan or GNU Go
 * misses.
 */
#include <ctype.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include "corpus.h"
#include "gnugo.h"
#include "host.h"
#include "shoutan/area.h"

/* Within this many half points of the recorded margin counts as "within 2 points". */
#define WITHIN_HALF_POINTS 4

/* What a collection's records leave unsaid, where it is not the general default (the RU's
 * ruleset, chinese for an RU we have no ruleset for, Japanese without RU; the record's KM,
 * else the ruleset's komi).  Edo-period games were played without komi, which came into use in
 * the twentieth century: a record without KM had none.  Fuego's regression games are its own
 * test matches and positions, counted by area as Fuego and GoGui's twogtp count: of its counted
 * records without RU, area counting gives the recorded result in 8 and territory counting in 1
 * (which area counting also gives), as measured for issue 12 (docs/dead-stones.md). */
static const struct collection_rule {
	const char *name;
	bool no_komi_when_absent;
	const char *without_ru; /* the ruleset of a record without RU */
} collection_rules[] = {
	{ "edo-period", true, "japanese" },
	{ "fuego-regression", false, "chinese" },
};

/* One player's results on a set of games. */
struct tally {
	int games, exact, within2, same_winner;
	double ms;
};

/* One row of the table: a collection and a board size. */
struct row {
	int collection;      /* index into collections[] */
	int size;
	int counted;         /* games with a counted result, known before scoring (for the sample) */
	int seen;            /* counted games scored so far, for picking every k-th */
	int unscored;
	struct tally shoutan;        /* every counted game */
	struct tally sample;         /* Shoutan on GNU Go's sample */
	struct tally gnugo;          /* GNU Go on the sample */
	int gnugo_failed;            /* sample games GNU Go gave no score for */
	int both_exact;              /* sample games both get exactly */
};

struct collection {
	char name[96];
	int records, skipped, unreadable;
};

/* A counted game found in the first pass. */
struct entry {
	char *path;
	int collection, size;
};

#define MAX_ROWS 64
#define MAX_COLLECTIONS 32

static struct sht_context ctx;
static struct row rows[MAX_ROWS];
static int nrows, passalive_dead;
static struct collection collections[MAX_COLLECTIONS];
static int ncollections;

/* "a/b" into out; false (with a message) when it does not fit, so no path is cut short. */
static bool
join(char *out, size_t outlen, const char *a, const char *b)
{
	int n = snprintf(out, outlen, "%s/%s", a, b);

	if (n < 0 || (size_t)n >= outlen) {
		printf("path too long, left out: %s/%s\n", a, b);
		return false;
	}
	return true;
}

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static struct row *
row_for(int collection, int size)
{
	for (int i = 0; i < nrows; i++)
		if (rows[i].collection == collection && rows[i].size == size)
			return &rows[i];
	if (nrows == MAX_ROWS)
		return &rows[MAX_ROWS - 1];
	rows[nrows].collection = collection;
	rows[nrows].size = size;
	return &rows[nrows++];
}

static int
row_order(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->collection != y->collection)
		return x->collection - y->collection;
	return x->size - y->size;
}

/* The recorded result as Black's margin in half points (negative: White won; 0: a draw); false
 * when the record is not a count (B+R, W+T, W+F, B+0, Void, ?, no RE). */
static bool
counted(const char *re, int *black_half)
{
	char *end;
	double m;

	if (re == NULL)
		return false;
	if (strcmp(re, "0") == 0 || strcasecmp(re, "draw") == 0 || strcasecmp(re, "jigo") == 0) {
		*black_half = 0;
		return true;
	}
	if ((re[0] != 'B' && re[0] != 'W') || re[1] != '+')
		return false;
	m = strtod(re + 2, &end);
	if (end == re + 2 || (*end != '\0' && *end != ' '))
		return false; /* B+R, W+T, ... */
	/* B+0: a winner with no margin is no count (a count of 0 is a draw); the Fox server
	 * writes it for resignations and time, and the judge reads it so (host/game.c). */
	if (m == 0)
		return false;
	*black_half = (int)(m * 2 + 0.5) * (re[0] == 'B' ? 1 : -1);
	return true;
}

static void
add(struct tally *t, int recorded, int got, double ms)
{
	int diff = abs(got - recorded);

	t->games++;
	t->exact += diff == 0;
	t->within2 += diff <= WITHIN_HALF_POINTS;
	/* The sign is the winner: both positive, both negative, or both a draw. */
	t->same_winner += (got > 0) == (recorded > 0) && (got < 0) == (recorded < 0);
	t->ms += ms;
}

/* GNU Go's answers from earlier runs (SHOUTAN_GNUGO_CACHE): a game is keyed by its path, the
 * rules GNU Go was told and the komi, so a changed komi reading asks GNU Go again. */
struct gnugo_answer {
	char *path;
	bool chinese, ok;
	int komi_half, black_half;
	double ms;
};

static struct gnugo_answer *gnugo_cache;
static int gnugo_cached, gnugo_cache_cap;
static FILE *gnugo_cache_out;

static void
gnugo_cache_add(const char *path, bool chinese, int komi_half, bool ok, int black_half, double ms)
{
	struct gnugo_answer *a;

	if (gnugo_cached == gnugo_cache_cap) {
		gnugo_cache_cap = gnugo_cache_cap != 0 ? gnugo_cache_cap * 2 : 1024;
		gnugo_cache = realloc(gnugo_cache, (size_t)gnugo_cache_cap * sizeof(*gnugo_cache));
		if (gnugo_cache == NULL) {
			fprintf(stderr, "out of memory\n");
			exit(1);
		}
	}
	a = &gnugo_cache[gnugo_cached++];
	*a = (struct gnugo_answer) { strdup(path), chinese, ok, komi_half, black_half, ms };
}

/* Reads the cache file (a missing one is an empty cache) and keeps it open for appending. */
static void
gnugo_cache_open(const char *file)
{
	FILE *in = fopen(file, "r");
	char line[8192];

	while (in != NULL && fgets(line, sizeof(line), in) != NULL) {
		char *tab = strchr(line, '\t');
		int chinese, komi_half, ok, black_half;
		double ms;

		if (tab == NULL || sscanf(tab + 1, "%d\t%d\t%d\t%d\t%lf", &chinese, &komi_half, &ok,
		    &black_half, &ms) != 5)
			continue; /* a line cut short by an interrupted run */
		*tab = '\0';
		gnugo_cache_add(line, chinese != 0, komi_half, ok != 0, black_half, ms);
	}
	if (in != NULL)
		fclose(in);
	gnugo_cache_out = fopen(file, "a");
	if (gnugo_cache_out == NULL)
		printf("%s: cannot append GNU Go's answers; running without a cache\n", file);
}

static const struct gnugo_answer *
gnugo_cache_find(const char *path, bool chinese, int komi_half)
{
	for (int i = gnugo_cached - 1; i >= 0; i--)
		if (gnugo_cache[i].chinese == chinese && gnugo_cache[i].komi_half == komi_half &&
		    strcmp(gnugo_cache[i].path, path) == 0)
			return &gnugo_cache[i];
	return NULL;
}

static const struct collection_rule *
rule_of(const char *collection)
{
	for (size_t i = 0; i < sizeof(collection_rules) / sizeof(collection_rules[0]); i++)
		if (strcmp(collection_rules[i].name, collection) == 0)
			return &collection_rules[i];
	return NULL;
}

static bool
no_komi_when_absent(const char *collection)
{
	const struct collection_rule *rule = rule_of(collection);

	return rule != NULL && rule->no_komi_when_absent;
}

/*
 * The ruleset a record without RU was played under.  The ICGA Computer Olympiad is played under
 * Chinese rules, so a record of one (its EV names an Olympiad, or it is filed in a folder named
 * for one, as GNU Go files its olympiad2006 games, some of which have no EV) is counted by area:
 * of those 17 records, none with RU, area counting gives the recorded result in all 17 and
 * territory counting in 4, the 4 where both counts agree.  Otherwise the collection's default,
 * else Japanese, the rules of most of GNU Go's regression games.
 */
static const char *
ruleset_without_ru(const char *collection, const char *path, const char *sgf)
{
	const struct collection_rule *rule = rule_of(collection);
	const char *ev = strstr(sgf, "EV[");
	char value[128];
	size_t len = ev != NULL ? strcspn(ev + 3, "]") : 0;

	if (len >= sizeof(value))
		len = sizeof(value) - 1;
	for (size_t i = 0; i < len; i++)
		value[i] = (char)tolower((unsigned char)ev[3 + i]);
	value[len] = '\0';
	if (strstr(value, "olympiad") != NULL || strstr(path, "/olympiad") != NULL)
		return "chinese";
	return rule != NULL && rule->without_ru != NULL ? rule->without_ru : "japanese";
}

/* Scores one counted game with dead: auto into its row, and with GNU Go when it falls in the
 * sample (every `sample_every`-th game of the row). */
/*
 * SHOUTAN_MIRROR=G: every game is also counted with its moves and setup moved by the board's
 * symmetry G (1-7, sht_board_symmetric_point's bits; a swap of x and y only on a square
 * board), and a count that differs from the record's own is a failure: the same game mirrored
 * is the same game (docs/dead-stones.md, "The order of equal moves").
 */
static int mirror, mirror_games, mirror_differ;

static void
count_mirrored(const struct sht_ruleset *rs, struct sht_game *game, int g, const char *collection,
    const char *as_it_stands, const char *path)
{
	struct sht_sgf_game *sg = &game->g;
	struct sht_dead_spec spec = { .mode = SHT_DEAD_AUTO, .thorough = getenv("SHOUTAN_THOROUGH") != NULL };
	struct sht_replay replay;
	struct sht_score_report rep;
	struct sht_error err;
	int zero = 0;

	if ((g & 4) && sg->width != sg->height)
		g &= 3;
	for (int i = 0; i < sg->nevents; i++) {
		struct sht_sgf_event *ev = &sg->events[i];

		if (ev->kind == SHT_SGF_TURN || ev->x < 0 || ev->y < 0)
			continue;
		if (g & 4) {
			int t = ev->x;

			ev->x = ev->y;
			ev->y = t;
		}
		if (g & 1)
			ev->x = sg->width - 1 - ev->x;
		if (g & 2)
			ev->y = sg->height - 1 - ev->y;
	}
	mirror_games++;
	if (!sht_judge_replay(rs, game, !sg->has_komi && no_komi_when_absent(collection) ? &zero : NULL,
	        &replay, &err)) {
		mirror_differ++;
		printf("MIRRORED %s: unscored (%s)\n", path, err.message);
		return;
	}
	if (!sht_judge_score(rs, &replay, &spec, &rep, &err)) {
		mirror_differ++;
		printf("MIRRORED %s: unscored (%s)\n", path, err.message);
	} else {
		if (strcmp(rep.result.re, as_it_stands) != 0) {
			mirror_differ++;
			printf("MIRRORED %s: %s, as it stands %s\n", path, rep.result.re, as_it_stands);
		}
		sht_score_report_free(&rep);
	}
	sht_replay_free(&replay);
}

static void
score_entry(const struct entry *e, int sample_every, const char *gnugo, bool verbose)
{
	const char *collection = collections[e->collection].name;
	struct row *row = row_for(e->collection, e->size);
	size_t len;
	char *data = corpus_read(e->path, &len);
	struct sht_game game;
	struct sht_error err;
	const struct sht_ruleset *rs;
	struct sht_replay replay;
	struct sht_dead_spec spec = { .mode = SHT_DEAD_AUTO, .thorough = getenv("SHOUTAN_THOROUGH") != NULL };
	struct sht_score_report rep;
	int recorded = 0, got, zero = 0;
	bool sampled = gnugo != NULL && row->seen++ % sample_every == 0;
	double start, ms;

	if (data == NULL || !sht_game_from_sgf(data, len, 0, &game, &err)) {
		/* The first pass read it: only a file changed under the run gets here. */
		free(data);
		row->unscored++;
		printf("unscored %s: unreadable\n", e->path);
		return;
	}
	counted(game.g.result, &recorded);
	start = now_ms();
	/* The record's ruleset as the score method reads it (its RU, or its server's counting);
	 * an RU naming rules we have no ruleset for gets what the score method gives it, chinese
	 * (area counting); no RU, what the record and its collection say. */
	rs = sht_ruleset_for_record(ctx.registry, &game.g);
	if (rs == NULL)
		rs = sht_registry_find(ctx.registry, game.g.ruleset != NULL && game.g.ruleset[0] ?
		    "chinese" : ruleset_without_ru(collection, e->path, data));
	free(data);
	if (!sht_judge_replay(rs, &game,
	        !game.g.has_komi && no_komi_when_absent(collection) ? &zero : NULL, &replay, &err)) {
		row->unscored++;
		printf("unscored %s: %s\n", e->path, err.message);
		sht_game_free(&game);
		return;
	}
	if (!sht_judge_score(rs, &replay, &spec, &rep, &err)) {
		row->unscored++;
		printf("unscored %s: %s\n", e->path, err.message);
		sht_replay_free(&replay);
		sht_game_free(&game);
		return;
	}
	ms = now_ms() - start;
	{
		/* No chain Benson proves alive may be judged dead. */
		int n = sht_board_capacity(replay.board);
		uint8_t *owner = malloc((size_t)n);

		sht_pass_alive_map(replay.board, false, owner);
		for (int p = 0; p < n; p++)
			if (rep.dead[p] && owner[p] == sht_board_at(replay.board, p)) {
				printf("PASS-ALIVE CALLED DEAD %s\n", e->path);
				passalive_dead++;
				break;
			}
		free(owner);
	}
	got = rep.result.winner == SHT_WINNER_BLACK ? abs(rep.result.margin) :
	    rep.result.winner == SHT_WINNER_WHITE ? -abs(rep.result.margin) : 0;
	if (mirror > 0)
		count_mirrored(rs, &game, mirror, collection, rep.result.re, e->path);
	add(&row->shoutan, recorded, got, ms);
	if (got != recorded && verbose)
		printf("miss %s (%s): recorded %s, counted %s\n", e->path, rs->name,
		    game.g.result, rep.result.re);
	if (sampled) {
		int theirs = 0;
		bool gnugo_ok;

		add(&row->sample, recorded, got, ms);
		/* GNU Go knows Japanese and Chinese counting: area rulesets get Chinese. */
		bool chinese = rs->plugin->desc->family[0] == 'c';
		const struct gnugo_answer *known = gnugo_cache_find(e->path, chinese, replay.komi);

		if (known != NULL) {
			gnugo_ok = known->ok;
			theirs = known->black_half;
			ms = known->ms;
		} else {
			start = now_ms();
			gnugo_ok = gnugo_score(gnugo, e->path, chinese, replay.komi, &theirs);
			ms = now_ms() - start;
			if (gnugo_cache_out != NULL) {
				fprintf(gnugo_cache_out, "%s\t%d\t%d\t%d\t%d\t%.1f\n", e->path, chinese,
				    replay.komi, gnugo_ok, gnugo_ok ? theirs : 0, ms);
				fflush(gnugo_cache_out);
			}
		}
		if (gnugo_ok) {
			add(&row->gnugo, recorded, theirs, ms);
			row->both_exact += theirs == recorded && got == recorded;
		} else {
			/* No score is a miss in every column; its time still counts. */
			row->gnugo.games++;
			row->gnugo.ms += ms;
			row->gnugo_failed++;
		}
		if (verbose && (!gnugo_ok || theirs != recorded))
			printf("gnugo miss %s: recorded %s, gnugo %s%.1f\n", e->path, game.g.result,
			    !gnugo_ok ? "no score " : theirs > 0 ? "B+" : theirs < 0 ? "W+" : "",
			    abs(theirs) / 2.0);
	}
	sht_score_report_free(&rep);
	sht_replay_free(&replay);
	sht_game_free(&game);
}

/* The index's column named `name`, or -1: collections order their columns differently. */
static int
column(char *header, const char *name)
{
	int i = 0;

	for (char *field = header, *next; field != NULL; field = next, i++) {
		size_t n = strcspn(field, "\t\r\n");

		next = field[n] == '\t' ? field + n + 1 : NULL;
		if (strlen(name) == n && strncmp(field, name, n) == 0)
			return i;
	}
	return -1;
}

/* The i-th tab-separated field of line, copied into out. */
static void
field_at(const char *line, int i, char *out, size_t outlen)
{
	size_t n;

	while (i-- > 0 && line != NULL) {
		line = strchr(line, '\t');
		line = line != NULL ? line + 1 : NULL;
	}
	if (line == NULL) {
		out[0] = '\0';
		return;
	}
	n = strcspn(line, "\t\r\n");
	if (n >= outlen)
		n = outlen - 1;
	memcpy(out, line, n);
	out[n] = '\0';
}

/* First pass over one collection: every record its index lists, read, with the counted ones
 * kept (and counted per row, so the GNU Go sample can be spread over each row). */
static void
read_collection(const char *dir, int ci, struct entry **entries, int *nentries, int *cap)
{
	struct collection *c = &collections[ci];
	char path[4096], line[8192], rel[4096];
	FILE *index;
	int file_col;

	if (!join(path, sizeof(path), dir, "index.tsv"))
		return;
	index = fopen(path, "r");
	if (index == NULL)
		return;
	if (fgets(line, sizeof(line), index) == NULL || (file_col = column(line, "file")) < 0) {
		printf("%s: no `file` column in the header; collection left out\n", path);
		fclose(index);
		return;
	}
	while (fgets(line, sizeof(line), index) != NULL) {
		size_t len;
		char *data;
		struct sht_game game;
		struct sht_error err;
		int recorded;

		field_at(line, file_col, rel, sizeof(rel));
		if (rel[0] == '\0')
			continue;
		c->records++;
		if (!join(path, sizeof(path), dir, rel)) {
			c->unreadable++;
			continue;
		}
		data = corpus_read(path, &len);
		if (data == NULL || !sht_game_from_sgf(data, len, 0, &game, &err)) {
			c->unreadable++;
			printf("unreadable %s\n", path);
			free(data);
			continue;
		}
		free(data);
		if (!counted(game.g.result, &recorded)) {
			c->skipped++;
		} else {
			if (*nentries == *cap) {
				*cap = *cap != 0 ? *cap * 2 : 1024;
				*entries = realloc(*entries, (size_t)*cap * sizeof(**entries));
				if (*entries == NULL) {
					fprintf(stderr, "out of memory\n");
					exit(1);
				}
			}
			(*entries)[*nentries].path = strdup(path);
			(*entries)[*nentries].collection = ci;
			(*entries)[*nentries].size = game.g.width;
			(*nentries)++;
			row_for(ci, game.g.width)->counted++;
		}
		sht_game_free(&game);
	}
	fclose(index);
}

static double
mean(double total, int n)
{
	return n > 0 ? total / n : 0.0;
}

int
main(int argc, char **argv)
{
	const char *dir = corpus_dir(argc, argv, "games");
	char err[SHT_ERR_MAX], games_dir[4096];
	const char *gnugo = getenv("SHOUTAN_GNUGO");
	const char *sample_env = getenv("SHOUTAN_GNUGO_SAMPLE");
	int sample = sample_env != NULL ? atoi(sample_env) : 0;
	bool verbose = getenv("SHOUTAN_VERBOSE") != NULL;

	mirror = getenv("SHOUTAN_MIRROR") != NULL ? atoi(getenv("SHOUTAN_MIRROR")) & 7 : 0;
	struct entry *entries = NULL;
	int nentries = 0, cap = 0, unscored = 0, skipped = 0, unreadable = 0, both = 0;
	struct tally all = { 0 }, in_sample = { 0 }, theirs = { 0 };
	struct dirent **names;
	int n;

	if (argc < 4) {
		fprintf(stderr, "usage: %s CORPUS PLUGINS_DIR RULESETS_DIR\n", argv[0]);
		return 2;
	}
	ctx.registry = sht_registry_load(argv[2], argv[3], err, sizeof(err));
	if (ctx.registry == NULL) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	if (gnugo != NULL)
		signal(SIGPIPE, SIG_IGN); /* a GNU Go that dies early must not end the run */
	if (gnugo != NULL && getenv("SHOUTAN_GNUGO_CACHE") != NULL)
		gnugo_cache_open(getenv("SHOUTAN_GNUGO_CACHE"));

	if (!join(games_dir, sizeof(games_dir), dir, "games"))
		return 1;
	n = scandir(games_dir, &names, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		char sub[4096], index[4096];
		struct stat st;

		if (names[i]->d_name[0] != '.' &&
		    strlen(names[i]->d_name) < sizeof(collections[0].name) &&
		    join(sub, sizeof(sub), games_dir, names[i]->d_name) &&
		    join(index, sizeof(index), sub, "index.tsv") && stat(index, &st) == 0 &&
		    ncollections < MAX_COLLECTIONS) {
			memcpy(collections[ncollections].name, names[i]->d_name,
			    strlen(names[i]->d_name) + 1);
			read_collection(sub, ncollections++, &entries, &nentries, &cap);
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);

	for (int i = 0; i < nentries; i++) {
		const struct row *row = row_for(entries[i].collection, entries[i].size);
		/* Every k-th game of the row, so that about `sample` are taken from all of it. */
		int every = sample > 0 ? (row->counted + sample - 1) / sample : 1;

		score_entry(&entries[i], every > 0 ? every : 1, gnugo, verbose);
		free(entries[i].path);
	}
	free(entries);
	qsort(rows, (size_t)nrows, sizeof(rows[0]), row_order);

	printf("%-24s | %5s %5s %7s %6s %7s |", "collection size", "games", "exact", "within2",
	    "winner", "ms/game");
	if (gnugo != NULL)
		printf(" %6s %5s %7s %6s | %7s %9s %8s %7s %6s | %10s", "sample", "exact",
		    "within2", "winner", "g.exact", "g.within2", "g.winner", "g.ms", "failed",
		    "both exact");
	printf("\n");
	for (int i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];
		char name[128];

		snprintf(name, sizeof(name), "%s %dx%d", collections[r->collection].name, r->size,
		    r->size);
		printf("%-24s | %5d %5d %7d %6d %7.1f |", name, r->shoutan.games, r->shoutan.exact,
		    r->shoutan.within2, r->shoutan.same_winner, mean(r->shoutan.ms, r->shoutan.games));
		if (gnugo != NULL)
			printf(" %6d %5d %7d %6d | %7d %9d %8d %7.0f %6d | %10d", r->sample.games,
			    r->sample.exact, r->sample.within2, r->sample.same_winner, r->gnugo.exact,
			    r->gnugo.within2, r->gnugo.same_winner, mean(r->gnugo.ms, r->gnugo.games),
			    r->gnugo_failed, r->both_exact);
		printf("\n");
		all.games += r->shoutan.games;
		all.exact += r->shoutan.exact;
		all.within2 += r->shoutan.within2;
		all.same_winner += r->shoutan.same_winner;
		all.ms += r->shoutan.ms;
		in_sample.games += r->sample.games;
		in_sample.exact += r->sample.exact;
		in_sample.within2 += r->sample.within2;
		in_sample.same_winner += r->sample.same_winner;
		in_sample.ms += r->sample.ms;
		theirs.games += r->gnugo.games;
		theirs.exact += r->gnugo.exact;
		theirs.within2 += r->gnugo.within2;
		theirs.same_winner += r->gnugo.same_winner;
		theirs.ms += r->gnugo.ms;
		both += r->both_exact;
		unscored += r->unscored;
	}
	for (int i = 0; i < ncollections; i++) {
		printf("%s: %d records, %d skipped (RE not a counted result: resignation, time, B+0, "
		    "forfeit, unknown), %d unreadable\n", collections[i].name, collections[i].records,
		    collections[i].skipped, collections[i].unreadable);
		skipped += collections[i].skipped;
		unreadable += collections[i].unreadable;
	}
	if (gnugo != NULL)
		printf("(first block: Shoutan on every counted game; second: Shoutan on GNU Go's "
		    "sample; g.*: GNU Go on that sample, with its mean ms a game; failed: GNU Go gave "
		    "no score; both exact: sample games both count exactly)\n");
	if (gnugo == NULL)
		printf("(no GNU Go columns: set SHOUTAN_GNUGO to a gnugo binary, and "
		    "SHOUTAN_GNUGO_SAMPLE=N for about N of its games per row)\n");
	else
		printf("sample: games=%d exact=%d within2=%d same_winner=%d ms_per_game=%.1f "
		    "gnugo_ms_per_game=%.0f exact_where_gnugo_exact=%d\n", in_sample.games,
		    in_sample.exact, in_sample.within2, in_sample.same_winner,
		    mean(in_sample.ms, in_sample.games), mean(theirs.ms, theirs.games), both);
	printf("skipped=%d unreadable=%d unscored=%d pass_alive_called_dead=%d\n", skipped,
	    unreadable, unscored, passalive_dead);
	if (mirror > 0)
		printf("mirrored: symmetry %d, games=%d counted_otherwise=%d\n", mirror, mirror_games,
		    mirror_differ);
	printf("%d passed, %d failed\n", all.games, unscored + passalive_dead + mirror_differ);
	printf("total: games=%d exact=%d within2=%d same_winner=%d gnugo_exact=%d "
	    "gnugo_within2=%d gnugo_same_winner=%d\n", all.games, all.exact, all.within2,
	    all.same_winner, theirs.exact, theirs.within2, theirs.same_winner);
	sht_registry_free((struct sht_registry *)ctx.registry);
	for (int i = 0; i < gnugo_cached; i++)
		free(gnugo_cache[i].path);
	free(gnugo_cache);
	if (gnugo_cache_out != NULL)
		fclose(gnugo_cache_out);
	return unscored + passalive_dead + mirror_differ == 0 ? 0 : 1;
}
