/* shoutan rulesets: the loaded rulesets, one per line. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int
cmd_rulesets(struct cli *cli, int argc, char **argv)
{
	json_t *r, *rs;
	size_t i;
	char k[16];

	for (int a = 1; a < argc; a++) {
		if (strcmp(argv[a], "--json") == 0) {
			cli->json = true;
		} else {
			fprintf(stderr, "usage: shoutan rulesets [--json]\n");
			return 2;
		}
	}
	r = cli_call(cli, "rulesets", NULL);
	if (r == NULL)
		return 1;
	if (cli->json) {
		cli_print_json(r);
	} else {
		printf("%-14s %-9s %-6s %-6s %-5s %s\n", "NAME", "PLUGIN", "BOARD", "KOMI", "FIRST",
		    "TITLE");
		json_array_foreach(json_object_get(r, "rulesets"), i, rs) {
			json_t *b = json_object_get(rs, "board");
			char board[16];

			snprintf(board, sizeof(board), "%lldx%lld",
			    (long long)json_integer_value(json_array_get(b, 0)),
			    (long long)json_integer_value(json_array_get(b, 1)));
			printf("%-14s %-9s %-6s %-6s %-5s %s\n",
			    json_string_value(json_object_get(rs, "name")),
			    json_string_value(json_object_get(rs, "plugin")), board,
			    cli_num(json_object_get(rs, "komi"), k, sizeof(k)),
			    json_string_value(json_object_get(rs, "first")),
			    json_string_value(json_object_get(rs, "title")));
		}
	}
	json_decref(r);
	return 0;
}
