/* Logging for the daemon: levels, to stderr in the foreground and to syslog otherwise. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "log.h"

static int to_stderr = 1;
static enum log_level threshold = LOG_LEVEL_INFO;
static const char *name = "shoutand";

void
log_init(const char *ident, int foreground, enum log_level level)
{
	name = ident;
	to_stderr = foreground;
	threshold = level;
	if (!foreground)
		openlog(ident, LOG_PID | LOG_NDELAY, LOG_DAEMON);
}

void
log_reopen(void)
{
	if (!to_stderr) {
		closelog();
		openlog(name, LOG_PID | LOG_NDELAY, LOG_DAEMON);
	}
}

void
log_set_level(enum log_level level)
{
	threshold = level;
}

int
log_level_parse(const char *s)
{
	static const char *const names[] = { "error", "warning", "info", "debug" };

	for (int i = 0; i < 4; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	return -1;
}

void
log_msg(enum log_level level, const char *fmt, ...)
{
	static const char *const labels[] = { "error", "warning", "info", "debug" };
	static const int priorities[] = { LOG_ERR, LOG_WARNING, LOG_INFO, LOG_DEBUG };
	char line[1024];
	va_list ap;

	if (level > threshold)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (to_stderr) {
		/* One write per line, so workers' lines do not interleave mid-line. */
		char out[1200];
		int n = snprintf(out, sizeof(out), "%s[%d]: %s: %s\n", name, (int)getpid(),
		    labels[level], line);

		if (n > 0)
			(void)!write(STDERR_FILENO, out, (size_t)n < sizeof(out) ? (size_t)n :
			    sizeof(out) - 1);
	} else {
		syslog(priorities[level], "%s: %s", labels[level], line);
	}
}
