/* shoutand: the adjudication daemon, serving the protocol's methods on a Unix socket. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "host.h"
#include "http.h"
#include "log.h"
#include "server.h"

/* The process's exit statuses. */
enum {
	EXIT_OK = 0,
	EXIT_FAILED = 1,   /* the configuration, the rulesets or the socket would not do */
	EXIT_USAGE = 2,
};

static void
usage(FILE *f)
{
	fprintf(f, "usage: shoutand [-c CONFIG.yaml] [-s SOCKET] [--http HOST:PORT] [-f] [-n] [-v]\n"
	    "  -c FILE   read settings from FILE (default: built-in settings)\n"
	    "  -s PATH   serve on PATH (overrides the configuration)\n"
	    "  --http HOST:PORT\n"
	    "            also serve the lab page and POST /rpc over HTTP there, for example\n"
	    "            127.0.0.1:8080 (overrides the configuration's http; off by default)\n"
	    "  -f        stay in the foreground and log to stderr\n"
	    "  -n        check the configuration, plugins and rulesets, print \"configuration OK\"\n"
	    "  -v        log debug messages too\n");
}

/* Leaves the terminal: fork, new session, standard streams on /dev/null, and the working
 * directory "/" (every path the daemon uses was made absolute before). */
static bool
detach(void)
{
	pid_t pid = fork();
	int fd;

	if (pid < 0)
		return false;
	if (pid > 0)
		_exit(EXIT_OK);
	if (setsid() < 0)
		return false;
	if (chdir("/") != 0)
		return false;
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		if (fd > 2)
			close(fd);
	}
	return true;
}

/* The workers parse what any client sends: say so when they will do it as root, and when a
 * configured `user` cannot be taken on because the daemon was not started as root. */
static void
warn_about_privileges(const struct config *cfg)
{
	if (geteuid() == 0 && cfg->user == NULL)
		log_warning("started as root with no user configured: the workers keep root's "
		    "privileges; set user (for example user: nobody) to drop them");
	else if (geteuid() != 0 && cfg->user != NULL && geteuid() != cfg->user_uid)
		log_warning("user: %s needs the daemon started as root; the workers run as uid %d",
		    cfg->user, (int)geteuid());
}

int
main(int argc, char **argv)
{
	static const struct option long_options[] = {
		{ "http", required_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *config_arg = NULL, *socket_arg = NULL, *http_arg = NULL, *plugins, *rulesets;
	char *config_path = NULL, *socket_path = NULL;
	int foreground = 0, check = 0, verbose = 0, c, rc;
	struct config cfg;
	char err[SHT_ERR_MAX];

	while ((c = getopt_long(argc, argv, "c:s:fnvh", long_options, NULL)) != -1) {
		switch (c) {
		case 'c': config_arg = optarg; break;
		case 's': socket_arg = optarg; break;
		case 'H': http_arg = optarg; break;
		case 'f': foreground = 1; break;
		case 'n': check = 1; break;
		case 'v': verbose = 1; break;
		case 'h': usage(stdout); return EXIT_OK;
		default: usage(stderr); return EXIT_USAGE;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	/* Paths on the command line are the caller's, from the directory it runs in: made
	 * absolute now, they still hold after detaching and on every SIGHUP. */
	if ((config_arg != NULL && (config_path = config_absolute_path(NULL, config_arg)) == NULL) ||
	    (socket_arg != NULL && (socket_path = config_absolute_path(NULL, socket_arg)) == NULL)) {
		fprintf(stderr, "shoutand: cannot tell the working directory: %s\n",
		    strerror(errno));
		return EXIT_FAILED;
	}
	sht_default_dirs(&plugins, &rulesets);
	config_defaults(&cfg, plugins, rulesets);
	if (config_path != NULL && !config_load(&cfg, config_path, err, sizeof(err))) {
		fprintf(stderr, "shoutand: %s\n", err);
		rc = EXIT_FAILED;
		goto out;
	}
	if (socket_path != NULL) {
		free(cfg.socket_path);
		cfg.socket_path = strdup(socket_path);
	}
	if (http_arg != NULL) {
		free(cfg.http);
		cfg.http = strdup(http_arg);
	}
	if (cfg.http != NULL) {
		char host[256];
		int port;

		/* A mistyped address is said now, not after detaching. */
		if (!http_address_parse(cfg.http, host, sizeof(host), &port, err, sizeof(err))) {
			fprintf(stderr, "shoutand: %s\n", err);
			rc = EXIT_FAILED;
			goto out;
		}
	}
	if (verbose)
		cfg.log_level = LOG_LEVEL_DEBUG;
	if (check) {
		struct sht_registry *r = NULL;

		/* Loaded as the workers load them (as `user`, then confined), then here for
		 * the counts: a ruleset that user cannot read fails -n as it would fail start. */
		if (!server_check_rulesets(&cfg, err, sizeof(err)) ||
		    (r = sht_registry_load(cfg.plugins_dir, cfg.rulesets_dir, err,
		    sizeof(err))) == NULL) {
			fprintf(stderr, "shoutand: %s\n", err);
			rc = EXIT_FAILED;
			goto out;
		}
		printf("configuration OK (%d plugins, %d rulesets; socket %s)\n", r->nplugins,
		    r->nrulesets, cfg.socket_path);
		sht_registry_free(r);
		rc = EXIT_OK;
		goto out;
	}
	/* Refuse to start on rulesets that do not load, before leaving the terminal. */
	if (!server_check_rulesets(&cfg, err, sizeof(err))) {
		fprintf(stderr, "shoutand: %s\n", err);
		rc = EXIT_FAILED;
		goto out;
	}
	/* Before leaving the terminal too: refused after detaching, the user would see exit
	 * status 0 and the reason only in syslog.  server_run checks again when it binds. */
	if (!listen_clear_socket_path(cfg.socket_path)) {
		rc = EXIT_FAILED;
		goto out;
	}
	if (!foreground && !detach()) {
		perror("shoutand: detach");
		rc = EXIT_FAILED;
		goto out;
	}
	log_init("shoutand", foreground, (enum log_level)cfg.log_level);
	warn_about_privileges(&cfg);
	rc = server_run(&cfg, config_path, socket_path);
out:
	config_free(&cfg);
	free(config_path);
	free(socket_path);
	return rc;
}
