/* Unit tests of the workers' confinement (daemon/sandbox.c): what the filter lets through and
 * what it kills, and the privilege drop (as root only), each in a child process of its own.
 * Under a sanitizer the filter also allows what the sanitizer's reports need (sandbox.c). */
#define _GNU_SOURCE /* getresuid, MAP_ANONYMOUS */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "sandbox.h"

/* What a child process under test came to: its exit status, or the signal that ended it. */
struct outcome {
	bool exited;
	int status; /* exit status, or signal number */
};

/* Runs body in a child confined to the filter with fd as its request descriptor. */
static struct outcome
run_confined(int fd, void (*body)(int fd))
{
	pid_t pid = fork();
	int status;
	struct outcome o;

	assert_true(pid >= 0);
	if (pid == 0) {
		char err[256];

		if (!sandbox_restrict_syscalls(fd, err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			_exit(100);
		}
		body(fd);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	o.exited = WIFEXITED(status);
	o.status = o.exited ? WEXITSTATUS(status) : WTERMSIG(status);
	return o;
}

static void
serve_a_frame(int fd)
{
	char buf[16];
	void *p = malloc(1 << 20); /* a large allocation: mmap */

	if (p == NULL || read(fd, buf, 4) != 4 || write(fd, buf, 4) != 4)
		_exit(1);
	free(p);
	if (getpid() <= 0)
		_exit(2);
}

/* The bodies below end with these when the filter let their call through, or refused it. */
#define LET_THROUGH 3
#define REFUSED 4

static void
open_a_file(int fd)
{
	(void)fd;
	_exit(open("/etc/hostname", O_RDONLY) < 0 && errno == EACCES ? REFUSED : LET_THROUGH);
}

static void
map_executable_memory(int fd)
{
	(void)fd;
	(void)mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	_exit(LET_THROUGH);
}

static void
open_a_network_socket(int fd)
{
	(void)fd;
	_exit(socket(AF_INET, SOCK_STREAM, 0) < 0 && errno == EPERM ? REFUSED : LET_THROUGH);
}

static void
write_elsewhere(int fd)
{
	(void)!write(fd + 1, "x", 1);
	_exit(LET_THROUGH);
}

static void
start_a_process(int fd)
{
	(void)fd;
	_exit(fork() < 0 && errno == EPERM ? REFUSED : LET_THROUGH);
}

static void
test_the_worker_loop_is_allowed(void **state)
{
	int sv[2];
	char buf[4];
	struct outcome o;

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(write(sv[0], "ping", 4), 4);
	o = run_confined(sv[1], serve_a_frame);
	assert_true(o.exited);
	assert_int_equal(o.status, 0);
	assert_int_equal(read(sv[0], buf, 4), 4);
	assert_memory_equal(buf, "ping", 4);
	close(sv[0]);
	close(sv[1]);
}

static void
test_what_a_worker_never_does_fails_or_kills_it(void **state)
{
	/* refused: answered with an error (open: EACCES) rather than killed; reported: a call a
	 * sanitizer's report makes, allowed in those builds. */
	const struct {
		void (*body)(int);
		bool refused, reported;
	} cases[] = {
		{ open_a_file, true, true },
		{ open_a_network_socket, false, false },
		{ map_executable_memory, false, true },
		{ write_elsewhere, false, true },
		{ start_a_process, false, true },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int sv[2];
		struct outcome o;

		assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
		/* sv[0] + 1 is sv[1], open: a write there would succeed unfiltered. */
		o = run_confined(sv[0], cases[i].body);
		if (SANDBOX_UNDER_SANITIZER && cases[i].reported) {
			assert_true(o.exited);
			assert_int_equal(o.status, LET_THROUGH);
		} else if (cases[i].refused) {
			assert_true(o.exited);
			assert_int_equal(o.status, REFUSED);
		} else {
			assert_false(o.exited);
			assert_int_equal(o.status, SIGSYS);
		}
		close(sv[0]);
		close(sv[1]);
	}
}

static void
test_the_drop_takes_and_cannot_be_undone(void **state)
{
	struct passwd *pw = getpwnam("nobody");
	pid_t pid;
	int status;

	(void)state;
	if (geteuid() != 0 || pw == NULL)
		skip();
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char err[256];
		uid_t r, e, s;
		gid_t groups[4];

		if (!sandbox_drop_privileges(pw->pw_uid, pw->pw_gid, err, sizeof(err)))
			_exit(1);
		if (getresuid(&r, &e, &s) != 0 || r != pw->pw_uid || e != pw->pw_uid ||
		    s != pw->pw_uid)
			_exit(2);
		if (getgroups(4, groups) != 1 || groups[0] != pw->pw_gid)
			_exit(3);
		if (setuid(0) == 0 || errno != EPERM)
			_exit(4);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_the_worker_loop_is_allowed),
		cmocka_unit_test(test_what_a_worker_never_does_fails_or_kills_it),
		cmocka_unit_test(test_the_drop_takes_and_cannot_be_undone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
