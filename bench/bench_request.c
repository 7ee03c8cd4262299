/* The request benchmark (run on request): the CPU a worker spends on a question never asked
 * before, stage by stage, for `score` with a dead list and for `legal` in a live game. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "host.h"
#include "json_parse.h"
#include "method.h"
#include "replay_cache.h"
#include "render.h"
#include "rpc.h"

/* Requests per kind: enough games that caches of the machine, not of ours, are exercised. */
#define MAX_GAMES 64
#define LIVE_MOVES 150

enum stage { ST_PARSE, ST_GAME, ST_REPLAY, ST_COUNT, ST_REPLY, NSTAGES };
static const char *const stage_names[NSTAGES] = {
	"json_parse", "game_parse", "replay", "count", "reply",
};

static double
cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static char *
read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	long len;
	char *s;

	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	s = len < 0 ? NULL : malloc((size_t)len + 1);
	if (s != NULL)
		s[fread(s, 1, (size_t)len, f)] = '\0';
	fclose(f);
	return s;
}

/* The request lines a Go server sends: the params object as JSON text, without id or komi. */
struct request_set {
	char *score[MAX_GAMES]; /* a finished game and its dead stones */
	char *legal[MAX_GAMES]; /* the first LIVE_MOVES moves as a move list, and the next one */
	int n;
};

/* The finished 19x19 games of the corpus's GNU Go index (two closing passes), as loadgen
 * sends them: the record's SGF, the japanese ruleset, the dead list dead:auto gives. */
static void
load_requests(const struct sht_context *ctx, const char *corpus, struct request_set *rq)
{
	char path[4096], line[4096];
	FILE *idx;

	snprintf(path, sizeof(path), "%s/games/gnugo-regression/index.tsv", corpus);
	if ((idx = fopen(path, "r")) == NULL) {
		fprintf(stderr, "bench-request: no corpus index at %s\n", path);
		exit(77);
	}
	while (rq->n < MAX_GAMES && fgets(line, sizeof(line), idx) != NULL) {
		char file[2048], sz[16];
		const char *p = line;
		struct sht_error err;
		bool unknown;
		json_t *params, *result, *moves;
		char *sgf;

		if (sscanf(line, "%2047[^\t]\t%15[^\t]", file, sz) != 2 || strcmp(sz, "19") != 0)
			continue;
		/* Column 9 of the index is the number of closing passes. */
		for (int col = 0; col < 8 && p != NULL; col++)
			p = strchr(p, '\t') ? strchr(p, '\t') + 1 : NULL;
		if (p == NULL || atoi(p) < 2)
			continue;
		snprintf(path, sizeof(path), "%s/games/gnugo-regression/%s", corpus, file);
		if ((sgf = read_file(path)) == NULL)
			continue;
		params = json_pack("{s:{s:s}, s:s, s:s}", "game", "sgf", sgf, "ruleset", "japanese",
		    "dead", "auto");
		result = params ? sht_method_call(ctx, "score", params, &unknown, &err) : NULL;
		if (result == NULL) {
			json_decref(params);
			free(sgf);
			continue;
		}
		json_object_set(params, "dead", json_object_get(result, "dead"));
		rq->score[rq->n] = json_dumps(params, JSON_COMPACT);
		json_decref(params);
		/* The live game: the record's moves as the replay gave them. */
		json_decref(result);
		params = json_pack("{s:{s:s}, s:s}", "game", "sgf", sgf, "ruleset", "japanese");
		result = sht_method_call(ctx, "replay", params, &unknown, &err);
		json_decref(params);
		free(sgf);
		moves = json_object_get(result, "moves");
		/* A game with setup stones (a handicap) is not a plain move list: left out. */
		if (json_array_size(moves) > LIVE_MOVES + 1 && strstr(rq->score[rq->n], "AB[") == NULL) {
			json_t *list = json_array();
			size_t i;
			json_t *m;

			json_array_foreach(moves, i, m) {
				const char *c = json_string_value(json_object_get(m, "player"));
				const char *v = json_string_value(json_object_get(m, "vertex"));
				char text[16];

				snprintf(text, sizeof(text), "%s %s", c ? c : "B", v ? v : "pass");
				if (i == LIVE_MOVES) {
					params = json_pack("{s:{s:i, s:o}, s:s, s:s}", "game", "size", 19,
					    "moves", list, "ruleset", "japanese", "move", text);
					rq->legal[rq->n] = json_dumps(params, JSON_COMPACT);
					json_decref(params);
					break;
				}
				json_array_append_new(list, json_string(text));
			}
		}
		json_decref(result);
		if (rq->legal[rq->n] == NULL) {
			free(rq->score[rq->n]);
			rq->score[rq->n] = NULL;
			continue;
		}
		rq->n++;
	}
	fclose(idx);
}

/* The request line a worker reads, a komi of its own making it one never seen before. */
static char *
request_line(const char *method, const char *params, long id, int komi_half)
{
	size_t n = strlen(params) + 128;
	char *line = malloc(n);

	if (komi_half == INT32_MIN)
		snprintf(line, n, "{\"jsonrpc\":\"2.0\",\"id\":%ld,\"method\":\"%s\",\"params\":%s}",
		    id, method, params);
	else
		snprintf(line, n, "{\"jsonrpc\":\"2.0\",\"id\":%ld,\"method\":\"%s\",\"params\":"
		    "%.*s,\"komi\":%.1f}}", id, method, (int)strlen(params) - 1, params,
		    komi_half / 2.0);
	return line;
}

/* One `score` request the way rpc_handle and the method run it, each stage timed apart (not
 * inlined, so that a profiler can be told to collect only here). */
static __attribute__((noinline)) bool
score_by_stages(const struct sht_context *ctx, const char *line, double t[NSTAGES])
{
	double t0 = cpu_now(), t1;
	struct sht_move_list moves, dead_list;
	json_t *req = sht_json_read_request(line, strlen(line), NULL, &moves, &dead_list), *params;
	struct sht_context with_lists = *ctx;
	const struct sht_ruleset *rs;
	struct sht_game game;
	struct sht_replay replay;
	struct sht_score_report rep;
	struct sht_dead_spec dead;
	struct sht_error err;
	int komi = 0;
	bool given;
	struct sht_text reply;

	params = json_object_get(req, "params");
	with_lists.moves = &moves;
	with_lists.dead = &dead_list;
	ctx = &with_lists;
	t1 = cpu_now();
	t[ST_PARSE] += t1 - t0;
	t0 = t1;
	if (!sht_params_ruleset_game(ctx, params, &rs, &game, &err))
		return false;
	t1 = cpu_now();
	t[ST_GAME] += t1 - t0;
	t0 = t1;
	if (!sht_params_komi(params, &komi, &given, &err) ||
	    !sht_judge_replay(rs, &game, given ? &komi : NULL, &replay, &err))
		return false;
	sht_game_free(&game);
	t1 = cpu_now();
	t[ST_REPLAY] += t1 - t0;
	t0 = t1;
	if (!sht_params_dead(ctx, params, rs, replay.board, &dead, &err) ||
	    !sht_judge_score(rs, &replay, &dead, &rep, &err))
		return false;
	t1 = cpu_now();
	t[ST_COUNT] += t1 - t0;
	t0 = t1;
	/* The reply line as rpc_handle writes it: the envelope around the score object's text. */
	sht_text_init(&reply, 4096);
	sht_text_lit(&reply, "{\"jsonrpc\":\"2.0\",\"id\":");
	sht_text_int(&reply, json_integer_value(json_object_get(req, "id")));
	sht_text_lit(&reply, ",\"result\":");
	sht_text_score(&reply, rs, &replay, &rep);
	sht_text_lit(&reply, "}\n");
	free(sht_text_take(&reply));
	sht_score_report_free(&rep);
	sht_replay_free(&replay);
	json_decref(req);
	sht_move_list_free(&moves);
	sht_move_list_free(&dead_list);
	t[ST_REPLY] += cpu_now() - t0;
	return true;
}

/* CPU microseconds to read a score request line into jansson values: with jansson's own reader
 * or with sht_json_read, side by side. */
static double
parse_only(char *const *params, int n, int rounds, bool fast)
{
	double spent = 0;
	int done = 0;

	for (int r = 0; r < rounds; r++)
		for (int i = 0; i < n; i++) {
			char *line = request_line("score", params[i], r * n + i, r * n + i);
			size_t len = strlen(line);
			double t0 = cpu_now();
			json_t *v = fast ? sht_json_read(line, len, JSON_REJECT_DUPLICATES, NULL) :
			    json_loadb(line, len, JSON_REJECT_DUPLICATES, NULL);

			json_decref(v);
			spent += cpu_now() - t0;
			free(line);
			done++;
		}
	return spent * 1e6 / done;
}

/* One `legal` request line through rpc_handle, as a worker handles it: a function of its own,
 * not inlined, so that a profiler can be told to collect only these requests
 * (--toggle-collect=legal_request). */
static __attribute__((noinline)) char *
legal_request(const struct sht_context *ctx, const char *line, bool *is_error, bool *reusable)
{
	return rpc_handle(ctx, line, strlen(line), is_error, reusable);
}

/* CPU microseconds per request of `method` through rpc_handle, the whole worker's work. */
static double
whole_requests(const struct sht_context *ctx, const char *method, char *const *params, int n,
    int rounds, bool with_komi, long *id)
{
	double t0 = cpu_now();
	int done = 0;

	for (int r = 0; r < rounds; r++)
		for (int i = 0; i < n; i++) {
			char *line = request_line(method, params[i], *id, with_komi ? (int)(*id % 20001) -
			    10000 : INT32_MIN);
			bool is_error, reusable;
			char *reply = strcmp(method, "legal") == 0 ?
			    legal_request(ctx, line, &is_error, &reusable) :
			    rpc_handle(ctx, line, strlen(line), &is_error, &reusable);

			if (reply == NULL || is_error) {
				fprintf(stderr, "bench-request: %s failed: %.200s\n", method,
				    reply ? reply : "no reply");
				exit(1);
			}
			free(reply);
			free(line);
			(*id)++;
			done++;
		}
	return (cpu_now() - t0) * 1e6 / done;
}

int
main(int argc, char **argv)
{
	struct sht_registry *reg;
	struct sht_context ctx = { 0 };
	struct request_set rq = { 0 };
	double t[NSTAGES] = { 0 }, sum = 0;
	int rounds = argc > 4 ? atoi(argv[4]) : 20, done = 0;
	long id = 1;
	char err[SHT_ERR_MAX];
	size_t bytes = 0;

	if (argc < 4) {
		fprintf(stderr, "usage: shoutan-bench-request PLUGINS_DIR RULESETS_DIR CORPUS "
		    "[ROUNDS]\n");
		return 2;
	}
	if ((reg = sht_registry_load(argv[1], argv[2], err, sizeof(err))) == NULL) {
		fprintf(stderr, "bench-request: %s\n", err);
		return 1;
	}
	ctx.registry = reg;
	load_requests(&ctx, argv[3], &rq);
	if (rq.n == 0) {
		fprintf(stderr, "bench-request: no finished 19x19 game in the corpus index\n");
		return 77;
	}
	for (int i = 0; i < rq.n; i++)
		bytes += strlen(rq.score[i]);
	printf("games: %d\nscore_request_bytes_mean: %zu\n", rq.n, bytes / (size_t)rq.n);
	for (int r = 0; r < rounds; r++)
		for (int i = 0; i < rq.n; i++) {
			char *line = request_line("score", rq.score[i], id, (int)(id % 20001) - 10000);

			if (!score_by_stages(&ctx, line, t)) {
				fprintf(stderr, "bench-request: score %d failed\n", i);
				return 1;
			}
			free(line);
			id++;
			done++;
		}
	for (int s = 0; s < NSTAGES; s++) {
		printf("score_%s_us: %.2f\n", stage_names[s], t[s] * 1e6 / done);
		sum += t[s];
	}
	printf("score_stages_us: %.2f\n", sum * 1e6 / done);
	printf("score_json_parse_jansson_us: %.2f\n", parse_only(rq.score, rq.n, rounds, false));
	printf("score_json_parse_simdjson_us: %.2f\n", parse_only(rq.score, rq.n, rounds, true));
	printf("score_request_us: %.2f\n", whole_requests(&ctx, "score", rq.score, rq.n, rounds,
	    true, &id));
	printf("legal_request_us: %.2f\n", whole_requests(&ctx, "legal", rq.legal, rq.n, rounds,
	    false, &id));
	/* The same requests with a worker's replay cache, once every game has been asked about
	 * (the first round fills it): what a live game's next question costs, its position
	 * replayed the move before.  The komi of each score request is still new. */
	ctx.replays = sht_replay_cache_new(256);
	whole_requests(&ctx, "legal", rq.legal, rq.n, 1, false, &id);
	whole_requests(&ctx, "score", rq.score, rq.n, 1, true, &id);
	printf("score_request_replay_cached_us: %.2f\n", whole_requests(&ctx, "score", rq.score,
	    rq.n, rounds, true, &id));
	printf("legal_request_replay_cached_us: %.2f\n", whole_requests(&ctx, "legal", rq.legal,
	    rq.n, rounds, false, &id));
	sht_replay_cache_free(ctx.replays);
	for (int i = 0; i < rq.n; i++) {
		free(rq.score[i]);
		free(rq.legal[i]);
	}
	sht_registry_free(reg);
	return 0;
}
