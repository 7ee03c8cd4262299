/* Messages between the daemon and its workers over a socketpair: a small header, then bytes. */
#ifndef SHOUTAN_FRAME_H
#define SHOUTAN_FRAME_H

#include <stdint.h>

struct frame_header {
	uint32_t length; /* bytes after the header */
	uint32_t seq;    /* the request's number, echoed in its reply */
	uint32_t flags;
};

/* Parent to worker. */
#define FRAME_REQUEST 0u
#define FRAME_STATS 1u      /* the daemon's counters, as JSON, for the status method */
/* Worker to parent. */
#define FRAME_REPLY_ERROR 1u    /* the reply is a JSON-RPC error */
#define FRAME_REPLY_NONE 2u     /* a notification: no reply to send */
#define FRAME_REPLY_REUSABLE 4u /* the same request line gets the same reply (reply cache) */

/* The longest reply the parent takes from a worker.  The largest real ones (compare of every
 * ruleset on 25x25, a long replay) are a few hundred KB; a worker announcing more is not
 * trusted (workers parse what clients send: one taken over must not grow the parent). */
#define FRAME_MAX_REPLY_BYTES (16u << 20)

#endif
