/* JSON-RPC 2.0 over the methods: one request line in, one response line out (private to the daemon). */
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

/* An error response with a null id, for lines the caller refuses without parsing them
 * (too large, for example).  kind is a data.kind name or NULL. */
char *rpc_error_line(int code, const char *kind, const char *message);

#endif
