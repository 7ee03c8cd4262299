/* shoutan score FILE: who won and by how much under one ruleset, with the full breakdown. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void
print_list(const char *label, const json_t *list)
{
	size_t i, n = json_array_size(list);
	json_t *v;

	if (n == 0)
		return;
	printf("%s (%zu):", label, n);
	json_array_foreach(list, i, v)
		printf(" %s", json_string_value(v));
	printf("\n");
}

void
cli_print_score(const json_t *s)
{
	static const char *const rows[] = { "stones", "territory", "dame_share", "prisoners",
		"groups", "tax", "komi", "handicap_compensation", "total" };
	const json_t *b = json_object_get(s, "black"), *w = json_object_get(s, "white");
	const json_t *native = json_object_get(s, "native"), *v;
	char x[32], y[32];
	size_t i;

	printf("%s: %s (%s) — %s\n", json_string_value(json_object_get(s, "ruleset")),
	    json_string_value(json_object_get(s, "text")),
	    json_string_value(json_object_get(s, "re")),
	    json_string_value(json_object_get(native, "text")));
	printf("%-22s %8s %8s\n", "", "Black", "White");
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const json_t *bv = json_object_get(b, rows[i]), *wv = json_object_get(w, rows[i]);

		printf("%-22s %8s %8s\n", rows[i], bv ? cli_num(bv, x, sizeof(x)) : "",
		    cli_num(wv, y, sizeof(y)));
	}
	print_list("dead", json_object_get(s, "dead"));
	print_list("seki", json_object_get(s, "seki"));
	json_array_foreach(json_object_get(s, "notes"), i, v)
		printf("note: %s\n", json_string_value(v));
}

int
cmd_score(struct cli *cli, int argc, char **argv)
{
	return cli_game_command(cli, argc, argv, "score", "score FILE|- [-r RULESET] "
	    "[--dead auto|none|V,V,...] [--komi X] [--json]", true, false, cli_print_score);
}
