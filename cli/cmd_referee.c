/* shoutan referee: a game's event log ruled event by event under a ruleset, and the outcome. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char usage_line[] = "referee FILE|- -r RULESET [--clock type=...,main=...] "
    "[--dead auto|none|V,V] [--json]";

static void
print_referee(const json_t *r)
{
	const json_t *events = json_object_get(r, "events"), *e, *o = json_object_get(r, "outcome");
	size_t i, k;

	json_array_foreach(events, i, e) {
		const json_t *call, *reason = json_object_get(e, "reason");
		const json_t *vertex = json_object_get(e, "vertex");
		char a[32];

		printf("%4zu %s %-9s %-4s %-8s", i + 1, json_string_value(json_object_get(e, "color")),
		    json_string_value(json_object_get(e, "type")),
		    vertex ? json_string_value(vertex) : "",
		    json_string_value(json_object_get(e, "ruling")));
		if (reason != NULL)
			printf(" %s", json_string_value(reason));
		printf("\n");
		json_array_foreach(json_object_get(e, "calls"), k, call)
			printf("                +%s  %s\n", cli_ms(json_integer_value(
			    json_object_get(call, "at_ms")), a, sizeof(a)),
			    json_string_value(json_object_get(call, "text")));
	}
	printf("warnings: B %lld, W %lld\n",
	    (long long)json_integer_value(json_object_get(json_object_get(r, "warnings"), "B")),
	    (long long)json_integer_value(json_object_get(json_object_get(r, "warnings"), "W")));
	printf("outcome: %s", json_string_value(json_object_get(o, "how")));
	if (json_string_value(json_object_get(o, "re"))[0] != '\0')
		printf(" %s", json_string_value(json_object_get(o, "re")));
	printf(" — %s\n", json_string_value(json_object_get(o, "text")));
}

int
cmd_referee(struct cli *cli, int argc, char **argv)
{
	json_t *params = json_object(), *r;
	const char *file = NULL;
	bool bad = false;

	for (int a = 1; a < argc && !bad; a++) {
		const char *val = a + 1 < argc ? argv[a + 1] : NULL;

		if (strcmp(argv[a], "--json") == 0) {
			cli->json = true;
		} else if ((strcmp(argv[a], "-r") == 0 || strcmp(argv[a], "--ruleset") == 0) &&
		    val != NULL) {
			json_object_set_new(params, "ruleset", json_string(val));
			a++;
		} else if (strcmp(argv[a], "--clock") == 0 && val != NULL) {
			bad = !cli_set_clock(params, val);
			a++;
		} else if (strcmp(argv[a], "--dead") == 0 && val != NULL) {
			bad = !cli_set_dead(params, val);
			a++;
		} else if (file == NULL && (argv[a][0] != '-' || strcmp(argv[a], "-") == 0)) {
			file = argv[a];
		} else {
			bad = true;
		}
	}
	if (bad || file == NULL) {
		fprintf(stderr, "usage: shoutan %s\n", usage_line);
		json_decref(params);
		return 2;
	}
	if (!cli_timed_input(cli, file, params)) {
		json_decref(params);
		return 1;
	}
	r = cli_call(cli, "referee", params);
	json_decref(params);
	if (r == NULL)
		return 1;
	if (cli->json)
		cli_print_json(r);
	else
		print_referee(r);
	json_decref(r);
	return 0;
}
