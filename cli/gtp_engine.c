/* A Go engine run as a child process and spoken to in GTP over pipes, with a deadline on every answer. */
#define _GNU_SOURCE /* pipe2 */
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

#include "gtp_engine.h"
#include "host.h"
#include "json_text.h"

/* The engines running, for a signal that stops the referee: they run in process groups of
 * their own, which the terminal's Ctrl-C does not reach. */
static volatile pid_t running[8];

static void
gtp_engine_remember(pid_t pid)
{
	for (size_t i = 0; i < sizeof(running) / sizeof(running[0]); i++)
		if (running[i] == 0) {
			running[i] = pid;
			return;
		}
}

void
gtp_engine_forget(pid_t pid)
{
	for (size_t i = 0; i < sizeof(running) / sizeof(running[0]); i++)
		if (running[i] == pid)
			running[i] = 0;
}

void
gtp_engines_kill_all(void)
{
	/* Async-signal-safe: kill alone. */
	for (size_t i = 0; i < sizeof(running) / sizeof(running[0]); i++)
		if (running[i] > 0)
			kill(-running[i], SIGKILL);
}

int64_t
gtp_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

bool
gtp_engine_running(const struct gtp_engine *e)
{
	return e->pid > 0;
}

/* Reaps the engine (waiting up to timeout_ms, then killing its process group) and says how it
 * ended in exit_text. */
static void
reap(struct gtp_engine *e, int64_t timeout_ms)
{
	int64_t until = gtp_now_ms() + timeout_ms;
	int status = 0;
	siginfo_t info;
	pid_t r;

	if (e->pid <= 0)
		return;
	/* Waited for without reaping (WNOWAIT), so that the group's number is still the engine's
	 * when whatever it started is killed with it. */
	for (;;) {
		memset(&info, 0, sizeof(info));
		if (waitid(P_PID, (id_t)e->pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0 ||
		    info.si_pid == e->pid || gtp_now_ms() >= until)
			break;
		{
			struct timespec tick = { 0, 10 * 1000000 };

			nanosleep(&tick, NULL);
		}
	}
	/* The engine's own children (a shell script's) go with it: it runs in its group. */
	kill(-e->pid, SIGKILL);
	kill(e->pid, SIGKILL);
	gtp_engine_forget(e->pid);
	do
		r = waitpid(e->pid, &status, 0);
	while (r < 0 && errno == EINTR);
	if (r == e->pid && e->exit_text[0] == '\0') {
		if (WIFEXITED(status))
			snprintf(e->exit_text, sizeof(e->exit_text), "exited with status %d",
			    WEXITSTATUS(status));
		else if (WIFSIGNALED(status))
			snprintf(e->exit_text, sizeof(e->exit_text), "was killed by signal %d (%s)",
			    WTERMSIG(status), strsignal(WTERMSIG(status)));
	}
	e->pid = 0;
	if (e->to_engine >= 0)
		close(e->to_engine);
	if (e->from_engine >= 0)
		close(e->from_engine);
	e->to_engine = e->from_engine = -1;
	e->len = 0;
}

/* Kills the engine now: it hung or spoke nonsense, and a referee does not wait on it. */
static void
kill_engine(struct gtp_engine *e, const char *why)
{
	if (e->pid > 0) {
		snprintf(e->exit_text, sizeof(e->exit_text), "was killed: %s", why);
		kill(-e->pid, SIGKILL);
		kill(e->pid, SIGKILL);
	}
	reap(e, 1000);
}

/* Forks and execs the command with its standard input and output on pipes; the exec's
 * failure comes back over a close-on-exec pipe so that "no such command" is an error here. */
static bool
spawn(struct gtp_engine *e, char *err, size_t errlen)
{
	int in[2], out[2], report[2], child_errno = 0;
	ssize_t n;

	if (pipe2(in, O_CLOEXEC) != 0)
		goto fail;
	if (pipe2(out, O_CLOEXEC) != 0) {
		close(in[0]);
		close(in[1]);
		goto fail;
	}
	if (pipe2(report, O_CLOEXEC) != 0) {
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		goto fail;
	}
	e->pid = fork();
	if (e->pid < 0) {
		e->pid = 0;
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		close(report[0]);
		close(report[1]);
		goto fail;
	}
	if (e->pid == 0) {
		/* Its own process group, so that a kill reaches whatever it starts. */
		setpgid(0, 0);
		signal(SIGPIPE, SIG_DFL);
		if (dup2(in[0], STDIN_FILENO) < 0 || dup2(out[1], STDOUT_FILENO) < 0)
			_exit(127);
		execvp(e->argv[0], e->argv);
		child_errno = errno;
		n = write(report[1], &child_errno, sizeof(child_errno));
		(void)n;
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	close(report[1]);
	gtp_engine_remember(e->pid);
	e->to_engine = in[1];
	e->from_engine = out[0];
	/* Writes wait under the answer's deadline: an engine that never reads must not block
	 * the referee once the pipe is full. */
	fcntl(e->to_engine, F_SETFL, fcntl(e->to_engine, F_GETFL) | O_NONBLOCK);
	do
		n = read(report[0], &child_errno, sizeof(child_errno));
	while (n < 0 && errno == EINTR);
	close(report[0]);
	if (n == (ssize_t)sizeof(child_errno)) {
		snprintf(err, errlen, "cannot run '%s': %s", e->argv[0], strerror(child_errno));
		reap(e, 1000);
		return false;
	}
	return true;
fail:
	snprintf(err, errlen, "cannot start '%s': %s", e->argv[0], strerror(errno));
	return false;
}

bool
gtp_engine_start(struct gtp_engine *e, int64_t timeout_ms, char *err, size_t errlen)
{
	char name[64] = "", version[64] = "", *list;
	enum gtp_status st;

	if (e->pid > 0)
		reap(e, 0);
	e->exit_text[0] = '\0';
	e->len = 0;
	if (!spawn(e, err, errlen))
		return false;
	list = malloc(GTP_ANSWER_MAX);
	if (list == NULL) {
		snprintf(err, errlen, "out of memory");
		return false;
	}
	st = gtp_engine_ask(e, "name", timeout_ms, name, sizeof(name), NULL);
	if (st == GTP_OK)
		st = gtp_engine_ask(e, "version", timeout_ms, version, sizeof(version), NULL);
	if (st == GTP_OK || st == GTP_REFUSED)
		st = gtp_engine_ask(e, "list_commands", timeout_ms, list, GTP_ANSWER_MAX, NULL);
	if (st != GTP_OK && st != GTP_REFUSED) {
		snprintf(err, errlen, "'%s' does not answer GTP: it %s", e->argv[0],
		    st == GTP_TIMEOUT ? "gave no answer in time" : e->exit_text[0] ?
		    e->exit_text : "gave no GTP answer");
		free(list);
		reap(e, 0);
		return false;
	}
	free(e->commands);
	e->commands = st == GTP_OK ? list : NULL;
	if (st != GTP_OK)
		free(list);
	{
		/* The name goes into JSON and a UTF-8 SGF: whole characters only. */
		char n[48], v[32];

		gtp_printable(n, sizeof(n), name[0] ? name : e->argv[0]);
		gtp_printable(v, sizeof(v), name[0] ? version : "");
		snprintf(e->name, sizeof(e->name), "%s%s%s", n, v[0] ? " " : "", v);
	}
	return true;
}

bool
gtp_engine_knows(const struct gtp_engine *e, const char *command)
{
	size_t n = strlen(command);

	for (const char *p = e->commands; p != NULL && *p != '\0';) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len == n && strncmp(p, command, n) == 0)
			return true;
		p += len + (end != NULL);
	}
	return false;
}

int
gtp_take_answer(char *buf, size_t *buf_len, char *answer, size_t len, bool *refused)
{
	size_t start = 0, end, k = 0, n = *buf_len;
	const char *text;

	while (start < n && (buf[start] == '\n' || buf[start] == '\r'))
		start++;
	if (start == n)
		return 0;
	if (buf[start] != '=' && buf[start] != '?')
		return -1;
	for (end = start; end + 1 < n; end++)
		if (buf[end] == '\n' && buf[end + 1] == '\n')
			break;
	if (end + 1 >= n)
		return n >= GTP_ANSWER_MAX ? -1 : 0;
	*refused = buf[start] == '?';
	text = buf + start + 1;
	while (text < buf + end && *text >= '0' && *text <= '9')
		text++;
	while (text < buf + end && (*text == ' ' || *text == '\t'))
		text++;
	for (; text < buf + end && k + 1 < len; text++)
		answer[k++] = *text;
	while (k > 0 && (answer[k - 1] == ' ' || answer[k - 1] == '\t' || answer[k - 1] == '\n'))
		k--;
	if (len > 0)
		answer[k] = '\0';
	memmove(buf, buf + end + 2, n - end - 2);
	*buf_len = n - end - 2;
	return 1;
}

/* Writes all n bytes before `until` (a gtp_now_ms time, -1: no limit): 0 done, 1 out of
 * time (the engine reads nothing), -1 the engine is gone. */
static int
write_by(int fd, const char *p, size_t n, int64_t until)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w > 0) {
			p += w;
			n -= (size_t)w;
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			struct pollfd pfd = { fd, POLLOUT, 0 };
			int64_t left = until < 0 ? -1 : until - gtp_now_ms();

			if (until >= 0 && left <= 0)
				return 1;
			if (poll(&pfd, 1, left < 0 || left > 60000 ? 60000 : (int)left) < 0 &&
			    errno != EINTR)
				return -1;
			continue;
		}
		return -1;
	}
	return 0;
}

void
gtp_printable(char *dst, size_t len, const char *src)
{
	size_t k = 0;

	while (*src != '\0') {
		size_t n = sht_utf8_sequence(src);
		/* A control character, or a byte that starts no character, is shown as '?'. */
		bool ok = n > 1 || (n == 1 && *src >= 0x20 && *src != 0x7F);

		if (!ok)
			n = 1;
		if (k + (ok ? n : 1) >= len)
			break;
		if (ok)
			memcpy(dst + k, src, n);
		else
			dst[k] = '?';
		k += ok ? n : 1;
		src += n;
	}
	if (len > 0)
		dst[k] = '\0';
}

enum gtp_status
gtp_engine_ask(struct gtp_engine *e, const char *command, int64_t timeout_ms, char *answer,
    size_t len, int64_t *elapsed_ms)
{
	int64_t start = gtp_now_ms();
	char line[512];
	int n = snprintf(line, sizeof(line), "%s\n", command);
	bool refused = false;

	if (len > 0)
		answer[0] = '\0';
	if (elapsed_ms != NULL)
		*elapsed_ms = 0;
	if (e->pid <= 0)
		return GTP_DIED;
	if (e->buf == NULL) {
		e->cap = GTP_ANSWER_MAX + 1;
		if ((e->buf = malloc(e->cap)) == NULL)
			return GTP_DIED;
	}
	if (n < 0 || (size_t)n >= sizeof(line)) {
		kill_engine(e, "a command too long to send");
		return GTP_DIED;
	}
	switch (write_by(e->to_engine, line, (size_t)n, timeout_ms < 0 ? -1 : start + timeout_ms)) {
	case 0:
		break;
	case 1:
		kill_engine(e, "it read no command in time");
		return GTP_TIMEOUT;
	default:
		reap(e, 1000);
		return GTP_DIED;
	}
	for (;;) {
		int got = gtp_take_answer(e->buf, &e->len, answer, len, &refused);
		struct pollfd pfd = { e->from_engine, POLLIN, 0 };
		int64_t left = timeout_ms < 0 ? -1 : start + timeout_ms - gtp_now_ms();
		ssize_t r;

		if (elapsed_ms != NULL)
			*elapsed_ms = gtp_now_ms() - start;
		if (got > 0)
			return refused ? GTP_REFUSED : GTP_OK;
		if (got < 0) {
			kill_engine(e, "it answered something that is not GTP");
			return GTP_GARBLED;
		}
		if (timeout_ms >= 0 && left <= 0) {
			kill_engine(e, "no answer in time");
			return GTP_TIMEOUT;
		}
		r = poll(&pfd, 1, left < 0 ? -1 : left > 60000 ? 60000 : (int)left);
		if (r < 0 && errno != EINTR) {
			reap(e, 1000);
			return GTP_DIED;
		}
		if (r <= 0)
			continue;
		r = read(e->from_engine, e->buf + e->len, e->cap - 1 - e->len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			reap(e, 1000);
			return GTP_DIED;
		}
		/* Carriage returns dropped as they come, so that "\r\n\r\n" ends an answer. */
		{
			size_t kept = e->len;

			for (ssize_t i = 0; i < r; i++)
				if (e->buf[e->len + (size_t)i] != '\r')
					e->buf[kept++] = e->buf[e->len + (size_t)i];
			e->len = kept;
		}
		if (e->len >= e->cap - 1) {
			/* Full: an answer in it is the answer; without one the bytes are no GTP. */
			got = gtp_take_answer(e->buf, &e->len, answer, len, &refused);
			if (got > 0)
				return refused ? GTP_REFUSED : GTP_OK;
			kill_engine(e, "its answer was longer than 64 KB");
			return GTP_GARBLED;
		}
	}
}

void
gtp_engine_stop(struct gtp_engine *e, int64_t timeout_ms)
{
	char answer[64];

	if (e->pid <= 0)
		return;
	(void)gtp_engine_ask(e, "quit", timeout_ms, answer, sizeof(answer), NULL);
	reap(e, timeout_ms);
}

void
gtp_engine_free(struct gtp_engine *e)
{
	gtp_engine_stop(e, 1000);
	free(e->commands);
	free(e->buf);
	e->commands = NULL;
	e->buf = NULL;
}
