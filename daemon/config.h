/* The daemon's settings: built-in defaults, then the YAML file given with -c (libyaml). */
#ifndef SHOUTAN_CONFIG_H
#define SHOUTAN_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct config {
	char *socket_path;
	mode_t socket_mode;
	char *socket_group;       /* NULL: the daemon's own group */
	char *plugins_dir;
	char *rulesets_dir;
	int workers;
	int max_connections;
	size_t max_request_bytes;
	int idle_timeout_s;       /* 0: never */
	int request_timeout_ms;
	int max_pending;          /* requests queued per connection before it is read no more */
	size_t reply_cache_bytes; /* memory for replies reused for repeated requests; 0: none */
	int replay_cache_entries; /* positions each worker keeps to resume replays from; 0: none */
	size_t max_queued_bytes;  /* unread replies and pending requests, all clients together */
	int drain_timeout_s;      /* SIGTERM: the longest wait for requests in flight */
	int log_level;            /* enum log_level */
	/* Confinement of the workers, which parse untrusted input (worker.h). */
	char *user;               /* started as root, workers run as this account; NULL: no drop */
	uid_t user_uid;           /* the account's, looked up when the file was read */
	gid_t user_gid;
	bool worker_seccomp;      /* a system call filter in the workers (on by default) */
	/* The lab page over HTTP: "host:port" to serve it on, NULL (the default) for none. */
	char *http;
};

/* Defaults: the socket under $XDG_RUNTIME_DIR, or /run/shoutand for root; two workers (the
 * machine has two cores); the plugin and ruleset directories given. */
void config_defaults(struct config *c, const char *plugins_dir, const char *rulesets_dir);
/* Reads a YAML file over the current values; false with err ("file:line:column: why").
 * Relative paths in it are taken from the file's directory and stored absolute. */
int config_load(struct config *c, const char *path, char *err, size_t errlen);
void config_free(struct config *c);
/* path made absolute: from dir, or from the working directory when dir is NULL; a path that is
 * absolute already is copied as it is.  NULL when out of memory or without a working directory. */
char *config_absolute_path(const char *dir, const char *path);
/* A copy (for keeping the old settings while a reload is tried). */
int config_copy(struct config *dst, const struct config *src);

#endif
