/* shoutan: the command-line referee: global options, help, version, dispatch to subcommands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "shoutan/protocol.h"
#include "version.h"

/* Each subcommand runs the method of its name; the method's entry holds its usage line. */
static const struct cli_command commands[] = {
	{ "rulesets", cmd_rulesets, NULL, NULL },
	{ "describe", cmd_describe, NULL, NULL },
	{ "score", cmd_score, NULL, NULL },
	{ "legal", cmd_legal, NULL, NULL },
	{ "compare", cmd_compare, NULL, NULL },
	{ "replay", cmd_replay, NULL, NULL },
	{ "clock", cmd_clock, NULL, NULL },
	{ "referee", cmd_referee, NULL, NULL },
	{ "batch", cmd_batch, "batch PATH...|- [-r A,B,...] [--dead auto|auto-thorough|none] "
	    "[--komi X] [-j JOBS] [--format jsonl|csv] [-o OUT] [--summary] [--svg FILE] | "
	    "batch --stdin-jsonl [...]",
	  "Every game of files, folders and archives (.zip, .tar.gz, ...) scored under each "
	  "ruleset, one record a game and ruleset, on every core." },
	{ "referee-gtp", cmd_referee_gtp, "referee-gtp [-r RULESET] [--size N] [--games K] "
	    "[--komi X] [--handicap N] [--clock KEY=VALUE,...] [--alternate] [--sgf PREFIX] "
	    "[--max-moves N] [--timeout DURATION] [--json|--compact] -- BLACK_CMD... -- "
	    "WHITE_CMD...",
	  "A match between two GTP engines, refereed under a ruleset: legality and its "
	  "consequences, clocks, the end and the count; each game written as SGF, then the "
	  "results table." },
	{ "report", cmd_report, "report RESULTS|- [--svg FILE]",
	  "The research summary of batch's JSON lines: rulesets, pairs of rulesets, winner "
	  "changes by board size and period, agreement with the record by collection." },
};

static const char global_usage[] = "usage: shoutan [--socket PATH] [--rulesets-dir DIR] "
    "[--plugins-dir DIR] COMMAND [ARGS]\n"
    "       shoutan --version | --help | help [COMMAND]\n";

const struct cli_command *
cli_command_find(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

const char *
cli_usage(const char *name)
{
	const struct cli_command *c = cli_command_find(name);
	const struct sht_method_entry *m = sht_method_find(name);

	if (c != NULL && c->usage != NULL)
		return c->usage;
	return m != NULL ? m->usage : NULL;
}

const char *
cli_summary(const char *name)
{
	const struct cli_command *c = cli_command_find(name);
	const struct sht_method_entry *m = sht_method_find(name);

	if (c != NULL && c->summary != NULL)
		return c->summary;
	return m != NULL ? m->summary : NULL;
}

/* The commands in the protocol's order, each with its usage line: the methods' entries give
 * both, and a method without a usage line has no subcommand. */
static void
usage(FILE *f)
{
	const struct sht_method_entry *const *entries;
	size_t n;

	fputs(global_usage, f);
	fprintf(f, "commands:\n");
	entries = sht_method_entries(&n);
	for (size_t i = 0; i < n; i++)
		if (entries[i]->usage != NULL && cli_command_find(entries[i]->name) != NULL)
			fprintf(f, "  %s\n", entries[i]->usage);
	/* Then the command's own, which no method runs. */
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (commands[i].usage != NULL)
			fprintf(f, "  %s\n", commands[i].usage);
	fprintf(f, "FILE is an SGF record or JSON (shoutan(1) says which); - reads standard "
	    "input.\n'shoutan help COMMAND' or 'shoutan COMMAND --help' says what a command's options "
	    "do.\n");
}

/* Plugins and rulesets: the options, else $SHOUTAN_PLUGINS_DIR / $SHOUTAN_RULESETS_DIR, else
 * the build tree when this binary runs from it, else the installed directories. */
static void
default_dirs(struct cli *cli)
{
	const char *plugins, *rulesets;

	sht_default_dirs(&plugins, &rulesets);
	if (cli->plugins_dir == NULL)
		cli->plugins_dir = plugins;
	if (cli->rulesets_dir == NULL)
		cli->rulesets_dir = rulesets;
}

/* `shoutan help [COMMAND]`: the help asked for, on standard output. */
static int
help(int argc, char **argv)
{
	if (argc < 2) {
		usage(stdout);
		return CLI_OK;
	}
	if (argc > 2) {
		fprintf(stderr, "shoutan help: takes one command\n");
		usage(stderr);
		return CLI_USAGE;
	}
	if (cli_command_find(argv[1]) == NULL || cli_usage(argv[1]) == NULL) {
		fprintf(stderr, "shoutan help: unknown command '%s'\n", argv[1]);
		usage(stderr);
		return CLI_USAGE;
	}
	cli_print_help(stdout, argv[1]);
	return CLI_OK;
}

/* A global option with a value: "--socket PATH" or "--socket=PATH".  Returns the value (and
 * advances *a past it), or NULL when arg is not this option. */
static const char *
global_value(const char *name, int argc, char **argv, int *a, bool *missing)
{
	size_t len = strlen(name);

	if (strncmp(argv[*a], name, len) != 0)
		return NULL;
	if (argv[*a][len] == '=')
		return argv[*a] + len + 1;
	if (argv[*a][len] != '\0')
		return NULL;
	if (*a + 1 >= argc) {
		*missing = true;
		return NULL;
	}
	return argv[++*a];
}

int
main(int argc, char **argv)
{
	const struct cli_command *cmd;
	struct cli cli;
	int a, rc;

	memset(&cli, 0, sizeof(cli));
	cli.sock = -1;
	/* JSON for a person is indented; for a pipe or a file, one line a script reads. */
	cli.compact = !isatty(STDOUT_FILENO);
	/* Global options come before the command; the command parses its own. */
	for (a = 1; a < argc && argv[a][0] == '-'; a++) {
		bool missing = false;
		const char *v;

		if (strcmp(argv[a], "--help") == 0 || strcmp(argv[a], "-h") == 0) {
			usage(stdout);
			return CLI_OK;
		} else if (strcmp(argv[a], "--version") == 0) {
			printf("shoutan %s (protocol %d, plugin ABI %d)\n", SHT_VERSION,
			    SHT_PROTOCOL_VERSION, SHT_RULESET_ABI_VERSION);
			return CLI_OK;
		} else if ((v = global_value("--socket", argc, argv, &a, &missing)) != NULL) {
			cli.socket_path = v;
		} else if ((v = global_value("--rulesets-dir", argc, argv, &a, &missing)) != NULL) {
			cli.rulesets_dir = v;
		} else if ((v = global_value("--plugins-dir", argc, argv, &a, &missing)) != NULL) {
			cli.plugins_dir = v;
		} else {
			fprintf(stderr, missing ? "shoutan: option '%s' needs a value\n" :
			    "shoutan: unknown option '%s'\n", argv[a]);
			usage(stderr);
			return CLI_USAGE;
		}
	}
	if (a >= argc) {
		usage(stderr);
		return CLI_USAGE;
	}
	if (strcmp(argv[a], "help") == 0)
		return help(argc - a, argv + a);
	cmd = cli_command_find(argv[a]);
	if (cmd == NULL || cli_usage(cmd->name) == NULL) {
		fprintf(stderr, "shoutan: unknown command '%s'\n", argv[a]);
		usage(stderr);
		return CLI_USAGE;
	}
	/* The rulesets load at the first call (cli_call), so that --help answers even when
	 * they cannot load. */
	default_dirs(&cli);
	rc = cmd->run(&cli, argc - a, argv + a);
	sht_registry_free(cli.registry);
	if (cli.sock >= 0)
		close(cli.sock);
	free(cli.input_text);
	return rc;
}
