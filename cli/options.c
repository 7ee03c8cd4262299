/* The subcommands' options: one table; each subcommand takes the options its usage line names. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The protocol's bound on game.tree (host/game.c). */
#define CLI_MAX_TREE 100000

/* One option: how the usage lines spell it, its value's name in help (NULL for a flag), what
 * it does, and its parser, which returns NULL or what is wrong with the value. */
struct cli_option {
	const char *name;
	const char *value;
	const char *help;
	const char *(*apply)(struct cli *cli, struct cli_args *args, const char *value);
};

static const char *
apply_ruleset(struct cli *cli, struct cli_args *args, const char *value)
{
	(void)cli;
	args->rulesets = value;
	return NULL;
}

static const char *
apply_dead(struct cli *cli, struct cli_args *args, const char *value)
{
	json_t *list;
	char *copy, *save = NULL;

	(void)cli;
	if (strcmp(value, "auto") == 0 || strcmp(value, "auto-thorough") == 0 ||
	    strcmp(value, "none") == 0) {
		json_object_set_new(args->params, "dead", json_string(value));
		return NULL;
	}
	list = json_array();
	copy = strdup(value);
	for (char *v = copy ? strtok_r(copy, ", ", &save) : NULL; v != NULL;
	    v = strtok_r(NULL, ", ", &save))
		json_array_append_new(list, json_string(v));
	free(copy);
	if (json_array_size(list) == 0) {
		json_decref(list);
		return "--dead takes auto, auto-thorough, none or vertices such as C3,D4";
	}
	/* The method checks that each is a vertex of the board: it knows the board. */
	json_object_set_new(args->params, "dead", list);
	return NULL;
}

static const char *
apply_komi(struct cli *cli, struct cli_args *args, const char *value)
{
	char *end;
	double v = strtod(value, &end);

	(void)cli;
	if (end == value)
		return "--komi takes points (7.5) or zi (3.75zi)";
	if (strcmp(end, "zi") == 0)
		json_object_set_new(args->params, "komi", json_pack("{s:f, s:s}", "value", v, "unit",
		    "zi"));
	else if (*end == '\0' || strcmp(end, "pt") == 0 || strcmp(end, "points") == 0)
		json_object_set_new(args->params, "komi", json_real(v));
	else
		return "--komi takes points (7.5) or zi (3.75zi)";
	return NULL;
}

static const char *
apply_tree(struct cli *cli, struct cli_args *args, const char *value)
{
	char *end;
	long v = strtol(value, &end, 10);

	(void)args;
	if (end == value || *end != '\0' || v < 0 || v > CLI_MAX_TREE)
		return "--tree takes the number of a game tree of the SGF collection, from 0";
	cli->tree = (int)v;
	cli->tree_given = true;
	return NULL;
}

/* "type=dumiao,main=1h,periods=5" as the `clock` object; the method checks the values. */
static const char *
apply_clock(struct cli *cli, struct cli_args *args, const char *value)
{
	json_t *clock = json_object();
	char *copy = strdup(value), *save = NULL;
	bool ok = copy != NULL;

	(void)cli;
	for (char *kv = ok ? strtok_r(copy, ",", &save) : NULL; kv != NULL;
	    kv = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(kv, '=');

		if (eq == NULL || eq == kv) {
			ok = false;
			break;
		}
		*eq = '\0';
		json_object_set_new(clock, kv, json_string(eq + 1));
	}
	free(copy);
	if (!ok || json_object_size(clock) == 0) {
		json_decref(clock);
		return "--clock takes key=value pairs: type=byo-yomi,main=10m,periods=5,period=30s";
	}
	json_object_set_new(args->params, "clock", clock);
	return NULL;
}

static const char *
apply_json(struct cli *cli, struct cli_args *args, const char *value)
{
	(void)args;
	(void)value;
	cli->json = true;
	return NULL;
}

static const char *
apply_compact(struct cli *cli, struct cli_args *args, const char *value)
{
	(void)args;
	(void)value;
	cli->json = true;
	cli->compact = true;
	return NULL;
}

static const char *
apply_jobs(struct cli *cli, struct cli_args *args, const char *value)
{
	char *end;
	long v = strtol(value, &end, 10);

	(void)cli;
	if (end == value || *end != '\0' || v < 1 || v > 256)
		return "-j takes the number of worker processes, 1 to 256";
	args->jobs = (int)v;
	return NULL;
}

static const char *
apply_format(struct cli *cli, struct cli_args *args, const char *value)
{
	(void)cli;
	if (strcmp(value, "jsonl") != 0 && strcmp(value, "csv") != 0)
		return "--format takes jsonl or csv";
	args->format = value;
	return NULL;
}

static const char *
apply_output(struct cli *cli, struct cli_args *args, const char *value)
{
	(void)cli;
	args->output = value;
	return NULL;
}

static const char *
apply_stdin_jsonl(struct cli *cli, struct cli_args *args, const char *value)
{
	(void)cli;
	(void)value;
	args->stdin_jsonl = true;
	return NULL;
}

static const char *
apply_summary(struct cli *cli, struct cli_args *args, const char *value)
{
	(void)cli;
	(void)value;
	args->summary = true;
	return NULL;
}

static const char *
apply_svg(struct cli *cli, struct cli_args *args, const char *value)
{
	(void)cli;
	args->svg = value;
	return NULL;
}

/* A whole number in [min, max] from an option's value; false when it is not one. */
static bool
whole_number(const char *value, long min, long max, long *out)
{
	char *end;
	long v = strtol(value, &end, 10);

	if (end == value || *end != '\0' || v < min || v > max)
		return false;
	*out = v;
	return true;
}

static const char *
apply_size(struct cli *cli, struct cli_args *args, const char *value)
{
	long v;

	(void)cli;
	if (!whole_number(value, 2, 25, &v))
		return "--size takes the lines each way, 2 to 25";
	args->board_size = (int)v;
	return NULL;
}

static const char *
apply_games(struct cli *cli, struct cli_args *args, const char *value)
{
	long v;

	(void)cli;
	if (!whole_number(value, 1, 100000, &v))
		return "--games takes a number of games, 1 to 100000";
	args->games = (int)v;
	return NULL;
}

static const char *
apply_handicap(struct cli *cli, struct cli_args *args, const char *value)
{
	long v;

	(void)cli;
	if (!whole_number(value, 0, 9, &v) || v == 1)
		return "--handicap takes 0, or 2 to 9 stones";
	args->handicap = (int)v;
	return NULL;
}

static const char *
apply_alternate(struct cli *cli, struct cli_args *args, const char *value)
{
	(void)cli;
	(void)value;
	args->alternate = true;
	return NULL;
}

static const char *
apply_sgf(struct cli *cli, struct cli_args *args, const char *value)
{
	(void)cli;
	args->sgf_prefix = value;
	return NULL;
}

static const char *
apply_max_moves(struct cli *cli, struct cli_args *args, const char *value)
{
	long v;

	(void)cli;
	if (!whole_number(value, 1, 100000, &v))
		return "--max-moves takes a number of moves, 1 to 100000";
	args->max_moves = (int)v;
	return NULL;
}

static const char *
apply_timeout(struct cli *cli, struct cli_args *args, const char *value)
{
	int64_t ms;

	(void)cli;
	if (!sht_duration_parse(value, &ms) || ms <= 0)
		return "--timeout takes a duration: 30 (seconds), 1m30s, 500ms";
	args->move_timeout_ms = (long)ms;
	return NULL;
}

static const struct cli_option options[] = {
	{ "-r", "RULESET", "the ruleset (for compare and batch, a comma-separated list; all by "
	    "default); without it, the record's RU (igs for a record from the NNGS or IGS "
	    "server, named in PC, with no other RU than Japanese), else chinese", apply_ruleset },
	{ "--dead", "auto|auto-thorough|none|V,V,...", "dead stones: judged automatically (auto, "
	    "the default, then the open position settled; a record that stopped before the end is "
	    "counted two or three times with different playout seeds and the median kept; "
	    "auto-thorough counts three to nine times: more often exact on the test records), "
	    "none, or one vertex of each dead chain", apply_dead },
	{ "--komi", "X", "komi in points (7.5) or in zi (3.75zi), over the record's and the "
	    "ruleset's", apply_komi },
	{ "--clock", "KEY=VALUE,...", "the time control, over the ruleset's and the record's: "
	    "type=absolute|byo-yomi|canadian|fischer|dumiao|minute-counting, main, periods, "
	    "period, moves, increment, delay, remainder", apply_clock },
	{ "--tree", "N", "the game tree N of an SGF collection, from 0 (default 0)", apply_tree },
	{ "--json", NULL, "the method's result as JSON, exactly the daemon's result object: "
	    "indented on a terminal, else on one line", apply_json },
	{ "--compact", NULL, "JSON on one line, even on a terminal (implies --json)",
	    apply_compact },
	{ "-j", "JOBS", "worker processes scoring at once (default: one a core)", apply_jobs },
	{ "--format", "jsonl|csv", "one JSON object a line (the default), or CSV with a header; "
	    "the columns are the same", apply_format },
	{ "-o", "OUT", "write the records to OUT (CSV when its name ends in .csv and --format "
	    "does not say) rather than standard output", apply_output },
	{ "--stdin-jsonl", NULL, "the records are standard input's lines: JSON game objects, or "
	    "{\"sgf\": TEXT} with an optional \"tree\", each with an optional \"file\" naming it; "
	    "for Hadoop streaming, Spark's pipe or GNU parallel", apply_stdin_jsonl },
	{ "--summary", NULL, "after the records, the research summary: per ruleset, per pair of "
	    "rulesets (winner changes, margin differences), winner changes by board size and by "
	    "period, agreement with the record by collection; on standard output when the records "
	    "go to a file (-o), else on standard error", apply_summary },
	{ "--size", "N", "lines each way of the board (default: the ruleset's)", apply_size },
	{ "--games", "K", "games in the match (default 1)", apply_games },
	{ "--handicap", "N", "handicap stones, 2 to 9, at GTP's fixed points (Black's engine "
	    "places them with fixed_handicap, White's is told with set_free_handicap)",
	    apply_handicap },
	{ "--alternate", NULL, "the engines change colours after each game (default: the first "
	    "engine is always Black)", apply_alternate },
	{ "--sgf", "PREFIX", "write game K to PREFIX-K.sgf (default referee-gtp), overwriting",
	    apply_sgf },
	{ "--max-moves", "N", "a game not over after N moves ends with no result (default three "
	    "times the points of the board)", apply_max_moves },
	{ "--timeout", "DURATION", "without --clock, how long an engine may think over one move "
	    "before it is taken to have hung, killed, and loses the game (default 60s); with "
	    "--clock the clock decides", apply_timeout },
	{ "--svg", "FILE", "a picture as SVG in FILE: for score, the board after the judgement "
	    "(territory, dead stones, seki, dame, settle moves, the result); for compare, a board "
	    "per ruleset; for batch and report, the summary's charts (a histogram of margin "
	    "differences for each pair of rulesets, the tables as shaded grids)", apply_svg },
};

#define NOPTIONS (sizeof(options) / sizeof(options[0]))

/* Where a usage line may start an option: at its start, after a space, '[' or '|'. */
static bool
starts_word(const char *usage, const char *p)
{
	return p == usage || p[-1] == ' ' || p[-1] == '[' || p[-1] == '|';
}

/* Whether the usage line names the option `name` as a word of its own ("[--dead ...]",
 * "-r RULESET", "|--compact"), not inside another ("--deadline"). */
static bool
usage_names(const char *usage, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = strstr(usage, name); p != NULL; p = strstr(p + 1, name)) {
		char after = p[len];

		if (starts_word(usage, p) && (after == '\0' || after == ' ' || after == ']' ||
		    after == '|'))
			return true;
	}
	return false;
}

static const struct cli_option *
option_find(const char *name, size_t len)
{
	for (size_t i = 0; i < NOPTIONS; i++)
		if (strlen(options[i].name) == len && strncmp(options[i].name, name, len) == 0)
			return &options[i];
	return NULL;
}

int
cli_usage_error(const struct cli *cli, const char *fmt, ...)
{
	const char *usage = cli_usage(cli->command);
	va_list ap;

	fprintf(stderr, "shoutan %s: ", cli->command);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nusage: shoutan %s\n", usage ? usage : cli->command);
	return CLI_USAGE;
}

/* An option's text under its name, indented and wrapped to fit 80 columns. */
static void
print_wrapped(FILE *f, const char *text)
{
	enum { INDENT = 6, WIDTH = 78 };
	int col = 0;

	while (*text != '\0') {
		int word = (int)strcspn(text, " ");

		if (col > 0 && col + 1 + word > WIDTH) {
			fputc('\n', f);
			col = 0;
		}
		col += fprintf(f, "%*s%.*s", col == 0 ? INDENT : 1, "", word, text);
		text += word;
		text += strspn(text, " ");
	}
	fputc('\n', f);
}

void
cli_print_help(FILE *f, const char *name)
{
	const char *usage = cli_usage(name), *summary = cli_summary(name);

	fprintf(f, "usage: shoutan %s\n", usage);
	if (summary != NULL)
		fprintf(f, "%s\n", summary);
	if (usage_names(usage, "FILE|-") || strstr(usage, "FILE...") != NULL)
		fprintf(f, "FILE is an SGF record or JSON (shoutan(1) says which); - reads "
		    "standard input.\n");
	fprintf(f, "\n");
	/* The options in the order the usage line names them. */
	for (const char *p = usage; *p != '\0'; p++) {
		const struct cli_option *o;
		size_t len;

		if (*p != '-' || !starts_word(usage, p))
			continue;
		len = strcspn(p, " ]|");
		if ((o = option_find(p, len)) == NULL)
			continue;
		p += len;
		/* The value as this usage line spells it ("-r A,B,..." for compare). */
		if (o->value != NULL && *p == ' ' && p[1] != '[')
			fprintf(f, "  %s %.*s\n", o->name, (int)strcspn(p + 1, " ]"), p + 1);
		else
			fprintf(f, "  %s\n", o->name);
		print_wrapped(f, o->help);
		p--;
	}
	fprintf(f, "  --help\n      this help\n");
}

void
cli_args_free(struct cli_args *args)
{
	free(args->operands);
	json_decref(args->params);
	memset(args, 0, sizeof(*args));
}

int
cli_parse_args(struct cli *cli, int argc, char **argv, struct cli_args *args)
{
	const char *usage = cli_usage(argv[0]);
	bool options_end = false;

	memset(args, 0, sizeof(*args));
	cli->command = argv[0];
	/* --help wins wherever it is, so that a half-typed command line still asks for help. */
	for (int a = 1; a < argc && strcmp(argv[a], "--") != 0; a++)
		if (strcmp(argv[a], "--help") == 0 || strcmp(argv[a], "-h") == 0) {
			cli_print_help(stdout, argv[0]);
			return CLI_OK;
		}
	args->params = json_object();
	args->operands = calloc((size_t)argc, sizeof(*args->operands));
	if (args->params == NULL || args->operands == NULL) {
		fprintf(stderr, "shoutan %s: out of memory\n", cli->command);
		return CLI_FAILED;
	}
	for (int a = 1; a < argc; a++) {
		const char *arg = argv[a], *eq, *value = NULL, *why;
		const struct cli_option *o;
		size_t len;

		/* "-" is standard input; after "--" even "-x" is an operand. */
		if (options_end || arg[0] != '-' || arg[1] == '\0') {
			args->operands[args->noperands++] = arg;
			continue;
		}
		if (strcmp(arg, "--") == 0) {
			options_end = true;
			continue;
		}
		eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
		len = eq ? (size_t)(eq - arg) : strlen(arg);
		o = option_find(arg, len);
		if (o == NULL || !usage_names(usage, o->name))
			return cli_usage_error(cli, "unknown option '%.*s'", (int)len, arg);
		if (o->value != NULL) {
			if (eq != NULL)
				value = eq + 1;
			else if (a + 1 < argc)
				value = argv[++a];
			else
				return cli_usage_error(cli, "option '%s' needs a value (%s)", o->name,
				    o->value);
		} else if (eq != NULL) {
			return cli_usage_error(cli, "option '%s' takes no value", o->name);
		}
		if ((why = o->apply(cli, args, value)) != NULL)
			return cli_usage_error(cli, "%s", why);
	}
	return -1;
}
