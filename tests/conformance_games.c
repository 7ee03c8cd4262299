/*
 * Conformance on real games: the 59 records whose result equals an all-stones-alive count must
 * reproduce it (area under tromp-taylor, territory under japanese, --dead none), and every game
 * under games/ must replay with no illegal-move verdict under the japanese ruleset; the moves
 * that positional superko (chinese) flags are listed.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "corpus.h"
#include "host.h"

static struct sht_context ctx;
static int replayed, replay_failed, superko_flagged;

static json_t *
call(const char *method, json_t *params, struct sht_error *err)
{
	bool unknown;

	return sht_method_call(&ctx, method, params, &unknown, err);
}

/* "W+30.50" and "W+30.5" are the same result. */
static bool
same_result(const char *want, const char *got)
{
	if (toupper((unsigned char)want[0]) != got[0])
		return false;
	if (want[1] == '+' && got[1] == '+')
		return strtod(want + 2, NULL) == strtod(got + 2, NULL);
	return strcmp(want, got) == 0;
}

static int
exact_games(const char *dir)
{
	size_t len;
	char *data = corpus_read(corpus_join(dir, "games/exact-all-stones-alive.tsv"), &len);
	char *save = NULL;
	int passed = 0, failed = 0;

	if (data == NULL)
		return -1;
	strtok_r(data, "\n", &save);
	for (char *line = strtok_r(NULL, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[10] = { 0 }, *p = line, path[2048];
		int nf = 0;

		while (nf < 10) {
			f[nf++] = p;
			if ((p = strchr(p, '\t')) == NULL)
				break;
			*p++ = '\0';
		}
		if (nf < 7)
			continue;
		snprintf(path, sizeof(path), "games/%s/%s", f[0], f[1]);
		{
			char *sgf = corpus_read(corpus_join(dir, path), &len);
			const char *counting = strncmp(f[6], "area", 4) == 0 ? "tromp-taylor" : "japanese";
			struct sht_error err;
			json_t *params, *r;

			if (sgf == NULL) {
				printf("FAIL %s: unreadable\n", path);
				failed++;
				continue;
			}
			params = json_pack("{s:s, s:o*, s:s, s:f}", "ruleset", counting, "game",
			    sht_game_json_from_sgf_bytes(sgf, len, &err), "dead", "none", "komi",
			    strtod(f[4], NULL));
			free(sgf);
			r = call("score", params, &err);
			if (r == NULL) {
				printf("FAIL %s (%s): %s\n", path, counting, err.message);
				failed++;
			} else if (!same_result(f[5], json_string_value(json_object_get(r, "re")))) {
				printf("FAIL %s (%s, komi %s): recorded %s, counted %s\n", path, counting,
				    f[4], f[5], json_string_value(json_object_get(r, "re")));
				failed++;
			} else {
				passed++;
			}
			json_decref(r);
			json_decref(params);
		}
	}
	free(data);
	printf("exact all-stones-alive games: %d reproduce their recorded result, %d do not\n",
	    passed, failed);
	return failed;
}

static void
replay_file(const char *path)
{
	size_t len;
	char *sgf = corpus_read(path, &len);
	struct sht_error err;
	json_t *params, *r;

	if (sgf == NULL)
		return;
	params = json_pack("{s:s, s:o*}", "ruleset", "japanese", "game",
	    sht_game_json_from_sgf_bytes(sgf, len, &err));
	r = params && json_object_get(params, "game") ? call("replay", params, &err) : NULL;
	replayed++;
	if (r == NULL) {
		/* A game the reader refuses (a board over 25x25, say) is not an illegal move. */
		if (err.kind == SHT_ERROR_ILLEGAL_MOVE) {
			printf("ILLEGAL under japanese: %s: %s\n", path, err.message);
			replay_failed++;
		} else {
			printf("unreadable: %s: %s\n", path, err.message);
		}
	} else if (strcmp(json_string_value(json_object_get(json_object_get(r, "end"), "state")),
	    "loss") == 0) {
		printf("ILLEGAL under japanese: %s: %s\n", path, json_string_value(json_object_get(
		    json_object_get(r, "end"), "why")));
		replay_failed++;
	}
	json_decref(r);
	json_object_set_new(params, "ruleset", json_string("chinese"));
	r = call("replay", params, &err);
	if (r != NULL) {
		size_t i;
		json_t *m;

		json_array_foreach(json_object_get(r, "moves"), i, m) {
			const json_t *why = json_object_get(m, "reason");

			if (why != NULL && strcmp(json_string_value(why), "superko") == 0) {
				printf("superko (chinese, positional) flags %s: move %lld %s %s\n", path,
				    (long long)json_integer_value(json_object_get(m, "n")),
				    json_string_value(json_object_get(m, "player")),
				    json_string_value(json_object_get(m, "vertex")));
				superko_flagged++;
			}
		}
	}
	json_decref(r);
	json_decref(params);
	free(sgf);
}

static void
replay_one(const char *path, void *arg)
{
	(void)arg;
	replay_file(path);
}

int
main(int argc, char **argv)
{
	const char *dir = corpus_dir(argc, argv, "games/exact-all-stones-alive.tsv");
	char err[SHT_ERR_MAX];
	int failed;

	if (argc < 4) {
		fprintf(stderr, "usage: %s CORPUS PLUGINS_DIR RULESETS_DIR\n", argv[0]);
		return 2;
	}
	ctx.registry = sht_registry_load(argv[2], argv[3], err, sizeof(err));
	if (ctx.registry == NULL) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	failed = exact_games(dir);
	corpus_walk_sgf(corpus_join(dir, "games"), replay_one, NULL);
	printf("games replayed under japanese: %d, with an illegal move: %d; moves flagged by "
	    "positional superko: %d\n", replayed, replay_failed, superko_flagged);
	printf("%d passed, %d failed\n", replayed - replay_failed, replay_failed + (failed > 0 ?
	    failed : 0));
	sht_registry_free((struct sht_registry *)ctx.registry);
	return failed == 0 && replay_failed == 0 ? 0 : 1;
}
