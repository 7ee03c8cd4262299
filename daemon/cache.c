/* The parent's reply cache: replies of pure methods, reused for byte-identical requests. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "cache.h"

/* What every worker reply opens with (rpc.c dumps compact, in this order). */
static const char reply_prefix[] = "{\"jsonrpc\":\"2.0\",\"id\":";
#define REPLY_PREFIX_LEN (sizeof(reply_prefix) - 1)
/* Longest id token a key is split at; longer ids are served the usual way. */
#define MAX_ID_LEN 64

/* One generation: an open-addressed table of entries, each one block holding the key's bytes
 * and then the reply's suffix.  Keys are whole requests (about 2 KB for a game's score), so
 * the hash is XXH3: lookup3, jansson's, took a fifth of the parent's time on cache hits. */
struct entry {
	uint64_t hash;
	size_t key_len, suffix_len;
	char *data; /* NULL: an empty slot */
};

struct table {
	struct entry *slots;
	size_t cap, used; /* cap a power of two, at most half used */
};

/* Two generations (the older is dropped whole when the younger fills its half budget). */
struct reply_cache {
	struct table young, old;
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
	out->key_hash = XXH3_64bits(line + i, len - i);
	return true;
}

static void
table_clear(struct table *t)
{
	for (size_t i = 0; i < t->cap; i++) {
		free(t->slots[i].data);
		t->slots[i].data = NULL;
	}
	t->used = 0;
}

static bool
table_init(struct table *t, size_t cap)
{
	t->slots = calloc(cap, sizeof(*t->slots));
	t->cap = t->slots != NULL ? cap : 0;
	t->used = 0;
	return t->slots != NULL;
}

static const struct entry *
table_find(const struct table *t, uint64_t hash, const char *key, size_t key_len)
{
	for (size_t i = hash & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
		const struct entry *e = &t->slots[i];

		if (e->data == NULL)
			return NULL;
		if (e->hash == hash && e->key_len == key_len && memcmp(e->data, key, key_len) == 0)
			return e;
	}
}

/* Places an entry known to be absent; the table has room. */
static void
table_place(struct table *t, const struct entry *e)
{
	size_t i = e->hash & (t->cap - 1);

	while (t->slots[i].data != NULL)
		i = (i + 1) & (t->cap - 1);
	t->slots[i] = *e;
	t->used++;
}

/* Doubles the table, keeping its entries (their hashes are stored, so nothing is rehashed). */
static bool
table_grow(struct table *t)
{
	struct table bigger;

	if (!table_init(&bigger, t->cap * 2))
		return false;
	for (size_t i = 0; i < t->cap; i++)
		if (t->slots[i].data != NULL)
			table_place(&bigger, &t->slots[i]);
	free(t->slots);
	*t = bigger;
	return true;
}

struct reply_cache *
cache_new(size_t budget)
{
	struct reply_cache *c = calloc(1, sizeof(*c));

	if (c == NULL)
		return NULL;
	c->half_budget = budget / 2;
	if (!table_init(&c->young, 64) || !table_init(&c->old, 64)) {
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
	if (c->young.slots != NULL)
		table_clear(&c->young);
	if (c->old.slots != NULL)
		table_clear(&c->old);
	free(c->young.slots);
	free(c->old.slots);
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
	const struct entry *e;

	if (c == NULL || c->half_budget == 0)
		return NULL;
	if ((e = table_find(&c->young, split->key_hash, key, key_len)) == NULL &&
	    (e = table_find(&c->old, split->key_hash, key, key_len)) == NULL)
		return NULL;
	*suffix_len = e->suffix_len;
	*is_error = e->suffix_len >= 7 && memcmp(e->data + key_len, "\"error\"", 7) == 0;
	c->hits++;
	return e->data + key_len;
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
	struct entry e;

	if (c == NULL || c->half_budget == 0 || reply_len < head || memcmp(reply, reply_prefix,
	    REPLY_PREFIX_LEN) != 0 || memcmp(reply + REPLY_PREFIX_LEN, line + split->id_off,
	    split->id_len) != 0 || reply[head - 1] != ',')
		return;
	e.hash = split->key_hash;
	/* Requests asked at once all miss, and all come back here: keep the first. */
	if (table_find(&c->young, e.hash, key, key_len) != NULL)
		return;
	/* The bytes held, with the slots (two per entry at most) and malloc's overhead. */
	cost = key_len + (reply_len - head) + 2 * sizeof(struct entry) + 16;
	if (cost > c->half_budget)
		return;
	if (c->young_bytes + cost > c->half_budget) {
		struct table t = c->old;

		table_clear(&t);
		c->old = c->young;
		c->young = t;
		c->young_bytes = 0;
	}
	if (2 * (c->young.used + 1) > c->young.cap && !table_grow(&c->young))
		return;
	e.key_len = key_len;
	e.suffix_len = reply_len - head;
	if ((e.data = malloc(key_len + e.suffix_len)) == NULL)
		return;
	memcpy(e.data, key, key_len);
	memcpy(e.data + key_len, reply + head, e.suffix_len);
	table_place(&c->young, &e);
	c->young_bytes += cost;
}
