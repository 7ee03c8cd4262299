/* The daemon's listening socket: refusing another instance's or any other file, umask, group. */
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "log.h"
#include "server.h"
#include "server_impl.h"

/* Connections the kernel may hold before the loop accepts them: a burst of a thousand clients
 * connecting at once should wait, not be refused.  The kernel caps it at net.core.somaxconn. */
#define LISTEN_BACKLOG 4096

/* ---- the socket ---- */

/* What a file of this mode is, for a message. */
static const char *
file_kind(mode_t mode)
{
	if (S_ISREG(mode))
		return "a regular file";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISLNK(mode))
		return "a symbolic link";
	if (S_ISFIFO(mode))
		return "a named pipe";
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return "a device";
	return "a file that is not a socket";
}

/*
 * Makes room to bind at path: nothing there, or a socket that nobody answers on (a daemon that
 * died without removing it), which is removed.  Anything else stays and is refused: another
 * instance's live socket, and any file that is not a socket (a mistyped -s must not delete a
 * user's file).  False, logged, when the path is not free.
 */
static bool
clear_socket_path(const struct sockaddr_un *sun, const char *path)
{
	struct stat st;
	int probe, why;

	if (lstat(path, &st) != 0) {
		if (errno == ENOENT)
			return true;
		log_error("cannot examine the socket path %s: %s", path, strerror(errno));
		return false;
	}
	if (!S_ISSOCK(st.st_mode)) {
		log_error("%s is %s, not a socket: refusing to remove it; choose another socket "
		    "path, or move the file away", path, file_kind(st.st_mode));
		return false;
	}
	probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (probe < 0) {
		log_error("socket: %s", strerror(errno));
		return false;
	}
	if (connect(probe, (const struct sockaddr *)sun, sizeof(*sun)) == 0) {
		close(probe);
		log_error("another shoutand is already serving %s", path);
		return false;
	}
	why = errno;
	close(probe);
	/* Only "refused" says that nobody listens; anything else (EACCES, EAGAIN with a full
	 * backlog) may be a live server that this one must not take the socket from. */
	if (why != ECONNREFUSED) {
		log_error("cannot tell whether the socket %s is in use (%s): refusing to remove it",
		    path, strerror(why));
		return false;
	}
	if (unlink(path) != 0) {
		log_error("cannot remove the stale socket %s: %s", path, strerror(errno));
		return false;
	}
	log_info("removed a stale socket file %s", path);
	return true;
}

/* The address of the socket at path; false, logged, when the path is too long for one. */
static bool
socket_address(const char *path, struct sockaddr_un *sun)
{
	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun->sun_path)) {
		log_error("socket path too long: %s", path);
		return false;
	}
	strcpy(sun->sun_path, path);
	return true;
}

bool
listen_clear_socket_path(const char *path)
{
	struct sockaddr_un sun;

	return socket_address(path, &sun) && clear_socket_path(&sun, path);
}

/* A name beside path for binding before the socket is published: same directory (so rename is
 * atomic), hidden, unique to this process.  False when it would not fit in an address. */
static bool
staging_address(const char *path, struct sockaddr_un *sun)
{
	const char *slash = strrchr(path, '/');
	int dir_len = slash == NULL ? 0 : (int)(slash - path) + 1;
	int n;

	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	n = snprintf(sun->sun_path, sizeof(sun->sun_path), "%.*s.shoutand-%ld.sock", dir_len, path,
	    (long)getpid());
	return n > 0 && (size_t)n < sizeof(sun->sun_path);
}

int
listen_open_socket(const char *path, mode_t mode, const char *group)
{
	struct sockaddr_un sun, staged;
	const char *bound;
	int fd;
	mode_t old;

	if (!socket_address(path, &sun) || !clear_socket_path(&sun, path))
		return -1;
	{
		/* Create the directory the socket lives in, if it is missing. */
		char dir[PATH_MAX];
		char *slash;

		snprintf(dir, sizeof(dir), "%s", path);
		slash = strrchr(dir, '/');
		if (slash != NULL && slash != dir) {
			*slash = '\0';
			if (mkdir(dir, 0755) == 0)
				log_info("created %s", dir);
		}
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		log_error("socket: %s", strerror(errno));
		return -1;
	}
	/* The socket is bound and listening under a staging name, then renamed into place: a client
	 * (or a script waiting for the file) that sees the path can connect, never meeting a bound
	 * socket that does not listen yet.  A path too long for the staging name binds directly. */
	if (staging_address(path, &staged)) {
		unlink(staged.sun_path); /* left by a crashed daemon that had this pid */
		bound = staged.sun_path;
	} else {
		staged = sun;
		bound = path;
	}
	/* Bind under a umask so the file never exists with wider rights than asked. */
	old = umask(0777 & ~mode);
	if (bind(fd, (struct sockaddr *)&staged, sizeof(staged)) != 0) {
		log_error("cannot bind %s: %s", bound, strerror(errno));
		umask(old);
		close(fd);
		return -1;
	}
	umask(old);
	if (chmod(bound, mode) != 0)
		log_warning("chmod %s: %s", bound, strerror(errno));
	if (group != NULL) {
		struct group *g = getgrnam(group);

		if (g == NULL || chown(bound, (uid_t)-1, g->gr_gid) != 0)
			log_warning("cannot give %s to group %s", path, group);
	}
	if (listen(fd, LISTEN_BACKLOG) != 0) {
		log_error("listen: %s", strerror(errno));
		unlink(bound);
		close(fd);
		return -1;
	}
	if (bound != path && rename(bound, path) != 0) {
		log_error("cannot move the socket %s to %s: %s", bound, path, strerror(errno));
		unlink(bound);
		close(fd);
		return -1;
	}
	return fd;
}
