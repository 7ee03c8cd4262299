/* The parent's reads and writes on clients' and workers' sockets, made by hand instead of by
 * libevent's bufferevents, which cost system calls the parent does not need. */
#ifndef SHOUTAN_SOCKIO_H
#define SHOUTAN_SOCKIO_H

#include <stdbool.h>
#include <sys/queue.h>
#include <sys/types.h>

#include <event2/buffer.h>

#include <event2/bufferevent.h>
#include <event2/event.h>

/*
 * A bufferevent's output, written when the loop turn's callbacks are done: every reply and
 * frame added in the turn goes out in one write, and a write the kernel takes whole costs no
 * epoll_ctl.  libevent, left to write, would add the socket's write event when bytes are
 * added and take it away once they are written: two epoll_ctl calls for each reply, more than
 * its read and its write.  Only when the kernel does not take everything is the bufferevent's
 * own writing enabled, to finish the rest when the socket has room (its write callback must
 * then call outbox_written).
 */
struct outbox {
	TAILQ_ENTRY(outbox) entry;
	struct bufferevent *bev;
	bool queued;                /* in the list to write this turn */
	void (*drained)(void *arg); /* called when a write has emptied the output (or NULL) */
	void *arg;
};

/* Once, before any outbox is used: the event that writes them. */
bool outbox_setup(struct event_base *base);
void outbox_teardown(void);

/* bev's output is written by hand from now on: its writing is disabled. */
void outbox_init(struct outbox *o, struct bufferevent *bev, void (*drained)(void *arg),
    void *arg);
/* Bytes were added to the output: write them when the turn's callbacks are done. */
void outbox_queue(struct outbox *o);
/* Before the bufferevent is freed. */
void outbox_forget(struct outbox *o);
/* From the bufferevent's write callback (its output is empty): writing by hand again.  Calls
 * o->drained. */
void outbox_written(struct outbox *o);
/* Writes every queued outbox now (the loop's event does it otherwise). */
void outbox_flush(void);

/*
 * Reading: one read(2) of up to max bytes (at most IO_CHUNK_BYTES) from fd, into a scratch
 * buffer (*data) that stays valid until the next read.  A bufferevent reads at most
 * 4096 bytes a call whatever its max_single_read (libevent 2.1's EVBUFFER_MAX_READ), and
 * asks the kernel first how much there is with an ioctl: a worker's batch of 25 KB of replies
 * took six loop turns and twelve system calls, and every client request an ioctl beside its
 * read.  Returns what read(2) returned (0 at the end of the stream; -1 with errno, EAGAIN
 * when there was nothing after all).
 */
ssize_t sockio_read(int fd, const char **data, size_t max);
/* Up to IO_CHUNK_BYTES, the bytes added to the end of in (a bufferevent's input, whose end
 * sockio_take_input has thawed); -1 with ENOMEM when they cannot be. */
ssize_t sockio_read_into(int fd, struct evbuffer *in);
/* The bufferevent's input is filled by hand from now on: its own reading is never
 * enabled, and the input's end, which a bufferevent keeps frozen outside its reader, is
 * thawed. */
void sockio_take_input(struct bufferevent *bev);

#endif
