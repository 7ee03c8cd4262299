/* The confinement of a worker process: another account's privileges, and a system call filter. */
#ifndef SHOUTAN_SANDBOX_H
#define SHOUTAN_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * Becomes uid and gid for good, as OpenBSD's daemons do after binding: the supplementary groups
 * become gid alone, then the real, effective and saved group, then the user.  The result is
 * read back (getresuid, getresgid, getgroups) and a way back to root is tried; false with err
 * when any of it did not take, and the caller must then not go on.
 */
bool sandbox_drop_privileges(uid_t uid, gid_t gid, char *err, size_t errlen);

/*
 * Sets no_new_privs and installs a seccomp filter allowing only what a worker does once its
 * plugins and rulesets are loaded: reading frames on request_fd, writing replies there and log
 * lines to stderr or syslog, memory, clocks, sleeping, and ending.  Opening a file fails with
 * EACCES (a library looking for one finds none); any other system call kills the process (SIGSYS), which the parent sees as a worker that died: it answers the request with
 * an internal error and starts another worker.  (Under a sanitizer, the calls its reports make
 * are allowed too, so that a report is whole and symbolized.)  Nothing may be opened afterwards: call this
 * after everything the worker reads from files is in memory.  False with err when the kernel
 * refuses; the caller decides whether to go on unconfined (it should not).
 */
bool sandbox_restrict_syscalls(int request_fd, char *err, size_t errlen);

/* Whether the sanitizers' runtime is in the program: their reports make system calls of their
 * own, which the filter then allows (sandbox.c). */
#if defined(__SANITIZE_ADDRESS__)
#define SANDBOX_UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define SANDBOX_UNDER_SANITIZER 1
#endif
#endif
#ifndef SANDBOX_UNDER_SANITIZER
#define SANDBOX_UNDER_SANITIZER 0
#endif

#endif
