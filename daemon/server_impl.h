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

#include "cache.h"
#include "config.h"

struct conn;
struct worker;

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
};

TAILQ_HEAD(request_list, request);

struct conn {
	TAILQ_ENTRY(conn) entry;
	struct bufferevent *bev;
	struct request_list requests;
	int pending;
	bool discarding;  /* inside a line longer than the limit */
	bool paused;      /* reading stopped: too many requests queued */
	bool closing;     /* the client finished sending: close once every reply is out */
	unsigned long id;
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
	struct event *timer;
};

/* Replies a client has not read yet, past which the daemon stops reading its requests: with
 * max_pending this bounds what one connection can make the daemon hold. */
#define MAX_UNREAD_REPLY_BYTES (8u << 20)
/* Most bytes moved by one read or write on a socket. */
#define IO_CHUNK_BYTES (256u << 10)

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
	bool draining;
	time_t started;
	unsigned long requests, errors, connections_total, worker_restarts, overloaded;
	struct event *restart_timer;
	struct event *stats_timer;
	struct reply_cache *cache;      /* replies of the current generation, see cache.h */
};

extern struct server srv;

/* server.c: the life cycle. */
void check_drained(void);

/* listen.c: the socket. */
int open_socket(const char *path, mode_t mode, const char *group);

/* conn.c: connections and their in-order replies. */
void conn_free(struct conn *c);
void finish(struct request *r, char *reply, bool is_error);
void finish_with_error(struct request *r, int code, const char *kind, const char *message);
void accept_conn(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa, int socklen,
    void *arg);

/* pool.c: the worker pool. */
void dispatch(struct request *r);
void worker_send(struct worker *w, const char *data, size_t len, uint32_t seq, uint32_t flags);
void worker_free(struct worker *w);
int live_workers(void);
void spawn_worker(void);
void restart_workers(evutil_socket_t fd, short what, void *arg);
void reap_children(evutil_socket_t fd, short what, void *arg);

#endif
