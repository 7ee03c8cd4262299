/* JSON-RPC 2.0 over the methods: one request line in, one response line out (the daemon's, and
 * its request-path fuzzer's). */
#ifndef SHOUTAN_RPC_H
#define SHOUTAN_RPC_H

#include <stddef.h>

#include "host.h"

#include "shoutan/protocol.h"

/*
 * Handles one request line (without its newline).  Returns the response line, malloc'd and
 * ending in '\n', or NULL for a notification (a request without "id"), which gets no reply.
 * *is_error says whether the response is an error; *reusable whether the same request line
 * (whatever its id) would get the same response while the same rulesets are loaded: a pure
 * method's result, or its error other than an internal one.
 */
char *rpc_handle(const struct sht_context *ctx, const char *line, size_t len, bool *is_error,
    bool *reusable);

/* rpc_handle with every value of the request read into jansson values, its move list too: the
 * path rpc_handle's own reading of move lists must agree with (fuzz/fuzz_request.c). */
char *rpc_handle_jansson(const struct sht_context *ctx, const char *line, size_t len,
    bool *is_error, bool *reusable);

/* An error response with a null id, for lines the caller refuses without parsing them
 * (too large, for example).  kind is a data.kind name or NULL. */
char *rpc_error_line(int code, const char *kind, const char *message);

/* An error response to the request `line` (NULL: none), with its id: for requests the daemon
 * answers itself because they could not run (a timeout, a worker that died).  NULL for a
 * notification, which gets no reply; a null id when the line is not a request. */
char *rpc_error_for(const char *line, size_t len, int code, const char *kind,
    const char *message);

/*
 * Answers `line` when it is a well-formed `status` request, with status(arg) as its result
 * (which the caller gives up), and sets *handled; for any other line sets *handled false and
 * returns NULL.  So the daemon's parent answers status without a worker, and without running
 * any other method.  NULL with *handled set: a notification.
 */
char *rpc_handle_status(const char *line, size_t len, json_t *(*status)(void *arg), void *arg,
    bool *is_error, bool *handled);

#endif
