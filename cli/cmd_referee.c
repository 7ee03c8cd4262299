/* shoutan referee: a game's event log ruled event by event under a ruleset, and the outcome. */
#include <stdio.h>

#include "cli.h"

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
	return cli_timed_command(cli, argc, argv, "referee", print_referee);
}
