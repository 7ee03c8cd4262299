/* The parent's connections: reading request lines, per-connection limits and the memory budget,
 * the reply cache's fast path, and writing replies back in each connection's order. */
#define _GNU_SOURCE /* SO_PEERCRED and struct ucred, memmem */
#include <errno.h>
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

/*
 * The memory budget (max_queued_bytes) covers what clients make the parent hold: their unread
 * replies and unparsed input (the connections' buffers), the request lines and replies waiting
 * for their turn, and the lines in the workers' buffers.  Past three quarters of it, every
 * connection holding more than HOLD_BACK_MIN_BYTES is read no more until the total is under
 * half; past the budget itself, the heaviest connections are closed with an `overloaded` error
 * until it is under again.  A client that reads its replies holds a few of them, well under
 * HOLD_BACK_MIN_BYTES, and is served throughout.  Holding back is decided before each request
 * line is taken, not only once a loop turn: one read of 256 KB of requests that the cache
 * answers can make megabytes of replies, thirty such clients a turn hundreds.
 */
#define HOLD_BACK_MIN_BYTES (64u << 10)
/* The most one read takes from a client: a pipeline of sixteen score requests (45 KB) in one
 * call, while thirty clients that never read add at most 2 MB a loop turn before the budget
 * is looked at again (and what is left of a read sits in a buffer twice its size). */
#define CLIENT_READ_BYTES (64u << 10)
/* Held back this long with the daemon still over half its budget, the heaviest held-back
 * connection is closed with `overloaded`, one a period: clients that hold memory without
 * ever passing the budget (unfinished lines, unread replies) must not keep others held back
 * for good, and a held-back connection reads nothing, so its idle timeout cannot reap it. */
static const struct timeval hold_back_grace = { 2, 0 };
/* A status request is a few dozen bytes: the parent looks for one only in lines this short,
 * so that no client can make it parse long lines (longer ones go to a worker, as before). */
#define PARENT_STATUS_MAX_BYTES 4096


static void conn_read(struct bufferevent *bev, void *arg);

/* ---- what connections hold ---- */

void
conn_check_budget(void)
{
	size_t budget = srv.cfg.max_queued_bytes;

	if (srv.queued_bytes > srv.queued_peak)
		srv.queued_peak = srv.queued_bytes; /* see give_back_memory */
	/* Not here and now: this runs inside libevent's buffer callbacks, where a connection
	 * must not be closed.  Once per loop turn is soon enough: a turn reads at most
	 * IO_CHUNK_BYTES per connection. */
	if (!srv.budget_event_active && (srv.queued_bytes > budget / 4 * 3 ||
	    (srv.held_back > 0 && srv.queued_bytes < budget / 2))) {
		srv.budget_event_active = true;
		event_active(srv.budget_event, EV_TIMEOUT, 0);
	}
}

static void
hold(struct conn *c, struct request *r, size_t n)
{
	r->held += n;
	if (c != NULL)
		c->queued += n;
	srv.queued_bytes += n;
	conn_check_budget();
}

/* Keeps c->queued and srv.queued_bytes in step with the bytes in a connection's buffers. */
static void
conn_buffer_changed(struct evbuffer *buf, const struct evbuffer_cb_info *info, void *arg)
{
	struct conn *c = arg;

	(void)buf;
	c->queued += info->n_added;
	c->queued -= info->n_deleted;
	srv.queued_bytes += info->n_added;
	srv.queued_bytes -= info->n_deleted;
	conn_check_budget();
}

void
conn_update_reading(struct conn *c)
{
	if (!c->paused && !c->held_back && !srv.draining) {
		struct timeval idle = { srv.cfg.idle_timeout_s, 0 };

		/* Added again, the idle timeout starts again, as libevent's did when enabled. */
		if (!c->read_ended)
			event_add(c->read_ev, srv.cfg.idle_timeout_s > 0 ? &idle : NULL);
		conn_read(c->bev, c); /* lines may be waiting in the input buffer */
	} else {
		event_del(c->read_ev);
	}
}

/* ---- replies, in each connection's order ---- */

void
request_free(struct request *r)
{
	if (r->conn != NULL)
		r->conn->queued -= r->held;
	srv.queued_bytes -= r->held;
	free(r->line);
	free(r->reply);
	free(r);
}

void
conn_free(struct conn *c)
{
	struct request *r;

	/* Requests still with a worker lose their client; the reply will be dropped.  Those
	 * still waiting for a worker are dropped now: nobody wants their answers. */
	while ((r = TAILQ_FIRST(&c->requests)) != NULL) {
		TAILQ_REMOVE(&c->requests, r, by_conn);
		if (r->done || pool_forget(r)) {
			request_free(r);
		} else {
			/* Its line is not needed again: no other worker will be asked. */
			srv.queued_bytes -= r->held;
			c->queued -= r->held;
			r->held = 0;
			free(r->line);
			r->line = NULL;
			r->conn = NULL;
		}
	}
	TAILQ_REMOVE(&srv.conns, c, entry);
	srv.nconns--;
	srv.held_back -= c->held_back;
	/* Freeing the buffers does not report what they held. */
	evbuffer_remove_cb_entry(bufferevent_get_input(c->bev), c->in_cb);
	evbuffer_remove_cb_entry(bufferevent_get_output(c->bev), c->out_cb);
	srv.queued_bytes -= c->queued;
	outbox_forget(&c->out);
	event_free(c->read_ev);
	shutdown(bufferevent_getfd(c->bev), SHUT_RDWR);
	bufferevent_free(c->bev);
	log_debug("connection %lu closed", c->id);
	free(c);
}

/*
 * Closes a connection that holds too much of the budget, with an `overloaded` error.  The reply
 * libevent was writing is finished first, so that the error starts a line; the write is a best
 * effort, as a client that reads nothing will not read this either.
 */
static void
conn_overloaded(struct conn *c)
{
	struct evbuffer *out = bufferevent_get_output(c->bev);
	struct evbuffer_ptr eol = evbuffer_search_eol(out, NULL, NULL, EVBUFFER_EOL_LF);
	evutil_socket_t fd = bufferevent_getfd(c->bev);
	bool at_line_start = evbuffer_get_length(out) == 0;
	char *line = rpc_error_line(SHT_RPC_OVERLOADED, "overloaded", "this connection held more "
	    "unread replies and pending requests than the daemon can keep; read the replies");

	log_warning("connection %lu closed: it held %zu bytes when the daemon's %zu passed "
	    "max_queued_bytes (%zu)", c->id, c->queued, srv.queued_bytes,
	    srv.cfg.max_queued_bytes);
	if (!at_line_start && eol.pos >= 0 && (size_t)eol.pos < IO_CHUNK_BYTES) {
		size_t keep = (size_t)eol.pos + 1;

		/* A bufferevent keeps its output's start frozen, and a frozen buffer writes
		 * nothing (-1): unfrozen for this write, as sockio.c does for its own. */
		evbuffer_unfreeze(out, 1);
		at_line_start = evbuffer_write_atmost(out, fd, (ev_ssize_t)keep) == (int)keep;
		evbuffer_freeze(out, 1);
	}
	if (at_line_start && line != NULL)
		(void)!write(fd, line, strlen(line));
	free(line);
	srv.overloaded++;
	conn_free(c);
}

/* Whether c is to be read no more for the budget's sake (see above). */
static bool
hold_back_due(const struct conn *c)
{
	return srv.queued_bytes > srv.cfg.max_queued_bytes / 4 * 3 && c->queued >
	    HOLD_BACK_MIN_BYTES;
}

static void
hold_back(struct conn *c)
{
	log_debug("connection %lu read no more: it holds %zu bytes, the daemon %zu", c->id,
	    c->queued, srv.queued_bytes);
	c->held_back = true;
	srv.held_back++;
	conn_update_reading(c);
	if (!evtimer_pending(srv.hold_timer, NULL))
		evtimer_add(srv.hold_timer, &hold_back_grace);
}

void
conn_enforce_budget(evutil_socket_t fd, short what, void *arg)
{
	size_t budget = srv.cfg.max_queued_bytes;
	struct conn *c, *heaviest;

	(void)fd;
	(void)what;
	(void)arg;
	srv.budget_event_active = false;
	while (srv.queued_bytes > budget) {
		heaviest = NULL;
		TAILQ_FOREACH(c, &srv.conns, entry)
			if (heaviest == NULL || c->queued > heaviest->queued)
				heaviest = c;
		if (heaviest == NULL || heaviest->queued == 0)
			break; /* what is held belongs to no connection (workers' buffers) */
		conn_overloaded(heaviest);
	}
	if (srv.queued_bytes > budget / 4 * 3) {
		TAILQ_FOREACH(c, &srv.conns, entry)
			if (!c->held_back && c->queued > HOLD_BACK_MIN_BYTES)
				hold_back(c);
	} else if (srv.held_back > 0 && srv.queued_bytes < budget / 2) {
		struct conn *next;

		for (c = TAILQ_FIRST(&srv.conns); c != NULL; c = next) {
			next = TAILQ_NEXT(c, entry);
			if (c->held_back) {
				c->held_back = false;
				srv.held_back--;
				conn_update_reading(c);
			}
		}
	}
	server_check_drained();
}

void
conn_hold_overdue(evutil_socket_t fd, short what, void *arg)
{
	struct conn *c, *heaviest = NULL;

	(void)fd;
	(void)what;
	(void)arg;
	if (srv.held_back == 0)
		return;
	if (srv.queued_bytes >= srv.cfg.max_queued_bytes / 2) {
		TAILQ_FOREACH(c, &srv.conns, entry)
			if (c->held_back && (heaviest == NULL || c->queued > heaviest->queued))
				heaviest = c;
		if (heaviest != NULL)
			conn_overloaded(heaviest);
	}
	/* Closing it may have brought the total under half: release the others, or wait one
	 * more period before the next. */
	conn_enforce_budget(-1, 0, NULL);
	if (srv.held_back > 0 && !evtimer_pending(srv.hold_timer, NULL))
		evtimer_add(srv.hold_timer, &hold_back_grace);
}

/* A reply given to an output buffer (deliver) is freed with the bytes written. */
static void
free_written_reply(const void *data, size_t len, void *arg)
{
	(void)data;
	(void)len;
	free(arg);
}

/* Writes every finished reply at the head of the connection's queue. */
static void
deliver(struct conn *c)
{
	struct request *r;

	while ((r = TAILQ_FIRST(&c->requests)) != NULL && r->done) {
		TAILQ_REMOVE(&c->requests, r, by_conn);
		c->pending--;
		if (r->reply != NULL) {
			/* Given to the buffer rather than copied into it: a reply is a kilobyte
			 * or more, and the buffer would copy it into a block twice its size. */
			if (evbuffer_add_reference(bufferevent_get_output(c->bev), r->reply,
			    r->reply_len, free_written_reply, r->reply) == 0)
				r->reply = NULL;
			else
				bufferevent_write(c->bev, r->reply, r->reply_len);
			outbox_queue(&c->out);
		}
		request_free(r);
	}
	if (!c->paused && evbuffer_get_length(bufferevent_get_output(c->bev)) >
	    MAX_UNREAD_REPLY_BYTES) {
		c->paused = true;
		conn_update_reading(c);
	}
	if (c->paused && c->pending < (srv.cfg.max_pending + 1) / 2 && !srv.draining &&
	    evbuffer_get_length(bufferevent_get_output(c->bev)) <= MAX_UNREAD_REPLY_BYTES / 2) {
		c->paused = false;
		conn_update_reading(c);
	}
	/* A client that has finished sending and has nothing left to receive is closed by
	 * conn_write.  When the last answer wrote nothing (a notification that failed), no
	 * write will call it, so call it, on a later turn of the loop: the caller still holds
	 * c.  (bufferevent_free drops the callbacks, so a conn freed meanwhile is safe.) */
	if (c->closing && c->pending == 0 &&
	    evbuffer_get_length(bufferevent_get_output(c->bev)) == 0)
		bufferevent_trigger(c->bev, EV_WRITE, BEV_TRIG_IGNORE_WATERMARKS |
		    BEV_TRIG_DEFER_CALLBACKS);
}

void
request_finish(struct request *r, char *reply, bool is_error)
{
	r->done = true;
	r->reply = reply;
	r->reply_len = reply ? strlen(reply) : 0;
	hold(r->conn, r, r->reply_len);
	srv.requests++;
	if (is_error)
		srv.errors++;
	if (r->conn == NULL) {
		request_free(r); /* the client has gone */
		return;
	}
	deliver(r->conn);
}

bool
request_answer_from_cache(struct request *r)
{
	bool cached_error;
	char *cached;

	if (!r->has_split || r->line == NULL)
		return false;
	cached = cache_lookup(srv.cache, r->line, r->len, &r->split, &cached_error);
	if (cached == NULL)
		return false;
	request_finish(r, cached, cached_error);
	return true;
}

void
request_fail(struct request *r, int code, const char *kind, const char *message)
{
	/* With the request's own id (a notification gets nothing), so that a client matching
	 * replies to requests by id knows which one failed. */
	request_finish(r, rpc_error_for(r->line, r->len, code, kind, message), true);
}

/* ---- connections ---- */

/*
 * Whether the request names its method first after its id, as a plain name other than status:
 * {"jsonrpc":"2.0","id":ID,"method":"score",...  Then rpc_handle_status cannot take it (the
 * one "method" member of the object, duplicates being refused, is not status), and the line
 * need not be searched for "status" at all (a whole request's bytes, for every request).
 */
static bool
names_another_method(const char *line, size_t len, const struct cache_split *split)
{
	static const char key[] = "\"method\"";
	size_t i = split->key_off, start;

#define SKIP_BLANKS() while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) i++
	SKIP_BLANKS();
	if (len - i < sizeof(key) - 1 || memcmp(line + i, key, sizeof(key) - 1) != 0)
		return false;
	i += sizeof(key) - 1;
	SKIP_BLANKS();
	if (i == len || line[i++] != ':')
		return false;
	SKIP_BLANKS();
#undef SKIP_BLANKS
	if (i == len || line[i++] != '"')
		return false;
	for (start = i; i < len && line[i] != '"' && line[i] != '\\'; i++)
		;
	if (i == len || line[i] != '"')
		return false;
	return !(i - start == 6 && memcmp(line + start, "status", 6) == 0);
}

/* A request line (malloc'd, or NULL for an error reply ready made), with its split when it has
 * one (cache.h), queued on its connection: answered from the cache, by the parent (status) or
 * by a worker. */
static void
enqueue(struct conn *c, char *line, size_t len, char *ready_reply, const struct cache_split *split)
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
	hold(c, r, len);
	/* With nothing queued ahead, take_line's answer_from_cache has already asked the cache
	 * and missed; only a request queued behind others is looked up here. */
	if (split != NULL) {
		r->split = *split;
		r->has_split = true;
	}
	if (ready_reply == NULL && line != NULL && r->has_split && c->pending > 1) {
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
	} else if (len <= PARENT_STATUS_MAX_BYTES && !(r->has_split &&
	    names_another_method(line, len, &r->split)) && memmem(line, len, "\"status\"", 8) !=
	    NULL) {
		/* status is answered here, from the counters, so that a health check does not
		 * depend on a worker being able to start. */
		bool handled, is_error;
		char *reply = rpc_handle_status(line, len, server_status, NULL, &is_error, &handled);

		if (handled) {
			request_finish(r, reply, is_error);
		} else {
			r->heavy = triage_heavy(line, len);
			pool_dispatch(r);
		}
	} else {
		r->heavy = triage_heavy(line, len);
		pool_dispatch(r);
	}
backpressure:
	if (c->pending >= srv.cfg.max_pending && !c->paused) {
		/* Backpressure: a client that sends faster than it reads waits. */
		c->paused = true;
		conn_update_reading(c);
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
answer_from_cache(struct conn *c, const char *line, size_t len, const struct cache_split *split)
{
	struct evbuffer *out = bufferevent_get_output(c->bev);
	const char *prefix, *suffix;
	size_t prefix_len, suffix_len;
	bool is_error;

	if ((suffix = cache_find(srv.cache, line, len, split, &suffix_len, &is_error)) == NULL)
		return false;
	prefix = cache_reply_prefix(&prefix_len);
	evbuffer_add(out, prefix, prefix_len);
	evbuffer_add(out, line + split->id_off, split->id_len);
	evbuffer_add(out, ",", 1);
	evbuffer_add(out, suffix, suffix_len);
	outbox_queue(&c->out);
	srv.requests++;
	if (is_error)
		srv.errors++;
	if (evbuffer_get_length(out) > MAX_UNREAD_REPLY_BYTES) {
		/* A client that does not read its replies is read no more until it does. */
		c->paused = true;
		conn_update_reading(c);
	}
	return true;
}

static void
too_large(struct conn *c)
{
	char msg[120];

	snprintf(msg, sizeof(msg), "request line longer than %zu bytes", srv.cfg.max_request_bytes);
	enqueue(c, NULL, 0, rpc_error_line(SHT_RPC_TOO_LARGE, "too_large", msg), NULL);
}

/*
 * One whole request line, at most max_request_bytes, at `text` (the connection's input buffer
 * or the read's scratch bytes): answered from the cache at once, or copied and queued.
 * *consume is called before anything that may read the connection again (a reply finished at
 * once can resume a paused connection): the bytes must be gone from where they were by then.
 */
static void
take_line(struct conn *c, const char *text, size_t len, void (*consume)(void *arg), void *arg)
{
	struct cache_split split;
	bool has_split;
	char *line;

	if (blank(text, len)) {
		consume(arg);
		return;
	}
	/* Split once: the cache's fast path, the lookup behind others and the reply's store
	 * use the same split and hash. */
	has_split = cache_split(text, len, &split);
	if (has_split && c->pending == 0 && answer_from_cache(c, text, len, &split)) {
		consume(arg);
		return;
	}
	line = malloc(len + 1);
	if (line != NULL) {
		memcpy(line, text, len);
		line[len] = '\0';
	}
	consume(arg);
	if (line != NULL)
		enqueue(c, line, len, NULL, has_split ? &split : NULL);
}

struct buffered_line {
	struct evbuffer *in;
	size_t n; /* the line and its end */
};

static void
drain_line(void *arg)
{
	struct buffered_line *b = arg;

	evbuffer_drain(b->in, b->n);
}

/* The whole lines in the connection's input buffer, while nothing holds reading back. */
static void
conn_read(struct bufferevent *bev, void *arg)
{
	struct conn *c = arg;
	struct evbuffer *in = bufferevent_get_input(bev);

	while (!c->paused && !c->held_back && !srv.draining) {
		size_t eol_len = 0, len;
		struct evbuffer_ptr eol = evbuffer_search_eol(in, NULL, &eol_len, EVBUFFER_EOL_LF);
		struct buffered_line b = { in, 0 };
		const char *text;

		if (hold_back_due(c)) {
			hold_back(c);
			return;
		}
		if (eol.pos < 0) {
			len = evbuffer_get_length(in);
			if (len > srv.cfg.max_request_bytes) {
				/* Drop what is here and the rest of the line; the connection
				 * stays usable. */
				evbuffer_drain(in, len);
				if (!c->discarding)
					too_large(c);
				c->discarding = true;
			}
			return;
		}
		len = (size_t)eol.pos;
		if (c->discarding) {
			evbuffer_drain(in, len + eol_len);
			c->discarding = false;
			continue;
		}
		if (len > srv.cfg.max_request_bytes) {
			evbuffer_drain(in, len + eol_len);
			too_large(c);
			continue;
		}
		text = len > 0 ? (const char *)evbuffer_pullup(in, (ev_ssize_t)len) : "";
		if (text == NULL)
			return; /* out of memory: the line stays for the next read */
		b.n = len + eol_len;
		take_line(c, text, len, drain_line, &b);
	}
}

static void
skip_nothing(void *arg)
{
	(void)arg;
}

/*
 * What one read brought (data, n bytes), when the connection's input buffer was empty: its
 * whole lines are taken straight from the read's bytes, without going through the buffer (a
 * copy in, a search, a copy out); the rest (a line not finished yet, or lines left when
 * reading was held back) goes to the buffer, behind which the next read's bytes go.
 */
static void
conn_take_read(struct conn *c, const char *data, size_t n)
{
	struct evbuffer *in = bufferevent_get_input(c->bev);
	const char *p = data, *end = data + n, *eol;

	while (p < end && !c->paused && !c->held_back && !srv.draining && !c->discarding &&
	    (eol = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		size_t len = (size_t)(eol - p);
		const char *text = p;

		if (hold_back_due(c)) {
			hold_back(c);
			break;
		}
		/* Past the line before it is handled: nothing else reads these bytes. */
		p = eol + 1;
		if (len > srv.cfg.max_request_bytes)
			too_large(c);
		else
			take_line(c, text, len, skip_nothing, NULL);
	}
	if (p < end) {
		if (evbuffer_add(in, p, (size_t)(end - p)) != 0) {
			conn_free(c); /* out of memory: the request cannot be kept */
			server_check_drained();
			return;
		}
		conn_read(c->bev, c);
	}
}

/* Every reply written (by the outbox, or by libevent when the socket had no room). */
static void
conn_drained(void *arg)
{
	struct conn *c = arg;

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
conn_write(struct bufferevent *bev, void *arg)
{
	struct conn *c = arg;

	(void)bev;
	outbox_written(&c->out);
}

static void conn_event(struct bufferevent *bev, short what, void *arg);

/* The read event: what the client sent, its end, or the idle timeout. */
static void
conn_readable(evutil_socket_t fd, short what, void *arg)
{
	struct conn *c = arg;
	const char *data;
	ssize_t n;

	if (what & EV_TIMEOUT) {
		conn_event(c->bev, BEV_EVENT_READING | BEV_EVENT_TIMEOUT, c);
		return;
	}
	if (hold_back_due(c)) {
		hold_back(c); /* not one more read into memory past the budget's mark */
		return;
	}
	n = sockio_read(fd, &data, CLIENT_READ_BYTES);
	if (n > 0) {
		struct evbuffer *in = bufferevent_get_input(c->bev);

		if (evbuffer_get_length(in) == 0) {
			conn_take_read(c, data, (size_t)n);
		} else if (evbuffer_add(in, data, (size_t)n) == 0) {
			conn_read(c->bev, c);
		} else {
			conn_free(c); /* out of memory: the request cannot be kept */
			server_check_drained();
		}
		return;
	}
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
		return;
	/* Its end, or an error: read no more (the stream would say so again and again). */
	c->read_ended = true;
	event_del(c->read_ev);
	conn_event(c->bev, BEV_EVENT_READING | (n == 0 ? BEV_EVENT_EOF : BEV_EVENT_ERROR), c);
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
			conn_update_reading(c); /* busy, not idle */
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
	c->read_ev = event_new(srv.base, fd, EV_READ | EV_PERSIST, conn_readable, c);
	if (c->bev == NULL || c->read_ev == NULL) {
		if (c->read_ev != NULL)
			event_free(c->read_ev);
		if (c->bev != NULL)
			bufferevent_free(c->bev); /* closes fd */
		else
			close(fd);
		free(c);
		return;
	}
	c->in_cb = evbuffer_add_cb(bufferevent_get_input(c->bev), conn_buffer_changed, c);
	c->out_cb = evbuffer_add_cb(bufferevent_get_output(c->bev), conn_buffer_changed, c);
	bufferevent_setcb(c->bev, NULL, conn_write, conn_event, c);
	/* libevent writes 4 KB per call by default: two score requests.  A pipelining client
	 * is served in far fewer system calls with larger writes (and reads: sockio.h). */
	bufferevent_set_max_single_write(c->bev, IO_CHUNK_BYTES);
	outbox_init(&c->out, c->bev, conn_drained, c);
	sockio_take_input(c->bev);
	event_add(c->read_ev, srv.cfg.idle_timeout_s > 0 ? &idle : NULL);
	TAILQ_INSERT_TAIL(&srv.conns, c, entry);
	srv.nconns++;
	srv.connections_total++;
}
