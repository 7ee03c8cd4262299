/*
 * libFuzzer harness for the daemon's request path: one request line through the parent's byte
 * readers (the cache key split, the heavy-request triage) and the JSON-RPC handler, checking
 * that the reply cache can never answer with anything but what a worker would have said, and
 * that reading the move list straight from the text answers as reading it into jansson does:
 * the same game, or the same error.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cache.h"
#include "fuzz_context.h"
#include "rpc.h"
#include "triage.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A reply line: '\n' last and nowhere else, a JSON-RPC 2.0 response object. */
static void
check_reply(const char *reply)
{
	size_t n = strlen(reply);
	json_t *j, *version;

	if (n == 0 || reply[n - 1] != '\n' || memchr(reply, '\n', n - 1) != NULL)
		abort();
	j = json_loadb(reply, n - 1, 0, NULL);
	version = json_object_get(j, "jsonrpc");
	if (j == NULL || !json_is_string(version) || strcmp(json_string_value(version), "2.0") != 0 ||
	    (json_object_get(j, "result") == NULL) == (json_object_get(j, "error") == NULL))
		abort();
	json_decref(j);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *line = (const char *)data;
	struct reply_cache *cache;
	struct cache_split split;
	char *reply, *other_line, *other_reply, *cached;
	bool is_error, reusable, other_error, other_reusable, cached_error;
	size_t other_len;

	/* The parent splits its input at '\n': a line never holds one. */
	if (memchr(data, '\n', size) != NULL)
		return 0;
	(void)triage_heavy(line, size);
	reply = rpc_handle(fuzz_context(), line, size, &is_error, &reusable);
	if (reply != NULL)
		check_reply(reply);
	{
		bool jansson_error, jansson_reusable;
		char *jansson = rpc_handle_jansson(fuzz_context(), line, size, &jansson_error,
		    &jansson_reusable);

		if ((reply == NULL) != (jansson == NULL) || (reply != NULL &&
		    strcmp(reply, jansson) != 0) || is_error != jansson_error ||
		    reusable != jansson_reusable) {
			fprintf(stderr, "read directly\n%s\nread into jansson\n%s\n",
			    reply ? reply : "(nothing)", jansson ? jansson : "(nothing)");
			abort();
		}
		free(jansson);
	}
	if (reply == NULL || !reusable || !cache_split(line, size, &split)) {
		free(reply);
		return 0;
	}
	if (split.id_off + split.id_len > size || split.key_off > size)
		abort();
	/* The same request under another id: what the worker says to it must be what the cache,
	 * having kept the first reply, says. */
	other_len = split.id_off + 6 + (size - split.id_off - split.id_len);
	other_line = malloc(other_len + 1);
	if (other_line == NULL)
		abort();
	memcpy(other_line, line, split.id_off);
	memcpy(other_line + split.id_off, "424242", 6);
	memcpy(other_line + split.id_off + 6, line + split.id_off + split.id_len,
	    size - split.id_off - split.id_len);
	other_line[other_len] = '\0';
	cache = cache_new(1 << 20);
	if (cache == NULL)
		abort();
	cache_store(cache, line, size, &split, reply, strlen(reply));
	{
		struct cache_split other_split;

		if (!cache_split(other_line, other_len, &other_split))
			abort(); /* a numeric id in place of a valid one still splits */
		cached = cache_lookup(cache, other_line, other_len, &other_split, &cached_error);
	}
	if (cached != NULL) {
		other_reply = rpc_handle(fuzz_context(), other_line, other_len, &other_error,
		    &other_reusable);
		if (other_reply == NULL || strcmp(cached, other_reply) != 0 ||
		    cached_error != other_error) {
			fprintf(stderr, "cache answered\n%s\nthe worker\n%s\n", cached,
			    other_reply ? other_reply : "(nothing)");
			abort();
		}
		free(other_reply);
	}
	free(cached);
	cache_free(cache);
	free(other_line);
	free(reply);
	return 0;
}
