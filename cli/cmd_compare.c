/* shoutan compare FILE: the same game under several rulesets, one row each, winner changes marked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* "B x / W y" for one breakdown field. */
static const char *
pair(const json_t *s, const char *field, char *buf, size_t len)
{
	char b[16], w[16];

	snprintf(buf, len, "%s/%s", cli_num(json_object_get(json_object_get(s, "black"), field), b,
	    sizeof(b)), cli_num(json_object_get(json_object_get(s, "white"), field), w, sizeof(w)));
	return buf;
}

static void
print_compare(const json_t *r)
{
	const char *first_winner = NULL;
	const json_t *s;
	size_t i;

	printf("  %-13s %-9s %-9s %-9s %-9s %-5s %-9s %-6s %-11s %-9s %s\n", "RULESET", "STONES",
	    "TERRITORY", "DAME", "PRISONERS", "GROUPS", "TAX", "KOMI", "TOTAL", "RESULT", "NATIVE");
	printf("  %-13s %-9s %-9s %-9s %-9s %-5s %-9s %-6s %-11s\n", "", "B/W", "B/W", "B/W", "B/W",
	    "B/W", "B/W", "W", "B/W");
	json_array_foreach(json_object_get(r, "results"), i, s) {
		char st[24], te[24], da[24], pr[24], gr[24], tx[24], tot[24], k[16];
		const char *winner = json_string_value(json_object_get(s, "winner"));
		const json_t *e = json_object_get(s, "error");
		bool changed;

		if (e != NULL) {
			printf("  %-13s error: %s\n", json_string_value(json_object_get(s, "ruleset")),
			    json_string_value(json_object_get(e, "message")));
			continue;
		}
		if (first_winner == NULL)
			first_winner = winner;
		changed = strcmp(first_winner, winner) != 0;
		/* '*' marks a ruleset whose winner differs from the first row's. */
		printf("%c %-13s %-9s %-9s %-9s %-9s %-5s %-9s %-6s %-11s %-9s %s\n",
		    changed ? '*' : ' ', json_string_value(json_object_get(s, "ruleset")),
		    pair(s, "stones", st, sizeof(st)), pair(s, "territory", te, sizeof(te)),
		    pair(s, "dame_share", da, sizeof(da)), pair(s, "prisoners", pr, sizeof(pr)),
		    pair(s, "groups", gr, sizeof(gr)), pair(s, "tax", tx, sizeof(tx)),
		    cli_num(json_object_get(json_object_get(s, "white"), "komi"), k, sizeof(k)),
		    pair(s, "total", tot, sizeof(tot)),
		    json_string_value(json_object_get(s, "re")),
		    json_string_value(json_object_get(json_object_get(s, "native"), "text")));
	}
	printf("%s\n", json_is_true(json_object_get(r, "winners_agree")) ?
	    "The winner is the same under every ruleset." :
	    "* the winner differs from the first ruleset's.");
}

int
cmd_compare(struct cli *cli, int argc, char **argv)
{
	return cli_game_command(cli, argc, argv, "compare", true, print_compare);
}
