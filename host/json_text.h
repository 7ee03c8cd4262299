/* JSON text written straight into a buffer, byte for byte as the daemon's jansson dump writes it. */
#ifndef SHOUTAN_JSON_TEXT_H
#define SHOUTAN_JSON_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include <jansson.h>

/*
 * The flags every reply is dumped with (rpc.c, the command's compact lines); the writers below
 * give exactly what json_dumps gives with them: no spaces, keys in the order written, strings
 * escaped as jansson escapes them, reals with ten significant digits.
 */
#define SHT_JSON_REPLY_FLAGS (JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10))

/* A growing text.  After a failed allocation `failed` is set and writes are ignored. */
struct sht_text {
	char *s;
	size_t len, cap;
	bool failed;
};

/* An empty text with room for about `hint` bytes (allocated on first need when 0). */
void sht_text_init(struct sht_text *t, size_t hint);
void sht_text_free(struct sht_text *t);
/* The text, NUL-terminated, handed to the caller (NULL when an allocation failed); t is
 * empty again. */
char *sht_text_take(struct sht_text *t);

/* What sht_text_bytes and sht_text_char do when the text has no room: grow it, then write. */
void sht_text_bytes_grow(struct sht_text *t, const char *s, size_t n);

/* Inline: a reply is written a few bytes at a time (a vertex, a number), and a call apiece
 * was a fifth of writing it.  A failed text has no room (cap 0), so it takes the call too. */
static inline void
sht_text_bytes(struct sht_text *t, const char *s, size_t n)
{
	if (t->len + n < t->cap) {
		memcpy(t->s + t->len, s, n);
		t->len += n;
	} else {
		sht_text_bytes_grow(t, s, n);
	}
}

/* A string literal, its length known at compile time. */
#define sht_text_lit(t, s) sht_text_bytes((t), "" s, sizeof(s) - 1)

static inline void
sht_text_char(struct sht_text *t, char c)
{
	if (t->len + 1 < t->cap)
		t->s[t->len++] = c;
	else
		sht_text_bytes_grow(t, &c, 1);
}

/* The length of the UTF-8 sequence at s (1 to 4), or 0 when it is not one jansson accepts (a
 * continuation byte first, an overlong form, a surrogate, past U+10FFFF, cut short). */
size_t sht_utf8_sequence(const char *s);
/* Whether s is UTF-8 as jansson checks it (json_string refuses any other text). */
bool sht_json_utf8_valid(const char *s);
/* A JSON string of text that may not be UTF-8 (a file's name is any bytes, a broken record's
 * names may be anything): valid text as it is; otherwise each ASCII byte kept and every other
 * byte written as '?', so that the line it goes into is never lost. NULL only without memory. */
json_t *sht_json_string_lossy(const char *text);
/* s as a JSON string, escaped as jansson escapes it.  When s is not valid UTF-8 nothing is
 * written and false is returned: json_string would have given no value at all. */
bool sht_text_string(struct sht_text *t, const char *s);
void sht_text_int(struct sht_text *t, long long v);
/* A real as jansson dumps it with ten digits ("%.10g", with ".0" added to a whole number). */
void sht_text_real(struct sht_text *t, double v);
/* num / den, den 2, 4 or 100 (half points, quarter zi, hundredths): an integer when it divides,
 * else the real num / (double)den, as sht_text_int and sht_text_real write them. */
void sht_text_ratio(struct sht_text *t, int num, int den);
/* Any jansson value, dumped with SHT_JSON_REPLY_FLAGS; false when jansson cannot dump it. */
bool sht_text_json(struct sht_text *t, const json_t *v);

#endif
