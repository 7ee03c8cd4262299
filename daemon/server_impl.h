/* The parent process's shared state: requests, connections, workers and the server itself,
 * private to the files that make up the parent (listen.c, conn.c, pool.c, server.c). */
#ifndef SHOUTAN_SERVER_IMPL_H
#define SHOUTAN_SERVER_IMPL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>
#include <sys/types.h>
#include <time.h>

#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>
#include <jansson.h>

#include "cache.h"
#include "config.h"
#include "sockio.h"

struct conn;
struct worker;

TAILQ_HEAD(request_list, request);

struct request {
	TAILQ_ENTRY(request) by_conn;   /* the connection's requests, in arrival order */
	TAILQ_ENTRY(request) by_worker; /* a worker's queue, or the backlog */
	struct conn *conn;              /* NULL once the client has gone */
	uint32_t seq;
	char *line;                     /* kept until answered, to hand to another worker */
	size_t len;
	struct cache_split split;       /* where its id and its cache key are */
	bool has_split;                 /* the line has the form the reply cache knows */
	char *reply;                    /* NULL with done set: nothing to send (notification) */
	size_t reply_len;
	bool done;
	bool heavy;                     /* probably the automatic dead-stone judgement (triage.h) */
	bool holds_heavy_slot;          /* counted in heavy_inflight while with its worker */
	struct worker *worker;
	struct request_list *waiting_in; /* the backlog or heavy backlog it waits in, or NULL */
	size_t held;                    /* bytes of line and reply counted in srv.queued_bytes */
};

struct conn {
	TAILQ_ENTRY(conn) entry;
	struct bufferevent *bev;
	struct request_list requests;
	int pending;
	bool discarding;  /* inside a line longer than the limit */
	bool paused;      /* reading stopped: too many requests queued */
	bool held_back;   /* reading stopped: the daemon's memory budget is nearly spent */
	bool closing;     /* the client finished sending: close once every reply is out */
	unsigned long id;
	size_t queued;    /* bytes it makes the daemon hold: buffers, lines, replies */
	struct evbuffer_cb_entry *in_cb, *out_cb; /* keep queued in step with its buffers */
	struct outbox out;  /* its replies, written once a loop turn */
	struct event *read_ev; /* its requests, read by hand (sockio.h), with the idle timeout */
	bool read_ended;    /* its end of the stream (or an error) has been read */
};

struct worker {
	TAILQ_ENTRY(worker) entry;
	pid_t pid;
	int generation;
	struct bufferevent *bev;
	struct request_list queue;      /* sent, awaiting replies, in order */
	int inflight;
	int heavy;                      /* heavy requests among them */
	bool retiring;                  /* an older generation: finish the queue, then go */
	bool timed_out;                 /* killed for overrunning the time budget */
	bool answered;                  /* it has sent a frame: it loaded the rulesets */
	struct event *timer;
	size_t queued;                  /* bytes in its socket buffers, in srv.queued_bytes */
	struct evbuffer_cb_entry *in_cb, *out_cb;
	struct outbox out;              /* its frames, written once a loop turn */
	struct event *read_ev;          /* its replies, read by hand (sockio.h) */
};

/* Replies a client has not read yet, past which the daemon stops reading its requests: with
 * max_pending this bounds what one connection can make the daemon hold. */
#define MAX_UNREAD_REPLY_BYTES (8u << 20)
/* Most bytes moved by one read or write on a socket. */
#define IO_CHUNK_BYTES (256u << 10)
/* What a request gets when the daemon stops before it could run (a second SIGTERM). */
#define STOPPING_MESSAGE "the daemon is stopping; the request was not run"

struct server {
	struct event_base *base;
	struct config cfg;
	const char *config_path;
	const char *socket_override;
	struct evconnlistener *listener;
	TAILQ_HEAD(, conn) conns;
	int nconns;
	TAILQ_HEAD(, worker) workers;
	struct request_list backlog;    /* waiting for a live worker */
	struct request_list heavy_backlog; /* heavy requests waiting for a heavy slot */
	int heavy_inflight;
	int generation;
	uint32_t next_seq;
	unsigned long next_conn_id;
	bool draining;                  /* SIGTERM: finishing what was asked, then exiting */
	bool stopping;                  /* a second SIGTERM (or the drain timeout): exiting now */
	int failed_starts;              /* workers in a row that ended before answering anything */
	size_t queued_bytes;            /* what clients make the parent hold: see conn.c */
	size_t queued_peak;             /* its highest since the heap was last trimmed */
	int held_back;                  /* connections not read for the budget's sake */
	bool budget_event_active;
	time_t started;
	unsigned long requests, errors, connections_total, worker_restarts, overloaded;
	struct event *restart_timer;
	struct event *stats_timer;
	struct event *budget_event;     /* enforces max_queued_bytes, once per loop turn */
	struct event *hold_timer;       /* closes connections held back too long (conn.c) */
	struct event *drain_timer;      /* drain_timeout: a drain that takes too long stops */
	struct event *hand_out_event;   /* the backlog's next batch of cache answers (pool.c) */
	struct reply_cache *cache;      /* replies of the current generation, see cache.h */
};

extern struct server srv;

/* server.c: the life cycle. */
/* While draining, ends the event loop once nothing is queued or unwritten. */
void server_check_drained(void);
/* The status method's result, from the parent's counters (see docs/protocol.md). */
json_t *server_status(void *arg);

/* listen.c: the socket. */
/* A listening socket at path (mode, group: NULL for the daemon's own), or -1 (logged). */
int listen_open_socket(const char *path, mode_t mode, const char *group);

/* conn.c: connections and their in-order replies. */
/* Closes a connection; its requests still with a worker lose their client. */
void conn_free(struct conn *c);
/* Wakes the budget event when the memory budget needs enforcing or held-back connections may
 * be read again (called wherever what connections hold changes). */
void conn_check_budget(void);
/* Reads the connection when nothing holds it back (pausing, the budget, draining), else stops
 * reading it. */
void conn_update_reading(struct conn *c);
/* The budget event's callback: holds back or closes the heaviest connections (conn.c). */
void conn_enforce_budget(evutil_socket_t fd, short what, void *arg);
void conn_hold_overdue(evutil_socket_t fd, short what, void *arg);
void request_free(struct request *r);
/* The reply to r (NULL: none, a notification), sent once those before it on its connection are. */
void request_finish(struct request *r, char *reply, bool is_error);
/*
 * Answers r from the reply cache when its question has been answered meanwhile: for requests
 * that waited for a worker.  Identical requests that arrive together all miss the cache (the
 * first answer is not back yet), and a client sending one request many times would otherwise
 * have every copy run by a worker, ahead of everyone else's requests.
 */
bool request_answer_from_cache(struct request *r);
/* r answered with an error object (code, data.kind, message). */
void request_fail(struct request *r, int code, const char *kind, const char *message);
/* The listener's callback: a new connection, or a refusal past max_connections. */
void conn_accept(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa, int socklen,
    void *arg);

/* pool.c: the worker pool. */
/* Gives a request to the least loaded live worker, or queues it (backlog, heavy backlog). */
void pool_dispatch(struct request *r);
/* Requests that waited for a live worker, then heavy ones that waited for a slot, to workers
 * (or answered from the cache, a batch at a time). */
void pool_hand_out(void);
/* srv.hand_out_event's callback: pool_hand_out on a later pass of the loop. */
void pool_hand_out_later(evutil_socket_t fd, short what, void *arg);
/* Takes r out of the backlog it waits in; false when it is not waiting (a worker has it). */
bool pool_forget(struct request *r);
/* A second SIGTERM: every request not yet answered gets an error, every worker is killed. */
void pool_stop_now(void);
/* One frame to a worker. */
void worker_send(struct worker *w, const char *data, size_t len, uint32_t seq, uint32_t flags);
/* Forgets a worker and closes its socket, which tells the process to exit. */
void worker_free(struct worker *w);
/* Workers of the current generation. */
int pool_live_workers(void);
void pool_spawn_worker(void);
/* The restart timer's callback: tops the pool up to cfg.workers and hands out the backlog. */
void pool_restart_workers(evutil_socket_t fd, short what, void *arg);
/* SIGCHLD: collects ended workers and logs how they ended. */
void pool_reap_children(evutil_socket_t fd, short what, void *arg);

#endif
