/* shoutan: the command-line referee: rulesets, describe, score, compare, replay, clock, referee. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const struct cli_command commands[] = {
	{ "rulesets", "rulesets [--json]", cmd_rulesets },
	{ "describe", "describe RULESET [--json]", cmd_describe },
	{ "score", "score FILE|- [-r RULESET] [--dead auto|none|V,V,...] [--komi X] [--json]",
	    cmd_score },
	{ "compare", "compare FILE|- [-r A,B,...] [--dead ...] [--komi X] [--json]", cmd_compare },
	{ "replay", "replay FILE|- [-r RULESET] [--json]", cmd_replay },
	{ "clock", "clock FILE|- [-r RULESET] [--clock type=dumiao,main=1h,...] [--json]",
	    cmd_clock },
	{ "referee", "referee FILE|- -r RULESET [--clock ...] [--dead ...] [--json]", cmd_referee },
};

static void
usage(FILE *f)
{
	fprintf(f, "usage: shoutan [--socket PATH] [--rulesets-dir DIR] [--plugins-dir DIR] COMMAND "
	    "[ARGS]\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %s\n", commands[i].usage);
	fprintf(f, "FILE is an SGF record or a JSON game object; - reads standard input.\n");
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

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "socket", required_argument, NULL, 'S' },
		{ "rulesets-dir", required_argument, NULL, 'R' },
		{ "plugins-dir", required_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cli cli;
	int c, rc;

	memset(&cli, 0, sizeof(cli));
	cli.sock = -1;
	/* Global options come before the command; the command parses its own. */
	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		switch (c) {
		case 'S':
			cli.socket_path = optarg;
			break;
		case 'R':
			cli.rulesets_dir = optarg;
			break;
		case 'P':
			cli.plugins_dir = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return 2;
	}
	default_dirs(&cli);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(commands[i].name, argv[optind]) != 0)
			continue;
		/* Through the daemon, the daemon's rulesets answer; nothing is loaded here. */
		if (cli.socket_path == NULL && !cli_load_registry(&cli))
			return 1;
		argv += optind;
		argc -= optind;
		optind = 1;
		rc = commands[i].run(&cli, argc, argv);
		sht_registry_free(cli.registry);
		if (cli.sock >= 0)
			close(cli.sock);
		free(cli.input_text);
		return rc;
	}
	fprintf(stderr, "shoutan: unknown command '%s'\n", argv[optind]);
	usage(stderr);
	return 2;
}
