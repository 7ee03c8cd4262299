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

/* Workers in a row that could not start (they could not load the rulesets, or fork failed),
 * past which the parent stops waiting for one: what waits for a worker is answered with an
 * error instead, so that no client waits for ever. */
#define FAILED_STARTS_LIMIT 3
/* The first restart after a death waits this long; each failed start in a row doubles it, up
 * to the most, so that a worker which cannot start (a broken plugin) is not spun. */
#define RESTART_DELAY_MS 200
#define RESTART_DELAY_MAX_MS 5000
/* Requests a worker holds at once; the rest wait in the parent's backlog, where the memory
 * budget counts them and where those of a client that leaves are dropped unrun.  Enough for
 * a worker to take several in one read (it answers them in one write). */
#define WORKER_MAX_INFLIGHT 64
/* Waiting requests answered from the cache in one go.  A client repeating one request can
 * leave thousands waiting before the first answer is back: answered all at once, their
 * replies would be made before the memory budget is looked at (memory_budget_test's 30
 * clients took the parent to 70 MB); a batch at a time, the budget's event runs in between
 * (and closes the heaviest clients, whose waiting requests go with them). */
#define CACHE_ANSWERS_AT_ONCE 64

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
	outbox_queue(&w->out);
}

/* The kernel took the rest of what the worker was sent. */
static void
worker_write(struct bufferevent *bev, void *arg)
{
	struct worker *w = arg;

	(void)bev;
	outbox_written(&w->out);
}

/* Keeps w->queued and srv.queued_bytes in step with the bytes in a worker's buffers. */
static void
worker_buffer_changed(struct evbuffer *buf, const struct evbuffer_cb_info *info, void *arg)
{
	struct worker *w = arg;

	(void)buf;
	w->queued += info->n_added;
	w->queued -= info->n_deleted;
	srv.queued_bytes += info->n_added;
	srv.queued_bytes -= info->n_deleted;
}

void
worker_free(struct worker *w)
{
	TAILQ_REMOVE(&srv.workers, w, entry);
	if (w->bev != NULL) {
		/* Freeing the buffers does not report what they held. */
		evbuffer_remove_cb_entry(bufferevent_get_input(w->bev), w->in_cb);
		evbuffer_remove_cb_entry(bufferevent_get_output(w->bev), w->out_cb);
		srv.queued_bytes -= w->queued;
		outbox_forget(&w->out);
		if (w->read_ev != NULL)
			event_free(w->read_ev);
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

/* Removes a request from the backlog it waits in, if any. */
static void
unwait(struct request *r)
{
	if (r->waiting_in != NULL) {
		TAILQ_REMOVE(r->waiting_in, r, by_worker);
		r->waiting_in = NULL;
	}
}

static void
wait_in(struct request_list *list, struct request *r)
{
	TAILQ_INSERT_TAIL(list, r, by_worker);
	r->waiting_in = list;
}

bool
pool_forget(struct request *r)
{
	if (r->waiting_in == NULL)
		return false;
	unwait(r);
	return true;
}

static void
fail_no_worker(struct request *r)
{
	char msg[200];

	snprintf(msg, sizeof(msg), "no worker process could be started (%d in a row ended before "
	    "answering; the daemon's log says why); the request was not run", srv.failed_starts);
	request_fail(r, SHT_RPC_INTERNAL, "internal", msg);
}

/* Every request that waits for a worker or a heavy slot, answered with an error. */
static void
fail_waiting(void (*fail)(struct request *))
{
	struct request_list *lists[] = { &srv.backlog, &srv.heavy_backlog };
	struct request *r;

	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		while ((r = TAILQ_FIRST(lists[i])) != NULL) {
			unwait(r);
			fail(r);
		}
}

/* Whether a live worker can take another request. */
static bool
room(void)
{
	struct worker *w;

	TAILQ_FOREACH(w, &srv.workers, entry)
		if (!w->retiring && w->inflight < WORKER_MAX_INFLIGHT)
			return true;
	return false;
}

void
pool_hand_out(void)
{
	int answered = 0;

	while (!TAILQ_EMPTY(&srv.backlog) && room()) {
		struct request *r = TAILQ_FIRST(&srv.backlog);

		if (answered == CACHE_ANSWERS_AT_ONCE) {
			/* After the callbacks already due, the budget's among them. */
			event_active(srv.hand_out_event, EV_TIMEOUT, 0);
			break;
		}
		unwait(r);
		if (request_answer_from_cache(r))
			answered++;
		else
			pool_dispatch(r);
	}
	pump_heavy();
}

void
pool_hand_out_later(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	pool_hand_out();
	server_check_drained();
}

static void schedule_restart(bool at_once);

static void
fail_stopping(struct request *r)
{
	request_fail(r, SHT_RPC_INTERNAL, "internal", STOPPING_MESSAGE);
}

/* A worker could not be started (fork failed) or could not load the rulesets. */
static void
start_failed(void)
{
	if (++srv.failed_starts >= FAILED_STARTS_LIMIT) {
		fail_waiting(fail_no_worker);
		server_check_drained();
	}
	schedule_restart(false);
}

static void
start_failed_to_load(pid_t pid)
{
	log_error("worker %d could not load the rulesets", (int)pid);
	start_failed();
}

static void
schedule_restart(bool at_once)
{
	int delay_ms = RESTART_DELAY_MS;

	for (int i = 1; i < srv.failed_starts && delay_ms < RESTART_DELAY_MAX_MS; i++)
		delay_ms *= 2;
	if (delay_ms > RESTART_DELAY_MAX_MS)
		delay_ms = RESTART_DELAY_MAX_MS;
	if (at_once)
		delay_ms = 0;
	if (!evtimer_pending(srv.restart_timer, NULL)) {
		struct timeval tv = { delay_ms / 1000, (delay_ms % 1000) * 1000 };

		evtimer_add(srv.restart_timer, &tv);
	}
}

/* A worker that went away: its current request is answered with an error, the rest go
 * elsewhere, and a new worker takes its place. */
static void
worker_gone(struct worker *w, const char *why)
{
	struct request_list requeue;
	struct request *r, *head;
	bool was_retiring = w->retiring;
	bool timed_out = w->timed_out;
	/* It never answered, nor did the ones before it: what it held will not be run by the
	 * next one either. */
	bool hopeless = !w->answered && srv.failed_starts >= FAILED_STARTS_LIMIT;
	int others = w->inflight > 0 ? w->inflight - 1 : 0;
	char msg[200];

	TAILQ_INIT(&requeue);
	TAILQ_FOREACH(r, &w->queue, by_worker)
		heavy_done(w, r);
	if ((head = TAILQ_FIRST(&w->queue)) != NULL)
		TAILQ_REMOVE(&w->queue, head, by_worker);
	TAILQ_CONCAT(&requeue, &w->queue, by_worker);
	log_warning("worker %d stopped with %s; %d queued request%s handed to others", (int)w->pid,
	    why, others, others == 1 ? "" : "s");
	/* Out of the pool before any request is answered: answering one can let its client's
	 * next requests in, and dispatching them must not pick this worker (a request given to
	 * it took a heavy slot that nothing would give back). */
	worker_free(w);
	if (head != NULL) {
		head->worker = NULL;
		if (hopeless) {
			fail_no_worker(head);
		} else if (timed_out) {
			snprintf(msg, sizeof(msg), "the request took longer than the %d ms allowed and "
			    "was stopped", srv.cfg.request_timeout_ms);
			request_fail(head, SHT_RPC_TIMEOUT, "timeout", msg);
		} else {
			snprintf(msg, sizeof(msg), "the worker serving this request stopped (%s); the "
			    "request was not completed", why);
			request_fail(head, SHT_RPC_INTERNAL, "internal", msg);
		}
	}
	/* Replace it, even while draining: the requests it held still need a worker.  Not at
	 * once (unless it was killed for its time): one that dies on start must not spin. */
	if (!was_retiring) {
		srv.worker_restarts++;
		schedule_restart(timed_out);
	}
	if (srv.failed_starts >= FAILED_STARTS_LIMIT)
		fail_waiting(fail_no_worker);
	while ((r = TAILQ_FIRST(&requeue)) != NULL) {
		TAILQ_REMOVE(&requeue, r, by_worker);
		r->worker = NULL;
		if (r->conn == NULL)
			request_free(r); /* nobody is waiting for its answer */
		else if (hopeless)
			fail_no_worker(r);
		else
			pool_dispatch(r);
	}
	pool_hand_out();
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
		if (h.length > FRAME_MAX_REPLY_BYTES) {
			log_error("worker %d announced a %u-byte reply, over the %u allowed; stopping "
			    "it", (int)w->pid, h.length, FRAME_MAX_REPLY_BYTES);
			kill(w->pid, SIGKILL);
			/* Its end of the pair reports EOF next, and worker_gone answers for it. */
			evbuffer_drain(in, evbuffer_get_length(in));
			return;
		}
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
		    r->line != NULL && w->generation == srv.generation)
			cache_store(srv.cache, r->line, r->len, &r->split, reply, h.length);
		TAILQ_REMOVE(&w->queue, r, by_worker);
		w->inflight--;
		w->answered = true;
		srv.failed_starts = 0;
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
	pool_hand_out();
	server_check_drained();
}

/* The read event: replies, or the worker's end. */
static void
worker_readable(evutil_socket_t fd, short what, void *arg)
{
	struct worker *w = arg;
	ssize_t n = sockio_read_into(fd, bufferevent_get_input(w->bev));

	(void)what;
	if (n > 0)
		worker_read(w->bev, w); /* may free w */
	else if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
		worker_gone(w, "its process ended");
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

	if (srv.stopping)
		return;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
		log_error("socketpair: %s", strerror(errno));
		start_failed();
		return;
	}
	pid = fork();
	if (pid < 0) {
		log_error("fork: %s", strerror(errno));
		close(sv[0]);
		close(sv[1]);
		start_failed();
		return;
	}
	if (pid == 0) {
		/* The child keeps only its end of the pair: holding the listener, clients or
		 * other workers' pairs would keep them open after the parent closes them. */
		sigset_t term;

		signal(SIGCHLD, SIG_DFL);
		/* A SIGTERM to the whole process group (kill -TERM -PGID, or systemd's
		 * KillMode=control-group) must not end a worker under the requests the parent
		 * is draining: the parent ends its workers, by closing their sockets, once
		 * every request is answered.  Blocked here, from the fork on, until worker_main
		 * ignores it: one sent in between stays pending and is then discarded. */
		sigemptyset(&term);
		sigaddset(&term, SIGTERM);
		sigprocmask(SIG_BLOCK, &term, NULL);
		if (dup2(sv[1], 3) < 0)
			_exit(1);
		close_range(4, ~0U, 0);
		log_reopen();
		_exit(worker_main(3, &srv.cfg, srv.generation));
	}
	close(sv[1]);
	evutil_make_socket_nonblocking(sv[0]);
	w = calloc(1, sizeof(*w));
	if (w == NULL) {
		/* Closing its end tells the child to exit. */
		log_error("out of memory for worker %d", (int)pid);
		close(sv[0]);
		start_failed();
		return;
	}
	w->pid = pid;
	w->generation = srv.generation;
	TAILQ_INIT(&w->queue);
	w->bev = bufferevent_socket_new(srv.base, sv[0], BEV_OPT_CLOSE_ON_FREE);
	w->read_ev = event_new(srv.base, sv[0], EV_READ | EV_PERSIST, worker_readable, w);
	if (w->bev == NULL || w->read_ev == NULL) {
		log_error("out of memory for worker %d", (int)pid);
		if (w->read_ev != NULL)
			event_free(w->read_ev);
		if (w->bev != NULL)
			bufferevent_free(w->bev); /* closes sv[0], which tells the child to exit */
		else
			close(sv[0]);
		free(w);
		start_failed();
		return;
	}
	bufferevent_set_max_single_write(w->bev, IO_CHUNK_BYTES);
	w->timer = evtimer_new(srv.base, worker_timeout, w);
	w->in_cb = evbuffer_add_cb(bufferevent_get_input(w->bev), worker_buffer_changed, w);
	w->out_cb = evbuffer_add_cb(bufferevent_get_output(w->bev), worker_buffer_changed, w);
	bufferevent_setcb(w->bev, NULL, worker_write, worker_event, w);
	outbox_init(&w->out, w->bev, NULL, NULL);
	sockio_take_input(w->bev);
	event_add(w->read_ev, NULL);
	TAILQ_INSERT_TAIL(&srv.workers, w, entry);
	log_debug("worker %d started (generation %d)", (int)pid, srv.generation);
}

void
pool_restart_workers(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	for (int n = pool_live_workers(); n < srv.cfg.workers; n++)
		pool_spawn_worker();
	/* Hand the new workers what waited for them: the backlog and the heavy backlog (the
	 * heavy requests would otherwise wait for some other heavy request to end). */
	pool_hand_out();
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
	int answered = 0;

	while (!TAILQ_EMPTY(&srv.heavy_backlog) && srv.heavy_inflight < heavy_slots() &&
	    pool_live_workers() > 0) {
		struct request *r = TAILQ_FIRST(&srv.heavy_backlog);

		if (answered == CACHE_ANSWERS_AT_ONCE) {
			event_active(srv.hand_out_event, EV_TIMEOUT, 0);
			break;
		}
		unwait(r);
		if (request_answer_from_cache(r))
			answered++;
		else
			pool_dispatch(r);
	}
}

/* Gives a request to the live worker with the fewest in hand, or to the backlog. */
void
pool_dispatch(struct request *r)
{
	struct worker *w, *best = NULL;

	if (srv.stopping) {
		fail_stopping(r);
		return;
	}
	if (r->heavy && srv.heavy_inflight >= heavy_slots()) {
		wait_in(&srv.heavy_backlog, r);
		return;
	}
	/* The least loaded worker, and above all one not running a heavy request: nothing
	 * short should wait behind milliseconds of dead-stone judgement. */
	TAILQ_FOREACH(w, &srv.workers, entry)
		if (!w->retiring && (best == NULL || (w->heavy > 0) < (best->heavy > 0) ||
		    ((w->heavy > 0) == (best->heavy > 0) && w->inflight < best->inflight)))
			best = w;
	if (best == NULL && srv.failed_starts >= FAILED_STARTS_LIMIT) {
		fail_no_worker(r);
		return;
	}
	if (best == NULL || best->inflight >= WORKER_MAX_INFLIGHT) {
		wait_in(&srv.backlog, r);
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
			start_failed_to_load(pid);
		else if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
			log_warning("worker %d exited with status %d", (int)pid, WEXITSTATUS(status));
		else
			log_debug("worker %d exited", (int)pid);
	}
}

void
pool_stop_now(void)
{
	struct worker *w;
	struct request *r;

	evtimer_del(srv.restart_timer);
	fail_waiting(fail_stopping);
	while ((w = TAILQ_FIRST(&srv.workers)) != NULL) {
		while ((r = TAILQ_FIRST(&w->queue)) != NULL) {
			TAILQ_REMOVE(&w->queue, r, by_worker);
			heavy_done(w, r);
			r->worker = NULL;
			fail_stopping(r);
		}
		/* It may be deep in a request; server_run reaps it. */
		kill(w->pid, SIGKILL);
		worker_free(w);
	}
}
