/* A worker's confinement: it drops root for a configured account and filters its system calls. */
#define _GNU_SOURCE /* getresuid, getresgid, setresuid, setresgid */
#include <errno.h>
#include <fcntl.h> /* AT_EMPTY_PATH */
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <seccomp.h>

#include "sandbox.h"

bool
sandbox_drop_privileges(uid_t uid, gid_t gid, char *err, size_t errlen)
{
	uid_t ruid, euid, suid;
	gid_t rgid, egid, sgid, groups[2];
	int ngroups;

	/* Groups first: once the user is no longer root, the groups can no longer change. */
	if (setgroups(1, &gid) != 0) {
		snprintf(err, errlen, "setgroups(%d): %s", (int)gid, strerror(errno));
		return false;
	}
	if (setresgid(gid, gid, gid) != 0) {
		snprintf(err, errlen, "setresgid(%d): %s", (int)gid, strerror(errno));
		return false;
	}
	if (setresuid(uid, uid, uid) != 0) {
		snprintf(err, errlen, "setresuid(%d): %s", (int)uid, strerror(errno));
		return false;
	}
	/* Trust what the kernel reports, not the calls' return values. */
	if (getresuid(&ruid, &euid, &suid) != 0 || ruid != uid || euid != uid || suid != uid) {
		snprintf(err, errlen, "the user ids are not all %d after setresuid", (int)uid);
		return false;
	}
	if (getresgid(&rgid, &egid, &sgid) != 0 || rgid != gid || egid != gid || sgid != gid) {
		snprintf(err, errlen, "the group ids are not all %d after setresgid", (int)gid);
		return false;
	}
	ngroups = getgroups(2, groups);
	if (ngroups != 1 || groups[0] != gid) {
		snprintf(err, errlen, "the supplementary groups are not just %d after setgroups",
		    (int)gid);
		return false;
	}
	if (uid != 0 && (setresuid(0, 0, 0) == 0 || setegid(0) == 0)) {
		snprintf(err, errlen, "root's privileges could be taken back after the drop");
		return false;
	}
	return true;
}

/* The filter's rules: each system call allowed, with conditions on its arguments or none. */
struct rule {
	int syscall;
	unsigned int nargs;
	struct scmp_arg_cmp args[1];
};

/* Argument conditions written out whole: libseccomp's SCMP_A0() leaves datum_b to be zeroed,
 * which clang's -Wmissing-field-initializers refuses in a -Werror build. */
#define ARG_EQ(arg, value) \
	{ (arg), SCMP_CMP_EQ, (scmp_datum_t)(value), 0 }
#define ARG_MASKED_EQ(arg, mask, value) \
	{ (arg), SCMP_CMP_MASKED_EQ, (scmp_datum_t)(mask), (scmp_datum_t)(value) }

bool
sandbox_restrict_syscalls(int request_fd, char *err, size_t errlen)
{
	const struct rule rules[] = {
		/* Frames in and replies out on the parent's socketpair. */
		{ SCMP_SYS(read), 1, { ARG_EQ(0, request_fd) } },
		{ SCMP_SYS(write), 1, { ARG_EQ(0, request_fd) } },
		/* Log lines: to stderr in the foreground, else with syslog(3) on the socket
		 * openlog connected before the filter; no address, so no other destination. */
		{ SCMP_SYS(write), 1, { ARG_EQ(0, STDERR_FILENO) } },
		{ SCMP_SYS(sendto), 1, { ARG_EQ(4, 0) } },
		/* stdio (dprintf, a first fprintf) asks what its descriptor is, and where, before
		 * writing: fstat (glibc's newfstatat(fd, "", AT_EMPTY_PATH)) and lseek. */
		{ SCMP_SYS(fstat), 0, { { 0 } } },
		{ SCMP_SYS(newfstatat), 1, { ARG_MASKED_EQ(3, AT_EMPTY_PATH, AT_EMPTY_PATH) } },
		{ SCMP_SYS(lseek), 0, { { 0 } } },
		/* Memory, for malloc: never executable, so no code can be brought in. */
		{ SCMP_SYS(brk), 0, { { 0 } } },
		{ SCMP_SYS(mmap), 1, { ARG_MASKED_EQ(2, PROT_EXEC, 0) } },
		{ SCMP_SYS(mprotect), 1, { ARG_MASKED_EQ(2, PROT_EXEC, 0) } },
		{ SCMP_SYS(munmap), 0, { { 0 } } },
		{ SCMP_SYS(mremap), 0, { { 0 } } },
		{ SCMP_SYS(madvise), 0, { { 0 } } },
		{ SCMP_SYS(futex), 0, { { 0 } } },
		/* Clocks (usually answered in the vDSO without a system call) and sleeping. */
		{ SCMP_SYS(clock_gettime), 0, { { 0 } } },
		{ SCMP_SYS(clock_getres), 0, { { 0 } } },
		{ SCMP_SYS(gettimeofday), 0, { { 0 } } },
		{ SCMP_SYS(time), 0, { { 0 } } },
		{ SCMP_SYS(nanosleep), 0, { { 0 } } },
		{ SCMP_SYS(clock_nanosleep), 0, { { 0 } } },
		{ SCMP_SYS(getrandom), 0, { { 0 } } },
		/* status reports the worker's pid; abort() and raise() signal the process itself. */
		{ SCMP_SYS(getpid), 0, { { 0 } } },
		{ SCMP_SYS(gettid), 0, { { 0 } } },
		{ SCMP_SYS(tgkill), 1, { ARG_EQ(0, getpid()) } },
		{ SCMP_SYS(rt_sigprocmask), 0, { { 0 } } },
		{ SCMP_SYS(rt_sigreturn), 0, { { 0 } } },
		{ SCMP_SYS(close), 0, { { 0 } } },
		/* The check below that the filter is in force. */
		{ SCMP_SYS(prctl), 1, { ARG_EQ(0, PR_GET_SECCOMP) } },
		{ SCMP_SYS(exit), 0, { { 0 } } },
		{ SCMP_SYS(exit_group), 0, { { 0 } } },
	};
	scmp_filter_ctx ctx;
	int rc = 0;

	/* Also set by seccomp_load (libseccomp's default), but set here so that it holds even
	 * if that default changes: nothing the worker runs can gain privileges by exec. */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1) {
		snprintf(err, errlen, "prctl(PR_SET_NO_NEW_PRIVS): %s", strerror(errno));
		return false;
	}
	ctx = seccomp_init(SCMP_ACT_KILL_PROCESS);
	if (ctx == NULL) {
		snprintf(err, errlen, "seccomp_init failed");
		return false;
	}
	for (size_t i = 0; rc == 0 && i < sizeof(rules) / sizeof(rules[0]); i++)
		rc = seccomp_rule_add_array(ctx, SCMP_ACT_ALLOW, rules[i].syscall, rules[i].nargs,
		    rules[i].args);
	if (!SANDBOX_UNDER_SANITIZER) {
		/* A library that looks for a file on its own finds none, rather than killing
		 * the worker: iconv_open for a character set whose module was not loaded before
		 * the filter (worker.c loads the ones lib/charset.c maps to) then fails, and the
		 * record is decoded by detection instead.  Nothing can be opened either way. */
		if (rc == 0)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(open), 0);
		if (rc == 0)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(openat), 0);
	} else {
		/*
		 * A sanitizer's report reads /proc/self/maps, the executable and the libraries
		 * (with any descriptor) to name the frames, asks about the terminal, and may start
		 * a symbolizer; ASan also asks for the signal stack before every call that does
		 * not return.  Killed for those, a worker would die of SIGSYS with its report cut
		 * short or unsymbolized.  These builds are for testing, so the calls are allowed
		 * there, with executable memory for what is then loaded; the release build's
		 * filter is the list above alone, and everything else (sockets, privileges,
		 * tracing, mounting, ...) still kills in both.  LeakSanitizer's check in
		 * exit() cannot run under the filter (it stops the world from a traced thread);
		 * workers end with _exit, which skips it, filter or not.
		 */
		static const int report_syscalls[] = {
			SCMP_SYS(read), SCMP_SYS(write), SCMP_SYS(open), SCMP_SYS(openat),
			SCMP_SYS(readlink), SCMP_SYS(readlinkat), SCMP_SYS(stat), SCMP_SYS(access),
			SCMP_SYS(pread64), SCMP_SYS(getdents64), SCMP_SYS(ioctl), SCMP_SYS(pipe),
			SCMP_SYS(pipe2), SCMP_SYS(dup2), SCMP_SYS(dup3), SCMP_SYS(clone),
			SCMP_SYS(clone3), SCMP_SYS(fork), SCMP_SYS(vfork), SCMP_SYS(execve),
			SCMP_SYS(wait4), SCMP_SYS(kill), SCMP_SYS(sched_getaffinity),
			SCMP_SYS(getrlimit), SCMP_SYS(prlimit64), SCMP_SYS(rt_sigaction),
			SCMP_SYS(sigaltstack), SCMP_SYS(uname), SCMP_SYS(getppid),
			SCMP_SYS(sched_yield), SCMP_SYS(mincore), SCMP_SYS(writev),
			SCMP_SYS(newfstatat), SCMP_SYS(fcntl), SCMP_SYS(prctl),
			/* Once files may be opened, iconv may load a converter (dlopen). */
			SCMP_SYS(mmap), SCMP_SYS(mprotect),
		};

		for (size_t i = 0; rc == 0 && i < sizeof(report_syscalls) /
		    sizeof(report_syscalls[0]); i++)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, report_syscalls[i], 0);
	}
	if (rc == 0)
		rc = seccomp_load(ctx);
	seccomp_release(ctx);
	if (rc != 0) {
		snprintf(err, errlen, "installing the system call filter: %s", strerror(-rc));
		return false;
	}
	/* 2: in filter mode (SECCOMP_MODE_FILTER). */
	if (prctl(PR_GET_SECCOMP, 0, 0, 0, 0) != 2) {
		snprintf(err, errlen, "the system call filter is not in force after loading it");
		return false;
	}
	return true;
}
