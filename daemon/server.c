/* The daemon's parent process: listener, connections, in-order replies, and the worker pool. */
#define _GNU_SOURCE /* SO_PEERCRED and struct ucred, close_range */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#ifdef __GLIBC__ /* defined by <limits.h> above, with glibc */
#include <malloc.h> /* malloc_trim */
#endif
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>
#include <jansson.h>

#include "host.h"
#include "cache.h"
#include "triage.h"
#include "frame.h"
#include "log.h"
#include "rpc.h"
#include "server.h"
#include "worker.h"

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

static struct server srv;

static void dispatch(struct request *r);
static void heavy_done(struct worker *w, struct request *r);
static void pump_heavy(void);
static void spawn_worker(void);
static void conn_read(struct bufferevent *bev, void *arg);

/* ---- replies, in each connection's order ---- */

static void
request_free(struct request *r)
{
	free(r->line);
	free(r->reply);
	free(r);
}

static void
conn_free(struct conn *c)
{
	struct request *r;

	/* Requests still with a worker lose their client; the reply will be dropped. */
	while ((r = TAILQ_FIRST(&c->requests)) != NULL) {
		TAILQ_REMOVE(&c->requests, r, by_conn);
		if (r->done)
			request_free(r);
		else
			r->conn = NULL;
	}
	TAILQ_REMOVE(&srv.conns, c, entry);
	srv.nconns--;
	shutdown(bufferevent_getfd(c->bev), SHUT_RDWR);
	bufferevent_free(c->bev);
	log_debug("connection %lu closed", c->id);
	free(c);
}

static bool
drained(void)
{
	struct conn *c;

	if (!TAILQ_EMPTY(&srv.backlog) || !TAILQ_EMPTY(&srv.heavy_backlog))
		return false;
	TAILQ_FOREACH(c, &srv.conns, entry)
		if (c->pending > 0 || evbuffer_get_length(bufferevent_get_output(c->bev)) > 0)
			return false;
	return true;
}

static void
check_drained(void)
{
	if (srv.draining && drained())
		event_base_loopexit(srv.base, NULL);
}

/* Writes every finished reply at the head of the connection's queue. */
static void
deliver(struct conn *c)
{
	struct request *r;

	while ((r = TAILQ_FIRST(&c->requests)) != NULL && r->done) {
		TAILQ_REMOVE(&c->requests, r, by_conn);
		c->pending--;
		if (r->reply != NULL)
			bufferevent_write(c->bev, r->reply, r->reply_len);
		request_free(r);
	}
	if (!c->paused && evbuffer_get_length(bufferevent_get_output(c->bev)) >
	    MAX_UNREAD_REPLY_BYTES) {
		c->paused = true;
		bufferevent_disable(c->bev, EV_READ);
	}
	if (c->paused && c->pending < (srv.cfg.max_pending + 1) / 2 && !srv.draining &&
	    evbuffer_get_length(bufferevent_get_output(c->bev)) <= MAX_UNREAD_REPLY_BYTES / 2) {
		c->paused = false;
		bufferevent_enable(c->bev, EV_READ);
		conn_read(c->bev, c); /* lines may be waiting in the input buffer */
	}
}

static void
finish(struct request *r, char *reply, bool is_error)
{
	r->done = true;
	r->reply = reply;
	r->reply_len = reply ? strlen(reply) : 0;
	srv.requests++;
	if (is_error)
		srv.errors++;
	if (r->conn == NULL) {
		request_free(r); /* the client has gone */
		return;
	}
	deliver(r->conn);
}

static void
finish_with_error(struct request *r, int code, const char *kind, const char *message)
{
	finish(r, rpc_error_line(code, kind, message), true);
}

/* ---- workers ---- */

static void
worker_arm_timer(struct worker *w)
{
	struct timeval tv = { srv.cfg.request_timeout_ms / 1000,
		(srv.cfg.request_timeout_ms % 1000) * 1000 };

	/* The worker answers in order, so only the request at the head of its queue runs. */
	if (TAILQ_EMPTY(&w->queue))
		evtimer_del(w->timer);
	else
		evtimer_add(w->timer, &tv);
}

static void
worker_send(struct worker *w, const char *data, size_t len, uint32_t seq, uint32_t flags)
{
	struct frame_header h = { (uint32_t)len, seq, flags };

	bufferevent_write(w->bev, &h, sizeof(h));
	bufferevent_write(w->bev, data, len);
}

static void
worker_free(struct worker *w)
{
	TAILQ_REMOVE(&srv.workers, w, entry);
	if (w->bev != NULL) {
		/* libevent may close the descriptor later, when the loop next runs; shutting it
		 * down now tells the worker at once that it is done. */
		shutdown(bufferevent_getfd(w->bev), SHUT_RDWR);
		bufferevent_free(w->bev);
	}
	event_free(w->timer);
	free(w);
}

static int
live_workers(void)
{
	struct worker *w;
	int n = 0;

	TAILQ_FOREACH(w, &srv.workers, entry)
		n += !w->retiring;
	return n;
}

/* A worker that went away: its current request is answered with an error, the rest go
 * elsewhere, and a new worker takes its place. */
static void
worker_gone(struct worker *w, const char *why)
{
	struct request_list requeue;
	struct request *r;
	bool was_retiring = w->retiring;
	bool timed_out = w->timed_out;

	TAILQ_INIT(&requeue);
	TAILQ_FOREACH(r, &w->queue, by_worker)
		heavy_done(w, r);
	if ((r = TAILQ_FIRST(&w->queue)) != NULL) {
		char msg[200];

		TAILQ_REMOVE(&w->queue, r, by_worker);
		if (timed_out) {
			snprintf(msg, sizeof(msg), "the request took longer than the %d ms allowed and "
			    "was stopped", srv.cfg.request_timeout_ms);
			finish_with_error(r, SHT_RPC_TIMEOUT, "timeout", msg);
		} else {
			snprintf(msg, sizeof(msg), "the worker serving this request stopped (%s); the "
			    "request was not completed", why);
			finish_with_error(r, SHT_RPC_INTERNAL, "internal", msg);
		}
	}
	TAILQ_CONCAT(&requeue, &w->queue, by_worker);
	log_warning("worker %d stopped with %s; %d queued request%s handed to others", (int)w->pid,
	    why, w->inflight > 0 ? w->inflight - 1 : 0, w->inflight == 2 ? "" : "s");
	worker_free(w);
	/* Replace it, even while draining: the requests it held still need a worker. */
	if (!was_retiring) {
		srv.worker_restarts++;
		/* Not at once: a worker that dies on start (a broken plugin) must not spin. */
		if (!evtimer_pending(srv.restart_timer, NULL)) {
			struct timeval tv = { 0, timed_out ? 0 : 200000 };

			evtimer_add(srv.restart_timer, &tv);
		}
	}
	while ((r = TAILQ_FIRST(&requeue)) != NULL) {
		TAILQ_REMOVE(&requeue, r, by_worker);
		r->worker = NULL;
		dispatch(r);
	}
	pump_heavy();
	check_drained();
}

static void
worker_read(struct bufferevent *bev, void *arg)
{
	struct worker *w = arg;
	struct evbuffer *in = bufferevent_get_input(bev);

	for (;;) {
		struct frame_header h;
		struct request *r;
		char *reply = NULL;

		if (evbuffer_get_length(in) < sizeof(h))
			break;
		evbuffer_copyout(in, &h, sizeof(h));
		if (evbuffer_get_length(in) < sizeof(h) + h.length)
			break;
		evbuffer_drain(in, sizeof(h));
		r = TAILQ_FIRST(&w->queue);
		if (r == NULL || r->seq != h.seq) {
			log_error("worker %d answered request %u out of order; stopping it", (int)w->pid,
			    h.seq);
			kill(w->pid, SIGKILL);
			evbuffer_drain(in, h.length);
			return;
		}
		if (!(h.flags & FRAME_REPLY_NONE)) {
			reply = malloc((size_t)h.length + 1);
			if (reply != NULL) {
				evbuffer_remove(in, reply, h.length);
				reply[h.length] = '\0';
			} else {
				evbuffer_drain(in, h.length);
			}
		} else {
			evbuffer_drain(in, h.length);
		}
		/* Only the current generation's answers: an old one may know other rulesets. */
		if (reply != NULL && (h.flags & FRAME_REPLY_REUSABLE) && r->has_split &&
		    w->generation == srv.generation)
			cache_store(srv.cache, r->line, r->len, &r->split, reply, h.length);
		TAILQ_REMOVE(&w->queue, r, by_worker);
		w->inflight--;
		r->worker = NULL;
		heavy_done(w, r);
		worker_arm_timer(w);
		{
			struct conn *c = r->conn;

			if (reply == NULL && !(h.flags & FRAME_REPLY_NONE))
				finish_with_error(r, SHT_RPC_INTERNAL, "internal", "out of memory");
			else
				finish(r, reply, (h.flags & FRAME_REPLY_ERROR) != 0);
			/* A client that has finished sending and has nothing more to receive. */
			if (c != NULL && c->closing && c->pending == 0 &&
			    evbuffer_get_length(bufferevent_get_output(c->bev)) == 0)
				conn_free(c);
		}
	}
	if (w->retiring && TAILQ_EMPTY(&w->queue)) {
		/* Its last request answered: closing the socket tells it to exit. */
		log_debug("retiring worker %d (generation %d)", (int)w->pid, w->generation);
		worker_free(w);
		pump_heavy(); /* its heavy slot is free for the new generation */
		check_drained();
		return;
	}
	/* Requests that waited for a worker, or for a heavy slot. */
	while (!TAILQ_EMPTY(&srv.backlog) && live_workers() > 0) {
		struct request *r = TAILQ_FIRST(&srv.backlog);

		TAILQ_REMOVE(&srv.backlog, r, by_worker);
		dispatch(r);
	}
	pump_heavy();
	check_drained();
}

static void
worker_event(struct bufferevent *bev, short what, void *arg)
{
	(void)bev;
	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR))
		worker_gone(arg, "its process ended");
}

static void
worker_timeout(evutil_socket_t fd, short what, void *arg)
{
	struct worker *w = arg;

	(void)fd;
	(void)what;
	log_warning("worker %d overran the %d ms budget; stopping it", (int)w->pid,
	    srv.cfg.request_timeout_ms);
	w->timed_out = true;
	kill(w->pid, SIGKILL);
}

static void
spawn_worker(void)
{
	int sv[2];
	pid_t pid;
	struct worker *w;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
		log_error("socketpair: %s", strerror(errno));
		return;
	}
	pid = fork();
	if (pid < 0) {
		log_error("fork: %s", strerror(errno));
		close(sv[0]);
		close(sv[1]);
		return;
	}
	if (pid == 0) {
		/* The child keeps only its end of the pair: holding the listener, clients or
		 * other workers' pairs would keep them open after the parent closes them. */
		signal(SIGCHLD, SIG_DFL);
		if (dup2(sv[1], 3) < 0)
			_exit(1);
		close_range(4, ~0U, 0);
		log_reopen();
		_exit(worker_main(3, srv.cfg.plugins_dir, srv.cfg.rulesets_dir, srv.generation));
	}
	close(sv[1]);
	evutil_make_socket_nonblocking(sv[0]);
	w = calloc(1, sizeof(*w));
	w->pid = pid;
	w->generation = srv.generation;
	TAILQ_INIT(&w->queue);
	w->bev = bufferevent_socket_new(srv.base, sv[0], BEV_OPT_CLOSE_ON_FREE);
	bufferevent_set_max_single_read(w->bev, IO_CHUNK_BYTES);
	bufferevent_set_max_single_write(w->bev, IO_CHUNK_BYTES);
	w->timer = evtimer_new(srv.base, worker_timeout, w);
	bufferevent_setcb(w->bev, worker_read, NULL, worker_event, w);
	bufferevent_enable(w->bev, EV_READ | EV_WRITE);
	TAILQ_INSERT_TAIL(&srv.workers, w, entry);
	log_debug("worker %d started (generation %d)", (int)pid, srv.generation);
}

static void
restart_workers(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	while (live_workers() < srv.cfg.workers)
		spawn_worker();
	/* Hand the backlog to the new workers. */
	while (!TAILQ_EMPTY(&srv.backlog) && live_workers() > 0) {
		struct request *r = TAILQ_FIRST(&srv.backlog);

		TAILQ_REMOVE(&srv.backlog, r, by_worker);
		dispatch(r);
	}
}

/*
 * Heavy requests (the automatic dead-stone judgement, triage.h) may occupy all workers but one,
 * so that short requests always find a worker free of them; with one worker, that one.
 */
static int
heavy_slots(void)
{
	return srv.cfg.workers > 1 ? srv.cfg.workers - 1 : 1;
}

/* A request leaves worker w (answered, or the worker died): free its heavy slot. */
static void
heavy_done(struct worker *w, struct request *r)
{
	if (r->holds_heavy_slot) {
		r->holds_heavy_slot = false;
		srv.heavy_inflight--;
		w->heavy--;
	}
}

/* Heavy requests that waited for a slot. */
static void
pump_heavy(void)
{
	while (!TAILQ_EMPTY(&srv.heavy_backlog) && srv.heavy_inflight < heavy_slots() &&
	    live_workers() > 0) {
		struct request *r = TAILQ_FIRST(&srv.heavy_backlog);

		TAILQ_REMOVE(&srv.heavy_backlog, r, by_worker);
		dispatch(r);
	}
}

/* Gives a request to the live worker with the fewest in hand, or to the backlog. */
static void
dispatch(struct request *r)
{
	struct worker *w, *best = NULL;

	if (r->heavy && srv.heavy_inflight >= heavy_slots()) {
		TAILQ_INSERT_TAIL(&srv.heavy_backlog, r, by_worker);
		return;
	}
	/* The least loaded worker, and above all one not running a heavy request: nothing
	 * short should wait behind milliseconds of dead-stone judgement. */
	TAILQ_FOREACH(w, &srv.workers, entry)
		if (!w->retiring && (best == NULL || (w->heavy > 0) < (best->heavy > 0) ||
		    ((w->heavy > 0) == (best->heavy > 0) && w->inflight < best->inflight)))
			best = w;
	if (best == NULL) {
		TAILQ_INSERT_TAIL(&srv.backlog, r, by_worker);
		return;
	}
	if (r->heavy) {
		r->holds_heavy_slot = true;
		srv.heavy_inflight++;
		best->heavy++;
	}
	r->worker = best;
	TAILQ_INSERT_TAIL(&best->queue, r, by_worker);
	if (best->inflight++ == 0)
		worker_arm_timer(best);
	worker_send(best, r->line, r->len, r->seq, FRAME_REQUEST);
}

static void
reap_children(evutil_socket_t fd, short what, void *arg)
{
	int status;
	pid_t pid;

	(void)fd;
	(void)what;
	(void)arg;
	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		if (WIFSIGNALED(status))
			log_warning("worker %d was killed by signal %d (%s)", (int)pid,
			    WTERMSIG(status), strsignal(WTERMSIG(status)));
		else if (WIFEXITED(status) && WEXITSTATUS(status) == WORKER_EXIT_LOAD_FAILED)
			log_error("worker %d could not load the rulesets", (int)pid);
		else if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
			log_warning("worker %d exited with status %d", (int)pid, WEXITSTATUS(status));
		else
			log_debug("worker %d exited", (int)pid);
	}
}

/* ---- the status counters, pushed to the workers once a second ---- */

/* After a busy spell, once a whole second passes without a request, returns the heap's free
 * pages to the system: the request lines and replies of a pipelined burst are freed but
 * glibc keeps their pages, which left the idle daemon 6 MB larger after a load. */
static void
give_back_memory(void)
{
#ifdef __GLIBC__
	static unsigned long requests_at_last_tick, requests_at_last_trim;

	if (srv.requests == requests_at_last_tick && srv.requests != requests_at_last_trim) {
		malloc_trim(0);
		requests_at_last_trim = srv.requests;
	}
	requests_at_last_tick = srv.requests;
#endif
}

static void
push_stats(evutil_socket_t fd, short what, void *arg)
{
	struct timeval tv = { 1, 0 };
	struct worker *w;
	json_t *s;
	char *text;

	(void)fd;
	(void)what;
	(void)arg;
	s = json_pack("{s:I, s:I, s:I, s:i, s:I, s:i, s:I, s:i, s:I, s:I, s:i}",
	    "uptime_s", (json_int_t)(time(NULL) - srv.started),
	    "requests", (json_int_t)srv.requests, "errors", (json_int_t)srv.errors,
	    "connections", srv.nconns, "connections_total", (json_int_t)srv.connections_total,
	    "workers", live_workers(), "worker_restarts", (json_int_t)srv.worker_restarts,
	    "generation", srv.generation, "overloaded", (json_int_t)srv.overloaded,
	    "cache_hits", (json_int_t)cache_hits(srv.cache), "daemon_pid", (int)getpid());
	text = json_dumps(s, JSON_COMPACT);
	json_decref(s);
	if (text != NULL)
		TAILQ_FOREACH(w, &srv.workers, entry)
			if (!w->retiring)
				worker_send(w, text, strlen(text), 0, FRAME_STATS);
	free(text);
	give_back_memory();
	if (!srv.draining)
		evtimer_add(srv.stats_timer, &tv);
}

/* ---- connections ---- */

static void
enqueue(struct conn *c, char *line, size_t len, char *ready_reply)
{
	struct request *r = calloc(1, sizeof(*r));

	if (r == NULL) {
		free(line);
		free(ready_reply);
		return;
	}
	r->conn = c;
	r->seq = ++srv.next_seq;
	r->line = line;
	r->len = len;
	TAILQ_INSERT_TAIL(&c->requests, r, by_conn);
	c->pending++;
	/* With nothing queued ahead, conn_read's answer_from_cache has already asked the cache
	 * and missed; only a request queued behind others is looked up here. */
	if (ready_reply == NULL && line != NULL &&
	    (r->has_split = cache_split(line, len, &r->split)) && c->pending > 1) {
		bool cached_error;
		char *cached = cache_lookup(srv.cache, line, len, &r->split, &cached_error);

		if (cached != NULL) {
			/* Asked before: the same answer, without a worker. */
			finish(r, cached, cached_error);
			goto backpressure;
		}
	}
	if (ready_reply != NULL) {
		finish(r, ready_reply, true);
	} else {
		r->heavy = triage_heavy(line, len);
		dispatch(r);
	}
backpressure:
	if (c->pending >= srv.cfg.max_pending && !c->paused) {
		/* Backpressure: a client that sends faster than it reads waits. */
		c->paused = true;
		bufferevent_disable(c->bev, EV_READ);
	}
}

static bool
blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return false;
	return true;
}

/*
 * The fast path of a request asked before, when nothing is queued ahead of it on its
 * connection: the reply is written straight from the cache, with no copy of the line, no
 * request record and no worker.
 */
static bool
answer_from_cache(struct conn *c, struct evbuffer *in, size_t len, size_t eol_len)
{
	const char *line = (const char *)evbuffer_pullup(in, (ev_ssize_t)len);
	struct evbuffer *out = bufferevent_get_output(c->bev);
	struct cache_split split;
	const char *prefix, *suffix;
	size_t prefix_len, suffix_len;
	bool is_error;

	if (line == NULL || !cache_split(line, len, &split) ||
	    (suffix = cache_find(srv.cache, line, len, &split, &suffix_len, &is_error)) == NULL)
		return false;
	prefix = cache_reply_prefix(&prefix_len);
	evbuffer_add(out, prefix, prefix_len);
	evbuffer_add(out, line + split.id_off, split.id_len);
	evbuffer_add(out, ",", 1);
	evbuffer_add(out, suffix, suffix_len);
	evbuffer_drain(in, len + eol_len);
	srv.requests++;
	if (is_error)
		srv.errors++;
	if (evbuffer_get_length(out) > MAX_UNREAD_REPLY_BYTES) {
		/* A client that does not read its replies is read no more until it does. */
		c->paused = true;
		bufferevent_disable(c->bev, EV_READ);
	}
	return true;
}

static void
conn_read(struct bufferevent *bev, void *arg)
{
	struct conn *c = arg;
	struct evbuffer *in = bufferevent_get_input(bev);

	while (!c->paused && !srv.draining) {
		size_t eol_len = 0, len;
		struct evbuffer_ptr eol = evbuffer_search_eol(in, NULL, &eol_len, EVBUFFER_EOL_LF);
		char *line;

		if (eol.pos < 0) {
			len = evbuffer_get_length(in);
			if (len > srv.cfg.max_request_bytes) {
				/* Drop what is here and the rest of the line; the connection
				 * stays usable. */
				evbuffer_drain(in, len);
				if (!c->discarding) {
					char msg[120];

					snprintf(msg, sizeof(msg), "request line longer than %zu bytes",
					    srv.cfg.max_request_bytes);
					enqueue(c, NULL, 0, rpc_error_line(SHT_RPC_TOO_LARGE, "too_large", msg));
				}
				c->discarding = true;
			}
			return;
		}
		len = (size_t)eol.pos;
		if (!c->discarding && c->pending == 0 && len <= srv.cfg.max_request_bytes &&
		    answer_from_cache(c, in, len, eol_len))
			continue;
		if (c->discarding) {
			evbuffer_drain(in, len + eol_len);
			c->discarding = false;
			continue;
		}
		if (len > srv.cfg.max_request_bytes) {
			char msg[120];

			evbuffer_drain(in, len + eol_len);
			snprintf(msg, sizeof(msg), "request line longer than %zu bytes",
			    srv.cfg.max_request_bytes);
			enqueue(c, NULL, 0, rpc_error_line(SHT_RPC_TOO_LARGE, "too_large", msg));
			continue;
		}
		line = malloc(len + 1);
		if (line == NULL)
			return;
		evbuffer_remove(in, line, len);
		evbuffer_drain(in, eol_len);
		line[len] = '\0';
		if (blank(line, len)) {
			free(line);
			continue;
		}
		enqueue(c, line, len, NULL);
	}
}

static void
conn_write(struct bufferevent *bev, void *arg)
{
	struct conn *c = arg;

	(void)bev;
	if (c->paused)
		deliver(c); /* the client read its replies: perhaps resume reading */
	if (c->closing && c->pending == 0) {
		conn_free(c);
		check_drained();
		return;
	}
	check_drained();
}

static void
conn_event(struct bufferevent *bev, short what, void *arg)
{
	struct conn *c = arg;

	(void)bev;
	if (what & BEV_EVENT_TIMEOUT) {
		if (c->pending == 0) {
			log_debug("connection %lu idle too long; closing it", c->id);
			conn_free(c);
			check_drained();
		} else {
			bufferevent_enable(c->bev, EV_READ); /* busy, not idle */
		}
		return;
	}
	if (what & BEV_EVENT_ERROR) {
		conn_free(c);
		check_drained();
		return;
	}
	if (what & BEV_EVENT_EOF) {
		/* The client has finished sending; answer what it asked, then close. */
		c->closing = true;
		if (c->pending == 0 && evbuffer_get_length(bufferevent_get_output(c->bev)) == 0) {
			conn_free(c);
			check_drained();
		}
	}
}

static void
accept_conn(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa, int socklen,
    void *arg)
{
	struct conn *c;
	struct ucred cred;
	socklen_t credlen = sizeof(cred);
	struct timeval idle = { srv.cfg.idle_timeout_s, 0 };

	(void)l;
	(void)sa;
	(void)socklen;
	(void)arg;
	if (srv.nconns >= srv.cfg.max_connections) {
		char *line = rpc_error_line(SHT_RPC_OVERLOADED, "overloaded", "too many connections; try again "
		    "later");

		/* One best-effort write: the socket is new, its buffer empty. */
		if (line != NULL)
			(void)!write(fd, line, strlen(line));
		free(line);
		close(fd);
		srv.overloaded++;
		log_warning("connection refused: %d connections already", srv.nconns);
		return;
	}
	c = calloc(1, sizeof(*c));
	if (c == NULL) {
		close(fd);
		return;
	}
	c->id = ++srv.next_conn_id;
	TAILQ_INIT(&c->requests);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &credlen) == 0)
		log_debug("connection %lu from uid %d gid %d pid %d", c->id, (int)cred.uid,
		    (int)cred.gid, (int)cred.pid);
	c->bev = bufferevent_socket_new(srv.base, fd, BEV_OPT_CLOSE_ON_FREE);
	bufferevent_setcb(c->bev, conn_read, conn_write, conn_event, c);
	/* libevent reads 4 KB per call by default: two score requests.  A pipelining client
	 * is served in far fewer system calls with larger reads and writes. */
	bufferevent_set_max_single_read(c->bev, IO_CHUNK_BYTES);
	bufferevent_set_max_single_write(c->bev, IO_CHUNK_BYTES);
	if (srv.cfg.idle_timeout_s > 0)
		bufferevent_set_timeouts(c->bev, &idle, NULL);
	bufferevent_enable(c->bev, EV_READ | EV_WRITE);
	TAILQ_INSERT_TAIL(&srv.conns, c, entry);
	srv.nconns++;
	srv.connections_total++;
}

/* ---- the socket ---- */

static int
open_socket(const char *path, mode_t mode, const char *group)
{
	struct sockaddr_un sun;
	int fd, probe;
	mode_t old;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun.sun_path)) {
		log_error("socket path too long: %s", path);
		return -1;
	}
	strcpy(sun.sun_path, path);
	/* Another instance answering there: refuse, rather than steal its socket. */
	probe = socket(AF_UNIX, SOCK_STREAM, 0);
	if (probe >= 0 && connect(probe, (struct sockaddr *)&sun, sizeof(sun)) == 0) {
		close(probe);
		log_error("another shoutand is already serving %s", path);
		return -1;
	}
	if (probe >= 0)
		close(probe);
	if (unlink(path) == 0)
		log_info("removed a stale socket file %s", path);
	{
		/* Create the directory the socket lives in, if it is missing. */
		char dir[PATH_MAX];
		char *slash;

		snprintf(dir, sizeof(dir), "%s", path);
		slash = strrchr(dir, '/');
		if (slash != NULL && slash != dir) {
			*slash = '\0';
			if (mkdir(dir, 0755) == 0)
				log_info("created %s", dir);
		}
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		log_error("socket: %s", strerror(errno));
		return -1;
	}
	/* Bind under a umask so the file never exists with wider rights than asked. */
	old = umask(0777 & ~mode);
	if (bind(fd, (struct sockaddr *)&sun, sizeof(sun)) != 0) {
		log_error("cannot bind %s: %s", path, strerror(errno));
		umask(old);
		close(fd);
		return -1;
	}
	umask(old);
	if (chmod(path, mode) != 0)
		log_warning("chmod %s: %s", path, strerror(errno));
	if (group != NULL) {
		struct group *g = getgrnam(group);

		if (g == NULL || chown(path, (uid_t)-1, g->gr_gid) != 0)
			log_warning("cannot give %s to group %s", path, group);
	}
	if (listen(fd, 512) != 0) {
		log_error("listen: %s", strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* ---- life cycle ---- */

bool
server_check_rulesets(const struct config *cfg, char *err, size_t errlen)
{
	int p[2];
	pid_t pid;
	ssize_t n;
	int status;
	size_t got = 0;

	if (pipe(p) != 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return false;
	}
	pid = fork();
	if (pid == 0) {
		struct sht_registry *r;
		char e[SHT_ERR_MAX];

		close(p[0]);
		r = sht_registry_load(cfg->plugins_dir, cfg->rulesets_dir, e, sizeof(e));
		if (r == NULL) {
			(void)!write(p[1], e, strlen(e));
			_exit(1);
		}
		_exit(0);
	}
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		snprintf(err, errlen, "fork: %s", strerror(errno));
		return false;
	}
	err[0] = '\0';
	while (got + 1 < errlen && (n = read(p[0], err + got, errlen - got - 1)) > 0)
		got += (size_t)n;
	err[got] = '\0';
	close(p[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return true;
	if (err[0] == '\0')
		snprintf(err, errlen, "loading the plugins crashed the checking process (%s)",
		    WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) : "exit");
	return false;
}

static void
reload(evutil_socket_t fd, short what, void *arg)
{
	struct config next;
	struct worker *w, *tmp;
	char err[SHT_ERR_MAX];

	(void)fd;
	(void)what;
	(void)arg;
	log_info("SIGHUP: reloading %s", srv.config_path ? srv.config_path : "(built-in settings)");
	config_defaults(&next, srv.cfg.plugins_dir, srv.cfg.rulesets_dir);
	free(next.socket_path);
	next.socket_path = strdup(srv.cfg.socket_path);
	if (srv.config_path != NULL && !config_load(&next, srv.config_path, err, sizeof(err))) {
		log_error("reload refused, still serving the old configuration: %s", err);
		config_free(&next);
		return;
	}
	if (srv.socket_override != NULL) {
		free(next.socket_path);
		next.socket_path = strdup(srv.socket_override);
	}
	if (!server_check_rulesets(&next, err, sizeof(err))) {
		log_error("reload refused, still serving the old rulesets: %s", err);
		config_free(&next);
		return;
	}
	if (strcmp(next.socket_path, srv.cfg.socket_path) != 0 || next.socket_mode !=
	    srv.cfg.socket_mode)
		log_warning("socket settings change only on restart; keeping %s", srv.cfg.socket_path);
	free(next.socket_path);
	next.socket_path = strdup(srv.cfg.socket_path);
	config_free(&srv.cfg);
	srv.cfg = next;
	log_set_level((enum log_level)srv.cfg.log_level);
	/* Replies of the old rulesets must not answer for the new ones. */
	cache_free(srv.cache);
	srv.cache = cache_new(srv.cfg.reply_cache_bytes); /* NULL (out of memory): no cache */
	/* A new generation of workers; the old ones finish what they hold, then go. */
	srv.generation++;
	for (w = TAILQ_FIRST(&srv.workers); w != NULL; w = tmp) {
		tmp = TAILQ_NEXT(w, entry);
		w->retiring = true;
		if (TAILQ_EMPTY(&w->queue))
			worker_free(w);
	}
	for (int i = 0; i < srv.cfg.workers; i++)
		spawn_worker();
	log_info("reloaded: generation %d, %d workers", srv.generation, srv.cfg.workers);
}

static void
terminate(evutil_socket_t fd, short what, void *arg)
{
	struct conn *c;

	(void)fd;
	(void)what;
	(void)arg;
	if (srv.draining)
		return;
	log_info("stopping: no new connections, finishing %s", drained() ? "nothing" :
	    "the requests in flight");
	srv.draining = true;
	if (srv.listener != NULL) {
		evconnlistener_free(srv.listener);
		srv.listener = NULL;
	}
	unlink(srv.cfg.socket_path);
	/* Read nothing more; answer what was asked. */
	TAILQ_FOREACH(c, &srv.conns, entry)
		bufferevent_disable(c->bev, EV_READ);
	check_drained();
}

int
server_run(struct config *cfg, const char *config_path, const char *socket_override)
{
	struct event *sigterm, *sigint, *sighup, *sigchld;
	struct conn *c;
	struct worker *w;
	int fd;

	memset(&srv, 0, sizeof(srv));
	srv.cfg = *cfg;
	srv.config_path = config_path;
	srv.socket_override = socket_override;
	srv.started = time(NULL);
	TAILQ_INIT(&srv.conns);
	TAILQ_INIT(&srv.workers);
	TAILQ_INIT(&srv.backlog);
	TAILQ_INIT(&srv.heavy_backlog);
	signal(SIGPIPE, SIG_IGN);
	{
		/* The changelist folds a write event's removal and re-adding within one loop
		 * turn into nothing: without it every pipelined batch costs two epoll_ctl calls. */
		struct event_config *ec = event_config_new();

		if (ec != NULL) {
			event_config_set_flag(ec, EVENT_BASE_FLAG_EPOLL_USE_CHANGELIST);
			srv.base = event_base_new_with_config(ec);
			event_config_free(ec);
		}
	}
	srv.cache = cache_new(srv.cfg.reply_cache_bytes);
	if (srv.base == NULL || srv.cache == NULL)
		return 1;
	fd = open_socket(srv.cfg.socket_path, srv.cfg.socket_mode, srv.cfg.socket_group);
	if (fd < 0)
		return 1;
	srv.listener = evconnlistener_new(srv.base, accept_conn, NULL, LEV_OPT_CLOSE_ON_FREE, -1,
	    fd);
	/* Signals go through the event loop: reload and stop run as ordinary code. */
	sigterm = evsignal_new(srv.base, SIGTERM, terminate, NULL);
	sigint = evsignal_new(srv.base, SIGINT, terminate, NULL);
	sighup = evsignal_new(srv.base, SIGHUP, reload, NULL);
	sigchld = evsignal_new(srv.base, SIGCHLD, reap_children, NULL);
	evsignal_add(sigterm, NULL);
	evsignal_add(sigint, NULL);
	evsignal_add(sighup, NULL);
	evsignal_add(sigchld, NULL);
	srv.restart_timer = evtimer_new(srv.base, restart_workers, NULL);
	srv.stats_timer = evtimer_new(srv.base, push_stats, NULL);
	for (int i = 0; i < srv.cfg.workers; i++)
		spawn_worker();
	push_stats(-1, 0, NULL);
	log_info("serving %s with %d workers (plugins %s, rulesets %s)", srv.cfg.socket_path,
	    srv.cfg.workers, srv.cfg.plugins_dir, srv.cfg.rulesets_dir);
	event_base_dispatch(srv.base);

	/* Drained: close the workers (EOF makes them exit) and the connections. */
	while ((c = TAILQ_FIRST(&srv.conns)) != NULL)
		conn_free(c);
	while ((w = TAILQ_FIRST(&srv.workers)) != NULL)
		worker_free(w);
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
	event_free(sigterm);
	event_free(sigint);
	event_free(sighup);
	event_free(sigchld);
	event_free(srv.restart_timer);
	event_free(srv.stats_timer);
	if (srv.listener != NULL)
		evconnlistener_free(srv.listener);
	event_base_free(srv.base);
	cache_free(srv.cache);
	*cfg = srv.cfg;
	log_info("stopped");
	return 0;
}
