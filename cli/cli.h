/* What the command's files share: options, the command table's entry type, input and output. */
#ifndef SHOUTAN_CLI_H
#define SHOUTAN_CLI_H

#include <stdbool.h>

#include <jansson.h>

#include "host.h"

struct cli {
	const char *socket_path;  /* --socket: run the methods in the daemon */
	int sock;                 /* its connection, once open */
	const char *plugins_dir;
	const char *rulesets_dir;
	struct sht_registry *registry;
	struct sht_context ctx;
	bool json;
	const char *input_name;   /* the FILE argument, for error messages */
	char *input_text;         /* its contents */
	size_t input_len;
};

struct cli_command {
	const char *name;
	const char *usage;
	int (*run)(struct cli *cli, int argc, char **argv);
};

/* Loads plugins and rulesets; prints the error and returns false on failure. */
bool cli_load_registry(struct cli *cli);
/* Reads FILE or "-" and returns the `game` object: {"sgf": text} or the JSON game object. */
json_t *cli_read_game(struct cli *cli, const char *path);
/* Runs a method in-process; on error prints it (naming the file, line and move) and returns
 * NULL. */
json_t *cli_call(struct cli *cli, const char *method, json_t *params);
/* Prints a result object as JSON (what the daemon's `result` would be). */
void cli_print_json(const json_t *result);
/* Parses "--dead auto|none|V,V" into the params' `dead` member. */
bool cli_set_dead(json_t *params, const char *arg);
/* Parses "--komi 7.5" or "--komi 3.75zi" into the params' `komi` member. */
bool cli_set_komi(json_t *params, const char *arg);
/* The shape of score, compare and replay: options, the game, the method, then JSON or print().
 * With ruleset_list, -r takes a comma-separated list ("rulesets"); else one name. */
int cli_game_command(struct cli *cli, int argc, char **argv, const char *method,
    const char *usage, bool allow_dead, bool ruleset_list, void (*print)(const json_t *result));
/* Prints one score object for people. */
void cli_print_score(const json_t *score);
/* A number of points as the JSON holds it, for printing: 7, 7.5, -0.5. */
const char *cli_num(const json_t *v, char *buf, size_t len);

/* Milliseconds as h:mm:ss.mmm. */
const char *cli_ms(json_int_t ms, char *buf, size_t len);
/* "--clock type=dumiao,main=1h,periods=5" into the params' `clock` member. */
bool cli_set_clock(json_t *params, const char *arg);
/* Runs a method and prints its result (JSON with --json, else print()); takes params.
 * Returns the exit status. */
int cli_call_print(struct cli *cli, const char *method, json_t *params,
    void (*print)(const json_t *result));
/* The shape of clock and referee: FILE (a JSON file's members, or an SGF record as `game`),
 * -r, --clock, --dead (when allowed), --json; then the method and print(). */
int cli_timed_command(struct cli *cli, int argc, char **argv, const char *method,
    const char *usage, bool allow_dead, void (*print)(const json_t *result));

int cmd_rulesets(struct cli *cli, int argc, char **argv);
int cmd_describe(struct cli *cli, int argc, char **argv);
int cmd_score(struct cli *cli, int argc, char **argv);
int cmd_compare(struct cli *cli, int argc, char **argv);
int cmd_replay(struct cli *cli, int argc, char **argv);
int cmd_clock(struct cli *cli, int argc, char **argv);
int cmd_referee(struct cli *cli, int argc, char **argv);

#endif
