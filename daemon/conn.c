/* The parent's connections: reading request lines, per-connection limits, the reply cache's fast
 * path, and writing replies back in each connection's order. */
#define _GNU_SOURCE /* SO_PEERCRED and struct ucred */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <event2/buffer.h>

#include "cache.h"
#include "log.h"
#include "rpc.h"
#include "server_impl.h"
#include "triage.h"

static void conn_read(struct bufferevent *bev, void *arg);

/* ---- replies, in each connection's order ---- */

static void
request_free(struct request *r)
{
	free(r->line);
	free(r->reply);
	free(r);
}

void
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

void
request_finish(struct request *r, char *reply, bool is_error)
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

void
request_fail(struct request *r, int code, const char *kind, const char *message)
{
	request_finish(r, rpc_error_line(code, kind, message), true);
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
			request_finish(r, cached, cached_error);
			goto backpressure;
		}
	}
	if (ready_reply != NULL) {
		request_finish(r, ready_reply, true);
	} else {
		r->heavy = triage_heavy(line, len);
		pool_dispatch(r);
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
		server_check_drained();
		return;
	}
	server_check_drained();
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
			server_check_drained();
		} else {
			bufferevent_enable(c->bev, EV_READ); /* busy, not idle */
		}
		return;
	}
	if (what & BEV_EVENT_ERROR) {
		conn_free(c);
		server_check_drained();
		return;
	}
	if (what & BEV_EVENT_EOF) {
		/* The client has finished sending; answer what it asked, then close. */
		c->closing = true;
		if (c->pending == 0 && evbuffer_get_length(bufferevent_get_output(c->bev)) == 0) {
			conn_free(c);
			server_check_drained();
		}
	}
}

void
conn_accept(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa, int socklen,
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
