/* The parent's reply cache: replies of pure methods, reused for byte-identical requests. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cache.h"

/* What every worker reply opens with (rpc.c dumps compact, in this order). */
static const char reply_prefix[] = "{\"jsonrpc\":\"2.0\",\"id\":";
#define REPLY_PREFIX_LEN (sizeof(reply_prefix) - 1)
/* Longest id token a key is split at; longer ids are served the usual way. */
#define MAX_ID_LEN 64

/* Two generations of jansson objects used as hash maps (key bytes -> reply suffix): a
 * jansson object hashes arbitrary byte keys, so no table of our own is needed. */
struct reply_cache {
	json_t *young, *old;
	size_t young_bytes, half_budget;
	unsigned long hits;
};

static size_t
skip_space(const char *s, size_t i, size_t len)
{
	while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
		i++;
	return i;
}

/* Matches the literal `lit` at s[i], after optional whitespace; the index after it, or 0. */
static size_t
expect(const char *s, size_t i, size_t len, const char *lit)
{
	size_t n = strlen(lit);

	i = skip_space(s, i, len);
	if (len - i < n || memcmp(s + i, lit, n) != 0)
		return 0;
	return i + n;
}

bool
cache_split(const char *line, size_t len, struct cache_split *out)
{
	size_t i = 0, start;

	if ((i = expect(line, i, len, "{")) == 0 || (i = expect(line, i, len, "\"jsonrpc\"")) == 0 ||
	    (i = expect(line, i, len, ":")) == 0 || (i = expect(line, i, len, "\"2.0\"")) == 0 ||
	    (i = expect(line, i, len, ",")) == 0 || (i = expect(line, i, len, "\"id\"")) == 0 ||
	    (i = expect(line, i, len, ":")) == 0)
		return false;
	start = i = skip_space(line, i, len);
	if (i < len && line[i] == '"') {
		/* A plain string: printable ASCII, no escapes, so it is echoed byte for byte. */
		for (i++; i < len && line[i] != '"'; i++)
			if (line[i] < 0x20 || line[i] > 0x7e || line[i] == '\\')
				return false;
		if (i == len)
			return false;
		i++;
	} else {
		if (i < len && line[i] == '-')
			i++;
		if (i == len || line[i] < '0' || line[i] > '9' || (line[i] == '0' && i + 1 < len &&
		    line[i + 1] >= '0' && line[i + 1] <= '9'))
			return false;
		while (i < len && line[i] >= '0' && line[i] <= '9')
			i++;
	}
	if (i - start > MAX_ID_LEN)
		return false;
	out->id_off = start;
	out->id_len = i - start;
	if ((i = expect(line, i, len, ",")) == 0)
		return false;
	out->key_off = i;
	return true;
}

struct reply_cache *
cache_new(size_t budget)
{
	struct reply_cache *c = calloc(1, sizeof(*c));

	if (c == NULL)
		return NULL;
	c->half_budget = budget / 2;
	c->young = json_object();
	c->old = json_object();
	if (c->young == NULL || c->old == NULL) {
		cache_free(c);
		return NULL;
	}
	return c;
}

void
cache_free(struct reply_cache *c)
{
	if (c == NULL)
		return;
	json_decref(c->young);
	json_decref(c->old);
	free(c);
}

unsigned long
cache_hits(const struct reply_cache *c)
{
	return c != NULL ? c->hits : 0;
}

const char *
cache_find(struct reply_cache *c, const char *line, size_t len,
    const struct cache_split *split, size_t *suffix_len, bool *is_error)
{
	const char *key = line + split->key_off;
	size_t key_len = len - split->key_off;
	json_t *suffix;

	if (c == NULL || c->half_budget == 0)
		return NULL;
	suffix = json_object_getn(c->young, key, key_len);
	if (suffix == NULL)
		suffix = json_object_getn(c->old, key, key_len);
	if (suffix == NULL)
		return NULL;
	*suffix_len = json_string_length(suffix);
	*is_error = strncmp(json_string_value(suffix), "\"error\"", 7) == 0;
	c->hits++;
	return json_string_value(suffix);
}

const char *
cache_reply_prefix(size_t *len)
{
	*len = REPLY_PREFIX_LEN;
	return reply_prefix;
}

char *
cache_lookup(struct reply_cache *c, const char *line, size_t len,
    const struct cache_split *split, bool *is_error)
{
	size_t suffix_len, reply_len;
	const char *suffix = cache_find(c, line, len, split, &suffix_len, is_error);
	char *reply;

	if (suffix == NULL)
		return NULL;
	reply_len = REPLY_PREFIX_LEN + split->id_len + 1 + suffix_len;
	reply = malloc(reply_len + 1);
	if (reply == NULL)
		return NULL;
	memcpy(reply, reply_prefix, REPLY_PREFIX_LEN);
	memcpy(reply + REPLY_PREFIX_LEN, line + split->id_off, split->id_len);
	reply[REPLY_PREFIX_LEN + split->id_len] = ',';
	memcpy(reply + REPLY_PREFIX_LEN + split->id_len + 1, suffix, suffix_len);
	reply[reply_len] = '\0';
	return reply;
}

void
cache_store(struct reply_cache *c, const char *line, size_t len,
    const struct cache_split *split, const char *reply, size_t reply_len)
{
	const char *key = line + split->key_off;
	size_t key_len = len - split->key_off, head = REPLY_PREFIX_LEN + split->id_len + 1, cost;
	json_t *suffix;

	if (c == NULL || c->half_budget == 0 || reply_len < head || memcmp(reply, reply_prefix,
	    REPLY_PREFIX_LEN) != 0 || memcmp(reply + REPLY_PREFIX_LEN, line + split->id_off,
	    split->id_len) != 0 || reply[head - 1] != ',')
		return;
	/* Requests asked at once all miss, and all come back here: keep the first. */
	if (json_object_getn(c->young, key, key_len) != NULL)
		return;
	/* The bytes held, with jansson's per-entry overhead counted roughly. */
	cost = key_len + (reply_len - head) + 128;
	if (cost > c->half_budget)
		return;
	if (c->young_bytes + cost > c->half_budget) {
		json_t *t = c->old;

		json_object_clear(t);
		c->old = c->young;
		c->young = t;
		c->young_bytes = 0;
	}
	suffix = json_stringn_nocheck(reply + head, reply_len - head);
	if (suffix == NULL || json_object_setn_new_nocheck(c->young, key, key_len, suffix) != 0)
		return;
	c->young_bytes += cost;
}
