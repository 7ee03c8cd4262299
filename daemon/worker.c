/* A worker process: loads the rulesets, then answers request frames one at a time until EOF. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frame.h"
#include "log.h"
#include "rpc.h"
#include "worker.h"

static json_t *latest_stats;
static int generation;

static bool
read_full(int fd, void *buf, size_t n)
{
	char *p = buf;

	while (n > 0) {
		ssize_t r = read(fd, p, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		p += r;
		n -= (size_t)r;
	}
	return true;
}

static bool
write_full(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		p += w;
		n -= (size_t)w;
	}
	return true;
}

/* status: the daemon's counters as last pushed, and this worker. */
static json_t *
status(void *arg)
{
	json_t *s = latest_stats ? json_deep_copy(latest_stats) : json_object();

	(void)arg;
	json_object_set_new(s, "worker", json_pack("{s:i, s:i}", "pid", (int)getpid(),
	    "generation", generation));
	return s;
}

int
worker_main(int fd, const char *plugins_dir, const char *rulesets_dir, int gen)
{
	struct sht_context ctx;
	char err[SHT_ERR_MAX];
	char *buf = NULL;
	size_t cap = 0;

	generation = gen;
	/* The parent handles signals; a worker just ends when its socket closes. */
	signal(SIGHUP, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_IGN);
	memset(&ctx, 0, sizeof(ctx));
	ctx.registry = sht_registry_load(plugins_dir, rulesets_dir, err, sizeof(err));
	if (ctx.registry == NULL) {
		log_error("worker cannot load the rulesets: %s", err);
		return WORKER_EXIT_LOAD_FAILED;
	}
	ctx.status = status;
	for (;;) {
		struct frame_header h, rh;
		bool is_error;
		char *reply;

		if (!read_full(fd, &h, sizeof(h)))
			break;
		if (h.length + 1 > cap) {
			char *nb = realloc(buf, cap = (size_t)h.length + 1);

			if (nb == NULL)
				return 1;
			buf = nb;
		}
		if (!read_full(fd, buf, h.length))
			break;
		buf[h.length] = '\0';
		if (h.flags == FRAME_STATS) {
			json_decref(latest_stats);
			latest_stats = json_loadb(buf, h.length, 0, NULL);
			continue;
		}
		reply = rpc_handle(&ctx, buf, h.length, &is_error);
		rh.seq = h.seq;
		rh.length = reply ? (uint32_t)strlen(reply) : 0;
		rh.flags = (reply == NULL ? FRAME_REPLY_NONE : 0) | (is_error ? FRAME_REPLY_ERROR : 0);
		if (!write_full(fd, &rh, sizeof(rh)) || (reply && !write_full(fd, reply, rh.length))) {
			free(reply);
			break;
		}
		free(reply);
	}
	free(buf);
	json_decref(latest_stats);
	sht_registry_free((struct sht_registry *)ctx.registry);
	return 0;
}
