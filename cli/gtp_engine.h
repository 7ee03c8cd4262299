/* A Go engine run as a child process and spoken to in GTP over pipes, with a deadline on every answer. */
#ifndef SHOUTAN_CLI_GTP_ENGINE_H
#define SHOUTAN_CLI_GTP_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* An answer longer than this is nonsense from a referee's point of view (list_commands of the
 * largest engines is a few kilobytes). */
#define GTP_ANSWER_MAX 65536

enum gtp_status {
	GTP_OK,        /* "= ..." */
	GTP_REFUSED,   /* "? ...": the engine does not know or will not do it */
	GTP_TIMEOUT,   /* no whole answer before the deadline: the engine has been killed */
	GTP_DIED,      /* the engine closed its output or exited */
	GTP_GARBLED,   /* something that is not a GTP answer: the engine has been killed */
};

struct gtp_engine {
	char *const *argv;       /* the command, run with execvp (borrowed) */
	pid_t pid;               /* 0 when not running */
	int to_engine, from_engine;
	char name[80];           /* `name` and `version`, or the command's first word */
	char *commands;          /* list_commands, one a line; NULL when it gave none */
	char *buf;               /* bytes read past the last answer */
	size_t len, cap;
	char exit_text[96];      /* how it ended, once it did: "exited with status 3" */
};

/* Starts (or restarts) the engine and asks its name and commands; false with err filled when
 * it cannot be run or does not answer within timeout_ms. */
bool gtp_engine_start(struct gtp_engine *e, int64_t timeout_ms, char *err, size_t errlen);
/* Sends one command and reads its answer into answer (the text after "= " or "? ", without
 * the blank line).  Waits at most timeout_ms (-1: for ever); *elapsed_ms, when not NULL, is
 * how long the answer took.  An engine that times out or garbles is killed. */
enum gtp_status gtp_engine_ask(struct gtp_engine *e, const char *command, int64_t timeout_ms,
    char *answer, size_t len, int64_t *elapsed_ms);
/* Whether the engine listed `command` in list_commands. */
bool gtp_engine_knows(const struct gtp_engine *e, const char *command);
bool gtp_engine_running(const struct gtp_engine *e);
/* Sends quit, waits up to timeout_ms for the engine to exit, then kills it. */
void gtp_engine_stop(struct gtp_engine *e, int64_t timeout_ms);
/* Frees what the engine holds (stopping it first if it runs). */
void gtp_engine_free(struct gtp_engine *e);
/*
 * The first whole answer in buf (*buf_len bytes, carriage returns already dropped), taken out
 * of it: 1 with the answer's text in answer (and *refused for '?'), 0 when more bytes are
 * needed, -1 when the bytes are not GTP.  An answer is '=' or '?', an optional id, text, and an
 * empty line; empty lines before it are skipped, as the GTP specification asks of a controller.
 */
int gtp_take_answer(char *buf, size_t *buf_len, char *answer, size_t len, bool *refused);
/* Copies src into dst (len bytes, NUL-terminated) as whole UTF-8 characters, each invalid byte
 * or control character written as '?', stopping at a character boundary when dst is full: an
 * engine's words fit for JSON and a UTF-8 record. */
void gtp_printable(char *dst, size_t len, const char *src);
/* Kills every engine started and not yet reaped, with whatever each started: for a signal
 * that stops the referee (async-signal-safe). */
void gtp_engines_kill_all(void);
/* No longer to be killed by gtp_engines_kill_all (the engine has been reaped). */
void gtp_engine_forget(pid_t pid);
/* Milliseconds on the monotonic clock. */
int64_t gtp_now_ms(void);

#endif
