/* shoutan describe RULESET: its parameters (with what is reconstructed), description, sources. */
#include <stdio.h>

#include "cli.h"

int
cmd_describe(struct cli *cli, int argc, char **argv)
{
	struct cli_args args;
	json_t *params, *r, *p;
	size_t i;
	bool any_r = false;
	int rc = cli_parse_args(cli, argc, argv, &args);

	if (rc < 0 && args.noperands != 1)
		rc = cli_usage_error(cli, args.noperands == 0 ? "RULESET is missing" :
		    "takes one RULESET");
	if (rc >= 0) {
		cli_args_free(&args);
		return rc;
	}
	params = json_pack("{s:s}", "ruleset", args.operands[0]);
	cli_args_free(&args);
	r = cli_call(cli, "describe", params);
	json_decref(params);
	if (r == NULL)
		return CLI_FAILED;
	if (cli->json) {
		cli_print_json(cli, r);
		json_decref(r);
		return CLI_OK;
	}
	printf("%s — %s\n", json_string_value(json_object_get(r, "name")),
	    json_string_value(json_object_get(r, "title")));
	printf("plugin %s, file %s\n\n%s\n\n%s\n\nParameters:\n",
	    json_string_value(json_object_get(r, "plugin")),
	    json_string_value(json_object_get(r, "file")),
	    json_string_value(json_object_get(r, "summary")),
	    json_string_value(json_object_get(r, "description")));
	json_array_foreach(json_object_get(r, "parameters"), i, p) {
		bool rec = json_is_true(json_object_get(p, "reconstruction"));
		bool set = json_is_true(json_object_get(p, "set_in_file"));

		any_r |= rec;
		printf("  %-22s %-16s %s%s%s\n", json_string_value(json_object_get(p, "name")),
		    json_string_value(json_object_get(p, "value")),
		    set ? "" : "(default) ", rec ? "[R] " : "",
		    json_string_value(json_object_get(p, "description")));
		if (json_is_string(json_object_get(p, "reconstruction_note")))
			printf("  %-39s [R] here: %s\n", "", json_string_value(json_object_get(p,
			    "reconstruction_note")));
	}
	if (any_r)
		printf("\n[R] marks a reconstruction: history is silent and this is the default "
		    "chosen (docs/rules.md).\n");
	if (json_is_object(json_object_get(r, "clock"))) {
		const json_t *c = json_object_get(r, "clock");
		char t[32];

		printf("\nClock: %s, main time %s", json_string_value(json_object_get(c, "type")),
		    cli_ms(json_integer_value(json_object_get(c, "main_ms")), t, sizeof(t)));
		if (json_object_get(c, "periods") != NULL)
			printf(", %lld period%s", (long long)json_integer_value(json_object_get(c,
			    "periods")), json_integer_value(json_object_get(c, "periods")) == 1 ?
			    "" : "s");
		if (json_object_get(c, "remainder_ms") != NULL)
			printf(", read from %s left", cli_ms(json_integer_value(json_object_get(c,
			    "remainder_ms")), t, sizeof(t)));
		printf("\n");
	}
	printf("\nSources: %s\n", json_string_value(json_object_get(r, "sources")));
	json_decref(r);
	return CLI_OK;
}
