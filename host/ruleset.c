/* YAML rulesets (libyaml): a file names a plugin and sets its parameters, checked against the plugin. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <yaml.h>

#include "host.h"
#include "yaml_error.h"

/* A ruleset file is a few hundred bytes; anything past this is not one. */
#define RULESET_MAX_BYTES (256 * 1024)

static void
err_at(char *err, size_t errlen, const char *path, const yaml_node_t *node, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* An error at a node of a ruleset file (NULL: the file as a whole). */
static void
err_at(char *err, size_t errlen, const char *path, const yaml_node_t *node, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sht_yaml_verror(err, errlen, path, node != NULL ? &node->start_mark : NULL, fmt, ap);
	va_end(ap);
}

static const char *
scalar(const yaml_node_t *n)
{
	return n != NULL && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static const char *
node_kind(const yaml_node_t *n)
{
	switch (n->type) {
	case YAML_MAPPING_NODE: return "a mapping";
	case YAML_SEQUENCE_NODE: return "a list";
	case YAML_SCALAR_NODE: return "a scalar";
	default: return "nothing";
	}
}

/* Reads a decimal with at most two decimals into hundredths. */
static bool
parse_hundredths(const char *s, long *out)
{
	long whole = 0, frac = 0, sign = 1;
	int digits = 0, fdigits = 0;

	if (*s == '-' || *s == '+')
		sign = *s++ == '-' ? -1 : 1;
	for (; *s >= '0' && *s <= '9'; s++, digits++) {
		if (whole > 100000000)
			return false;
		whole = whole * 10 + (*s - '0');
	}
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++, fdigits++) {
			if (fdigits == 2)
				return false;
			frac = frac * 10 + (*s - '0');
		}
	if (*s != '\0' || (digits == 0 && fdigits == 0))
		return false;
	if (fdigits == 1)
		frac *= 10;
	*out = sign * (whole * 100 + frac);
	return true;
}

static bool
parse_value(const struct sht_param_spec *spec, const char *text, struct sht_param_value *v,
    char *why, size_t whylen)
{
	char *end;
	long n;

	switch (spec->type) {
	case SHT_PARAM_BOOL:
		if (strcmp(text, "true") == 0 || strcmp(text, "yes") == 0) {
			v->number = 1;
			return true;
		}
		if (strcmp(text, "false") == 0 || strcmp(text, "no") == 0) {
			v->number = 0;
			return true;
		}
		snprintf(why, whylen, "'%.40s' is not true or false", text);
		return false;
	case SHT_PARAM_INT:
		errno = 0;
		n = strtol(text, &end, 10);
		if (errno != 0 || end == text || *end != '\0') {
			snprintf(why, whylen, "'%.40s' is not a whole number", text);
			return false;
		}
		if (n < spec->min || n > spec->max) {
			snprintf(why, whylen, "%ld is out of range (%ld to %ld)", n, spec->min, spec->max);
			return false;
		}
		v->number = n;
		return true;
	case SHT_PARAM_DECIMAL:
		if (!parse_hundredths(text, &n)) {
			snprintf(why, whylen, "'%.40s' is not a number with at most two decimals", text);
			return false;
		}
		if (n < spec->min || n > spec->max) {
			snprintf(why, whylen, "%.40s is out of range (%ld.%02ld to %ld.%02ld)", text,
			    spec->min / 100, labs(spec->min % 100), spec->max / 100,
			    labs(spec->max % 100));
			return false;
		}
		v->number = n;
		return true;
	case SHT_PARAM_CHOICE: {
		size_t used = 0;

		for (long i = 0; spec->choices[i] != NULL; i++)
			if (strcmp(text, spec->choices[i]) == 0) {
				v->number = i;
				return true;
			}
		used = (size_t)snprintf(why, whylen, "'%.40s' is not one of:", text);
		for (long i = 0; spec->choices[i] != NULL && used < whylen; i++)
			used += (size_t)snprintf(why + used, whylen - used, " %s", spec->choices[i]);
		return false;
	}
	}
	snprintf(why, whylen, "parameter of unknown type");
	return false;
}

void
sht_param_format(const struct sht_param_spec *spec, const struct sht_param_value *v, char *buf,
    size_t len)
{
	switch (spec->type) {
	case SHT_PARAM_BOOL:
		snprintf(buf, len, "%s", v->number ? "true" : "false");
		break;
	case SHT_PARAM_INT:
		snprintf(buf, len, "%ld", v->number);
		break;
	case SHT_PARAM_DECIMAL:
		if (v->number % 100 == 0)
			snprintf(buf, len, "%ld", v->number / 100);
		else if (v->number % 10 == 0)
			snprintf(buf, len, "%s%ld.%ld", v->number < 0 ? "-" : "", labs(v->number) / 100,
			    labs(v->number) % 100 / 10);
		else
			snprintf(buf, len, "%s%ld.%02ld", v->number < 0 ? "-" : "",
			    labs(v->number) / 100, labs(v->number) % 100);
		break;
	case SHT_PARAM_CHOICE:
		snprintf(buf, len, "%s", spec->choices[v->number]);
		break;
	}
}

void
sht_ruleset_free(struct sht_ruleset *rs)
{
	if (rs == NULL)
		return;
	if (rs->rules != NULL && rs->plugin->desc->release != NULL)
		rs->plugin->desc->release(rs->rules);
	free(rs->name);
	free(rs->path);
	free(rs->title);
	free(rs->summary);
	free(rs->values);
	if (rs->reconstruction_note != NULL && rs->plugin != NULL)
		for (int i = 0; i < rs->plugin->desc->nparams; i++)
			free(rs->reconstruction_note[i]);
	free(rs->reconstruction_note);
	free(rs->explicit_value);
	free(rs);
}

static char *
stem_of(const char *path)
{
	const char *base = strrchr(path, '/');
	const char *dot;
	char *s;

	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	s = strndup(base, dot ? (size_t)(dot - base) : strlen(base));
	return s;
}

/* The index of the plugin's parameter named key, or d->nparams when it has none. */
static int
param_index(const struct sht_ruleset_plugin *d, const char *key)
{
	int i;

	for (i = 0; i < d->nparams && strcmp(d->params[i].name, key) != 0; i++)
		;
	return i;
}

/* Sets the parameters of rs from the `parameters` mapping. */
static bool
read_parameters(struct sht_ruleset *rs, yaml_document_t *doc, const yaml_node_t *map,
    char *err, size_t errlen)
{
	const struct sht_ruleset_plugin *d = rs->plugin->desc;

	if (map->type != YAML_MAPPING_NODE) {
		err_at(err, errlen, rs->path, map, "parameters must be a mapping, not %s",
		    node_kind(map));
		return false;
	}
	for (yaml_node_pair_t *pair = map->data.mapping.pairs.start;
	    pair < map->data.mapping.pairs.top; pair++) {
		yaml_node_t *k = yaml_document_get_node(doc, pair->key);
		yaml_node_t *v = yaml_document_get_node(doc, pair->value);
		const char *key = scalar(k), *text = scalar(v);
		char why[256];
		int i;

		if (key == NULL) {
			err_at(err, errlen, rs->path, k, "a parameter name must be a scalar");
			return false;
		}
		if ((i = param_index(d, key)) == d->nparams) {
			size_t used = 0;

			used = (size_t)snprintf(why, sizeof(why), "plugin %s has no parameter '%.40s' "
			    "(it has:", d->family, key);
			for (int j = 0; j < d->nparams && used < sizeof(why); j++)
				used += (size_t)snprintf(why + used, sizeof(why) - used, " %s",
				    d->params[j].name);
			err_at(err, errlen, rs->path, k, "%s)", why);
			return false;
		}
		if (rs->explicit_value[i]) {
			err_at(err, errlen, rs->path, k, "parameter '%s' is set twice", key);
			return false;
		}
		if (text == NULL) {
			err_at(err, errlen, rs->path, v, "%s: expected a value, not %s", key,
			    node_kind(v));
			return false;
		}
		if (!parse_value(&d->params[i], text, &rs->values[i], why, sizeof(why))) {
			err_at(err, errlen, rs->path, v, "%s: %s", key, why);
			return false;
		}
		rs->explicit_value[i] = true;
	}
	return true;
}

/* `reconstructions:`, a mapping from parameter names to why the file's value is a
 * reconstruction: shown by describe beside the [R] mark. */
static bool
read_reconstructions(struct sht_ruleset *rs, yaml_document_t *doc, const yaml_node_t *map,
    char *err, size_t errlen)
{
	const struct sht_ruleset_plugin *d = rs->plugin->desc;

	if (map->type != YAML_MAPPING_NODE) {
		err_at(err, errlen, rs->path, map, "reconstructions must be a mapping from parameter "
		    "names to why each value is a reconstruction, not %s", node_kind(map));
		return false;
	}
	for (yaml_node_pair_t *pair = map->data.mapping.pairs.start;
	    pair < map->data.mapping.pairs.top; pair++) {
		yaml_node_t *k = yaml_document_get_node(doc, pair->key);
		yaml_node_t *v = yaml_document_get_node(doc, pair->value);
		const char *key = scalar(k), *text = scalar(v);
		int i;

		if (key == NULL || (i = param_index(d, key)) == d->nparams) {
			err_at(err, errlen, rs->path, k, "reconstructions: plugin %s has no parameter "
			    "'%.40s'", d->family, key ? key : "?");
			return false;
		}
		if (text == NULL || text[0] == '\0') {
			err_at(err, errlen, rs->path, v, "reconstructions: %s needs the reason, as text",
			    key);
			return false;
		}
		if (rs->reconstruction_note[i] != NULL) {
			err_at(err, errlen, rs->path, k, "reconstructions: '%s' is given twice", key);
			return false;
		}
		if ((rs->reconstruction_note[i] = strdup(text)) == NULL) {
			snprintf(err, errlen, "%s: out of memory", rs->path);
			return false;
		}
	}
	return true;
}

/* The ruleset's time control: `clock:` with type, main, periods, ... (host/clock.c). */
static bool
read_clock(struct sht_ruleset *rs, yaml_document_t *doc, const yaml_node_t *map,
    const char *path, char *err, size_t errlen)
{
	char why[200];

	if (map->type != YAML_MAPPING_NODE) {
		err_at(err, errlen, path, map, "clock must be a mapping such as {type: dumiao, "
		    "main: 1h, periods: 5}");
		return false;
	}
	memset(&rs->clock, 0, sizeof(rs->clock));
	for (yaml_node_pair_t *pair = map->data.mapping.pairs.start;
	    pair < map->data.mapping.pairs.top; pair++) {
		yaml_node_t *k = yaml_document_get_node(doc, pair->key);
		yaml_node_t *v = yaml_document_get_node(doc, pair->value);

		if (scalar(k) == NULL || scalar(v) == NULL) {
			err_at(err, errlen, path, scalar(k) == NULL ? k : v, "clock keys and values "
			    "must be scalars");
			return false;
		}
		if (!sht_clock_spec_set(&rs->clock, scalar(k), scalar(v), why, sizeof(why))) {
			err_at(err, errlen, path, strncmp(why, "unknown time-control key", 24) == 0 ?
			    k : v, "%s", why);
			return false;
		}
	}
	if (sht_clock_spec_problem(&rs->clock) != NULL) {
		err_at(err, errlen, path, map, "clock: %s", sht_clock_spec_problem(&rs->clock));
		return false;
	}
	return true;
}

static char *
slurp(const char *path, size_t *len, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	char *buf;

	if (f == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > RULESET_MAX_BYTES) {
		snprintf(err, errlen, "%s: not a regular file of at most %d bytes", path,
		    RULESET_MAX_BYTES);
		fclose(f);
		return NULL;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (buf == NULL) {
		fclose(f);
		snprintf(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	*len = fread(buf, 1, (size_t)st.st_size, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

struct sht_ruleset *
sht_ruleset_load(const struct sht_registry *r, const char *path, char *err, size_t errlen)
{
	size_t len;
	char *text = slurp(path, &len, err, errlen);
	struct sht_ruleset *rs;

	if (text == NULL)
		return NULL;
	rs = sht_ruleset_parse(r, path, text, len, err, errlen);
	free(text);
	return rs;
}

struct sht_ruleset *
sht_ruleset_parse(const struct sht_registry *r, const char *path, const char *text, size_t len,
    char *err, size_t errlen)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	yaml_node_t *root, *params_node = NULL, *plugin_node = NULL, *reconstructions_node = NULL;
	struct sht_ruleset *rs = NULL;
	char why[256] = "";
	bool ok = false;

	err[0] = '\0';
	if (!yaml_parser_initialize(&parser)) {
		snprintf(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &doc)) {
		sht_yaml_parser_error(err, errlen, path, &parser);
		yaml_parser_delete(&parser);
		return NULL;
	}
	root = yaml_document_get_root_node(&doc);
	rs = calloc(1, sizeof(*rs));
	if (rs == NULL)
		goto out;
	rs->path = strdup(path);
	rs->name = stem_of(path);
	if (root == NULL || root->type != YAML_MAPPING_NODE) {
		err_at(err, errlen, path, root, "a ruleset file is a mapping with plugin, title, "
		    "summary, dead and parameters");
		goto out;
	}
	for (yaml_node_pair_t *pair = root->data.mapping.pairs.start;
	    pair < root->data.mapping.pairs.top; pair++) {
		yaml_node_t *k = yaml_document_get_node(&doc, pair->key);
		yaml_node_t *v = yaml_document_get_node(&doc, pair->value);
		const char *key = scalar(k);

		if (key == NULL) {
			err_at(err, errlen, path, k, "keys must be scalars");
			goto out;
		}
		if (strcmp(key, "plugin") == 0) {
			plugin_node = v;
		} else if (strcmp(key, "title") == 0 || strcmp(key, "summary") == 0) {
			if (scalar(v) == NULL) {
				err_at(err, errlen, path, v, "%s must be text", key);
				goto out;
			}
			free(key[0] == 't' ? rs->title : rs->summary);
			*(key[0] == 't' ? &rs->title : &rs->summary) = strdup(scalar(v));
		} else if (strcmp(key, "parameters") == 0) {
			params_node = v;
		} else if (strcmp(key, "reconstructions") == 0) {
			reconstructions_node = v;
		} else if (strcmp(key, "dead") == 0) {
			const char *d = scalar(v);

			if (d == NULL || (strcmp(d, "auto") != 0 && strcmp(d, "none") != 0)) {
				err_at(err, errlen, path, v, "dead must be auto or none");
				goto out;
			}
			rs->default_dead = strcmp(d, "none") == 0 ? SHT_DEAD_NONE : SHT_DEAD_AUTO;
		} else if (strcmp(key, "clock") == 0) {
			if (!read_clock(rs, &doc, v, path, err, errlen))
				goto out;
		} else {
			err_at(err, errlen, path, k, "unknown key '%.40s' (known: plugin, title, "
			    "summary, dead, parameters, reconstructions, clock)", key);
			goto out;
		}
	}
	if (plugin_node == NULL || scalar(plugin_node) == NULL) {
		err_at(err, errlen, path, plugin_node ? plugin_node : root,
		    "'plugin' must name the ruleset's plugin");
		goto out;
	}
	for (int i = 0; i < r->nplugins; i++)
		if (strcmp(r->plugins[i]->desc->family, scalar(plugin_node)) == 0)
			rs->plugin = r->plugins[i];
	if (rs->plugin == NULL) {
		err_at(err, errlen, path, plugin_node, "no plugin named '%.40s' is loaded",
		    scalar(plugin_node));
		goto out;
	}
	{
		const struct sht_ruleset_plugin *d = rs->plugin->desc;

		rs->values = calloc((size_t)d->nparams + 1, sizeof(*rs->values));
		rs->explicit_value = calloc((size_t)d->nparams + 1, sizeof(*rs->explicit_value));
		rs->reconstruction_note = calloc((size_t)d->nparams + 1,
		    sizeof(*rs->reconstruction_note));
		if (rs->values == NULL || rs->explicit_value == NULL ||
		    rs->reconstruction_note == NULL)
			goto out;
		for (int i = 0; i < d->nparams; i++)
			if (!parse_value(&d->params[i], d->params[i].default_value, &rs->values[i],
			    why, sizeof(why))) {
				snprintf(err, errlen, "%s: plugin %s's own default for %s is bad: %s",
				    path, d->family, d->params[i].name, why);
				goto out;
			}
		if (params_node != NULL && !read_parameters(rs, &doc, params_node, err, errlen))
			goto out;
		if (reconstructions_node != NULL && !read_reconstructions(rs, &doc,
		    reconstructions_node, err, errlen))
			goto out;
		rs->rules = d->configure(rs->values, why, sizeof(why));
		if (rs->rules == NULL) {
			err_at(err, errlen, path, params_node, "plugin %s refuses these parameters: %s",
			    d->family, why[0] ? why : "no reason given");
			goto out;
		}
		memset(&rs->setup, 0, sizeof(rs->setup));
		rs->setup.size = sizeof(rs->setup);
		rs->setup.width = rs->setup.height = 19;
		rs->setup.passes_to_end = 2;
		rs->setup.first_player = SHT_RP_BLACK;
		rs->setup.supply[1] = rs->setup.supply[2] = -1;
		d->setup(rs->rules, &rs->setup);
		if (rs->setup.width < SHT_MIN_SIZE || rs->setup.width > SHT_MAX_SIZE ||
		    rs->setup.height < SHT_MIN_SIZE || rs->setup.height > SHT_MAX_SIZE ||
		    rs->setup.nseated < 0 || rs->setup.nseated > SHT_RULES_MAX_SEATED ||
		    (rs->setup.first_player != SHT_RP_BLACK && rs->setup.first_player != SHT_RP_WHITE) ||
		    rs->setup.last_pass < SHT_RP_EMPTY || rs->setup.last_pass > SHT_RP_WHITE) {
			snprintf(err, errlen, "%s: plugin %s asked for an impossible setup", path,
			    d->family);
			goto out;
		}
	}
	if (rs->title == NULL)
		rs->title = strdup(rs->plugin->desc->title);
	if (rs->summary == NULL)
		rs->summary = strdup("");
	ok = rs->name != NULL && rs->path != NULL && rs->title != NULL && rs->summary != NULL;
	if (!ok)
		snprintf(err, errlen, "%s: out of memory", path);
out:
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	if (!ok) {
		if (err[0] == '\0')
			snprintf(err, errlen, "%s: out of memory", path);
		sht_ruleset_free(rs);
		return NULL;
	}
	return rs;
}

/* The names in dir ending in suffix, sorted, so loading order is the same everywhere: *count
 * of them in *out.  False, with errno, when dir cannot be read. */
static bool
list_dir(const char *dir, const char *suffix, char ***out, int *count)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	int n = 0, cap = 0;
	size_t sl = strlen(suffix);

	*out = NULL;
	*count = 0;
	if (d == NULL)
		return false;
	while ((e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);

		if (e->d_name[0] == '.' || len <= sl || strcmp(e->d_name + len - sl, suffix) != 0)
			continue;
		if (n == cap) {
			char **nn = realloc(names, sizeof(*names) * (size_t)(cap = cap ? cap * 2 : 16));

			if (nn == NULL)
				break;
			names = nn;
		}
		names[n++] = strdup(e->d_name);
	}
	closedir(d);
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
			char *t = names[j];

			names[j] = names[j - 1];
			names[j - 1] = t;
		}
	*out = names;
	*count = n;
	return true;
}

void
sht_registry_free(struct sht_registry *r)
{
	if (r == NULL)
		return;
	/* Rulesets first: their instances belong to the plugins' code. */
	for (int i = 0; i < r->nrulesets; i++)
		sht_ruleset_free(r->rulesets[i]);
	for (int i = 0; i < r->nplugins; i++)
		sht_plugin_unload(r->plugins[i]);
	free(r->rulesets);
	free(r->plugins);
	free(r);
}

struct sht_registry *
sht_registry_load(const char *plugins_dir, const char *rulesets_dir, char *err, size_t errlen)
{
	struct sht_registry *r = calloc(1, sizeof(*r));
	char **names = NULL, path[4096];
	int n;

	err[0] = '\0';
	if (r == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (!list_dir(plugins_dir, ".so", &names, &n)) {
		snprintf(err, errlen, "%s: cannot read the plugin directory: %s", plugins_dir,
		    strerror(errno));
		goto fail;
	}
	r->plugins = calloc((size_t)n + 1, sizeof(*r->plugins));
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", plugins_dir, names[i]);
		if (r->plugins == NULL ||
		    (r->plugins[r->nplugins] = sht_plugin_load(path, err, errlen)) == NULL)
			goto fail;
		for (int j = 0; j < r->nplugins; j++)
			if (strcmp(r->plugins[j]->desc->family, r->plugins[r->nplugins]->desc->family) == 0) {
				snprintf(err, errlen, "%s: a second plugin named '%s' (the first is %s)",
				    path, r->plugins[j]->desc->family, r->plugins[j]->path);
				sht_plugin_unload(r->plugins[r->nplugins]);
				goto fail;
			}
		r->nplugins++;
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	names = NULL;

	if (!list_dir(rulesets_dir, ".yaml", &names, &n)) {
		snprintf(err, errlen, "%s: cannot read the ruleset directory: %s", rulesets_dir,
		    strerror(errno));
		goto fail;
	}
	r->rulesets = calloc((size_t)n + 1, sizeof(*r->rulesets));
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", rulesets_dir, names[i]);
		if (r->rulesets == NULL ||
		    (r->rulesets[r->nrulesets] = sht_ruleset_load(r, path, err, errlen)) == NULL)
			goto fail;
		r->nrulesets++;
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return r;
fail:
	if (names != NULL) {
		for (int i = 0; i < n; i++)
			free(names[i]);
		free(names);
	}
	if (err[0] == '\0')
		snprintf(err, errlen, "out of memory");
	sht_registry_free(r);
	return NULL;
}

const struct sht_ruleset *
sht_registry_find(const struct sht_registry *r, const char *name)
{
	for (int i = 0; i < r->nrulesets; i++)
		if (strcasecmp(r->rulesets[i]->name, name) == 0)
			return r->rulesets[i];
	return NULL;
}

enum sht_consequence
sht_ruleset_consequence(const struct sht_ruleset *rs, int violation)
{
	const struct sht_ruleset_plugin *d = rs->plugin->desc;
	int cons = d->consequence != NULL ? d->consequence(rs->rules, violation) :
	    SHT_CONSEQUENCE_REJECT;

	/* A plugin's answer that is no consequence refuses the move: the safe reading, since
	 * no caller may take it for a legal move. */
	switch (cons) {
	case SHT_CONSEQUENCE_REJECT:
	case SHT_CONSEQUENCE_VOID:
	case SHT_CONSEQUENCE_LOSS:
	case SHT_CONSEQUENCE_WARNING:
		return (enum sht_consequence)cons;
	}
	return SHT_CONSEQUENCE_REJECT;
}
