/* JSON-RPC 2.0 framing of the methods: envelope checks, dispatch, replies written as text around
 * the method's result, error objects (jansson). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_parse.h"
#include "json_text.h"
#include "rpc.h"

static char *
dump_line(json_t *response)
{
	/* Compact, one line: JSON never contains a raw newline when dumped compact. */
	char *s = json_dumps(response, SHT_JSON_REPLY_FLAGS);
	char *line;
	size_t n;

	json_decref(response);
	if (s == NULL)
		return NULL;
	n = strlen(s);
	line = realloc(s, n + 2);
	if (line == NULL) {
		free(s);
		return NULL;
	}
	line[n] = '\n';
	line[n + 1] = '\0';
	return line;
}

static json_t *
error_object(int code, const char *kind, const char *message, json_t *extra)
{
	json_t *e = json_pack("{s:i, s:s}", "code", code, "message", message);

	if (kind != NULL || extra != NULL) {
		json_t *data = extra ? extra : json_object();

		if (kind != NULL)
			json_object_set_new(data, "kind", json_string(kind));
		json_object_set_new(e, "data", data);
	}
	return e;
}

static char *
respond_error(json_t *id, int code, const char *kind, const char *message, json_t *extra)
{
	return dump_line(json_pack("{s:s, s:O, s:o}", "jsonrpc", "2.0", "id", id ? id : json_null(),
	    "error", error_object(code, kind, message, extra)));
}

char *
rpc_error_line(int code, const char *kind, const char *message)
{
	return respond_error(NULL, code, kind, message, NULL);
}

/* A request's parts, once its envelope has been checked. */
struct envelope {
	json_t *req;    /* the whole request (owned) */
	json_t *id;     /* NULL: a notification */
	const char *method;
	json_t *params; /* NULL when absent or null */
};

/*
 * Parses a request line and checks its envelope.  Returns NULL with *env filled, or the error
 * response for a line that is not a JSON-RPC 2.0 request (env->req is then NULL).  With list,
 * the request's move list and dead list are read into list[0] and list[1] without jansson
 * values (sht_json_read_request); the caller frees them whatever the result.
 */
static char *
open_envelope(const char *line, size_t len, struct envelope *env, struct sht_move_list *list)
{
	json_error_t jerr;
	json_t *req, *id, *method, *params;
	char *out;

	memset(env, 0, sizeof(*env));
	/* JSON_REJECT_DUPLICATES: a request that says two things is not a request. */
	req = list != NULL ? sht_json_read_request(line, len, &jerr, &list[0], &list[1]) :
	    sht_json_read(line, len, JSON_REJECT_DUPLICATES, &jerr);
	if (req == NULL) {
		char msg[300];

		snprintf(msg, sizeof(msg), "parse error at line %d column %d: %s", jerr.line,
		    jerr.column, jerr.text);
		return respond_error(NULL, SHT_RPC_PARSE_ERROR, NULL, msg, NULL);
	}
	if (json_is_array(req)) {
		json_decref(req);
		return respond_error(NULL, SHT_RPC_INVALID_REQUEST, NULL, "batches are not supported; "
		    "send one request per line", NULL);
	}
	id = json_object_get(req, "id");
	if (id != NULL && !json_is_string(id) && !json_is_integer(id) && !json_is_null(id))
		id = NULL; /* an id of another type cannot be echoed faithfully */
	method = json_object_get(req, "method");
	params = json_object_get(req, "params");
	if (!json_is_object(req) || !json_is_string(json_object_get(req, "jsonrpc")) ||
	    strcmp(json_string_value(json_object_get(req, "jsonrpc")), "2.0") != 0 ||
	    !json_is_string(method) || (params != NULL && !json_is_object(params) &&
	    !json_is_null(params)) || (json_object_get(req, "id") != NULL && id == NULL)) {
		out = respond_error(id, SHT_RPC_INVALID_REQUEST, NULL, "not a JSON-RPC 2.0 request: "
		    "{\"jsonrpc\":\"2.0\",\"id\":…,\"method\":\"…\",\"params\":{…}}", NULL);
		json_decref(req);
		return out;
	}
	env->req = req;
	env->id = id;
	env->method = json_string_value(method);
	env->params = json_is_null(params) ? NULL : params;
	return NULL;
}

/* A request's id as jansson dumps it: only strings, integers and null are echoed. */
static void
text_id(struct sht_text *t, const json_t *id)
{
	if (json_is_integer(id))
		sht_text_int(t, json_integer_value(id));
	else if (json_is_string(id))
		sht_text_string(t, json_string_value(id));
	else
		sht_text_lit(t, "null");
}

/* One request, its move and dead lists (when list is given) read into list[0] and list[1],
 * which ctx->moves and ctx->dead name. */
static char *
handle_read(const struct sht_context *ctx, const char *line, size_t len,
    struct sht_move_list *list, bool *is_error, bool *reusable)
{
	struct envelope env;
	json_t *req, *id, *params;
	const char *method;
	struct sht_error err;
	struct sht_text reply;
	bool unknown, ok;
	char *out;

	*is_error = true;
	*reusable = false;
	if ((out = open_envelope(line, len, &env, list)) != NULL)
		return out;
	req = env.req;
	id = env.id;
	method = env.method;
	params = env.params;
	/* The reply is written as text around the method's own text (what json_dumps gave of
	 * {"jsonrpc":"2.0","id":…,"result":…}), so a method that writes its result itself
	 * (sht_method_entry.write) costs no jansson values. */
	sht_text_init(&reply, 4096);
	sht_text_lit(&reply, "{\"jsonrpc\":\"2.0\",\"id\":");
	text_id(&reply, id);
	sht_text_lit(&reply, ",\"result\":");
	ok = sht_method_write(ctx, method, params, &unknown, &reply, &err);
	if (id == NULL) {
		/* A notification: the work is done, nothing is said. */
		*is_error = !ok;
		sht_text_free(&reply);
		json_decref(req);
		return NULL;
	}
	*reusable = sht_method_pure(method) && (ok || err.kind != SHT_ERROR_INTERNAL);
	if (ok) {
		*is_error = false;
		sht_text_lit(&reply, "}\n");
		out = sht_text_take(&reply);
	} else if (unknown) {
		out = respond_error(id, SHT_RPC_METHOD_NOT_FOUND, NULL, err.message, NULL);
	} else {
		json_t *extra = json_object();

		if (err.kind == SHT_ERROR_ILLEGAL_MOVE)
			json_object_set_new(extra, "move", json_integer(err.move));
		if (err.kind == SHT_ERROR_BAD_SGF && err.line > 0) {
			json_object_set_new(extra, "line", json_integer(err.line));
			json_object_set_new(extra, "column", json_integer(err.column));
		}
		out = respond_error(id, sht_error_code(&err), sht_error_kind_name(err.kind),
		    err.message, extra);
	}
	sht_text_free(&reply);
	json_decref(req);
	return out;
}

/* rpc_handle, reading the request's move and dead lists without jansson values when lists is
 * set. */
static char *
handle(const struct sht_context *ctx, const char *line, size_t len, bool lists, bool *is_error,
    bool *reusable)
{
	struct sht_move_list read[2] = { { 0 }, { 0 } };
	struct sht_context with_lists = *ctx;
	char *out;

	with_lists.moves = lists ? &read[0] : NULL;
	with_lists.dead = lists ? &read[1] : NULL;
	out = handle_read(&with_lists, line, len, lists ? read : NULL, is_error, reusable);
	sht_move_list_free(&read[0]);
	sht_move_list_free(&read[1]);
	return out;
}

char *
rpc_handle(const struct sht_context *ctx, const char *line, size_t len, bool *is_error,
    bool *reusable)
{
	return handle(ctx, line, len, true, is_error, reusable);
}

char *
rpc_handle_jansson(const struct sht_context *ctx, const char *line, size_t len, bool *is_error,
    bool *reusable)
{
	return handle(ctx, line, len, false, is_error, reusable);
}

char *
rpc_error_for(const char *line, size_t len, int code, const char *kind, const char *message)
{
	struct envelope env;
	char *out;

	if (line == NULL)
		return rpc_error_line(code, kind, message);
	out = open_envelope(line, len, &env, NULL);
	if (out != NULL) {
		/* Not a request at all: its own error says more than ours would. */
		free(out);
		return rpc_error_line(code, kind, message);
	}
	out = env.id != NULL ? respond_error(env.id, code, kind, message, NULL) : NULL;
	json_decref(env.req);
	return out;
}

char *
rpc_handle_status(const char *line, size_t len, json_t *(*status)(void *arg), void *arg,
    bool *is_error, bool *handled)
{
	struct envelope env;
	char *out = NULL;

	*is_error = false;
	*handled = false;
	out = open_envelope(line, len, &env, NULL);
	if (out != NULL) {
		/* Not a request: the worker answers that as it answers every other. */
		free(out);
		return NULL;
	}
	if (strcmp(env.method, "status") != 0) {
		json_decref(env.req);
		return NULL;
	}
	*handled = true;
	if (env.params != NULL && json_object_size(env.params) > 0) {
		/* status takes no params: the words of the methods' own parameter check. */
		char msg[120];

		snprintf(msg, sizeof(msg), "unknown parameter '%.40s' (known: none)",
		    json_object_iter_key(json_object_iter(env.params)));
		*is_error = true;
		out = env.id != NULL ? respond_error(env.id, SHT_RPC_INVALID_PARAMS, "invalid_params",
		    msg, NULL) : NULL;
	} else if (env.id != NULL) {
		json_t *result = status(arg);

		out = result != NULL ? dump_line(json_pack("{s:s, s:O, s:o}", "jsonrpc", "2.0", "id",
		    env.id, "result", result)) : NULL;
		if (out == NULL) {
			*is_error = true;
			out = respond_error(env.id, SHT_RPC_INTERNAL, "internal", "out of memory", NULL);
		}
	}
	json_decref(env.req);
	return out;
}
