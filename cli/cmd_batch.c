/* shoutan batch PATH...: every game of whole collections under each ruleset, on every core. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "batch.h"
#include "cli.h"
#include "report.h"

/*
 * The records are scored by worker processes, each sent one record at a time through a pipe
 * and answering with the record's lines; the parent reads the input, hands records to idle
 * workers, and writes the answers in the input's order.  Processes rather than threads: a
 * record that crashes the scorer costs that record (an error line says so) and a new worker,
 * not the batch.
 *
 * A task:  "T SEQ FLAGS NAMELEN DATALEN\n" NAME DATA      (FLAGS: 1 a --stdin-jsonl line)
 * A reply: "R SEQ RECORDS GAMES RESULTS E0 ... E6 LEN ROWSLEN\n" LINES ROWS
 * (ROWS: the lines as JSON for the report, with --summary; none otherwise) 
 */

#define MAX_JOBS 256

struct worker {
	pid_t pid;
	int to, from;           /* the task pipe's write end, the reply pipe's read end */
	long seq;               /* the record it is scoring, or -1 when idle */
	char *name;             /* that record's name, for an error line if it dies */
	char *buf;              /* the reply read so far */
	size_t len, cap;
};

/* Answers that came back before an earlier record's: kept until it is written. */
struct answer {
	long seq;
	char *lines;          /* the lines, then the rows for the report */
	size_t len, rows_len;
	struct batch_counts counts;
};

static volatile sig_atomic_t interrupted;

static void
on_interrupt(int sig)
{
	(void)sig;
	interrupted = 1;
}

static bool
read_all_bytes(int fd, char *p, size_t n)
{
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

/* A task's header line, read a byte at a time (it is short; the data after it is not). */
static bool
read_line(int fd, char *line, size_t size)
{
	size_t n = 0;

	while (n + 1 < size) {
		if (!read_all_bytes(fd, line + n, 1))
			return false;
		if (line[n++] == '\n') {
			line[n] = '\0';
			return true;
		}
	}
	return false;
}

/* A worker: tasks in, lines out, until its task pipe closes. */
static void __attribute__((noreturn))
worker_main(const struct batch_job *job, int in, int out)
{
	char header[128];
	long seq, flags;
	size_t namelen, datalen;

	/* The terminal's Ctrl-C is the parent's to handle: it stops the workers itself. */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_DFL);
	while (read_line(in, header, sizeof(header)) &&
	    sscanf(header, "T %ld %ld %zu %zu", &seq, &flags, &namelen, &datalen) == 4) {
		struct batch_record rec;
		struct batch_counts counts;
		struct sht_text lines, rows;
		struct batch_sink sink = { job->format, &lines, job->summary ? &rows : NULL };
		char reply[256];
		int n;

		memset(&rec, 0, sizeof(rec));
		memset(&counts, 0, sizeof(counts));
		rec.name = malloc(namelen + 1);
		rec.data = malloc(datalen + 1);
		if (rec.name == NULL || rec.data == NULL || !read_all_bytes(in, rec.name, namelen) ||
		    !read_all_bytes(in, rec.data, datalen))
			_exit(1);
		rec.name[namelen] = rec.data[datalen] = '\0';
		rec.len = datalen;
		rec.json_line = flags & 1;
		sht_text_init(&lines, 4096);
		sht_text_init(&rows, job->summary ? 4096 : 0);
		batch_score_record(job, &rec, &sink, &counts);
		batch_record_free(&rec);
		if (lines.failed || rows.failed)
			_exit(1);
		n = snprintf(reply, sizeof(reply), "R %ld %ld %ld %ld", seq, counts.records,
		    counts.games, counts.results);
		for (int e = 0; e < BATCH_NERRORS; e++)
			n += snprintf(reply + n, sizeof(reply) - (size_t)n, " %ld", counts.errors[e]);
		n += snprintf(reply + n, sizeof(reply) - (size_t)n, " %zu %zu\n", lines.len,
		    rows.len);
		if (!sht_write_full(out, reply, (size_t)n) || !sht_write_full(out, lines.s, lines.len) ||
		    !sht_write_full(out, rows.s, rows.len))
			_exit(1);
		sht_text_free(&lines);
		sht_text_free(&rows);
	}
	_exit(0);
}

static bool
worker_start(const struct batch_job *job, struct worker *workers, int nworkers, int i)
{
	int task[2], reply[2];
	pid_t pid;

	if (pipe(task) != 0)
		return false;
	if (pipe(reply) != 0) {
		close(task[0]);
		close(task[1]);
		return false;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(task[0]);
		close(task[1]);
		close(reply[0]);
		close(reply[1]);
		return false;
	}
	if (pid == 0) {
		/* Only its own pipes: another worker's task pipe held open here would keep that
		 * worker from seeing its end. */
		for (int k = 0; k < nworkers; k++)
			if (k != i && workers[k].pid > 0) {
				close(workers[k].to);
				close(workers[k].from);
			}
		close(task[1]);
		close(reply[0]);
		worker_main(job, task[0], reply[1]);
	}
	close(task[0]);
	close(reply[1]);
	fcntl(task[1], F_SETFD, FD_CLOEXEC);
	fcntl(reply[0], F_SETFD, FD_CLOEXEC);
	workers[i].pid = pid;
	workers[i].to = task[1];
	workers[i].from = reply[0];
	workers[i].seq = -1;
	workers[i].len = 0;
	return true;
}

static void
worker_stop(struct worker *w, int sig)
{
	if (w->pid <= 0)
		return;
	close(w->to);
	close(w->from);
	if (sig != 0)
		kill(w->pid, sig);
	waitpid(w->pid, NULL, 0);
	w->pid = 0;
	free(w->name);
	w->name = NULL;
	w->seq = -1;
}

struct batch_run {
	const struct batch_job *job;
	FILE *out;
	const char *out_name;
	bool write_failed;
	struct answer *pending;   /* answers waiting for an earlier one */
	int npending, cap_pending;
	long next_out;            /* the next record to write */
	struct batch_counts done;
	struct report *report;    /* with --summary */
	long total;
	bool progress;
	double start, last_progress;
};

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Writes every answer that is next in the input's order. */
static void
flush_answers(struct batch_run *run)
{
	for (bool found = true; found;) {
		found = false;
		for (int i = 0; i < run->npending; i++) {
			struct answer *a = &run->pending[i];

			if (a->seq != run->next_out)
				continue;
			/* A record's lines are written whole, so that an interrupted batch leaves
			 * only complete lines behind. */
			if (!run->write_failed && (fwrite(a->lines, 1, a->len, run->out) != a->len ||
			    fflush(run->out) != 0))
				run->write_failed = true;
			for (size_t at = a->len; run->report != NULL && at < a->len + a->rows_len;) {
				char *nl = memchr(a->lines + at, '\n', a->len + a->rows_len - at);
				size_t end = nl != NULL ? (size_t)(nl - a->lines) : a->len + a->rows_len;

				report_add_line(run->report, a->lines + at, end - at);
				at = end + 1;
			}
			batch_counts_add(&run->done, &a->counts);
			free(a->lines);
			*a = run->pending[--run->npending];
			run->next_out++;
			found = true;
			break;
		}
	}
}

static void
add_answer(struct batch_run *run, long seq, char *lines, size_t len, size_t rows_len,
    const struct batch_counts *counts)
{
	if (run->npending == run->cap_pending) {
		int cap = run->cap_pending ? run->cap_pending * 2 : 16;
		struct answer *bigger = realloc(run->pending, (size_t)cap * sizeof(*bigger));

		if (bigger == NULL) {
			free(lines);
			run->write_failed = true;
			return;
		}
		run->pending = bigger;
		run->cap_pending = cap;
	}
	run->pending[run->npending++] = (struct answer){ seq, lines, len, rows_len, *counts };
	flush_answers(run);
}

/* A record answered without a worker: one that could not be read, or one whose worker died. */
static void
answer_error(struct batch_run *run, long seq, const char *name, enum batch_error kind,
    const char *message)
{
	struct batch_counts counts;
	struct sht_text t;
	struct batch_sink sink = { run->job->format, &t, NULL };

	memset(&counts, 0, sizeof(counts));
	counts.records = 1;
	counts.errors[kind] = 1;
	sht_text_init(&t, 512);
	/* A record that was never scored has no game for the report. */
	batch_error_line(&sink, name, kind, message);
	add_answer(run, seq, t.s, t.len, 0, &counts);
}

static void
show_progress(struct batch_run *run, bool force)
{
	double t = now(), elapsed = t - run->start, rate;
	char left[32] = "";

	if (!run->progress || (!force && t - run->last_progress < 0.2))
		return;
	run->last_progress = t;
	rate = elapsed > 0 ? (double)run->done.games / elapsed : 0;
	if (run->total > 0 && run->done.records > 0 && run->done.records < run->total) {
		double s = elapsed * (double)(run->total - run->done.records) /
		    (double)run->done.records;

		snprintf(left, sizeof(left), ", %d:%02d left", (int)(s / 60), (int)s % 60);
	}
	if (run->total > 0) {
		int width = 24, filled = (int)(width * run->done.records / run->total);

		fprintf(stderr, "\r[%.*s%*s] %ld/%ld records, %ld games, %.1f games/s%s\033[K",
		    filled, "########################", width - filled, "", run->done.records,
		    run->total, run->done.games, rate, left);
	} else {
		fprintf(stderr, "\r%ld records, %ld games, %.1f games/s\033[K", run->done.records,
		    run->done.games, rate);
	}
}

/* Reads what a worker sent; a whole reply becomes an answer.  False when the worker died. */
static bool
worker_read(struct batch_run *run, struct worker *w)
{
	ssize_t r;

	if (w->cap - w->len < 65536) {
		size_t cap = w->cap ? w->cap * 2 : 1 << 17;
		char *bigger = realloc(w->buf, cap);

		if (bigger == NULL)
			return false;
		w->buf = bigger;
		w->cap = cap;
	}
	r = read(w->from, w->buf + w->len, w->cap - w->len);
	if (r < 0 && errno == EINTR)
		return true;
	if (r <= 0)
		return false;
	w->len += (size_t)r;
	for (;;) {
		char *nl = memchr(w->buf, '\n', w->len);
		struct batch_counts c;
		long seq;
		size_t len, rows_len, head, all;
		char *lines;

		memset(&c, 0, sizeof(c));
		if (nl == NULL || sscanf(w->buf, "R %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %zu %zu",
		    &seq, &c.records, &c.games, &c.results, &c.errors[0], &c.errors[1], &c.errors[2],
		    &c.errors[3], &c.errors[4], &c.errors[5], &c.errors[6], &len, &rows_len) != 13)
			return nl == NULL;
		head = (size_t)(nl - w->buf) + 1;
		all = len + rows_len;
		if (w->len < head + all)
			return true;
		if ((lines = malloc(all + 1)) == NULL)
			return false;
		memcpy(lines, w->buf + head, all);
		memmove(w->buf, w->buf + head + all, w->len - head - all);
		w->len -= head + all;
		free(w->name);
		w->name = NULL;
		w->seq = -1;
		add_answer(run, seq, lines, len, rows_len, &c);
	}
}

static bool
worker_send(struct worker *w, long seq, const struct batch_record *rec)
{
	char header[128];
	int n = snprintf(header, sizeof(header), "T %ld %d %zu %zu\n", seq, rec->json_line ? 1 : 0,
	    strlen(rec->name), rec->len);

	w->seq = seq;
	w->name = strdup(rec->name);
	return sht_write_full(w->to, header, (size_t)n) && sht_write_full(w->to, rec->name,
	    strlen(rec->name)) && sht_write_full(w->to, rec->data, rec->len);
}

/* A worker that died with a record: that record's error line, and a new worker. */
static void
worker_died(struct batch_run *run, const struct batch_job *job, struct worker *workers,
    int nworkers, int i)
{
	struct worker *w = &workers[i];
	long seq = w->seq;
	char *name = w->name, message[4096];
	int status = 0;

	w->name = NULL;
	close(w->to);
	close(w->from);
	waitpid(w->pid, &status, 0);
	w->pid = 0;
	if (seq >= 0) {
		if (WIFSIGNALED(status))
			snprintf(message, sizeof(message), "%s: the scoring process died on this "
			    "record (signal %d, %s); the batch went on", name, WTERMSIG(status),
			    strsignal(WTERMSIG(status)));
		else
			snprintf(message, sizeof(message), "%s: the scoring process stopped on this "
			    "record (status %d); the batch went on", name, WEXITSTATUS(status));
		answer_error(run, seq, name, BATCH_ERR_INTERNAL, message);
	}
	free(name);
	if (!interrupted && !worker_start(job, workers, nworkers, i))
		w->pid = 0;
}

/* The batch itself: the input to the workers, their answers to the output in order. */
static int
run_batch(struct batch_run *run, struct batch_input *in, int jobs)
{
	struct worker workers[MAX_JOBS];
	struct pollfd fds[MAX_JOBS];
	long seq = 0;
	bool more = true;
	int alive = 0, rc = CLI_OK;

	memset(workers, 0, sizeof(workers));
	for (int i = 0; i < jobs; i++)
		alive += worker_start(run->job, workers, jobs, i);
	if (alive == 0) {
		fprintf(stderr, "shoutan batch: cannot start a worker process: %s\n", strerror(errno));
		return CLI_FAILED;
	}
	while (!interrupted && !run->write_failed) {
		int busy = 0, nfds = 0;

		/* Hand records to idle workers; one that cannot be read is answered here. */
		for (int i = 0; i < jobs && more && !interrupted; i++) {
			struct batch_record rec;

			if (workers[i].pid <= 0 || workers[i].seq >= 0)
				continue;
			while ((more = batch_input_next(in, &rec)) && rec.unreadable) {
				answer_error(run, seq++, rec.name, rec.kind, rec.why);
				batch_record_free(&rec);
			}
			if (!more)
				break;
			if (!worker_send(&workers[i], seq++, &rec))
				worker_died(run, run->job, workers, jobs, i);
			batch_record_free(&rec);
		}
		for (int i = 0; i < jobs; i++)
			if (workers[i].pid > 0 && workers[i].seq >= 0) {
				fds[nfds].fd = workers[i].from;
				fds[nfds].events = POLLIN;
				fds[nfds++].revents = 0;
				busy++;
			}
		show_progress(run, false);
		if (busy == 0) {
			if (!more)
				break;
			/* Every worker is gone and none could be started again. */
			fprintf(stderr, "shoutan batch: no worker process left\n");
			rc = CLI_FAILED;
			break;
		}
		if (poll(fds, (nfds_t)nfds, 200) < 0 && errno != EINTR)
			break;
		for (int i = 0, k = 0; i < jobs; i++) {
			if (workers[i].pid <= 0 || workers[i].seq < 0)
				continue;
			if (fds[k++].revents != 0 && !worker_read(run, &workers[i]))
				worker_died(run, run->job, workers, jobs, i);
		}
	}
	for (int i = 0; i < jobs; i++)
		worker_stop(&workers[i], interrupted ? SIGTERM : 0);
	for (int i = 0; i < jobs; i++)
		free(workers[i].buf);
	return rc;
}

/* -r as rulesets of the registry; all of them without it. */
static bool
pick_rulesets(struct cli *cli, const char *names, struct batch_job *job)
{
	const struct sht_registry *reg = cli->registry;
	char *copy, *save = NULL;

	job->rulesets = calloc((size_t)reg->nrulesets + 1, sizeof(*job->rulesets));
	if (job->rulesets == NULL)
		return false;
	if (names == NULL) {
		for (int i = 0; i < reg->nrulesets; i++)
			job->rulesets[job->nrulesets++] = reg->rulesets[i];
		return true;
	}
	copy = strdup(names);
	for (char *n = copy ? strtok_r(copy, ",", &save) : NULL; n != NULL;
	    n = strtok_r(NULL, ",", &save)) {
		const struct sht_ruleset *rs = sht_registry_find(reg, n);

		if (rs == NULL) {
			cli_usage_error(cli, "unknown ruleset '%s' ('shoutan rulesets' lists them)", n);
			free(copy);
			return false;
		}
		if (job->nrulesets < reg->nrulesets)
			job->rulesets[job->nrulesets++] = rs;
	}
	free(copy);
	return job->nrulesets > 0;
}

static bool
ends_with_csv(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && strcmp(name + n - 4, ".csv") == 0;
}

int
cmd_batch(struct cli *cli, int argc, char **argv)
{
	struct cli_args args;
	struct batch_job job;
	struct batch_run run;
	struct batch_input *in = NULL;
	struct sigaction sa;
	char why[SHT_ERR_MAX];
	int rc = cli_parse_args(cli, argc, argv, &args), jobs;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	memset(&job, 0, sizeof(job));
	memset(&run, 0, sizeof(run));
	if (rc >= 0)
		goto done;
	if (cli->socket_path != NULL) {
		rc = cli_usage_error(cli, "batch runs in-process, on this machine's cores; it takes "
		    "no --socket");
		goto done;
	}
	if (args.stdin_jsonl ? args.noperands > 0 : args.noperands == 0) {
		rc = cli_usage_error(cli, args.stdin_jsonl ? "--stdin-jsonl reads its records from "
		    "standard input and takes no PATH" : "PATH is missing (a file, a folder, an "
		    "archive, or - for a list of paths on standard input)");
		goto done;
	}
	jobs = args.jobs > 0 ? args.jobs : cpus > 0 ? (int)cpus : 1;
	if (jobs > MAX_JOBS)
		jobs = MAX_JOBS;
	cli->registry = sht_registry_load(cli->plugins_dir, cli->rulesets_dir, why, sizeof(why));
	if (cli->registry == NULL) {
		fprintf(stderr, "shoutan batch: %s\n", why);
		rc = CLI_FAILED;
		goto done;
	}
	cli->ctx.registry = cli->registry;
	if (!pick_rulesets(cli, args.rulesets, &job)) {
		rc = CLI_USAGE;
		goto done;
	}
	job.ctx = &cli->ctx;
	job.params = args.params;
	job.summary = args.summary || args.svg != NULL;
	if (job.summary && (run.report = report_new()) == NULL) {
		fprintf(stderr, "shoutan batch: out of memory\n");
		rc = CLI_FAILED;
		goto done;
	}
	if (json_object_get(job.params, "dead") == NULL)
		json_object_set_new(job.params, "dead", json_string("auto"));
	job.format = args.format != NULL ? (strcmp(args.format, "csv") == 0 ? BATCH_CSV :
	    BATCH_JSONL) : args.output != NULL && ends_with_csv(args.output) ? BATCH_CSV :
	    BATCH_JSONL;
	run.job = &job;
	run.out = stdout;
	run.out_name = "standard output";
	if (args.output != NULL && strcmp(args.output, "-") != 0) {
		if ((run.out = fopen(args.output, "w")) == NULL) {
			fprintf(stderr, "shoutan batch: %s: %s\n", args.output, strerror(errno));
			rc = CLI_FAILED;
			goto done;
		}
		run.out_name = args.output;
	}
	in = batch_input_open(args.operands, args.noperands, args.stdin_jsonl);
	if (in == NULL) {
		fprintf(stderr, "shoutan batch: out of memory\n");
		rc = CLI_FAILED;
		goto done;
	}
	if (job.format == BATCH_CSV) {
		struct sht_text header;

		sht_text_init(&header, 1024);
		batch_csv_header(&header);
		fwrite(header.s, 1, header.len, run.out);
		sht_text_free(&header);
	}
	run.total = batch_input_total(in);
	run.progress = isatty(STDERR_FILENO);
	run.start = now();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_interrupt;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	rc = run_batch(&run, in, jobs);
	if (fflush(run.out) != 0)
		run.write_failed = true;
	show_progress(&run, true);
	if (run.progress)
		fputc('\n', stderr);
	{
		double s = now() - run.start;
		long errors = 0;

		for (int e = 0; e < BATCH_NERRORS; e++)
			errors += run.done.errors[e];
		fprintf(stderr, "shoutan batch: %s%ld records, %ld games, %ld results (%d ruleset%s) "
		    "in %.2f s, %.1f games/s; %ld error%s", interrupted ? "interrupted after " : "",
		    run.done.records, run.done.games, run.done.results, job.nrulesets,
		    job.nrulesets == 1 ? "" : "s", s, s > 0 ? (double)run.done.games / s : 0.0,
		    errors, errors == 1 ? "" : "s");
		for (int e = 0, first = 1; e < BATCH_NERRORS; e++)
			if (run.done.errors[e] > 0) {
				fprintf(stderr, "%s %s %ld", first ? ":" : ",", batch_error_name(e),
				    run.done.errors[e]);
				first = 0;
			}
		fputc('\n', stderr);
	}
	if (run.write_failed) {
		fprintf(stderr, "shoutan batch: cannot write %s: %s\n", run.out_name, strerror(errno));
		rc = CLI_FAILED;
	} else if (interrupted) {
		rc = 130;
	}
	/* The summary goes where the records do not: standard output when they went to a file. */
	if (run.report != NULL && !run.write_failed) {
		if (args.summary)
			report_print(run.report, run.out == stdout ? stderr : stdout);
		if (args.svg != NULL && !cli_write_svg(cli, run.report, args.svg))
			rc = CLI_FAILED;
	}
done:
	report_free(run.report);
	batch_input_close(in);
	for (int i = 0; i < run.npending; i++)
		free(run.pending[i].lines);
	free(run.pending);
	if (run.out != NULL && run.out != stdout)
		fclose(run.out);
	free(job.rulesets);
	cli_args_free(&args);
	return rc;
}
