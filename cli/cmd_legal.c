/* shoutan legal FILE MOVE: may the move be played next, why not, what it costs, what it takes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* "B D4: legal, captures 2: C3 D3" or "B E5: illegal: occupied; consequence: reject". */
static void
print_legal(const char *move, const json_t *r)
{
	const json_t *captures = json_object_get(r, "captures"), *v;
	const json_t *suicide = json_object_get(r, "suicide"), *why = json_object_get(r, "why");
	size_t i;

	if (json_is_true(json_object_get(r, "legal"))) {
		printf("%s: legal", move);
		if (json_array_size(captures) > 0) {
			printf(", captures %zu:", json_array_size(captures));
			json_array_foreach(captures, i, v)
				printf(" %s", json_string_value(v));
		}
		if (suicide != NULL)
			printf(", and %lld of its own stones are removed (suicide)",
			    (long long)json_integer_value(suicide));
		printf("\n");
		return;
	}
	printf("%s: illegal: %s; consequence: %s", move,
	    json_string_value(json_object_get(r, "reason")),
	    json_string_value(json_object_get(r, "consequence")));
	if (json_is_string(why))
		printf(" (%s)", json_string_value(why));
	printf("\n");
}

int
cmd_legal(struct cli *cli, int argc, char **argv)
{
	struct cli_args args;
	json_t *params, *r;
	char move[64] = "";
	int rc = cli_parse_args(cli, argc, argv, &args);

	if (rc < 0 && args.noperands < 2)
		rc = cli_usage_error(cli, args.noperands == 0 ? "FILE and MOVE are missing" :
		    "MOVE is missing (a colour and a vertex: B D4, or W pass)");
	if (rc >= 0) {
		cli_args_free(&args);
		return rc;
	}
	/* MOVE is "B D4" in one word, or B and D4 as two. */
	for (int i = 1; i < args.noperands; i++)
		snprintf(move + strlen(move), sizeof(move) - strlen(move), "%s%s", i > 1 ? " " : "",
		    args.operands[i]);
	params = cli_game_params(cli, &args, args.operands[0], false);
	cli_args_free(&args);
	if (params == NULL)
		return CLI_FAILED;
	json_object_set_new(params, "move", json_string(move));
	r = cli_call(cli, "legal", params);
	json_decref(params);
	if (r == NULL)
		return CLI_FAILED;
	if (cli->json)
		cli_print_json(cli, r);
	else
		print_legal(move, r);
	json_decref(r);
	return CLI_OK;
}
