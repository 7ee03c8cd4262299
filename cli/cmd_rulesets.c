/* shoutan rulesets: the loaded rulesets, one per line. */
#include <stdio.h>

#include "cli.h"

int
cmd_rulesets(struct cli *cli, int argc, char **argv)
{
	struct cli_args args;
	json_t *r, *rs;
	size_t i;
	char k[16];
	int rc = cli_parse_args(cli, argc, argv, &args);

	if (rc < 0 && args.noperands > 0)
		rc = cli_usage_error(cli, "takes no operand ('%s')", args.operands[0]);
	cli_args_free(&args);
	if (rc >= 0)
		return rc;
	r = cli_call(cli, "rulesets", NULL);
	if (r == NULL)
		return CLI_FAILED;
	if (cli->json) {
		cli_print_json(cli, r);
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
	return CLI_OK;
}
