/* A small C client for shoutand: sends one request (a method with no params) and prints the reply. */
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	struct sockaddr_un sun;
	char request[256], reply[65536];
	size_t got = 0;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: %s SOCKET METHOD\n", argv[0]);
		return 2;
	}
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", argv[1]);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sun, sizeof(sun)) != 0) {
		perror(argv[1]);
		return 1;
	}
	/* One JSON object per line; the method name is trusted to need no escaping here. */
	snprintf(request, sizeof(request), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"%s\"}\n",
	    argv[2]);
	if (write(fd, request, strlen(request)) != (ssize_t)strlen(request)) {
		perror("write");
		return 1;
	}
	while (got < sizeof(reply) - 1 && memchr(reply, '\n', got) == NULL) {
		ssize_t n = read(fd, reply + got, sizeof(reply) - 1 - got);

		if (n <= 0)
			break;
		got += (size_t)n;
	}
	reply[got] = '\0';
	close(fd);
	fputs(reply, stdout);
	return memchr(reply, '\n', got) != NULL ? 0 : 1;
}
