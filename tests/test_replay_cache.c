/* Tests of the workers' replay cache (host/replay_cache.c): a live game asked about move after
 * move gets, byte for byte, the replies it gets without the cache, and the cache is used. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "host.h"
#include "replay_cache.h"
#include "rpc.h"
#include "shoutan/board.h"

static const char *plugins_dir, *rulesets_dir;

static uint64_t rng = 0x2545F4914F6CDD1Du;

static uint32_t
next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

/* A random game on a size x size board as "B D4"-style moves: legal moves (with captures and
 * kos, from filling the board; a pass where no point was found), but move 151 is by the
 * player who made move 150 (an SGF record reads a pass between them, a move list a move out
 * of turn) and move 251 is on an occupied point, so that the replay's violations, its notes
 * and the rulesets' consequences are exercised too. */
static int
random_game(int size, char moves[][16], int max)
{
	struct sht_board_options o;
	struct sht_board *b;
	int n = 0, c = SHT_BLACK;

	sht_board_options_init(&o, size, size);
	b = sht_board_new(&o);
	assert_non_null(b);
	while (n < max) {
		int p = SHT_PASS, tries = 0;
		char v[8];

		if (n == 150)
			c = SHT_OTHER(c); /* two moves of one colour in a row */
		if (n == 250) {
			/* An occupied point: illegal under every ruleset. */
			for (int q = 0; q < sht_board_capacity(b) && p == SHT_PASS; q++)
				if (sht_board_at(b, q) == SHT_BLACK || sht_board_at(b, q) == SHT_WHITE)
					p = q;
			if (p != SHT_PASS) {
				sht_vertex_format(b, p, v, sizeof(v));
				snprintf(moves[n++], 16, "%c %s", c == SHT_BLACK ? 'B' : 'W', v);
				continue;
			}
		}
		while (tries++ < 50) {
			int q = sht_board_point(b, (int)(next_random() % (uint32_t)size),
			    (int)(next_random() % (uint32_t)size));

			if (sht_board_check(b, c, q, NULL) == SHT_LEGAL) {
				p = q;
				break;
			}
		}
		sht_board_play(b, c, p, NULL);
		sht_vertex_format(b, p, v, sizeof(v));
		snprintf(moves[n++], 16, "%c %s", c == SHT_BLACK ? 'B' : 'W', v);
		c = SHT_OTHER(c);
	}
	sht_board_free(b);
	return n;
}

/* The request for the game's first k moves: method, ruleset, and the game with setup stones
 * (a handicap) or without, as a move list or (for a third of the requests, so that the two
 * forms follow each other in one game) an SGF record. */
static char *
request(const char *method, const char *ruleset, int size, bool setup, char moves[][16], int k,
    const char *extra)
{
	bool sgf = k % 3 == 1 || strcmp(method, "replay") == 0;
	size_t cap = 256 + (size_t)k * 20 + strlen(extra);
	char *s = malloc(cap);
	size_t len;

	assert_non_null(s);
	if (sgf) {
		/* The same moves as an SGF record, where two moves of one colour in a row read
		 * as the opponent's pass between them.  An empty board reads the vertices. */
		struct sht_board_options o;
		struct sht_board *b;

		sht_board_options_init(&o, size, size);
		b = sht_board_new(&o);
		assert_non_null(b);
		len = (size_t)snprintf(s, cap, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"%s\","
		    "\"params\":{\"ruleset\":\"%s\",%s\"game\":{\"sgf\":\"(;SZ[%d]%s", method,
		    ruleset, extra, size, setup ? "AB[cc]" : "");
		for (int i = 0; i < k; i++) {
			int p = sht_vertex_parse(b, moves[i] + 2), x = -1, y = -1;

			if (p != SHT_PASS)
				sht_board_xy(b, p, &x, &y);
			if (x < 0)
				len += (size_t)snprintf(s + len, cap - len, ";%c[]", moves[i][0]);
			else
				len += (size_t)snprintf(s + len, cap - len, ";%c[%c%c]", moves[i][0],
				    'a' + x, 'a' + y);
		}
		snprintf(s + len, cap - len, ")\"}}}");
		sht_board_free(b);
		return s;
	}
	len = (size_t)snprintf(s, cap, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"%s\",\"params\":"
	    "{\"ruleset\":\"%s\",%s\"game\":{\"size\":%d,%s\"moves\":[", method, ruleset, extra,
	    size, setup ? "\"setup\":{\"black\":[\"C3\"],\"white\":[]}," : "");
	for (int i = 0; i < k; i++)
		len += (size_t)snprintf(s + len, cap - len, "%s\"%s\"", i ? "," : "", moves[i]);
	snprintf(s + len, cap - len, "]}}}");
	return s;
}

static void
same_reply(const struct sht_context *cached, const struct sht_context *plain, const char *line)
{
	bool e1, e2, r1, r2;
	char *a = rpc_handle(cached, line, strlen(line), &e1, &r1);
	char *b = rpc_handle(plain, line, strlen(line), &e2, &r2);

	assert_non_null(a);
	assert_non_null(b);
	if (strcmp(a, b) != 0)
		fail_msg("request %s\nwith the cache: %s\nwithout: %s", line, a, b);
	assert_int_equal(e1, e2);
	free(a);
	free(b);
}

/* Two live games at once (so the cache holds several games and must pick the right one),
 * asked about after every move with `legal`, `score` and `replay`, under rulesets that differ
 * in ko (simple and cycles, positional and situational superko) and in what a violation costs. */
static void
test_live_games_answered_alike(void **state)
{
	static const char *const rulesets[] = { "japanese", "chinese", "aga", "tromp-taylor",
		"ancient", "new-zealand" };
	static char games[2][400][16];
	char err[SHT_ERR_MAX];
	struct sht_registry *reg = sht_registry_load(plugins_dir, rulesets_dir, err, sizeof(err));
	struct sht_context cached = { 0 }, plain = { 0 };
	long hits, misses;

	(void)state;
	assert_non_null(reg);
	cached.registry = plain.registry = reg;
	/* Few entries, so that entries are evicted while the games go on. */
	cached.replays = sht_replay_cache_new(5);
	assert_non_null(cached.replays);
	for (size_t r = 0; r < sizeof(rulesets) / sizeof(*rulesets); r++) {
		int size = r % 2 ? 9 : 7, n[2];

		n[0] = random_game(size, games[0], 300);
		n[1] = random_game(size, games[1], 300);
		for (int k = 1; k <= 300; k++) {
			for (int g = 0; g < 2; g++) {
				char next[48], extra[48];
				char *line;

				if (k > n[g])
					continue;
				snprintf(next, sizeof(next), "\"move\":\"%s\",",
				    k < n[g] ? games[g][k] : "B pass");
				line = request("legal", rulesets[r], size, g == 1, games[g], k, next);
				same_reply(&cached, &plain, line);
				free(line);
				if (k % 7 == 0) {
					snprintf(extra, sizeof(extra), "\"dead\":\"none\",\"komi\":%d.5,",
					    k % 10);
					line = request("score", rulesets[r], size, g == 1, games[g], k,
					    extra);
					same_reply(&cached, &plain, line);
					free(line);
				}
				if (k % 25 == 0) {
					line = request("replay", rulesets[r], size, g == 1, games[g], k,
					    "");
					same_reply(&cached, &plain, line);
					free(line);
				}
			}
		}
		/* A game asked about again from an earlier move (a client's undo). */
		for (int k = 40; k >= 1; k -= 13) {
			char *line = request("score", rulesets[r], size, false, games[0], k,
			    "\"dead\":\"none\",");

			same_reply(&cached, &plain, line);
			free(line);
		}
	}
	sht_replay_cache_counts(cached.replays, &hits, &misses);
	/* Most questions resume a position of the move before (a move list and an SGF record
	 * of the same moves are different games to the cache: a record reads implied passes). */
	assert_true(hits > misses);
	sht_replay_cache_free(cached.replays);
	sht_registry_free(reg);
}

/* An entry is found only by the exact moves that led to it: a game that differs in one move,
 * or starts from other setup stones, is replayed from its start. */
static void
test_only_the_same_moves_resume(void **state)
{
	static char game[60][16];
	char err[SHT_ERR_MAX];
	struct sht_registry *reg = sht_registry_load(plugins_dir, rulesets_dir, err, sizeof(err));
	struct sht_context cached = { 0 }, plain = { 0 };
	long hits, misses, hits2, misses2;
	char *line;
	int n;

	(void)state;
	assert_non_null(reg);
	cached.registry = plain.registry = reg;
	cached.replays = sht_replay_cache_new(16);
	n = random_game(9, game, 60);
	line = request("score", "japanese", 9, false, game, n - 1, "\"dead\":\"none\",");
	same_reply(&cached, &plain, line);
	free(line);
	sht_replay_cache_counts(cached.replays, &hits, &misses);
	/* The same moves with other setup stones. */
	line = request("score", "japanese", 9, true, game, n, "\"dead\":\"none\",");
	same_reply(&cached, &plain, line);
	free(line);
	sht_replay_cache_counts(cached.replays, &hits2, &misses2);
	assert_int_equal(hits2, hits);
	/* One move changed near the start: the point of move 3 swapped for a pass. */
	snprintf(game[2], 16, "%c pass", game[2][0]);
	line = request("score", "japanese", 9, false, game, n, "\"dead\":\"none\",");
	same_reply(&cached, &plain, line);
	free(line);
	sht_replay_cache_counts(cached.replays, &hits2, &misses2);
	assert_int_equal(hits2, hits);
	sht_replay_cache_free(cached.replays);
	sht_registry_free(reg);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_live_games_answered_alike),
		cmocka_unit_test(test_only_the_same_moves_resume),
	};

	if (argc < 3) {
		fprintf(stderr, "usage: %s PLUGINS_DIR RULESETS_DIR\n", argv[0]);
		return 2;
	}
	plugins_dir = argv[1];
	rulesets_dir = argv[2];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
