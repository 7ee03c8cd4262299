/* The parent's worker pool: spawning workers, dispatch with heavy slots, replies, deaths,
 * the time budget, generations and restarts. */
#define _GNU_SOURCE /* close_range */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event2/buffer.h>

#include "cache.h"
#include "frame.h"
#include "log.h"
#include "rpc.h"
#include "server_impl.h"
#include "worker.h"

static void heavy_done(struct worker *w, struct request *r);
static void pump_heavy(void);

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

void
worker_send(struct worker *w, const char *data, size_t len, uint32_t seq, uint32_t flags)
{
	struct frame_header h = { (uint32_t)len, seq, flags };

	bufferevent_write(w->bev, &h, sizeof(h));
	bufferevent_write(w->bev, data, len);
}

void
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

int
pool_live_workers(void)
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
			request_fail(r, SHT_RPC_TIMEOUT, "timeout", msg);
		} else {
			snprintf(msg, sizeof(msg), "the worker serving this request stopped (%s); the "
			    "request was not completed", why);
			request_fail(r, SHT_RPC_INTERNAL, "internal", msg);
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
		pool_dispatch(r);
	}
	pump_heavy();
	server_check_drained();
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
				request_fail(r, SHT_RPC_INTERNAL, "internal", "out of memory");
			else
				request_finish(r, reply, (h.flags & FRAME_REPLY_ERROR) != 0);
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
		server_check_drained();
		return;
	}
	/* Requests that waited for a worker, or for a heavy slot. */
	while (!TAILQ_EMPTY(&srv.backlog) && pool_live_workers() > 0) {
		struct request *r = TAILQ_FIRST(&srv.backlog);

		TAILQ_REMOVE(&srv.backlog, r, by_worker);
		pool_dispatch(r);
	}
	pump_heavy();
	server_check_drained();
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

void
pool_spawn_worker(void)
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

void
pool_restart_workers(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	while (pool_live_workers() < srv.cfg.workers)
		pool_spawn_worker();
	/* Hand the backlog to the new workers. */
	while (!TAILQ_EMPTY(&srv.backlog) && pool_live_workers() > 0) {
		struct request *r = TAILQ_FIRST(&srv.backlog);

		TAILQ_REMOVE(&srv.backlog, r, by_worker);
		pool_dispatch(r);
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
	    pool_live_workers() > 0) {
		struct request *r = TAILQ_FIRST(&srv.heavy_backlog);

		TAILQ_REMOVE(&srv.heavy_backlog, r, by_worker);
		pool_dispatch(r);
	}
}

/* Gives a request to the live worker with the fewest in hand, or to the backlog. */
void
pool_dispatch(struct request *r)
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

void
pool_reap_children(evutil_socket_t fd, short what, void *arg)
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
