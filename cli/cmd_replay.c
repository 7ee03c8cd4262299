/* shoutan replay FILE: each move's verdict under a ruleset, how the game ended, the final board. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void
print_replay(const json_t *r)
{
	const json_t *m, *end = json_object_get(r, "end");
	size_t i, shown = 0;

	json_array_foreach(json_object_get(r, "moves"), i, m) {
		const char *verdict = json_string_value(json_object_get(m, "verdict"));

		if (strcmp(verdict, "ok") == 0)
			continue;
		printf("move %lld %s %s: %s (%s)\n",
		    (long long)json_integer_value(json_object_get(m, "n")),
		    json_string_value(json_object_get(m, "player")),
		    json_string_value(json_object_get(m, "vertex")), verdict,
		    json_string_value(json_object_get(m, "reason")));
		shown++;
	}
	printf("%s: %zu moves, %zu not ok; end: %s%s%s\n",
	    json_string_value(json_object_get(r, "ruleset")),
	    json_array_size(json_object_get(r, "moves")), shown,
	    json_string_value(json_object_get(end, "state")),
	    json_object_get(end, "why") ? " — " : "",
	    json_object_get(end, "why") ? json_string_value(json_object_get(end, "why")) : "");
	json_array_foreach(json_object_get(r, "position"), i, m)
		printf("  %s\n", json_string_value(m));
}

int
cmd_replay(struct cli *cli, int argc, char **argv)
{
	return cli_game_command(cli, argc, argv, "replay", false, print_replay);
}
