/* The command's shared work: loading rulesets, reading the game, calling a method, printing. */
#include <errno.h>
#include <stdarg.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Prints a message on stderr and keeps it (and the error's kind, NULL when the message is the
 * command's own), for score's JSON lines. */
static void __attribute__((format(printf, 3, 4)))
complain(struct cli *cli, const char *kind, const char *fmt, ...)
{
	va_list ap;
	size_t len;

	va_start(ap, fmt);
	vsnprintf(cli->last_error, sizeof(cli->last_error), fmt, ap);
	va_end(ap);
	fputs(cli->last_error, stderr);
	len = strlen(cli->last_error);
	if (len > 0 && cli->last_error[len - 1] == '\n')
		cli->last_error[len - 1] = '\0';
	cli->last_error_kind = kind;
}

static char *
read_all(FILE *f, size_t *len)
{
	size_t cap = 65536, n = 0, got;
	char *buf = malloc(cap + 1);

	while (buf != NULL && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			char *bigger = realloc(buf, (cap *= 2) + 1);

			if (bigger == NULL) {
				free(buf);
				return NULL;
			}
			buf = bigger;
		}
	}
	if (buf != NULL)
		buf[n] = '\0';
	*len = n;
	return buf;
}

json_t *
cli_read_game(struct cli *cli, const char *path)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	const char *p;
	json_t *game;

	/* score reads several files: each one's text replaces the last one's. */
	free(cli->input_text);
	cli->input_text = NULL;
	cli->input_len = 0;
	cli->input_name = strcmp(path, "-") == 0 ? "(stdin)" : path;
	if (f == NULL) {
		complain(cli, NULL, "shoutan: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	cli->input_text = read_all(f, &cli->input_len);
	if (f != stdin)
		fclose(f);
	if (cli->input_text == NULL) {
		complain(cli, NULL, "shoutan: %s: cannot read it\n", cli->input_name);
		return NULL;
	}
	for (p = cli->input_text; *p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'; p++)
		;
	if (*p == '{') {
		json_error_t e;

		if (cli->tree_given) {
			complain(cli, NULL, "%s: --tree picks a game tree of an SGF collection, and this "
			    "is a JSON file\n", cli->input_name);
			return NULL;
		}
		/* A JSON game object, as in the protocol's params.game. */
		game = json_loadb(cli->input_text, cli->input_len, 0, &e);
		if (game == NULL)
			complain(cli, NULL, "%s:%d:%d: not valid JSON: %s\n", cli->input_name, e.line,
			    e.column, e.text);
		return game;
	}
	{
		struct sht_error err;

		game = sht_game_json_from_sgf_bytes(cli->input_text, cli->input_len, &err);
		if (game == NULL)
			complain(cli, "bad_sgf", "%s:%d:%d: %s\n", cli->input_name, err.line, err.column,
			    strstr(err.message, ": ") ? strstr(err.message, ": ") + 2 : err.message);
		else if (cli->tree_given)
			json_object_set_new(game, "tree", json_integer(cli->tree));
		return game;
	}
}

/* The line of move n in the SGF input, for error messages; 0 when unknown. */
static int
line_of_move(const struct cli *cli, int n)
{
	struct sht_game g;
	struct sht_error e;
	int line = 0, col;

	if (cli->input_text == NULL || n <= 0 ||
	    !sht_game_from_sgf(cli->input_text, cli->input_len, cli->tree, &g, &e))
		return 0;
	for (int i = 0; i < g.g.nevents; i++)
		if (g.g.events[i].move_number == n) {
			sht_sgf_position(g.sgf, g.g.events[i].offset, &line, &col);
			break;
		}
	sht_game_free(&g);
	return line;
}

/* One request to the daemon: the same method, over the socket.  Fills err from the error
 * object so that messages print exactly as in-process ones do. */
static json_t *
remote_call(struct cli *cli, const char *method, json_t *params, struct sht_error *err)
{
	json_t *req = json_pack("{s:s, s:i, s:s}", "jsonrpc", "2.0", "id", 1, "method", method);
	json_t *resp, *result, *e;
	json_error_t jerr;
	char *line;
	size_t len, cap = 65536, got = 0;
	char *buf;

	memset(err, 0, sizeof(*err));
	err->kind = SHT_ERROR_INTERNAL;
	if (cli->sock < 0) {
		struct sockaddr_un sun;

		memset(&sun, 0, sizeof(sun));
		sun.sun_family = AF_UNIX;
		snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", cli->socket_path);
		cli->sock = socket(AF_UNIX, SOCK_STREAM, 0);
		if (cli->sock < 0 || connect(cli->sock, (struct sockaddr *)&sun, sizeof(sun)) != 0) {
			snprintf(err->message, sizeof(err->message), "cannot reach shoutand at %s: %s",
			    cli->socket_path, strerror(errno));
			json_decref(req);
			return NULL;
		}
	}
	if (params != NULL)
		json_object_set(req, "params", params);
	line = json_dumps(req, JSON_COMPACT);
	json_decref(req);
	if (line == NULL)
		return NULL;
	len = strlen(line);
	line[len] = '\n'; /* json_dumps leaves room: replace the NUL, send len + 1 */
	for (size_t off = 0; off < len + 1;) {
		ssize_t w = write(cli->sock, line + off, len + 1 - off);

		if (w <= 0) {
			snprintf(err->message, sizeof(err->message), "lost shoutand at %s",
			    cli->socket_path);
			free(line);
			return NULL;
		}
		off += (size_t)w;
	}
	free(line);
	/* Read the one reply line. */
	buf = malloc(cap);
	for (;;) {
		ssize_t r;

		if (got > 0 && memchr(buf, '\n', got) != NULL)
			break;
		if (got == cap) {
			char *nb = realloc(buf, cap *= 2);

			if (nb == NULL)
				break;
			buf = nb;
		}
		r = read(cli->sock, buf + got, cap - got);
		if (r <= 0) {
			snprintf(err->message, sizeof(err->message), "shoutand at %s closed the "
			    "connection", cli->socket_path);
			free(buf);
			return NULL;
		}
		got += (size_t)r;
	}
	resp = json_loadb(buf, (size_t)((char *)memchr(buf, '\n', got) - buf), 0, &jerr);
	free(buf);
	if (resp == NULL) {
		snprintf(err->message, sizeof(err->message), "shoutand sent a reply that is not JSON");
		return NULL;
	}
	result = json_object_get(resp, "result");
	if (result != NULL) {
		json_incref(result);
		json_decref(resp);
		return result;
	}
	e = json_object_get(resp, "error");
	{
		const json_t *data = json_object_get(e, "data");
		const char *kind = json_string_value(json_object_get(data, "kind"));
		static const struct { const char *name; enum sht_error_kind kind; } kinds[] = {
			{ "invalid_params", SHT_ERROR_BAD_PARAMS }, { "bad_sgf", SHT_ERROR_BAD_SGF },
			{ "unknown_ruleset", SHT_ERROR_UNKNOWN_RULESET },
			{ "illegal_move", SHT_ERROR_ILLEGAL_MOVE }, { "too_large", SHT_ERROR_TOO_LARGE },
		};

		for (size_t i = 0; kind != NULL && i < sizeof(kinds) / sizeof(kinds[0]); i++)
			if (strcmp(kind, kinds[i].name) == 0)
				err->kind = kinds[i].kind;
		if (kind == NULL && json_integer_value(json_object_get(e, "code")) == -32602)
			err->kind = SHT_ERROR_BAD_PARAMS;
		err->move = (int)json_integer_value(json_object_get(data, "move"));
		err->line = (int)json_integer_value(json_object_get(data, "line"));
		err->column = (int)json_integer_value(json_object_get(data, "column"));
		snprintf(err->message, sizeof(err->message), "%s",
		    json_string_value(json_object_get(e, "message")) ?
		    json_string_value(json_object_get(e, "message")) : "error without a message");
	}
	json_decref(resp);
	return NULL;
}

json_t *
cli_call(struct cli *cli, const char *method, json_t *params)
{
	struct sht_error e, *err = &e;
	const char *name = cli->input_name ? cli->input_name : "shoutan";
	const char *kind;
	bool unknown;
	json_t *result;

	/* Through the daemon, the daemon's rulesets answer; nothing is loaded here. */
	if (cli->socket_path == NULL && cli->registry == NULL) {
		char why[SHT_ERR_MAX];

		cli->registry = sht_registry_load(cli->plugins_dir, cli->rulesets_dir, why,
		    sizeof(why));
		if (cli->registry == NULL) {
			sht_error_set(err, SHT_ERROR_INTERNAL, "%s", why);
			complain(cli, NULL, "shoutan: %s\n", why);
			return NULL;
		}
		cli->ctx.registry = cli->registry;
	}
	result = cli->socket_path != NULL ? remote_call(cli, method, params, err) :
	    sht_method_call(&cli->ctx, method, params, &unknown, err);
	if (result != NULL)
		return result;
	kind = sht_error_kind_name(err->kind);
	if (err->kind == SHT_ERROR_BAD_SGF && err->line > 0) {
		/* "SGF l:c: why": print as file:line:column. */
		const char *why = strstr(err->message, ": ");

		complain(cli, kind, "%s:%d:%d: %s\n", name, err->line, err->column,
		    why ? why + 2 : err->message);
	} else if (err->kind == SHT_ERROR_ILLEGAL_MOVE) {
		int line = line_of_move(cli, err->move);

		if (line > 0)
			complain(cli, kind, "%s:%d: %s\n", name, line, err->message);
		else
			complain(cli, kind, "%s: %s\n", name, err->message);
	} else {
		complain(cli, kind, "%s: %s\n", name, err->message);
	}
	return NULL;
}

void
cli_print_json(const struct cli *cli, const json_t *result)
{
	size_t flags = JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10);
	char *s = json_dumps(result, flags | (cli->compact ? JSON_COMPACT : JSON_INDENT(2)));

	if (s != NULL) {
		puts(s);
		free(s);
	}
}

const char *
cli_num(const json_t *v, char *buf, size_t len)
{
	if (json_is_integer(v))
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, len, "%g", json_real_value(v));
	else
		snprintf(buf, len, "-");
	return buf;
}

json_t *
cli_game_params(struct cli *cli, struct cli_args *args, const char *file, bool ruleset_list)
{
	json_t *params = json_deep_copy(args->params), *game;

	if (params == NULL || (game = cli_read_game(cli, file)) == NULL) {
		json_decref(params);
		return NULL;
	}
	json_object_set_new(params, "game", game);
	if (args->rulesets != NULL && ruleset_list) {
		json_t *list = json_array();
		char *copy = strdup(args->rulesets), *save = NULL;

		for (char *n = copy ? strtok_r(copy, ",", &save) : NULL; n != NULL;
		    n = strtok_r(NULL, ",", &save))
			json_array_append_new(list, json_string(n));
		free(copy);
		json_object_set_new(params, "rulesets", list);
	} else if (args->rulesets != NULL) {
		json_object_set_new(params, "ruleset", json_string(args->rulesets));
	}
	return params;
}

int
cli_call_print(struct cli *cli, const char *method, json_t *params,
    void (*print)(const json_t *result))
{
	json_t *r = cli_call(cli, method, params);

	json_decref(params);
	if (r == NULL)
		return CLI_FAILED;
	if (cli->json)
		cli_print_json(cli, r);
	else
		print(r);
	json_decref(r);
	return CLI_OK;
}

bool
cli_write_picture(struct cli *cli, const json_t *params, bool grid, const char *file)
{
	json_t *p = json_deep_copy(params), *r;
	const char *svg;
	FILE *f;
	bool ok;

	/* The grid of every ruleset when -r named none, as compare scores them all. */
	if (grid && json_object_get(p, "rulesets") == NULL)
		json_object_set_new(p, "rulesets", json_string("all"));
	r = cli_call(cli, "picture", p);
	json_decref(p);
	if (r == NULL)
		return false;
	svg = json_string_value(json_object_get(r, "svg"));
	if ((f = fopen(file, "w")) == NULL) {
		fprintf(stderr, "shoutan %s: %s: %s\n", cli->command, file, strerror(errno));
		json_decref(r);
		return false;
	}
	ok = svg != NULL && fputs(svg, f) >= 0;
	if (fclose(f) != 0 || !ok) {
		fprintf(stderr, "shoutan %s: %s: cannot write it\n", cli->command, file);
		ok = false;
	}
	json_decref(r);
	return ok;
}

int
cli_game_command(struct cli *cli, int argc, char **argv, const char *method,
    bool ruleset_list, void (*print)(const json_t *result))
{
	struct cli_args args;
	json_t *params;
	int rc = cli_parse_args(cli, argc, argv, &args);

	if (rc < 0 && args.noperands != 1)
		rc = cli_usage_error(cli, args.noperands == 0 ? "FILE is missing" :
		    "takes one FILE");
	if (rc < 0) {
		params = cli_game_params(cli, &args, args.operands[0], ruleset_list);
		if (params != NULL && args.svg != NULL)
			json_incref(params);
		rc = params == NULL ? CLI_FAILED : cli_call_print(cli, method, params, print);
		if (params != NULL && args.svg != NULL) {
			if (rc == CLI_OK && !cli_write_picture(cli, params, ruleset_list, args.svg))
				rc = CLI_FAILED;
			json_decref(params);
		}
	}
	cli_args_free(&args);
	return rc;
}

/* FILE as the params: a JSON file's members (moves, events, clock, ...), or an SGF record as
 * the game. */
static bool
timed_input(struct cli *cli, const char *file, json_t *params)
{
	json_t *in = cli_read_game(cli, file);

	if (in == NULL)
		return false;
	if (json_is_string(json_object_get(in, "sgf")))
		json_object_set(params, "game", in);
	else
		json_object_update_missing(params, in);
	json_decref(in);
	return true;
}

int
cli_timed_command(struct cli *cli, int argc, char **argv, const char *method,
    void (*print)(const json_t *result))
{
	struct cli_args args;
	int rc = cli_parse_args(cli, argc, argv, &args);

	if (rc < 0 && args.noperands != 1)
		rc = cli_usage_error(cli, args.noperands == 0 ? "FILE is missing" :
		    "takes one FILE");
	if (rc < 0) {
		json_t *params = json_deep_copy(args.params);

		if (args.rulesets != NULL)
			json_object_set_new(params, "ruleset", json_string(args.rulesets));
		if (!timed_input(cli, args.operands[0], params)) {
			json_decref(params);
			rc = CLI_FAILED;
		} else {
			rc = cli_call_print(cli, method, params, print);
		}
	}
	cli_args_free(&args);
	return rc;
}
