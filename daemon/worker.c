/* A worker process: confined, loads the rulesets, then answers request frames until EOF. */
#include <errno.h>
#include <iconv.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "frame.h"
#include "log.h"
#include "replay_cache.h"
#include "rpc.h"
#include "sandbox.h"
#include "worker.h"

static json_t *latest_stats;
static int generation;

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

/* A growable byte buffer for batching frames in and out. */
struct bytes {
	char *data;
	size_t len, cap, off; /* off: bytes already consumed from the front */
};

static bool
bytes_reserve(struct bytes *b, size_t more)
{
	if (b->off > 0 && b->off == b->len) {
		b->off = b->len = 0;
	} else if (b->off > b->cap / 2) {
		memmove(b->data, b->data + b->off, b->len - b->off);
		b->len -= b->off;
		b->off = 0;
	}
	if (b->len + more > b->cap) {
		size_t cap = b->cap ? b->cap : 65536;
		char *nd;

		while (b->len + more > cap)
			cap *= 2;
		nd = realloc(b->data, cap);
		if (nd == NULL)
			return false;
		b->data = nd;
		b->cap = cap;
	}
	return true;
}

static bool
bytes_append(struct bytes *b, const void *p, size_t n)
{
	if (!bytes_reserve(b, n))
		return false;
	memcpy(b->data + b->len, p, n);
	b->len += n;
	return true;
}

/*
 * Loads, for good, iconv's converters from the character sets lib/charset.c converts SGF records
 * from (its iconv_name table, the byte-order marks, and detection) to UTF-8.  glibc reads its
 * converter list and dlopens each converter on first use, which the system call filter forbids:
 * opened now and never closed, they stay loaded.  A record in another character set is decoded
 * by detection under the filter (iconv_open fails), instead of killing the worker.
 */
static void
load_character_sets(void)
{
	static const char *const names[] = { "GB18030", "CP932", "CP949", "BIG5-HKSCS", "EUC-JP",
		"WINDOWS-1252", "UTF-16LE", "UTF-16BE" };
	static iconv_t kept[sizeof(names) / sizeof(names[0])];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (kept[i] == NULL)
			kept[i] = iconv_open("UTF-8", names[i]);
}

enum worker_exit
worker_prepare(const struct config *cfg, int request_fd, struct sht_registry **registry,
    char *err, size_t errlen)
{
	*registry = NULL;
	if (geteuid() == 0 && cfg->user != NULL &&
	    !sandbox_drop_privileges(cfg->user_uid, cfg->user_gid, err, errlen))
		return WORKER_EXIT_CONFINE_FAILED;
	*registry = sht_registry_load(cfg->plugins_dir, cfg->rulesets_dir, err, errlen);
	if (*registry == NULL)
		return WORKER_EXIT_LOAD_FAILED;
	if (!cfg->worker_seccomp)
		return WORKER_EXIT_OK;
	/* What would otherwise open a file on first use, once the filter forbids it: jansson
	 * seeds its hash tables from /dev/urandom, syslog's timestamps read the zone, and iconv
	 * loads its converters. */
	json_object_seed(0);
	tzset();
	load_character_sets();
	if (!sandbox_restrict_syscalls(request_fd, err, errlen)) {
		sht_registry_free(*registry);
		*registry = NULL;
		return WORKER_EXIT_CONFINE_FAILED;
	}
	return WORKER_EXIT_OK;
}

int
worker_main(int fd, const struct config *cfg, int gen)
{
	struct sht_context ctx;
	struct sht_registry *registry;
	char err[SHT_ERR_MAX];
	struct bytes in = { 0 }, out = { 0 };
	enum worker_exit prepared;

	generation = gen;
	/* The parent handles signals; a worker just ends when its socket closes (or is killed).
	 * SIGTERM is ignored, not left to end the worker: a SIGTERM to the whole process group
	 * must not cut short the requests the parent is draining (pool.c blocks it from the fork
	 * on, so none comes in between). */
	signal(SIGHUP, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	memset(&ctx, 0, sizeof(ctx));
	prepared = worker_prepare(cfg, fd, &registry, err, sizeof(err));
	if (prepared != WORKER_EXIT_OK) {
		log_error("worker cannot start: %s", err);
		return prepared;
	}
	ctx.registry = registry;
	ctx.status = status;
	/* NULL (0 entries, or no memory): every game is replayed from its first move. */
	ctx.replays = sht_replay_cache_new(cfg->replay_cache_entries);
	/* Read what has arrived, answer every whole frame in it, write the answers at once:
	 * under load the parent sends several requests together, and this answers them with
	 * one read and one write instead of four system calls each. */
	for (;;) {
		struct frame_header h;
		ssize_t n;

		if (!bytes_reserve(&in, 65536))
			break;
		n = read(fd, in.data + in.len, in.cap - in.len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		in.len += (size_t)n;
		while (in.len - in.off >= sizeof(h)) {
			char *body;
			char *reply;
			bool is_error, reusable;
			struct frame_header rh;

			memcpy(&h, in.data + in.off, sizeof(h));
			if (in.len - in.off < sizeof(h) + h.length) {
				if (!bytes_reserve(&in, sizeof(h) + h.length))
					goto out;
				break;
			}
			body = in.data + in.off + sizeof(h);
			in.off += sizeof(h) + h.length;
			if (h.flags == FRAME_STATS) {
				json_decref(latest_stats);
				latest_stats = json_loadb(body, h.length, 0, NULL);
				continue;
			}
			reply = rpc_handle(&ctx, body, h.length, &is_error, &reusable);
			rh.seq = h.seq;
			rh.length = reply ? (uint32_t)strlen(reply) : 0;
			rh.flags = (reply == NULL ? FRAME_REPLY_NONE : 0) |
			    (is_error ? FRAME_REPLY_ERROR : 0) | (reusable ? FRAME_REPLY_REUSABLE : 0);
			if (!bytes_append(&out, &rh, sizeof(rh)) ||
			    (reply != NULL && !bytes_append(&out, reply, rh.length))) {
				free(reply);
				goto out;
			}
			free(reply);
		}
		if (out.len > 0) {
			if (!sht_write_full(fd, out.data, out.len))
				break;
			out.len = out.off = 0;
		}
	}
out:
	free(in.data);
	free(out.data);
	json_decref(latest_stats);
	sht_replay_cache_free(ctx.replays);
	sht_registry_free(registry);
	return WORKER_EXIT_OK;
}
