/* The worker process's entry point (called in the child after fork) and what it does to start. */
#ifndef SHOUTAN_WORKER_H
#define SHOUTAN_WORKER_H

#include "config.h"
#include "host.h"

/* A worker's exit statuses, read by the parent when it reaps one. */
enum worker_exit {
	WORKER_EXIT_OK = 0,
	WORKER_EXIT_LOAD_FAILED = 3,     /* the plugins or rulesets did not load */
	WORKER_EXIT_CONFINE_FAILED = 4,  /* the privilege drop or the filter did not take */
};

/*
 * Everything a worker does before its first request, in this order: started as root with a
 * `user` configured, it becomes that account (sandbox.h), so that no plugin code and no request
 * ever runs as root; it loads the plugins and rulesets as that account; then, unless
 * worker_seccomp is off, it installs the system call filter, which allows no file to be opened
 * again.  request_fd is the one descriptor it will read requests from.  Returns
 * WORKER_EXIT_OK with *registry set, or another status with err filled.
 */
enum worker_exit worker_prepare(const struct config *cfg, int request_fd,
    struct sht_registry **registry, char *err, size_t errlen);

/* Serves request frames on fd until it closes; returns the process's exit status. */
int worker_main(int fd, const struct config *cfg, int generation);

#endif
