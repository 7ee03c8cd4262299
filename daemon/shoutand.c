/* shoutand: the adjudication daemon, serving the protocol's methods on a Unix socket. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "host.h"
#include "log.h"
#include "server.h"

static void
usage(FILE *f)
{
	fprintf(f, "usage: shoutand [-c CONFIG.yaml] [-s SOCKET] [-f] [-n] [-v]\n"
	    "  -c FILE   read settings from FILE (default: built-in settings)\n"
	    "  -s PATH   serve on PATH (overrides the configuration)\n"
	    "  -f        stay in the foreground and log to stderr\n"
	    "  -n        check the configuration, plugins and rulesets, print \"configuration OK\"\n"
	    "  -v        log debug messages too\n");
}

/* Leaves the terminal: fork, new session, standard streams on /dev/null. */
static int
detach(void)
{
	pid_t pid = fork();
	int fd;

	if (pid < 0)
		return -1;
	if (pid > 0)
		_exit(0);
	if (setsid() < 0)
		return -1;
	if (chdir("/") != 0)
		return -1;
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		if (fd > 2)
			close(fd);
	}
	return 0;
}

int
main(int argc, char **argv)
{
	const char *config_path = NULL, *socket_path = NULL, *plugins, *rulesets;
	int foreground = 0, check = 0, verbose = 0, c, rc;
	struct config cfg;
	char err[SHT_ERR_MAX];

	while ((c = getopt(argc, argv, "c:s:fnvh")) != -1) {
		switch (c) {
		case 'c': config_path = optarg; break;
		case 's': socket_path = optarg; break;
		case 'f': foreground = 1; break;
		case 'n': check = 1; break;
		case 'v': verbose = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	sht_default_dirs(&plugins, &rulesets);
	config_defaults(&cfg, plugins, rulesets);
	if (config_path != NULL && !config_load(&cfg, config_path, err, sizeof(err))) {
		fprintf(stderr, "shoutand: %s\n", err);
		config_free(&cfg);
		return 1;
	}
	if (socket_path != NULL) {
		free(cfg.socket_path);
		cfg.socket_path = strdup(socket_path);
	}
	if (verbose)
		cfg.log_level = LOG_LEVEL_DEBUG;
	if (check) {
		struct sht_registry *r = sht_registry_load(cfg.plugins_dir, cfg.rulesets_dir, err,
		    sizeof(err));

		if (r == NULL) {
			fprintf(stderr, "shoutand: %s\n", err);
			config_free(&cfg);
			return 1;
		}
		printf("configuration OK (%d plugins, %d rulesets; socket %s)\n", r->nplugins,
		    r->nrulesets, cfg.socket_path);
		sht_registry_free(r);
		config_free(&cfg);
		return 0;
	}
	/* Refuse to start on rulesets that do not load, before leaving the terminal. */
	if (!server_check_rulesets(&cfg, err, sizeof(err))) {
		fprintf(stderr, "shoutand: %s\n", err);
		config_free(&cfg);
		return 1;
	}
	if (!foreground && detach() != 0) {
		perror("shoutand: detach");
		return 1;
	}
	log_init("shoutand", foreground, (enum log_level)cfg.log_level);
	rc = server_run(&cfg, config_path, socket_path);
	config_free(&cfg);
	return rc;
}
