/* The host's one error type: its setter, and its kinds as the protocol's codes and names. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "host.h"
#include "shoutan/protocol.h"

bool
sht_error_vset(struct sht_error *err, enum sht_error_kind kind, const char *fmt, va_list ap)
{
	memset(err, 0, sizeof(*err));
	err->kind = kind;
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	return false;
}

bool
sht_error_set(struct sht_error *err, enum sht_error_kind kind, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sht_error_vset(err, kind, fmt, ap);
	va_end(ap);
	return false;
}

int
sht_error_code(const struct sht_error *err)
{
	switch (err->kind) {
	case SHT_ERROR_BAD_PARAMS: return SHT_RPC_INVALID_PARAMS;
	case SHT_ERROR_BAD_SGF: return SHT_RPC_BAD_SGF;
	case SHT_ERROR_UNKNOWN_RULESET: return SHT_RPC_UNKNOWN_RULESET;
	case SHT_ERROR_ILLEGAL_MOVE: return SHT_RPC_ILLEGAL_MOVE;
	case SHT_ERROR_TOO_LARGE: return SHT_RPC_TOO_LARGE;
	case SHT_ERROR_INTERNAL: return SHT_RPC_INTERNAL;
	}
	return SHT_RPC_INTERNAL;
}

const char *
sht_error_kind_name(enum sht_error_kind kind)
{
	switch (kind) {
	case SHT_ERROR_BAD_PARAMS: return "invalid_params";
	case SHT_ERROR_BAD_SGF: return "bad_sgf";
	case SHT_ERROR_UNKNOWN_RULESET: return "unknown_ruleset";
	case SHT_ERROR_ILLEGAL_MOVE: return "illegal_move";
	case SHT_ERROR_TOO_LARGE: return "too_large";
	case SHT_ERROR_INTERNAL: return "internal";
	}
	return "internal";
}
