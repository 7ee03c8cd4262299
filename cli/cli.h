/* What the command's files share: options, parsed arguments, input, calls and output. */
#ifndef SHOUTAN_CLI_H
#define SHOUTAN_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "host.h"

struct cli {
	const char *socket_path;  /* --socket: run the methods in the daemon */
	int sock;                 /* its connection, once open */
	const char *plugins_dir;
	const char *rulesets_dir;
	struct sht_registry *registry;
	struct sht_context ctx;
	const char *command;      /* the subcommand's name, for messages: "shoutan score: ..." */
	bool json;                /* --json (or --compact) */
	bool compact;             /* --compact, or standard output is not a terminal */
	int tree;                 /* --tree: the game tree of an SGF collection, from 0 */
	bool tree_given;
	const char *input_name;   /* the FILE argument, for error messages */
	char *input_text;         /* its contents */
	size_t input_len;
	char last_error[SHT_ERR_MAX + 512]; /* the last message on stderr, for score --json */
	const char *last_error_kind;        /* its protocol kind, NULL for the command's own */
};

/* A subcommand: its name is a method's, whose entry gives the usage line and summary, or
 * the command's own (batch), which gives them here. */
struct cli_command {
	const char *name;
	int (*run)(struct cli *cli, int argc, char **argv);
	const char *usage;   /* NULL: the method's */
	const char *summary;
};

/* Exit statuses: a usage error is 2, as for most Unix commands. */
enum { CLI_OK = 0, CLI_FAILED = 1, CLI_USAGE = 2 };

/* A subcommand's arguments once its options are parsed: the operands (FILE, RULESET, MOVE
 * words) in order, -r's text, and the members options add to the method's params. */
struct cli_args {
	const char **operands;
	int noperands;
	const char *rulesets;     /* -r, as given: one name, or a list for compare */
	json_t *params;           /* dead, komi, clock */
	int jobs;                 /* batch's -j, 0 when not given */
	const char *format;       /* batch's --format: "jsonl" or "csv", NULL when not given */
	const char *output;       /* batch's -o */
	bool stdin_jsonl;         /* batch's --stdin-jsonl */
	bool summary;             /* batch's --summary */
	const char *svg;          /* batch's and report's --svg */
	/* referee-gtp's: the board, the match, the records, the limits (0 when not given) */
	int board_size;           /* --size */
	int games;                /* --games */
	int handicap;             /* --handicap */
	bool alternate;           /* --alternate: the engines change colours each game */
	const char *sgf_prefix;   /* --sgf: the games go to PREFIX-1.sgf, PREFIX-2.sgf, ... */
	int max_moves;            /* --max-moves */
	long move_timeout_ms;     /* --timeout, without a clock */
};

/* The subcommands, for dispatch and help. */
const struct cli_command *cli_command_find(const char *name);
/* A subcommand's usage line ("score FILE... [-r RULESET] ...") and summary, from its method's
 * entry; NULL when the method has no subcommand. */
const char *cli_usage(const char *name);
const char *cli_summary(const char *name);

/* Parses argv (argv[0] is the subcommand) against the options its usage line names.  Returns
 * -1 to go on; else the exit status: 0 after --help printed the help, 2 after a usage error
 * printed the message and the usage.  args->params must be freed with cli_args_free. */
int cli_parse_args(struct cli *cli, int argc, char **argv, struct cli_args *args);
void cli_args_free(struct cli_args *args);
/* "shoutan CMD: message" and the subcommand's usage on stderr; returns 2. */
int cli_usage_error(const struct cli *cli, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A subcommand's help (usage, summary, each option it takes) on f. */
void cli_print_help(FILE *f, const char *name);

/* Reads FILE or "-" and returns the `game` object: {"sgf": text} (with "tree" under --tree)
 * or the JSON game object. */
json_t *cli_read_game(struct cli *cli, const char *path);
/* Runs a method, in-process (loading the rulesets at the first call) or through the daemon;
 * on error prints it (naming the file, line and move) and returns NULL. */
json_t *cli_call(struct cli *cli, const char *method, json_t *params);
/* Prints a result object as JSON (what the daemon's `result` would be): indented on a
 * terminal, else on one line. */
void cli_print_json(const struct cli *cli, const json_t *result);
/* A number of points as the JSON holds it, for printing: 7, 7.5, -0.5. */
const char *cli_num(const json_t *v, char *buf, size_t len);
/* Milliseconds as h:mm:ss.mmm. */
const char *cli_ms(json_int_t ms, char *buf, size_t len);
/* Prints one score object for people. */
void cli_print_score(const json_t *score);

/* The params of a game command: the game of FILE and -r as `ruleset`, or as the `rulesets`
 * list with ruleset_list; adds them to args->params and returns it (NULL when FILE cannot be
 * read, the message printed). */
json_t *cli_game_params(struct cli *cli, struct cli_args *args, const char *file,
    bool ruleset_list);
/* Runs a method and prints its result (JSON with --json, else print()); takes params.
 * Returns the exit status. */
int cli_call_print(struct cli *cli, const char *method, json_t *params,
    void (*print)(const json_t *result));
/* The picture of params' judgement (the `picture` method: one board, or with grid the board of
 * each ruleset) written to file; false, the message printed, when it could not be. */
bool cli_write_picture(struct cli *cli, const json_t *params, bool grid, const char *file);
/* The shape of compare and replay: FILE, then the method and print(); with --svg, compare's
 * picture too. */
int cli_game_command(struct cli *cli, int argc, char **argv, const char *method,
    bool ruleset_list, void (*print)(const json_t *result));
/* The shape of clock and referee: FILE (a JSON file's members, or an SGF record as `game`),
 * then the method and print(). */
int cli_timed_command(struct cli *cli, int argc, char **argv, const char *method,
    void (*print)(const json_t *result));

int cmd_rulesets(struct cli *cli, int argc, char **argv);
int cmd_describe(struct cli *cli, int argc, char **argv);
int cmd_score(struct cli *cli, int argc, char **argv);
int cmd_legal(struct cli *cli, int argc, char **argv);
int cmd_compare(struct cli *cli, int argc, char **argv);
int cmd_replay(struct cli *cli, int argc, char **argv);
int cmd_clock(struct cli *cli, int argc, char **argv);
int cmd_referee(struct cli *cli, int argc, char **argv);
int cmd_referee_gtp(struct cli *cli, int argc, char **argv);
int cmd_batch(struct cli *cli, int argc, char **argv);
int cmd_report(struct cli *cli, int argc, char **argv);

struct report;
/* The report's charts into FILE; false (the message printed) when it cannot be written. */
bool cli_write_svg(struct cli *cli, struct report *r, const char *file);

#endif
