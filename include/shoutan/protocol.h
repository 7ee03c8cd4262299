/* The wire protocol's fixed names: version, error codes and kinds (docs/protocol.md). */
#ifndef SHOUTAN_PROTOCOL_H
#define SHOUTAN_PROTOCOL_H

/* Bumped when a method, member or meaning changes incompatibly (docs/protocol.md, `version`). */
#define SHT_PROTOCOL_VERSION 2

/* JSON-RPC 2.0's own codes. */
#define SHT_RPC_PARSE_ERROR (-32700)
#define SHT_RPC_INVALID_REQUEST (-32600)
#define SHT_RPC_METHOD_NOT_FOUND (-32601)
#define SHT_RPC_INVALID_PARAMS (-32602)

/* Application errors; data.kind names them. */
#define SHT_RPC_BAD_SGF (-32001)         /* "bad_sgf" */
#define SHT_RPC_UNKNOWN_RULESET (-32002) /* "unknown_ruleset" */
#define SHT_RPC_ILLEGAL_MOVE (-32003)    /* "illegal_move", with data.move */
#define SHT_RPC_TOO_LARGE (-32004)       /* "too_large" */
#define SHT_RPC_TIMEOUT (-32005)         /* "timeout" */
#define SHT_RPC_OVERLOADED (-32006)      /* "overloaded" */
#define SHT_RPC_INTERNAL (-32099)        /* "internal" */

#endif
