/* Logging for the daemon: levels, to stderr in the foreground and to syslog otherwise. */
#ifndef SHOUTAN_LOG_H
#define SHOUTAN_LOG_H

enum log_level { LOG_LEVEL_ERROR, LOG_LEVEL_WARNING, LOG_LEVEL_INFO, LOG_LEVEL_DEBUG };

void log_init(const char *ident, int foreground, enum log_level level);
void log_set_level(enum log_level level);
/* In a forked child whose descriptors were closed: reconnect to syslog. */
void log_reopen(void);
/* Parses "error", "warning", "info", "debug"; -1 when it is none of them. */
int log_level_parse(const char *name);
void log_msg(enum log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define log_error(...) log_msg(LOG_LEVEL_ERROR, __VA_ARGS__)
#define log_warning(...) log_msg(LOG_LEVEL_WARNING, __VA_ARGS__)
#define log_info(...) log_msg(LOG_LEVEL_INFO, __VA_ARGS__)
#define log_debug(...) log_msg(LOG_LEVEL_DEBUG, __VA_ARGS__)

#endif
