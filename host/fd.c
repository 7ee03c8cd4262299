/* Writing a whole buffer to a descriptor, whatever the kernel takes at a time (pipes, sockets). */
#include <errno.h>
#include <unistd.h>

#include "host.h"

bool
sht_write_full(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		p += w;
		n -= (size_t)w;
	}
	return true;
}
