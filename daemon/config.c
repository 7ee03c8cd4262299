/* The daemon's settings: defaults, and the YAML file read through a table of keys (libyaml). */
#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <yaml.h>

#include "config.h"
#include "yaml_error.h"
#include "log.h"

void
config_defaults(struct config *c, const char *plugins_dir, const char *rulesets_dir)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	char path[PATH_MAX];

	memset(c, 0, sizeof(*c));
	if (geteuid() == 0 || xdg == NULL || xdg[0] == '\0')
		snprintf(path, sizeof(path), "/run/shoutand/shoutand.sock");
	else
		snprintf(path, sizeof(path), "%s/shoutand.sock", xdg);
	/* Absolute from the start: the detached daemon works from "/" (the environment's
	 * $SHOUTAN_PLUGINS_DIR may be relative). */
	c->socket_path = config_absolute_path(NULL, path);
	c->socket_mode = 0660;
	c->plugins_dir = config_absolute_path(NULL, plugins_dir);
	c->rulesets_dir = config_absolute_path(NULL, rulesets_dir);
	c->workers = 2;
	c->max_connections = 1024;
	c->max_request_bytes = 1 << 20;
	c->idle_timeout_s = 300;
	c->request_timeout_ms = 10000;
	c->max_pending = 256;
	c->reply_cache_bytes = 8u << 20;
	c->replay_cache_entries = 0; /* off: docs/protocol.md, "Live games" */
	c->max_queued_bytes = 128u << 20;
	c->drain_timeout_s = 20;
	c->log_level = LOG_LEVEL_INFO;
	c->worker_seccomp = true;
}

void
config_free(struct config *c)
{
	free(c->socket_path);
	free(c->socket_group);
	free(c->plugins_dir);
	free(c->rulesets_dir);
	free(c->user);
	free(c->http);
	memset(c, 0, sizeof(*c));
}

int
config_copy(struct config *dst, const struct config *src)
{
	*dst = *src;
	dst->socket_path = src->socket_path ? strdup(src->socket_path) : NULL;
	dst->socket_group = src->socket_group ? strdup(src->socket_group) : NULL;
	dst->plugins_dir = src->plugins_dir ? strdup(src->plugins_dir) : NULL;
	dst->rulesets_dir = src->rulesets_dir ? strdup(src->rulesets_dir) : NULL;
	dst->user = src->user ? strdup(src->user) : NULL;
	dst->http = src->http ? strdup(src->http) : NULL;
	return 1;
}

char *
config_absolute_path(const char *dir, const char *path)
{
	char cwd[PATH_MAX];
	char *out;
	size_t n;

	if (path[0] == '/')
		return strdup(path);
	if (dir == NULL) {
		if (getcwd(cwd, sizeof(cwd)) == NULL)
			return NULL;
		dir = cwd;
	}
	n = strlen(dir) + 1 + strlen(path) + 1;
	out = malloc(n);
	if (out != NULL)
		snprintf(out, n, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", path);
	return out;
}

/*
 * KEY_PATH: a file or directory; a relative one is taken from the configuration file's own
 * directory, as most daemons read paths inside their configuration, and made absolute at once,
 * since the detached daemon's working directory is "/".  KEY_USER: an account, looked up when
 * the file is read so that a wrong name is an error at its line.
 */
enum key_type { KEY_STRING, KEY_PATH, KEY_INT, KEY_SIZE, KEY_MODE, KEY_LEVEL, KEY_USER,
	KEY_BOOL };

/* One configuration key: its name, its type, where it goes, and its range. */
struct key {
	const char *name;
	enum key_type type;
	size_t offset;
	long min, max;
};

static const struct key keys[] = {
	{ "socket", KEY_PATH, offsetof(struct config, socket_path), 0, 0 },
	{ "socket_mode", KEY_MODE, offsetof(struct config, socket_mode), 0, 0777 },
	{ "socket_group", KEY_STRING, offsetof(struct config, socket_group), 0, 0 },
	{ "plugins_dir", KEY_PATH, offsetof(struct config, plugins_dir), 0, 0 },
	{ "rulesets_dir", KEY_PATH, offsetof(struct config, rulesets_dir), 0, 0 },
	{ "workers", KEY_INT, offsetof(struct config, workers), 1, 64 },
	{ "max_connections", KEY_INT, offsetof(struct config, max_connections), 1, 1000000 },
	{ "max_request_bytes", KEY_SIZE, offsetof(struct config, max_request_bytes), 256,
	    256L << 20 },
	{ "idle_timeout", KEY_INT, offsetof(struct config, idle_timeout_s), 0, 86400 },
	{ "request_timeout_ms", KEY_INT, offsetof(struct config, request_timeout_ms), 10, 3600000 },
	{ "max_pending", KEY_INT, offsetof(struct config, max_pending), 1, 100000 },
	{ "reply_cache_bytes", KEY_SIZE, offsetof(struct config, reply_cache_bytes), 0, 1L << 30 },
	{ "replay_cache_entries", KEY_INT, offsetof(struct config, replay_cache_entries), 0,
	    100000 },
	{ "max_queued_bytes", KEY_SIZE, offsetof(struct config, max_queued_bytes), 1L << 20,
	    1L << 40 },
	{ "drain_timeout", KEY_INT, offsetof(struct config, drain_timeout_s), 1, 86400 },
	{ "log_level", KEY_LEVEL, offsetof(struct config, log_level), 0, 0 },
	/* The workers' confinement (worker.h). */
	{ "user", KEY_USER, offsetof(struct config, user), 0, 0 },
	{ "worker_seccomp", KEY_BOOL, offsetof(struct config, worker_seccomp), 0, 0 },
	/* The lab page (http.c): "127.0.0.1:8080"; off without it. */
	{ "http", KEY_STRING, offsetof(struct config, http), 0, 0 },
};

static int
fail_at(char *err, size_t errlen, const char *path, const yaml_node_t *n, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* An error at a node of the configuration file (NULL: the file as a whole); returns 0. */
static int
fail_at(char *err, size_t errlen, const char *path, const yaml_node_t *n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sht_yaml_verror(err, errlen, path, n != NULL ? &n->start_mark : NULL, fmt, ap);
	va_end(ap);
	return 0;
}

static int
set_key(struct config *c, const struct key *k, const yaml_node_t *v, const char *path,
    const char *dir, char *err, size_t errlen)
{
	const char *text = v->type == YAML_SCALAR_NODE ? (const char *)v->data.scalar.value : NULL;
	char *end;
	long n;

	if (text == NULL)
		return fail_at(err, errlen, path, v, "%s takes a single value", k->name);
	switch (k->type) {
	case KEY_STRING: {
		char **dst = (char **)(void *)((char *)c + k->offset);

		if (text[0] == '\0')
			return fail_at(err, errlen, path, v, "%s must not be empty", k->name);
		free(*dst);
		*dst = strdup(text);
		return *dst != NULL;
	}
	case KEY_PATH: {
		char **dst = (char **)(void *)((char *)c + k->offset);

		if (text[0] == '\0')
			return fail_at(err, errlen, path, v, "%s must not be empty", k->name);
		free(*dst);
		*dst = config_absolute_path(dir, text);
		return *dst != NULL ? 1 : fail_at(err, errlen, path, v, "%s: out of memory",
		    k->name);
	}
	case KEY_USER: {
		struct passwd *pw;

		errno = 0;
		pw = getpwnam(text);
		if (pw == NULL)
			return fail_at(err, errlen, path, v, "%s: no account named '%.40s'%s%s",
			    k->name, text, errno ? ": " : "", errno ? strerror(errno) : "");
		if (pw->pw_uid == 0)
			return fail_at(err, errlen, path, v, "%s: '%.40s' is root; name an "
			    "account without privileges, such as nobody", k->name, text);
		free(c->user);
		c->user = strdup(text);
		c->user_uid = pw->pw_uid;
		c->user_gid = pw->pw_gid;
		return c->user != NULL;
	}
	case KEY_BOOL:
		if (strcmp(text, "true") == 0 || strcmp(text, "yes") == 0 ||
		    strcmp(text, "on") == 0)
			*(bool *)(void *)((char *)c + k->offset) = true;
		else if (strcmp(text, "false") == 0 || strcmp(text, "no") == 0 ||
		    strcmp(text, "off") == 0)
			*(bool *)(void *)((char *)c + k->offset) = false;
		else
			return fail_at(err, errlen, path, v, "%s: '%.20s' is not true or false",
			    k->name, text);
		return 1;
	case KEY_MODE:
		/* Modes are octal whatever their spelling: 0660 and 660 alike. */
		errno = 0;
		n = strtol(text, &end, 8);
		if (errno || *end || end == text || n < k->min || n > k->max)
			return fail_at(err, errlen, path, v, "%s: '%.20s' is not an octal mode such "
			    "as 0660", k->name, text);
		*(mode_t *)(void *)((char *)c + k->offset) = (mode_t)n;
		return 1;
	case KEY_LEVEL:
		n = log_level_parse(text);
		if (n < 0)
			return fail_at(err, errlen, path, v, "%s: '%.20s' is not one of error, "
			    "warning, info, debug", k->name, text);
		*(int *)(void *)((char *)c + k->offset) = (int)n;
		return 1;
	case KEY_INT:
	case KEY_SIZE:
		errno = 0;
		n = strtol(text, &end, 10);
		if (errno || end == text || *end != '\0')
			return fail_at(err, errlen, path, v, "%s: '%.20s' is not a whole number",
			    k->name, text);
		if (n < k->min || n > k->max)
			return fail_at(err, errlen, path, v, "%s: %ld is out of range (%ld to %ld)",
			    k->name, n, k->min, k->max);
		if (k->type == KEY_INT)
			*(int *)(void *)((char *)c + k->offset) = (int)n;
		else
			*(size_t *)(void *)((char *)c + k->offset) = (size_t)n;
		return 1;
	}
	return 0;
}

int
config_load(struct config *c, const char *path, char *err, size_t errlen)
{
	FILE *f;
	yaml_parser_t parser;
	yaml_document_t doc;
	yaml_node_t *root;
	char *dir = config_absolute_path(NULL, path), *slash;
	int ok = 1;

	/* Relative paths inside the file are taken from the file's directory. */
	if (dir == NULL)
		return fail_at(err, errlen, path, NULL, "cannot tell the file's directory: %s",
		    strerror(errno));
	slash = strrchr(dir, '/');
	slash[slash == dir ? 1 : 0] = '\0'; /* "/etc/a.yaml": "/etc"; "/a.yaml": "/" */
	f = fopen(path, "rb");
	if (f == NULL) {
		free(dir);
		return fail_at(err, errlen, path, NULL, "%s", strerror(errno));
	}
	if (!yaml_parser_initialize(&parser)) {
		free(dir);
		fclose(f);
		return fail_at(err, errlen, path, NULL, "out of memory");
	}
	yaml_parser_set_input_file(&parser, f);
	if (!yaml_parser_load(&parser, &doc)) {
		sht_yaml_parser_error(err, errlen, path, &parser);
		yaml_parser_delete(&parser);
		free(dir);
		fclose(f);
		return 0;
	}
	root = yaml_document_get_root_node(&doc);
	if (root != NULL && root->type != YAML_MAPPING_NODE &&
	    !(root->type == YAML_SCALAR_NODE && root->data.scalar.length == 0)) {
		ok = fail_at(err, errlen, path, root, "the configuration is a mapping of settings");
	} else if (root != NULL && root->type == YAML_MAPPING_NODE) {
		for (yaml_node_pair_t *p = root->data.mapping.pairs.start;
		    ok && p < root->data.mapping.pairs.top; p++) {
			yaml_node_t *k = yaml_document_get_node(&doc, p->key);
			yaml_node_t *v = yaml_document_get_node(&doc, p->value);
			const char *name = k->type == YAML_SCALAR_NODE ?
			    (const char *)k->data.scalar.value : "";
			size_t i;

			for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
				if (strcmp(keys[i].name, name) == 0)
					break;
			if (i == sizeof(keys) / sizeof(keys[0]))
				ok = fail_at(err, errlen, path, k, "unknown setting '%.40s'", name);
			else
				ok = set_key(c, &keys[i], v, path, dir, err, errlen);
		}
	}
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	free(dir);
	fclose(f);
	return ok;
}
