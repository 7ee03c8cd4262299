/* The daemon's parent process: the event loop, startup, reload on SIGHUP, drain on SIGTERM, and
 * the status counters; the socket, connections and workers are in listen.c, conn.c and pool.c. */
#include <errno.h>
#include <limits.h>
#ifdef __GLIBC__ /* defined by <limits.h> above, with glibc */
#include <malloc.h> /* malloc_trim */
#endif
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
#include "frame.h"
#include "log.h"
#include "server.h"
#include "http.h"
#include "server_impl.h"
#include "triage.h"
#include "worker.h"

/* After a second SIGTERM, the error replies written within this reach clients that read. */
#define STOP_FLUSH_MS 1000
/* A fall in what clients make the parent hold, past which the heap is trimmed at the next
 * tick: a crowd of clients that never read their replies leaves megabytes of freed pages. */
#define TRIM_AFTER_RELEASE_BYTES (4u << 20)

struct server srv;

/* The plugins and rulesets the last accepted check loaded (at start, at each accepted SIGHUP):
 * what the current generation of workers loads, for status.  NULL before any check. */
static json_t *checked_inventory;

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

void
server_check_drained(void)
{
	if (srv.draining && drained())
		event_base_loopexit(srv.base, NULL);
}

/* ---- the status counters: answered by the parent, pushed to the workers once a second ---- */

/* After a busy spell, once a whole second passes without a request, returns the heap's free
 * pages to the system: the request lines and replies of a pipelined burst are freed but
 * glibc keeps their pages, which left the idle daemon 6 MB larger after a load.  The same
 * once clients that held much have gone, busy or not. */
static void
give_back_memory(void)
{
#ifdef __GLIBC__
	static unsigned long requests_at_last_tick, requests_at_last_trim;

	if ((srv.requests == requests_at_last_tick && srv.requests != requests_at_last_trim) ||
	    srv.queued_peak > srv.queued_bytes + TRIM_AFTER_RELEASE_BYTES) {
		malloc_trim(0);
		requests_at_last_trim = srv.requests;
		srv.queued_peak = srv.queued_bytes;
	}
	requests_at_last_tick = srv.requests;
#endif
}

/* The daemon's counters, as status gives them. */
static json_t *
counters(void)
{
	return json_pack("{s:I, s:I, s:I, s:i, s:I, s:i, s:I, s:i, s:i, s:I, s:I, s:I, s:i}",
	    "uptime_s", (json_int_t)(time(NULL) - srv.started),
	    "requests", (json_int_t)srv.requests, "errors", (json_int_t)srv.errors,
	    "connections", srv.nconns, "connections_total", (json_int_t)srv.connections_total,
	    "workers", pool_live_workers(), "worker_restarts", (json_int_t)srv.worker_restarts,
	    "worker_start_failures", srv.failed_starts,
	    "generation", srv.generation, "overloaded", (json_int_t)srv.overloaded,
	    "cache_hits", (json_int_t)cache_hits(srv.cache),
	    "queued_bytes", (json_int_t)srv.queued_bytes, "daemon_pid", (int)getpid());
}

json_t *
server_status(void *arg)
{
	json_t *s = counters();
	json_t *plugins = json_object_get(checked_inventory, "plugins");
	json_t *rulesets = json_object_get(checked_inventory, "rulesets");

	(void)arg;
	if (s == NULL)
		return NULL;
	/* The parent loads no plugin: these are what the check at start or at the last
	 * accepted reload loaded, the set the current workers load. */
	json_object_set_new(s, "plugins", plugins ? json_deep_copy(plugins) : json_array());
	json_object_set_new(s, "rulesets", rulesets ? json_deep_copy(rulesets) : json_array());
	return s;
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
	/* For a status request a worker answers: one the parent does not recognise cheaply
	 * (longer than a few kilobytes, or with its method name escaped). */
	s = counters();
	text = json_dumps(s, JSON_COMPACT);
	json_decref(s);
	if (text != NULL)
		TAILQ_FOREACH(w, &srv.workers, entry)
			if (!w->retiring)
				worker_send(w, text, strlen(text), 0, FRAME_STATS);
	free(text);
	give_back_memory();
	conn_check_budget(); /* held-back connections whose holdings went with requests freed */
	if (!srv.draining)
		evtimer_add(srv.stats_timer, &tv);
}

/* ---- life cycle ---- */

/* The plugins and rulesets of a registry, as status lists them. */
static json_t *
inventory(const struct sht_registry *r)
{
	json_t *plugins = json_array(), *rulesets = json_array();

	for (int i = 0; i < r->nplugins; i++)
		json_array_append_new(plugins, json_pack("{s:s, s:s}", "name",
		    r->plugins[i]->desc->family, "path", r->plugins[i]->path));
	for (int i = 0; i < r->nrulesets; i++)
		json_array_append_new(rulesets, json_string(r->rulesets[i]->name));
	return json_pack("{s:o, s:o}", "plugins", plugins, "rulesets", rulesets);
}

/* Reads a pipe to its end, keeping up to max bytes and dropping the rest, so that the writer
 * never blocks; NULL when out of memory (the pipe is still read to its end). */
static char *
read_all(int fd, size_t max, size_t *len)
{
	size_t cap = 4096, got = 0;
	char *buf = malloc(cap + 1), drop[256];
	ssize_t n;

	for (;;) {
		bool room = buf != NULL && got < max;

		if (room && got == cap) {
			char *more = realloc(buf, cap * 2 + 1);

			if (more == NULL) {
				free(buf);
				buf = NULL;
				room = false;
			} else {
				buf = more;
				cap *= 2;
			}
		}
		n = read(fd, room ? buf + got : drop, room ? cap - got : sizeof(drop));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (room)
			got += (size_t)n;
	}
	if (buf != NULL)
		buf[got] = '\0';
	*len = got;
	return buf;
}

bool
server_check_rulesets(const struct config *cfg, char *err, size_t errlen)
{
	int p[2];
	pid_t pid;
	int status;
	size_t got = 0;
	char *said, *newline;

	if (pipe(p) != 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return false;
	}
	pid = fork();
	if (pid == 0) {
		struct sht_registry *r;
		char e[SHT_ERR_MAX];

		close(p[0]);
		/* As a worker starts, confinement included: an account that cannot read the
		 * rulesets, or a filter the kernel refuses, fails here and not in every worker. */
		if (worker_prepare(cfg, p[1], &r, e, sizeof(e)) != WORKER_EXIT_OK) {
			(void)!write(p[1], e, strlen(e));
			_exit(1);
		}
		/* The parent loads no plugin, so it learns here what it needs to know of them:
		 * first, on one line, what was loaded (for status); then, one a line, the rulesets
		 * that judge no dead stones unless asked (their requests are light, triage.h). */
		if (json_dumpfd(inventory(r), p[1], JSON_COMPACT) != 0)
			_exit(1);
		(void)!write(p[1], "\n", 1);
		for (int i = 0; i < r->nrulesets; i++)
			if (r->rulesets[i]->default_dead == SHT_DEAD_NONE)
				dprintf(p[1], "%s\n", r->rulesets[i]->name);
		_exit(0);
	}
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		snprintf(err, errlen, "fork: %s", strerror(errno));
		return false;
	}
	said = read_all(p[0], 16u << 20, &got);
	close(p[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	snprintf(err, errlen, "%s", said != NULL ? said : "");
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		newline = said != NULL ? memchr(said, '\n', got) : NULL;
		err[0] = '\0';
		if (newline != NULL) {
			json_t *found = json_loadb(said, (size_t)(newline - said), 0, NULL);

			if (found != NULL) {
				json_decref(checked_inventory);
				checked_inventory = found;
			}
			if (!triage_set_light_rulesets(newline + 1, got - (size_t)(newline + 1 -
			    said)))
				log_warning("out of memory: triage keeps its previous light rulesets");
		}
		free(said);
		return true;
	}
	free(said);
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
		pool_spawn_worker();
	log_info("reloaded: generation %d, %d workers", srv.generation, srv.cfg.workers);
}

/*
 * Stopping at once: every request not yet answered gets an error, the workers are killed, and
 * what can be written in STOP_FLUSH_MS is; then the loop ends, whatever is still unwritten.
 */
static void
stop_now(void)
{
	struct timeval flush = { STOP_FLUSH_MS / 1000, (STOP_FLUSH_MS % 1000) * 1000 };

	if (srv.stopping)
		return;
	srv.stopping = true;
	pool_stop_now();
	evtimer_add(srv.drain_timer, &flush);
	server_check_drained();
}

/* drain_timeout passed (the drain stops now), or after that STOP_FLUSH_MS (the loop ends). */
static void
drain_overdue(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	if (srv.stopping) {
		log_warning("stopping with replies unwritten to clients that do not read them");
		event_base_loopexit(srv.base, NULL);
		return;
	}
	log_warning("the drain took longer than drain_timeout (%d s); stopping now",
	    srv.cfg.drain_timeout_s);
	stop_now();
}

static void
terminate(evutil_socket_t fd, short what, void *arg)
{
	struct conn *c;
	struct timeval deadline = { srv.cfg.drain_timeout_s, 0 };

	(void)fd;
	(void)what;
	(void)arg;
	if (srv.draining) {
		/* Asked twice: the operator does not want to wait for the drain. */
		log_info("stopping now: the requests still in flight are answered with an error");
		stop_now();
		return;
	}
	log_info("stopping: no new connections, finishing %s", drained() ? "nothing" :
	    "the requests in flight");
	srv.draining = true;
	/* Nothing may keep the daemon from ending: not a worker that cannot start, nor a client
	 * that reads no replies. */
	evtimer_add(srv.drain_timer, &deadline);
	if (srv.listener != NULL) {
		evconnlistener_free(srv.listener);
		srv.listener = NULL;
	}
	http_stop_listening();
	unlink(srv.cfg.socket_path);
	/* Read nothing more; answer what was asked. */
	TAILQ_FOREACH(c, &srv.conns, entry)
		conn_update_reading(c);
	server_check_drained();
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
	if (srv.base == NULL || srv.cache == NULL || !outbox_setup(srv.base))
		return 1;
	fd = listen_open_socket(srv.cfg.socket_path, srv.cfg.socket_mode, srv.cfg.socket_group);
	if (fd < 0)
		return 1;
	/* Backlog 0: the socket listens already (listen.c), and libevent's -1 would call listen()
	 * again with its own 128, so that a burst of connections past 128 was refused. */
	srv.listener = evconnlistener_new(srv.base, conn_accept, NULL, LEV_OPT_CLOSE_ON_FREE, 0,
	    fd);
	if (srv.cfg.http != NULL) {
		char why[SHT_ERR_MAX];

		if (!http_start(srv.base, srv.cfg.http, why, sizeof(why))) {
			log_error("%s", why);
			return 1;
		}
	}
	/* Signals go through the event loop: reload and stop run as ordinary code. */
	sigterm = evsignal_new(srv.base, SIGTERM, terminate, NULL);
	sigint = evsignal_new(srv.base, SIGINT, terminate, NULL);
	sighup = evsignal_new(srv.base, SIGHUP, reload, NULL);
	sigchld = evsignal_new(srv.base, SIGCHLD, pool_reap_children, NULL);
	evsignal_add(sigterm, NULL);
	evsignal_add(sigint, NULL);
	evsignal_add(sighup, NULL);
	evsignal_add(sigchld, NULL);
	srv.restart_timer = evtimer_new(srv.base, pool_restart_workers, NULL);
	srv.stats_timer = evtimer_new(srv.base, push_stats, NULL);
	srv.budget_event = event_new(srv.base, -1, 0, conn_enforce_budget, NULL);
	srv.hold_timer = evtimer_new(srv.base, conn_hold_overdue, NULL);
	srv.drain_timer = evtimer_new(srv.base, drain_overdue, NULL);
	srv.hand_out_event = event_new(srv.base, -1, 0, pool_hand_out_later, NULL);
	for (int i = 0; i < srv.cfg.workers; i++)
		pool_spawn_worker();
	push_stats(-1, 0, NULL);
	log_info("serving %s with %d workers (plugins %s, rulesets %s)", srv.cfg.socket_path,
	    srv.cfg.workers, srv.cfg.plugins_dir, srv.cfg.rulesets_dir);
	event_base_dispatch(srv.base);

	/* Drained: close the workers (EOF makes them exit) and the connections.  A worker still
	 * holding requests holds only those whose clients have gone (drained() does not wait
	 * for them): it is killed, since it would finish them for nobody, and the wait for it
	 * below would have no bound (a second SIGTERM is no longer heard there). */
	http_free();
	while ((c = TAILQ_FIRST(&srv.conns)) != NULL)
		conn_free(c);
	while ((w = TAILQ_FIRST(&srv.workers)) != NULL) {
		struct request *r;

		if (!TAILQ_EMPTY(&w->queue))
			kill(w->pid, SIGKILL);
		while ((r = TAILQ_FIRST(&w->queue)) != NULL) {
			TAILQ_REMOVE(&w->queue, r, by_worker);
			request_free(r);
		}
		worker_free(w);
	}
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
	event_free(sigterm);
	event_free(sigint);
	event_free(sighup);
	event_free(sigchld);
	event_free(srv.restart_timer);
	event_free(srv.stats_timer);
	event_free(srv.budget_event);
	event_free(srv.hold_timer);
	event_free(srv.drain_timer);
	event_free(srv.hand_out_event);
	outbox_teardown();
	if (srv.listener != NULL)
		evconnlistener_free(srv.listener);
	event_base_free(srv.base);
	cache_free(srv.cache);
	*cfg = srv.cfg;
	log_info("stopped");
	return 0;
}
