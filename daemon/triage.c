/* Sorting requests by expected cost before they reach a worker, from their bytes and the rulesets
 * whose own dead is none. */
#define _GNU_SOURCE /* memmem */
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "host.h"
#include "triage.h"

/* The rulesets whose own `dead` is none: their names, each ended by a newline. */
static char *light_names;
static size_t light_names_len;

bool
triage_set_light_rulesets(const char *names, size_t len)
{
	char *copy = NULL;

	/* Up to the last newline: a name cut off is not the ruleset named. */
	while (len > 0 && names[len - 1] != '\n')
		len--;
	if (len > 0 && (copy = malloc(len)) == NULL)
		return false;
	if (len > 0)
		memcpy(copy, names, len);
	free(light_names);
	light_names = copy;
	light_names_len = len;
	return true;
}

static bool
light_ruleset(const char *name, size_t n)
{
	const char *p = light_names, *end, *eol;

	/* No list yet (before the first ruleset check): no pointer arithmetic on NULL. */
	if (light_names == NULL)
		return false;
	for (end = light_names + light_names_len; p < end; p = eol + 1) {
		eol = memchr(p, '\n', (size_t)(end - p));
		if ((size_t)(eol - p) == n && memcmp(p, name, n) == 0)
			return true;
	}
	return false;
}

static const char *
skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		p++;
	return p;
}

/*
 * Where the quoted key ("\"dead\"") first occurs in [p, end), or NULL: what memmem finds.  A
 * request is mostly one long SGF string, where quotes are rare, or a move list, where they are
 * dense but never followed by a lower-case letter; so the search looks 16 bytes at a time for
 * a quote followed by the key's first letter and compares only there.  glibc's memmem, at
 * about 1.5 instructions a byte, was a fifth of the parent's instructions for each never-seen
 * score request (the search for "dead" passes its whole SGF).
 */
static const char *
find_quoted(const char *p, const char *end, const char *key, size_t klen)
{
#if defined(__SSE2__)
	const __m128i quote = _mm_set1_epi8('"'), letter = _mm_set1_epi8(key[1]);

	/* Each block reads 17 bytes: 16 places a key may start, and the byte after the last. */
	while (end - p >= 17) {
		__m128i here = _mm_loadu_si128((const __m128i *)(const void *)p);
		__m128i next = _mm_loadu_si128((const __m128i *)(const void *)(p + 1));
		unsigned starts = (unsigned)_mm_movemask_epi8(_mm_and_si128(
		    _mm_cmpeq_epi8(here, quote), _mm_cmpeq_epi8(next, letter)));

		for (; starts != 0; starts &= starts - 1) {
			const char *at = p + __builtin_ctz(starts);

			if ((size_t)(end - at) >= klen && memcmp(at, key, klen) == 0)
				return at;
		}
		p += 16;
	}
#endif
	return memmem(p, (size_t)(end - p), key, klen);
}

/*
 * The value of the first member named by quoted_key ("\"dead\""), past its blanks, or NULL.
 * The quoted key cannot occur inside a JSON string, where quotes are escaped; a string value
 * equal to it is not followed by a colon.
 */
static const char *
member(const char *line, const char *end, const char *quoted_key)
{
	size_t klen = strlen(quoted_key);
	const char *p = line;

	while ((p = find_quoted(p, end, quoted_key, klen)) != NULL) {
		p = skip_blanks(p + klen, end);
		if (p < end && *p == ':')
			return skip_blanks(p + 1, end);
	}
	return NULL;
}

/* The string at p, without its quotes, when it has no escapes (names never need any). */
static bool
plain_string(const char *p, const char *end, const char **s, size_t *n)
{
	const char *q;

	if (p >= end || *p != '"')
		return false;
	for (q = p + 1; q < end && *q != '"' && *q != '\\'; q++)
		;
	if (q >= end || *q != '"')
		return false;
	*s = p + 1;
	*n = (size_t)(q - p - 1);
	return true;
}

/* The method's entry, from the request's "method" member. */
static const struct sht_method_entry *
method_of(const char *line, const char *end)
{
	const char *p = member(line, end, "\"method\""), *name;
	char buf[64];
	size_t n;

	if (p == NULL || !plain_string(p, end, &name, &n) || n >= sizeof(buf))
		return NULL;
	memcpy(buf, name, n);
	buf[n] = '\0';
	return sht_method_find(buf);
}

/* Whether every ruleset the list at p names (["a", "b"]) is one whose own dead is none. */
static bool
all_light(const char *p, const char *end)
{
	const char *name;
	size_t n;

	if (p >= end || *p != '[')
		return false;
	for (p = skip_blanks(p + 1, end); p < end && *p != ']'; p = skip_blanks(p, end)) {
		if (!plain_string(p, end, &name, &n) || !light_ruleset(name, n))
			return false;
		p = skip_blanks(name + n + 1, end);
		if (p < end && *p == ',')
			p++;
	}
	return p < end;
}

bool
triage_heavy(const char *line, size_t len)
{
	const char *end = line + len, *p, *s;
	const struct sht_method_entry *e = method_of(line, end);
	size_t n;

	if (e == NULL || e->cost == SHT_COST_LIGHT)
		return false;
	if ((p = member(line, end, "\"dead\"")) != NULL) {
		if (p < end && *p == '[')
			return false;
		return !(plain_string(p, end, &s, &n) && n == 4 && memcmp(s, "none", 4) == 0);
	}
	/* No "dead": the ruleset's own default applies. */
	if ((p = member(line, end, "\"ruleset\"")) != NULL)
		return !(plain_string(p, end, &s, &n) && light_ruleset(s, n));
	if ((p = member(line, end, "\"rulesets\"")) != NULL)
		return !all_light(p, end);
	/* The record's RU (or its server, PC) or chinese decides, or (compare) every ruleset:
	 * probably auto. */
	return true;
}
