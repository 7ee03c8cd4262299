/*
 * The daemon's load generator (run on request): N connections, each keeping D requests in
 * flight, sending `score` requests for finished 19x19 corpus games with explicit dead lists
 * (with -a, some connections send dead:"auto" instead, and with -A one more sends them at a
 * steady rate, whether or not the last one has come back; with -u, every request is a new
 * question; with -m, the mix a Go server sends: `legal` for the next move of live games, `score`
 * at their end, now and then a `compare`; with -L, each connection follows its live games move
 * by move instead of asking at random moves); prints requests/s, latency percentiles, errors, the
 * CPU a request cost the generator, and with -p the daemon's memory idle, under load and idle
 * again after it, and the CPU a request cost its parent and its workers.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <jansson.h>

/* What a request asks, for its own latency figures under -m. */
enum kind { KIND_SCORE, KIND_LEGAL, KIND_COMPARE, NKINDS };
static const char *const kind_names[NKINDS] = { "score", "legal", "compare" };

struct conn {
	struct bufferevent *bev;
	bool auto_dead;      /* sends dead:"auto" requests (the others send explicit lists) */
	bool paced;          /* -A: sends on a timer, not when a reply comes back */
	double *sent;        /* send times of the requests in flight, in order (a ring) */
	unsigned char *kind; /* their kinds (enum kind), the same ring */
	int ring;            /* the ring's size: the requests it may have in flight */
	int head, count;
	long next_id;
	int live_game, live_k; /* -L: the game this connection follows, and its move */
};

/* A live game for -m's `legal` requests: its moves as JSON strings ("B Q16"), comma-joined,
 * with where each one ends, so a prefix of the game is one write. */
struct live_game {
	char *moves;
	size_t *end;   /* end[k]: the length of the first k + 1 moves' text */
	int nmoves;
};

static struct event_base *base;
static char **requests, **auto_requests, **compare_requests;
static int nrequests, depth = 1;
static bool unique;      /* -u: each request a question never asked before */
static bool server_mix;  /* -m: legal, score and compare as a Go server sends them */
static bool live_order;  /* -L: under -m, each connection asks about its game move by move */
static struct live_game *live;
static int nlive;
static long sent_total;
static double *latencies, *auto_latencies, *kind_latencies[NKINDS];
static long nlat, nauto, maxlat, errors, done_requests, done_auto, nkind[NKINDS];
static uint64_t mix_rng = 0x2545f4914f6cdd1dULL;
static double t_end;
static pid_t daemon_pid;
static double rss_peak;

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The daemon's parent and its workers (found by /proc/PID/stat's ppid): the CPU seconds (user
 * and system) each side has used so far, and, when rss_mb is given, their resident memory in MB
 * (status's VmRSS).  stat's fields after the command's closing parenthesis are state, ppid, ...,
 * utime (the 12th), stime.  A worker that dies meanwhile takes its seconds with it. */
static void
daemon_usage(pid_t root, double *rss_mb, double *parent_cpu, double *workers_cpu)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	double hz = (double)sysconf(_SC_CLK_TCK);

	*parent_cpu = *workers_cpu = 0;
	if (rss_mb != NULL)
		*rss_mb = 0;
	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		char path[300], line[1024], *after;
		FILE *f;
		int ppid;
		unsigned long ut, st;
		long rss_kb = 0;
		pid_t pid = (pid_t)atoi(e->d_name);

		if (pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		after = fgets(line, sizeof(line), f) != NULL ? strrchr(line, ')') : NULL;
		fclose(f);
		if (after == NULL || sscanf(after + 1, " %*c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u "
		    "%lu %lu", &ppid, &ut, &st) != 3 || (pid != root && ppid != (int)root))
			continue;
		*(pid == root ? parent_cpu : workers_cpu) += (double)(ut + st) / hz;
		if (rss_mb == NULL)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		while (fgets(line, sizeof(line), f) != NULL)
			sscanf(line, "VmRSS: %ld", &rss_kb);
		fclose(f);
		*rss_mb += (double)rss_kb / 1024.0;
	}
	closedir(d);
}

/* Resident memory of the daemon and its workers, in MB. */
static double
rss_mb(pid_t root)
{
	double mb, parent_cpu, workers_cpu;

	daemon_usage(root, &mb, &parent_cpu, &workers_cpu);
	return mb;
}

/* CPU seconds this process has used so far. */
static double
own_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t
mix_next(void)
{
	mix_rng ^= mix_rng << 13;
	mix_rng ^= mix_rng >> 7;
	mix_rng ^= mix_rng << 17;
	return mix_rng;
}

/*
 * One request of the Go server's mix: 90% `legal` for the next move of a live game at a random
 * move (the record's own next move; under -u the next player at a random point), 9% `score` of
 * a finished game (under -u with a komi of its own), 1% `compare` of one under three rulesets
 * (these repeat: the reply cache answers some).  Returns the kind; score requests are left to
 * the caller.
 */
static enum kind
send_mixed(struct conn *c, const char *head)
{
	uint64_t r = mix_next();
	int pick = (int)(r % 100);
	struct evbuffer *out = bufferevent_get_output(c->bev);

	if (pick < 90 && nlive > 0) {
		const struct live_game *g = &live[(r >> 8) % (uint64_t)nlive];
		int k = 1 + (int)((r >> 24) % (uint64_t)(g->nmoves - 1));

		if (live_order) {
			/* As a server asks: the game one move longer than last time, and at its
			 * end the next game this connection follows. */
			if (c->live_k < 1 || c->live_k >= live[c->live_game].nmoves - 1) {
				c->live_game = (c->live_game + 64) % nlive;
				c->live_k = 1;
			}
			g = &live[c->live_game];
			k = c->live_k++;
		}

		/* The first k moves, then the next one asked about. */
		evbuffer_add_printf(out, "%s\"method\":\"legal\",\"params\":{\"ruleset\":"
		    "\"japanese\",\"game\":{\"size\":19,\"moves\":[", head);
		evbuffer_add(out, g->moves, g->end[k - 1]);
		evbuffer_add_printf(out, "]},\"move\":");
		if (unique) {
			/* The next player at a random point: 361 questions a position, never the
			 * same one twice in a run. */
			int x = (int)((r >> 40) % 19), y = 1 + (int)((r >> 48) % 19);

			evbuffer_add_printf(out, "\"%c %c%d\"", g->moves[g->end[k - 1] + 2],
			    "ABCDEFGHJKLMNOPQRST"[x], y);
		} else {
			evbuffer_add(out, g->moves + g->end[k - 1] + 1, g->end[k] - g->end[k - 1] - 1);
		}
		evbuffer_add_printf(out, "}}\n");
		return KIND_LEGAL;
	}
	if (pick < 99)
		return KIND_SCORE;
	evbuffer_add_printf(out, "%s%s", head, compare_requests[(r >> 8) % (uint64_t)nrequests]);
	return KIND_COMPARE;
}

static void
send_one(struct conn *c)
{
	const char *r = (c->auto_dead ? auto_requests : requests)[(unique ? sent_total :
	    c->next_id) % nrequests];
	char head[64];
	enum kind kind = KIND_SCORE;

	/* Each request template starts after its id: {"jsonrpc":"2.0","id":N, ... */
	snprintf(head, sizeof(head), "{\"jsonrpc\":\"2.0\",\"id\":%ld,", c->next_id++);
	if (server_mix && !c->auto_dead)
		kind = send_mixed(c, head);
	/* The mix's legal and compare requests are written whole by send_mixed. */
	if (kind == KIND_SCORE) {
		bufferevent_write(c->bev, head, strlen(head));
		if (unique) {
			/* The same game with another komi (whole half points within the daemon's
			 * +-5000 points): 20001 komi for each game before any request repeats, so
			 * the reply cache never answers and every request is judged by a worker.
			 * The game itself repeats: measure never-seen games with the workers'
			 * replay cache off (replay_cache_entries: 0). */
			long k = (sent_total / nrequests) % 20001 - 10000;

			bufferevent_write(c->bev, r, strlen(r) - 3); /* without the closing "}}\n" */
			evbuffer_add_printf(bufferevent_get_output(c->bev), ",\"komi\":%.1f}}\n",
			    (double)k / 2.0);
		} else {
			bufferevent_write(c->bev, r, strlen(r));
		}
	}
	sent_total++;
	c->kind[(c->head + c->count) % c->ring] = (unsigned char)kind;
	c->sent[(c->head + c->count) % c->ring] = now();
	c->count++;
}

static void
on_read(struct bufferevent *bev, void *arg)
{
	struct conn *c = arg;
	struct evbuffer *in = bufferevent_get_input(bev);

	for (;;) {
		struct evbuffer_ptr eol = evbuffer_search_eol(in, NULL, NULL, EVBUFFER_EOL_LF);
		char head[64];
		size_t n;
		double t;

		if (eol.pos < 0)
			break;
		/* Only the reply's head is looked at ("result" comes right after the id), so the
		 * generator spends little on each reply. */
		n = (size_t)eol.pos < sizeof(head) - 1 ? (size_t)eol.pos : sizeof(head) - 1;
		evbuffer_copyout(in, head, n);
		head[n] = '\0';
		t = now();
		if (strstr(head, "\"result\"") == NULL) {
			/* The first error in full, so that a run with errors says why. */
			if (errors++ == 0) {
				char *line = malloc((size_t)eol.pos + 1);

				evbuffer_copyout(in, line, (size_t)eol.pos);
				line[eol.pos] = '\0';
				fprintf(stderr, "loadgen: first error reply: %.300s\n", line);
				free(line);
			}
		}
		evbuffer_drain(in, (size_t)eol.pos + 1);
		if (c->auto_dead) {
			if (nauto < maxlat)
				auto_latencies[nauto++] = t - c->sent[c->head];
			done_auto++;
		} else {
			enum kind k = (enum kind)c->kind[c->head];

			if (nlat < maxlat)
				latencies[nlat++] = t - c->sent[c->head];
			if (server_mix && nkind[k] < maxlat)
				kind_latencies[k][nkind[k]++] = t - c->sent[c->head];
		}
		c->head = (c->head + 1) % c->ring;
		c->count--;
		done_requests++;
		if (t < t_end && !c->paced)
			send_one(c);
		else if (t >= t_end && c->count == 0)
			bufferevent_disable(bev, EV_READ);
	}
}

static void
on_event(struct bufferevent *bev, short what, void *arg)
{
	(void)bev;
	(void)arg;
	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)) {
		fprintf(stderr, "loadgen: connection lost\n");
		errors++;
	}
}

/* -A: the paced connection, which sends its next dead:"auto" request on time whatever is still
 * in flight (a Go server asks when its games end, not when the last answer has come). */
#define PACED_RING 4096 /* requests the paced connection may have in flight */
static double auto_rate;
static struct conn *paced_conn;
static struct event *pacer;

static void
pace(evutil_socket_t fd, short what, void *arg)
{
	long usec = (long)(1e6 / auto_rate);
	struct timeval tv = { usec / 1000000, usec % 1000000 };

	(void)fd;
	(void)what;
	(void)arg;
	if (now() >= t_end)
		return;
	if (paced_conn->count < paced_conn->ring)
		send_one(paced_conn);
	evtimer_add(pacer, &tv);
}

static void
sample(evutil_socket_t fd, short what, void *arg)
{
	struct timeval tv = { 0, 200000 };
	double r = daemon_pid > 0 ? rss_mb(daemon_pid) : 0;

	(void)fd;
	(void)what;
	if (r > rss_peak)
		rss_peak = r;
	if (now() < t_end)
		evtimer_add(arg, &tv);
	else
		event_base_loopexit(base, NULL);
}

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Asks the daemon `method` with `params` (given up) once; the result member, or NULL. */
static json_t *
ask(int fd, const char *method, json_t *params)
{
	json_t *req = json_pack("{s:s, s:i, s:s, s:o}", "jsonrpc", "2.0", "id", 0, "method", method,
	    "params", params);
	char *text = json_dumps(req, JSON_COMPACT), buf[1 << 17];
	size_t got = 0;
	json_t *reply, *result;

	json_decref(req);
	if (text == NULL || write(fd, text, strlen(text)) < 0 || write(fd, "\n", 1) != 1) {
		free(text);
		return NULL;
	}
	free(text);
	while (got < sizeof(buf) - 1 && memchr(buf, '\n', got) == NULL) {
		ssize_t n = read(fd, buf + got, sizeof(buf) - 1 - got);

		if (n <= 0)
			return NULL;
		got += (size_t)n;
	}
	reply = json_loadb(buf, got, JSON_DISABLE_EOF_CHECK, NULL);
	result = json_object_get(reply, "result");
	if (result != NULL)
		json_incref(result);
	json_decref(reply);
	return result;
}

/* Asks the daemon, once, for the dead stones of a game, so that the measured requests can
 * send an explicit list. */
static json_t *
dead_list(int fd, const char *sgf)
{
	json_t *result = ask(fd, "score", json_pack("{s:{s:s}, s:s, s:s}", "game", "sgf", sgf,
	    "ruleset", "japanese", "dead", "auto"));
	json_t *dead = json_incref(json_object_get(result, "dead"));

	json_decref(result);
	return dead;
}

/* The game's moves as -m's `legal` requests send them, from the daemon's replay; games with
 * setup stones (a handicap) are not plain move lists and are left out. */
static void
add_live_game(int fd, const char *sgf, int max)
{
	json_t *result, *moves, *m;
	struct live_game *g;
	size_t i, len = 0;

	if (nlive >= max || strstr(sgf, "AB[") != NULL)
		return;
	result = ask(fd, "replay", json_pack("{s:{s:s}, s:s}", "game", "sgf", sgf, "ruleset",
	    "japanese"));
	moves = json_object_get(result, "moves");
	if (json_array_size(moves) < 2) {
		json_decref(result);
		return;
	}
	g = &live[nlive];
	g->nmoves = (int)json_array_size(moves);
	g->moves = malloc((size_t)g->nmoves * 16);
	g->end = malloc((size_t)g->nmoves * sizeof(*g->end));
	json_array_foreach(moves, i, m) {
		const char *who = json_string_value(json_object_get(m, "player"));
		const char *where = json_string_value(json_object_get(m, "vertex"));

		len += (size_t)sprintf(g->moves + len, "%s\"%s %s\"", i ? "," : "", who ? who : "B",
		    where ? where : "pass");
		g->end[i] = len;
	}
	json_decref(result);
	nlive++;
}

static int connect_to(const char *path);

/* The daemon's cache_hits counter (status), or -1 when the socket does not answer as the
 * daemon does (shoutan-echo): the run's hit ratio shows whether workers did the work. */
static long
cache_hits(const char *sock)
{
	static const char req[] = "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"status\"}\n";
	char buf[1 << 14];
	size_t got = 0;
	int fd = connect_to(sock);
	json_t *reply, *hits;
	long n = -1;

	/* The parent answers status from its own counters, the cache's included, so they are
	 * current: no need to wait for a worker to be told them. */
	if (write(fd, req, sizeof(req) - 1) == (ssize_t)(sizeof(req) - 1))
		while (got < sizeof(buf) - 1 && memchr(buf, '\n', got) == NULL) {
			ssize_t k = read(fd, buf + got, sizeof(buf) - 1 - got);

			if (k <= 0)
				break;
			got += (size_t)k;
		}
	close(fd);
	reply = json_loadb(buf, got, JSON_DISABLE_EOF_CHECK, NULL);
	hits = json_object_get(json_object_get(reply, "result"), "cache_hits");
	if (json_is_integer(hits))
		n = (long)json_integer_value(hits);
	json_decref(reply);
	return n;
}

static int
connect_to(const char *path)
{
	struct sockaddr_un sun;
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", path);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sun, sizeof(sun)) != 0) {
		perror(path);
		exit(1);
	}
	return fd;
}

/* Finished 19x19 games from the corpus's GNU Go index (two closing passes), as requests. */
static void
load_requests(const char *sock, const char *corpus, int max)
{
	char path[4096], line[4096];
	FILE *idx;
	int fd = connect_to(sock);

	snprintf(path, sizeof(path), "%s/games/gnugo-regression/index.tsv", corpus);
	idx = fopen(path, "r");
	if (idx == NULL) {
		fprintf(stderr, "loadgen: no corpus index at %s\n", path);
		exit(1);
	}
	requests = calloc((size_t)max, sizeof(*requests));
	live = calloc((size_t)max, sizeof(*live));
	auto_requests = calloc((size_t)max, sizeof(*auto_requests));
	compare_requests = calloc((size_t)max, sizeof(*compare_requests));
	while (nrequests < max && fgets(line, sizeof(line), idx) != NULL) {
		char file[2048], sz[16], rest[1024];
		int endpasses = 0;
		FILE *f;
		char *sgf;
		long len;
		json_t *dead, *params, *probe;
		char *text;

		if (sscanf(line, "%2047[^\t]\t%15[^\t]\t%1023[^\n]", file, sz, rest) != 3 ||
		    strcmp(sz, "19") != 0)
			continue;
		/* Column 9 of the index is the number of closing passes. */
		{
			char *p = line;

			for (int col = 0; col < 8 && p; col++)
				p = strchr(p, '\t') ? strchr(p, '\t') + 1 : NULL;
			endpasses = p ? atoi(p) : 0;
		}
		if (endpasses < 2)
			continue;
		snprintf(path, sizeof(path), "%s/games/gnugo-regression/%s", corpus, file);
		if ((f = fopen(path, "rb")) == NULL)
			continue;
		fseek(f, 0, SEEK_END);
		len = ftell(f);
		fseek(f, 0, SEEK_SET);
		if (len < 0 || (sgf = malloc((size_t)len + 1)) == NULL) {
			fclose(f);
			continue;
		}
		sgf[fread(sgf, 1, (size_t)len, f)] = '\0';
		fclose(f);
		/* Only records that are valid UTF-8 can travel in a JSON string. */
		probe = json_string(sgf);
		json_decref(probe);
		if (probe == NULL || (dead = dead_list(fd, sgf)) == NULL) {
			free(sgf);
			continue;
		}
		for (int kind = 0; kind < 3; kind++) {
			char **out = kind == 0 ? requests : kind == 1 ? auto_requests :
			    compare_requests;

			if (kind == 0)
				params = json_pack("{s:s, s:{s:{s:s}, s:s, s:O}}", "method", "score",
				    "params", "game", "sgf", sgf, "ruleset", "japanese", "dead", dead);
			else if (kind == 1)
				params = json_pack("{s:s, s:{s:{s:s}, s:s, s:s}}", "method", "score",
				    "params", "game", "sgf", sgf, "ruleset", "japanese", "dead", "auto");
			else /* -m's compare: the same game under three rulesets */
				params = json_pack("{s:s, s:{s:{s:s}, s:[sss], s:O}}", "method",
				    "compare", "params", "game", "sgf", sgf, "rulesets", "japanese",
				    "chinese", "tromp-taylor", "dead", dead);
			text = json_dumps(params, JSON_COMPACT);
			json_decref(params);
			/* Strip the opening brace: send_one writes it with the id. */
			out[nrequests] = malloc(strlen(text) + 2);
			if (out[nrequests] == NULL) {
				fprintf(stderr, "loadgen: out of memory\n");
				exit(1);
			}
			sprintf(out[nrequests], "%s\n", text + 1);
			free(text);
		}
		json_decref(dead);
		if (server_mix)
			add_live_game(fd, sgf, max);
		free(sgf);
		nrequests++;
	}
	fclose(idx);
	close(fd);
}

int
main(int argc, char **argv)
{
	const char *sock = NULL, *corpus = "../shared/corpus", *judge_sock = NULL;
	int nconns = 64, seconds = 10, nauto_conns = 0, nall, c;
	struct conn *conns;
	struct event *sampler;
	double t0, elapsed, rss_idle, cpu_gen0, cpu_parent0 = 0, cpu_workers0 = 0;
	double cpu_gen, cpu_parent = 0, cpu_workers = 0;
	long hits_before, hits_after;

	while ((c = getopt(argc, argv, "s:c:d:t:p:C:a:A:umLD:")) != -1) {
		switch (c) {
		case 's': sock = optarg; break;
		case 'c': nconns = atoi(optarg); break;
		case 'd': depth = atoi(optarg); break;
		case 't': seconds = atoi(optarg); break;
		case 'p': daemon_pid = (pid_t)atoi(optarg); break;
		case 'C': corpus = optarg; break;
		case 'a': nauto_conns = atoi(optarg); break;
		case 'A': auto_rate = atof(optarg); break;
		case 'u': unique = true; break;
		case 'm': server_mix = true; break;
		case 'L': live_order = true; break;
		case 'D': judge_sock = optarg; break;
		default:
			fprintf(stderr, "usage: %s -s SOCKET [-c CONNECTIONS] [-d DEPTH] [-t SECONDS] "
			    "[-p DAEMON_PID] [-C CORPUS] [-a AUTO_CONNECTIONS] [-A AUTO_PER_S] [-u] [-m [-L]] "
			    "[-D DAEMON_SOCKET]\n", argv[0]);
			return 2;
		}
	}
	if (sock == NULL || nconns < 1 || depth < 1 || auto_rate < 0) {
		fprintf(stderr, "loadgen: -s SOCKET is required, -c and -d at least 1, -A not below 0\n");
		return 2;
	}
	/* The dead lists come from a daemon: -D names it when -s is not one (shoutan-echo). */
	load_requests(judge_sock != NULL ? judge_sock : sock, corpus, 200);
	if (nrequests == 0) {
		fprintf(stderr, "loadgen: no finished 19x19 games found\n");
		return 1;
	}
	rss_idle = daemon_pid > 0 ? rss_mb(daemon_pid) : 0;
	hits_before = cache_hits(sock);
	base = event_base_new();
	maxlat = 20000000;
	latencies = malloc(sizeof(double) * (size_t)maxlat);
	auto_latencies = malloc(sizeof(double) * (size_t)maxlat);
	for (int k = 0; k < NKINDS; k++)
		kind_latencies[k] = malloc(sizeof(double) * (size_t)(server_mix ? maxlat : 1));
	/* With -A, one connection more: the paced one, last. */
	nall = nconns + (auto_rate > 0);
	conns = calloc((size_t)nall, sizeof(*conns));
	/* The CPU each side spends from here to the end of the load, and no more: the requests'
	 * preparation above (the dead lists asked for, the corpus read) is left out. */
	if (daemon_pid > 0)
		daemon_usage(daemon_pid, NULL, &cpu_parent0, &cpu_workers0);
	cpu_gen0 = own_cpu();
	t0 = now();
	t_end = t0 + seconds;
	for (int i = 0; i < nall; i++) {
		int fd = connect_to(sock);

		evutil_make_socket_nonblocking(fd);
		conns[i].bev = bufferevent_socket_new(base, fd, BEV_OPT_CLOSE_ON_FREE);
		conns[i].paced = i == nconns;
		conns[i].ring = conns[i].paced ? PACED_RING : depth;
		conns[i].sent = calloc((size_t)conns[i].ring, sizeof(double));
		conns[i].kind = calloc((size_t)conns[i].ring, 1);
		conns[i].next_id = i * 1000000L;
		conns[i].live_game = i % (nlive > 0 ? nlive : 1);
		/* The first -a connections send dead:"auto": long requests among short ones. */
		conns[i].auto_dead = i < nauto_conns || conns[i].paced;
		bufferevent_setcb(conns[i].bev, on_read, NULL, on_event, &conns[i]);
		/* As the daemon does: more than libevent's 4 KB per system call. */
		bufferevent_set_max_single_read(conns[i].bev, 256 << 10);
		bufferevent_set_max_single_write(conns[i].bev, 256 << 10);
		bufferevent_enable(conns[i].bev, EV_READ | EV_WRITE);
		for (int k = 0; k < depth && !conns[i].paced; k++)
			send_one(&conns[i]);
	}
	if (auto_rate > 0) {
		paced_conn = &conns[nconns];
		pacer = evtimer_new(base, pace, NULL);
		pace(-1, 0, NULL);
	}
	sampler = evtimer_new(base, sample, NULL);
	event_assign(sampler, base, -1, 0, sample, sampler);
	sample(-1, 0, sampler);
	event_base_dispatch(base);
	elapsed = now() - t0;
	cpu_gen = own_cpu() - cpu_gen0;
	if (daemon_pid > 0) {
		daemon_usage(daemon_pid, NULL, &cpu_parent, &cpu_workers);
		cpu_parent -= cpu_parent0;
		cpu_workers -= cpu_workers0;
	}
	hits_after = cache_hits(sock);
	qsort(latencies, (size_t)nlat, sizeof(double), cmp);
	qsort(auto_latencies, (size_t)nauto, sizeof(double), cmp);
	for (int k = 0; k < NKINDS && server_mix; k++)
		qsort(kind_latencies[k], (size_t)nkind[k], sizeof(double), cmp);
	printf("games: %d\n", nrequests);
	printf("connections: %d\n", nconns);
	printf("depth: %d\n", depth);
	printf("unique: %s\n", unique ? "yes" : "no");
	printf("mix: %s\n", server_mix ? (live_order ? "go-server, live games in order" :
	    "go-server") : "score");
	printf("requests_per_s: %.0f\n", (double)done_requests / elapsed);
	printf("p50_ms: %.3f\n", nlat ? latencies[nlat / 2] * 1e3 : 0);
	printf("p99_ms: %.3f\n", nlat ? latencies[(long)(nlat * 0.99)] * 1e3 : 0);
	printf("p999_ms: %.3f\n", nlat ? latencies[(long)(nlat * 0.999)] * 1e3 : 0);
	printf("errors: %ld\n", errors);
	if (hits_before >= 0 && hits_after >= 0 && done_requests > 0)
		printf("cache_hit_ratio: %.3f\n", (double)(hits_after - hits_before) /
		    (double)done_requests);
	for (int k = 0; k < NKINDS && server_mix; k++) {
		/* Under -m, each kind's own share and latencies. */
		long n = nkind[k];

		printf("%s_requests_per_s: %.0f\n", kind_names[k], (double)n / elapsed);
		printf("%s_p50_ms: %.3f\n", kind_names[k], n ? kind_latencies[k][n / 2] * 1e3 : 0);
		printf("%s_p99_ms: %.3f\n", kind_names[k], n ? kind_latencies[k][(long)(n * 0.99)] *
		    1e3 : 0);
	}
	if (nauto_conns > 0 || auto_rate > 0) {
		/* The figures above are the explicit-list requests'; these the dead:"auto" ones. */
		printf("auto_connections: %d\n", nauto_conns);
		printf("auto_paced_per_s: %.1f\n", auto_rate);
		printf("auto_requests_per_s: %.0f\n", (double)done_auto / elapsed);
		printf("auto_p50_ms: %.3f\n", nauto ? auto_latencies[nauto / 2] * 1e3 : 0);
		printf("auto_p99_ms: %.3f\n", nauto ? auto_latencies[(long)(nauto * 0.99)] * 1e3 :
		    0);
	}
	if (done_requests + done_auto > 0) {
		/* µs of CPU a request answered, this generator's and, with -p, the daemon's parent's
		 * and its workers' (of whatever server -p names: its children are the workers). */
		double per = 1e6 / (double)(done_requests + done_auto);

		printf("cpu_generator_us: %.1f\n", cpu_gen * per);
		if (daemon_pid > 0) {
			printf("cpu_parent_us: %.1f\n", cpu_parent * per);
			printf("cpu_workers_us: %.1f\n", cpu_workers * per);
		}
	}
	if (daemon_pid > 0) {
		printf("rss_idle_mb: %.1f\n", rss_idle);
		printf("rss_load_mb: %.1f\n", rss_peak);
		/* Idle again: what the load left behind (the reply cache, the heap). */
		for (int i = 0; i < nall; i++)
			bufferevent_free(conns[i].bev);
		sleep(3);
		printf("rss_after_mb: %.1f\n", rss_mb(daemon_pid));
	}
	return 0;
}
