/* Writing what the parent has for a client or a worker once a loop turn, by hand, instead of
 * through libevent's write events. */
#ifndef SHOUTAN_OUTBOX_H
#define SHOUTAN_OUTBOX_H

#include <stdbool.h>
#include <sys/queue.h>

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

#endif
