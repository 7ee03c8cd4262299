/*
 * The floor the daemon is measured against (run on request): a bare libevent server on a Unix
 * socket that answers every request line at once with a fixed JSON-RPC reply of the daemon's
 * size, doing no work, so that shoutan-loadgen against it shows what the socket traffic alone
 * costs on this machine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>

/* As the daemon: larger reads and writes than libevent's 4 KB. */
#define IO_CHUNK_BYTES (256 << 10)

static char *reply;
static size_t reply_len;

static void
on_read(struct bufferevent *bev, void *arg)
{
	struct evbuffer *in = bufferevent_get_input(bev), *out = bufferevent_get_output(bev);

	(void)arg;
	for (;;) {
		size_t eol_len;
		struct evbuffer_ptr eol = evbuffer_search_eol(in, NULL, &eol_len, EVBUFFER_EOL_LF);

		if (eol.pos < 0)
			break;
		evbuffer_drain(in, (size_t)eol.pos + eol_len);
		evbuffer_add(out, reply, reply_len);
	}
}

static void
on_event(struct bufferevent *bev, short what, void *arg)
{
	(void)arg;
	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR))
		bufferevent_free(bev);
}

static void
on_accept(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa, int socklen,
    void *arg)
{
	struct bufferevent *bev = bufferevent_socket_new(evconnlistener_get_base(l), fd,
	    BEV_OPT_CLOSE_ON_FREE);

	(void)sa;
	(void)socklen;
	(void)arg;
	if (bev == NULL) {
		close(fd);
		return;
	}
	bufferevent_set_max_single_read(bev, IO_CHUNK_BYTES);
	bufferevent_set_max_single_write(bev, IO_CHUNK_BYTES);
	bufferevent_setcb(bev, on_read, NULL, on_event, NULL);
	bufferevent_enable(bev, EV_READ | EV_WRITE);
}

int
main(int argc, char **argv)
{
	struct sockaddr_un sun;
	struct event_base *base;
	struct event_config *ec;
	struct evconnlistener *listener;
	size_t size = argc > 2 ? (size_t)strtoul(argv[2], NULL, 10) : 1000;
	const char *head = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"", *tail = "\"}\n";

	if (argc < 2 || size > (1 << 20) || strlen(argv[1]) >= sizeof(sun.sun_path)) {
		fprintf(stderr, "usage: %s SOCKET [REPLY_BYTES]\n", argv[0]);
		return 2;
	}
	/* The loadgen counts a reply as good when "result" is in its head. */
	reply_len = strlen(head) + size + strlen(tail);
	reply = malloc(reply_len);
	if (reply == NULL)
		return 1;
	memcpy(reply, head, strlen(head));
	memset(reply + strlen(head), 'x', size);
	memcpy(reply + strlen(head) + size, tail, strlen(tail));
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, argv[1], strlen(argv[1]) + 1);
	unlink(argv[1]);
	/* As the daemon: the changelist spares two epoll_ctl calls per pipelined batch. */
	ec = event_config_new();
	if (ec != NULL)
		event_config_set_flag(ec, EVENT_BASE_FLAG_EPOLL_USE_CHANGELIST);
	base = event_base_new_with_config(ec);
	event_config_free(ec);
	if (base == NULL)
		return 1;
	listener = evconnlistener_new_bind(base, on_accept, NULL, LEV_OPT_CLOSE_ON_FREE, 128,
	    (struct sockaddr *)&sun, sizeof(sun));
	if (listener == NULL) {
		perror(argv[1]);
		return 1;
	}
	event_base_dispatch(base);
	evconnlistener_free(listener);
	event_base_free(base);
	free(reply);
	return 0;
}
