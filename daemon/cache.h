/* The parent's reply cache: replies of pure methods, reused for byte-identical requests. */
#ifndef SHOUTAN_CACHE_H
#define SHOUTAN_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A request line that opens with {"jsonrpc":"2.0","id":ID, (whitespace allowed between the
 * tokens; ID an integer or a plain ASCII string) splits into its id and its key: every byte
 * after that comma.  Two requests with the same key ask the same question, so a reusable reply
 * to one (rpc_handle's *reusable) answers the other once the id is put back in.  Requests in
 * any other form are simply never served from the cache.
 */
struct cache_split {
	size_t id_off, id_len; /* the id's token, as written */
	size_t key_off;        /* the key: line[key_off..len) */
	uint64_t key_hash;     /* the key's hash: a request missed is hashed once, not again when
	                        * its reply is stored */
};

bool cache_split(const char *line, size_t len, struct cache_split *out);

struct reply_cache;

/* A cache holding at most about `budget` bytes of keys and replies (two generations of half
 * that each: the older is dropped whole when the newer fills).  budget 0: a cache that holds
 * nothing.  NULL when out of memory. */
struct reply_cache *cache_new(size_t budget);
void cache_free(struct reply_cache *c);

/* Every function below also takes NULL: a cache that holds nothing. */

/* The reply to `line` (malloc'd, '\n'-terminated; *is_error: it is an error response) when an
 * earlier request with the same key was answered reusably; else NULL. */
char *cache_lookup(struct reply_cache *c, const char *line, size_t len,
    const struct cache_split *split, bool *is_error);
/* The same, without a copy: the reply is the prefix (cache_reply_prefix), the request's id,
 * a comma, then the returned suffix (suffix_len bytes, '\n' included), which stays valid until
 * the next cache_store. */
const char *cache_find(struct reply_cache *c, const char *line, size_t len,
    const struct cache_split *split, size_t *suffix_len, bool *is_error);
/* What every reply opens with, before the id: {"jsonrpc":"2.0","id": */
const char *cache_reply_prefix(size_t *len);
/* Remembers `reply` to `line`.  Kept only when the reply opens with the same prefix and id as
 * the request, so that putting another id in its place gives exactly the daemon's answer. */
void cache_store(struct reply_cache *c, const char *line, size_t len,
    const struct cache_split *split, const char *reply, size_t reply_len);

/* Lookups answered, for the status method. */
unsigned long cache_hits(const struct reply_cache *c);

#endif
