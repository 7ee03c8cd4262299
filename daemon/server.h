/* The daemon's parent process as shoutand.c sees it: run until drained, and check that the
 * rulesets load. */
#ifndef SHOUTAN_SERVER_H
#define SHOUTAN_SERVER_H

#include <stdbool.h>

#include "config.h"

/*
 * Runs the daemon until SIGTERM (or SIGINT) has drained it.  The parent owns every connection
 * and runs no ruleset's code (it answers only `status`, from its own counters, so that a health
 * check works while workers cannot start): it splits request lines, hands them to worker
 * processes over socketpairs, and writes the replies back in each connection's order.  A
 * worker that dies or overruns the time budget costs only the request it was on (answered with
 * an error); the others it held are handed to another worker.  config_path is re-read on SIGHUP (NULL: the
 * built-in defaults).  Returns the process's exit status.
 */
int server_run(struct config *cfg, const char *config_path, const char *socket_override);

/* Loads the plugins and rulesets the configuration names, in a child process so a broken
 * plugin cannot harm the caller; false with err filled when they do not load. */
bool server_check_rulesets(const struct config *cfg, char *err, size_t errlen);

/* Makes the socket path free to bind (listen.c): nothing there, or a stale socket, which is
 * removed; false, logged, for a live socket or any other file.  shoutand.c asks before it
 * detaches, so that a refusal reaches the terminal and the exit status. */
bool listen_clear_socket_path(const char *path);

#endif
