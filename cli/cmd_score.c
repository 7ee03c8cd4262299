/* shoutan score FILE...: who won and by how much under one ruleset, with the full breakdown. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json_text.h"

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

/* "settle (3): B C3 dame, W D4 protect?, ..." where ? marks a point the judge was unsure of. */
static void
print_settle(const json_t *list)
{
	size_t i, n = json_array_size(list);
	json_t *v;

	if (n == 0)
		return;
	printf("settle (%zu):", n);
	json_array_foreach(list, i, v)
		printf("%s %s %s %s%s", i ? "," : "", json_string_value(json_object_get(v, "color")),
		    json_string_value(json_object_get(v, "move")),
		    json_string_value(json_object_get(v, "reason")),
		    json_is_true(json_object_get(v, "unsure")) ? "?" : "");
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

		/* A ruleset's bonus (Tibetan go), only where there is one. */
		if (strcmp(rows[i], "total") == 0 && (json_object_get(b, "bonus") != NULL ||
		    json_object_get(w, "bonus") != NULL))
			printf("%-22s %8s %8s\n", "bonus", json_object_get(b, "bonus") ?
			    cli_num(json_object_get(b, "bonus"), x, sizeof(x)) : "0",
			    json_object_get(w, "bonus") ? cli_num(json_object_get(w, "bonus"), y,
			    sizeof(y)) : "0");
		printf("%-22s %8s %8s\n", rows[i], bv ? cli_num(bv, x, sizeof(x)) : "",
		    cli_num(wv, y, sizeof(y)));
	}
	print_list("dead", json_object_get(s, "dead"));
	print_list("seki", json_object_get(s, "seki"));
	print_settle(json_object_get(s, "settle"));
	json_array_foreach(json_object_get(s, "notes"), i, v)
		printf("note: %s\n", json_string_value(v));
}

/* One file's score as a line of JSON Lines: {"file": ..., "result": ...} or {"file": ...,
 * "error": {"message": ..., "kind": ...}}, whatever the terminal, since a script reads it. */
static void
print_json_line(const struct cli *cli, const char *file, json_t *result)
{
	json_t *line = json_object();
	char *text;

	json_object_set_new(line, "file", sht_json_string_lossy(file));
	if (result != NULL) {
		json_object_set(line, "result", result);
	} else {
		json_t *e = json_object();

		json_object_set_new(e, "message", sht_json_string_lossy(cli->last_error));

		if (cli->last_error_kind != NULL)
			json_object_set_new(e, "kind", json_string(cli->last_error_kind));
		json_object_set_new(line, "error", e);
	}
	text = json_dumps(line, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	if (text != NULL)
		puts(text);
	free(text);
	json_decref(line);
}

/* Each FILE in turn, going on past one that fails; with several, each score is headed by its
 * file's name (people) or is one line of JSON (--json).  Exit 1 when any file failed. */
int
cmd_score(struct cli *cli, int argc, char **argv)
{
	struct cli_args args;
	int rc = cli_parse_args(cli, argc, argv, &args), stdin_files = 0, failed = 0;
	bool several;

	for (int i = 0; rc < 0 && i < args.noperands; i++)
		stdin_files += strcmp(args.operands[i], "-") == 0;
	if (rc < 0 && args.noperands == 0)
		rc = cli_usage_error(cli, "FILE is missing");
	else if (rc < 0 && stdin_files > 1)
		rc = cli_usage_error(cli, "standard input (-) can be read once");
	else if (rc < 0 && args.svg != NULL && args.noperands > 1)
		rc = cli_usage_error(cli, "--svg draws one FILE's board");
	if (rc >= 0) {
		cli_args_free(&args);
		return rc;
	}
	several = args.noperands > 1;
	for (int i = 0; i < args.noperands; i++) {
		const char *file = args.operands[i];
		json_t *params, *r = NULL;

		if (several && !cli->json) {
			printf("%s==> %s <==\n", i > 0 ? "\n" : "", file);
			/* Before this file's messages on stderr, on a terminal. */
			fflush(stdout);
		}
		params = cli_game_params(cli, &args, file, false);
		if (params != NULL)
			r = cli_call(cli, "score", params);
		if (r != NULL && args.svg != NULL && !cli_write_picture(cli, params, false, args.svg))
			failed++;
		json_decref(params);
		failed += r == NULL;
		if (several && cli->json)
			print_json_line(cli, file, r);
		else if (r != NULL && cli->json)
			cli_print_json(cli, r);
		else if (r != NULL)
			cli_print_score(r);
		json_decref(r);
	}
	cli_args_free(&args);
	return failed > 0 ? CLI_FAILED : CLI_OK;
}
