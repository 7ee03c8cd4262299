/* shoutan replay FILE: each move's verdict under a ruleset, how the game ended, the final board. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int
cmd_replay(struct cli *cli, int argc, char **argv)
{
	json_t *params = json_object(), *game, *r, *m, *end;
	const char *file, *ruleset;
	size_t i, shown = 0;

	if (!cli_game_args(cli, argc, argv, "replay FILE|- [-r RULESET] [--komi X] [--json]", false,
	    &file, &ruleset, params)) {
		json_decref(params);
		return 2;
	}
	if ((game = cli_read_game(cli, file)) == NULL) {
		json_decref(params);
		return 1;
	}
	json_object_set_new(params, "game", game);
	if (ruleset != NULL)
		json_object_set_new(params, "ruleset", json_string(ruleset));
	r = cli_call(cli, "replay", params);
	json_decref(params);
	if (r == NULL)
		return 1;
	if (cli->json) {
		cli_print_json(r);
		json_decref(r);
		return 0;
	}
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
	end = json_object_get(r, "end");
	printf("%s: %zu moves, %zu not ok; end: %s%s%s\n",
	    json_string_value(json_object_get(r, "ruleset")),
	    json_array_size(json_object_get(r, "moves")), shown,
	    json_string_value(json_object_get(end, "state")),
	    json_object_get(end, "why") ? " — " : "",
	    json_object_get(end, "why") ? json_string_value(json_object_get(end, "why")) : "");
	json_array_foreach(json_object_get(r, "position"), i, m)
		printf("  %s\n", json_string_value(m));
	json_decref(r);
	return 0;
}
