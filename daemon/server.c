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
#include "server_impl.h"
#include "triage.h"

struct server srv;

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
	    "workers", pool_live_workers(), "worker_restarts", (json_int_t)srv.worker_restarts,
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

/* ---- life cycle ---- */

bool
server_check_rulesets(const struct config *cfg, char *err, size_t errlen)
{
	int p[2];
	pid_t pid;
	ssize_t n;
	int status;
	size_t got = 0;
	/* The child's error, or the rulesets whose own dead is none, one a line. */
	char said[4096], drop[256];

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
		/* The parent does not load plugins, so it learns here which rulesets judge no
		 * dead stones unless asked: their requests are light. */
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
	/* Read to the end, dropping what does not fit, so that the child never blocks. */
	for (;;) {
		bool room = got < sizeof(said);

		n = read(p[0], room ? said + got : drop, room ? sizeof(said) - got : sizeof(drop));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (room)
			got += (size_t)n;
	}
	close(p[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		if (!triage_set_light_rulesets(said, got))
			log_warning("out of memory: triage keeps its previous light rulesets");
		return true;
	}
	snprintf(err, errlen, "%.*s", (int)got, said);
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
	if (srv.base == NULL || srv.cache == NULL)
		return 1;
	fd = listen_open_socket(srv.cfg.socket_path, srv.cfg.socket_mode, srv.cfg.socket_group);
	if (fd < 0)
		return 1;
	srv.listener = evconnlistener_new(srv.base, conn_accept, NULL, LEV_OPT_CLOSE_ON_FREE, -1,
	    fd);
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
	for (int i = 0; i < srv.cfg.workers; i++)
		pool_spawn_worker();
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
