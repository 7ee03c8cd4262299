/* The daemon's listening socket: refusing another instance's, stale files, umask, group. */
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "log.h"
#include "server_impl.h"

/* ---- the socket ---- */

int
listen_open_socket(const char *path, mode_t mode, const char *group)
{
	struct sockaddr_un sun;
	int fd, probe;
	mode_t old;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun.sun_path)) {
		log_error("socket path too long: %s", path);
		return -1;
	}
	strcpy(sun.sun_path, path);
	/* Another instance answering there: refuse, rather than steal its socket. */
	probe = socket(AF_UNIX, SOCK_STREAM, 0);
	if (probe >= 0 && connect(probe, (struct sockaddr *)&sun, sizeof(sun)) == 0) {
		close(probe);
		log_error("another shoutand is already serving %s", path);
		return -1;
	}
	if (probe >= 0)
		close(probe);
	if (unlink(path) == 0)
		log_info("removed a stale socket file %s", path);
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
	/* Bind under a umask so the file never exists with wider rights than asked. */
	old = umask(0777 & ~mode);
	if (bind(fd, (struct sockaddr *)&sun, sizeof(sun)) != 0) {
		log_error("cannot bind %s: %s", path, strerror(errno));
		umask(old);
		close(fd);
		return -1;
	}
	umask(old);
	if (chmod(path, mode) != 0)
		log_warning("chmod %s: %s", path, strerror(errno));
	if (group != NULL) {
		struct group *g = getgrnam(group);

		if (g == NULL || chown(path, (uid_t)-1, g->gr_gid) != 0)
			log_warning("cannot give %s to group %s", path, group);
	}
	if (listen(fd, 512) != 0) {
		log_error("listen: %s", strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}
