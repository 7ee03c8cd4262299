/* The parent's reads and writes on clients' and workers' sockets (sockio.h). */
#include <errno.h>
#include <unistd.h>

#include <event2/buffer.h>

#include "sockio.h"
#include "server_impl.h"

/* Every read lands here first: the parent is one thread. */
static char scratch[IO_CHUNK_BYTES];

static TAILQ_HEAD(, outbox) queued = TAILQ_HEAD_INITIALIZER(queued);
static struct event *flush_event;
static bool flush_active;

static void
flush_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	/* Still marked active while it runs: what the writes' callbacks queue is written in
	 * the same pass. */
	outbox_flush();
	flush_active = false;
}

bool
outbox_setup(struct event_base *base)
{
	flush_event = event_new(base, -1, 0, flush_cb, NULL);
	return flush_event != NULL;
}

void
outbox_teardown(void)
{
	if (flush_event != NULL)
		event_free(flush_event);
	flush_event = NULL;
	flush_active = false;
}

void
outbox_init(struct outbox *o, struct bufferevent *bev, void (*drained)(void *arg), void *arg)
{
	o->bev = bev;
	o->queued = false;
	o->drained = drained;
	o->arg = arg;
	bufferevent_disable(bev, EV_WRITE);
}

void
outbox_queue(struct outbox *o)
{
	if (o->queued)
		return;
	o->queued = true;
	TAILQ_INSERT_TAIL(&queued, o, entry);
	if (!flush_active) {
		/* Active now, it runs after the callbacks already active this turn: the other
		 * clients' requests read in the same turn join the same writes to the workers. */
		flush_active = true;
		event_active(flush_event, EV_WRITE, 0);
	}
}

void
outbox_forget(struct outbox *o)
{
	if (o->queued)
		TAILQ_REMOVE(&queued, o, entry);
	o->queued = false;
}

void
outbox_written(struct outbox *o)
{
	bufferevent_disable(o->bev, EV_WRITE);
	if (o->drained != NULL)
		o->drained(o->arg);
}

/* One write of what the output holds (at most IO_CHUNK_BYTES, as libevent would write). */
static void
write_one(struct outbox *o)
{
	struct evbuffer *out = bufferevent_get_output(o->bev);

	/* Waiting for room in the socket: libevent writes when there is. */
	if (bufferevent_get_enabled(o->bev) & EV_WRITE)
		return;
	if (evbuffer_get_length(out) > 0) {
		/* A bufferevent keeps the front of its output frozen, draining it only in its own
		 * writer: thawed for this write, as that writer does. */
		evbuffer_unfreeze(out, 1);
		(void)evbuffer_write_atmost(out, bufferevent_getfd(o->bev), IO_CHUNK_BYTES);
		evbuffer_freeze(out, 1);
	}
	if (evbuffer_get_length(out) > 0) {
		/* The kernel's buffer is full, or the write failed: libevent writes the rest when
		 * there is room, or reports the error through the event callback. */
		bufferevent_enable(o->bev, EV_WRITE);
		return;
	}
	if (o->drained != NULL)
		o->drained(o->arg); /* may free o, or queue more */
}

void
outbox_flush(void)
{
	struct outbox *o;

	/* Taken off the list before it is written: its drained callback may free it or add to
	 * it again. */
	while ((o = TAILQ_FIRST(&queued)) != NULL) {
		TAILQ_REMOVE(&queued, o, entry);
		o->queued = false;
		write_one(o);
	}
}

ssize_t
sockio_read(int fd, const char **data, size_t max)
{
	*data = scratch;
	return read(fd, scratch, max < sizeof(scratch) ? max : sizeof(scratch));
}

ssize_t
sockio_read_into(int fd, struct evbuffer *in)
{
	ssize_t n = read(fd, scratch, sizeof(scratch));

	if (n > 0 && evbuffer_add(in, scratch, (size_t)n) != 0) {
		errno = ENOMEM; /* as a failed read: the connection ends */
		return -1;
	}
	return n;
}

void
sockio_take_input(struct bufferevent *bev)
{
	bufferevent_disable(bev, EV_READ);
	evbuffer_unfreeze(bufferevent_get_input(bev), 0);
}
