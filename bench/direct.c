/*
 * The ceiling of workers that own their connections (run on request): N processes forked after
 * one bind, each accepting on the shared Unix socket in its own libevent loop and answering
 * every line with rpc_handle, as a daemon worker does, with no parent in between and none of
 * the daemon's guarantees (no limits, no reply cache, no triage of heavy requests, no restart).
 * shoutan-loadgen against it measures what moving the connections into the workers could gain
 * at best (docs/protocol.md, "Workers owning connections, measured").
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>

#include "rpc.h"

/* As the daemon: larger reads and writes than libevent's 4 KB. */
#define IO_CHUNK_BYTES (256 << 10)

static struct sht_context ctx;

static void
on_read(struct bufferevent *bev, void *arg)
{
	struct evbuffer *in = bufferevent_get_input(bev), *out = bufferevent_get_output(bev);

	(void)arg;
	for (;;) {
		size_t eol_len;
		struct evbuffer_ptr eol = evbuffer_search_eol(in, NULL, &eol_len, EVBUFFER_EOL_LF);
		bool is_error, reusable;
		char *line, *reply;

		if (eol.pos < 0)
			break;
		/* The line contiguous in the buffer, as the daemon's reader hands it over. */
		line = (char *)evbuffer_pullup(in, (ev_ssize_t)(eol.pos + eol_len));
		if (line == NULL)
			break;
		reply = rpc_handle(&ctx, line, (size_t)eol.pos, &is_error, &reusable);
		evbuffer_drain(in, (size_t)eol.pos + eol_len);
		if (reply != NULL) {
			evbuffer_add(out, reply, strlen(reply));
			free(reply);
		}
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

/* One process's loop on the shared listening socket. */
static int
serve(int fd)
{
	struct event_config *ec = event_config_new();
	struct event_base *base;
	struct evconnlistener *listener;

	if (ec != NULL)
		event_config_set_flag(ec, EVENT_BASE_FLAG_EPOLL_USE_CHANGELIST);
	base = event_base_new_with_config(ec);
	event_config_free(ec);
	if (base == NULL)
		return 1;
	listener = evconnlistener_new(base, on_accept, NULL, LEV_OPT_CLOSE_ON_FREE, -1, fd);
	if (listener == NULL)
		return 1;
	event_base_dispatch(base);
	evconnlistener_free(listener);
	event_base_free(base);
	return 0;
}

int
main(int argc, char **argv)
{
	struct sockaddr_un sun;
	char err[512];
	int fd, workers = argc > 4 ? atoi(argv[4]) : 2;

	if (argc < 4 || strlen(argv[1]) >= sizeof(sun.sun_path) || workers < 1 || workers > 64) {
		fprintf(stderr, "usage: %s SOCKET PLUGINS_DIR RULESETS_DIR [WORKERS]\n", argv[0]);
		return 2;
	}
	ctx.registry = sht_registry_load(argv[2], argv[3], err, sizeof(err));
	if (ctx.registry == NULL) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, argv[1], strlen(argv[1]) + 1);
	unlink(argv[1]);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sun, sizeof(sun)) != 0 || listen(fd, 128) != 0) {
		perror(argv[1]);
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);
	/* Every process accepts on the same socket; the kernel wakes one per connection. */
	for (int i = 0; i < workers; i++) {
		pid_t pid = fork();

		if (pid == 0)
			return serve(fd);
		if (pid < 0) {
			perror("fork");
			return 1;
		}
	}
	while (wait(NULL) > 0)
		;
	return 0;
}
