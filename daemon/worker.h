/* The worker process's entry point (called in the child after fork). */
#ifndef SHOUTAN_WORKER_H
#define SHOUTAN_WORKER_H

#define WORKER_EXIT_LOAD_FAILED 3

/* Serves request frames on fd until it closes; returns the process's exit status. */
int worker_main(int fd, const char *plugins_dir, const char *rulesets_dir, int generation);

#endif
