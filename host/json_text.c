/*
 * JSON text written straight from the judge's results into a buffer, so a reply costs no jansson
 * values and no dump.  The bytes are jansson's (tests/test_json_text.c compares them): writing
 * JSON is simple, but a reply must stay the same byte for byte, cache keys and clients included.
 */
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_text.h"

void
sht_text_init(struct sht_text *t, size_t hint)
{
	t->len = 0;
	t->failed = false;
	t->cap = hint;
	t->s = hint > 0 ? malloc(hint) : NULL;
	if (hint > 0 && t->s == NULL) {
		t->cap = 0;
		t->failed = true;
	}
}

void
sht_text_free(struct sht_text *t)
{
	free(t->s);
	t->s = NULL;
	t->len = t->cap = 0;
}

/* Room for n more bytes and a NUL; false (and `failed`) when there is none. */
static bool
reserve(struct sht_text *t, size_t n)
{
	size_t cap;
	char *s;

	if (t->failed)
		return false;
	if (t->len + n + 1 <= t->cap)
		return true;
	cap = t->cap < 256 ? 256 : t->cap;
	while (cap < t->len + n + 1)
		cap *= 2;
	if ((s = realloc(t->s, cap)) == NULL) {
		/* No room from now on: the inline writers (json_text.h) then call here. */
		t->failed = true;
		t->cap = 0;
		return false;
	}
	t->s = s;
	t->cap = cap;
	return true;
}

char *
sht_text_take(struct sht_text *t)
{
	char *s = NULL;

	if (!t->failed && reserve(t, 0)) {
		t->s[t->len] = '\0';
		s = t->s;
		t->s = NULL;
	}
	sht_text_free(t);
	t->failed = false;
	return s;
}

void
sht_text_bytes_grow(struct sht_text *t, const char *s, size_t n)
{
	if (reserve(t, n)) {
		memcpy(t->s + t->len, s, n);
		t->len += n;
	}
}

/*
 * The length of the UTF-8 sequence at s (1 to 4), or 0 when it is not one jansson accepts:
 * no continuation byte first, no overlong form, no surrogate, nothing above U+10FFFF.
 */
size_t
sht_utf8_sequence(const char *text)
{
	const unsigned char *s = (const unsigned char *)text;
	unsigned c = s[0];
	uint32_t v;
	size_t n;

	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		n = 2, v = c & 0x1F;
	else if (c >= 0xE0 && c <= 0xEF)
		n = 3, v = c & 0x0F;
	else if (c >= 0xF0 && c <= 0xF4)
		n = 4, v = c & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if (s[i] < 0x80 || s[i] > 0xBF)
			return 0; /* also the NUL that ends a truncated sequence */
		v = (v << 6) | (s[i] & 0x3F);
	}
	if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF) || (n == 3 && v < 0x800) ||
	    (n == 4 && v < 0x10000))
		return 0;
	return n;
}

bool
sht_json_utf8_valid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p != '\0') {
		size_t n = sht_utf8_sequence((const char *)p);

		if (n == 0)
			return false;
		p += n;
	}
	return true;
}

bool
sht_text_string(struct sht_text *t, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p = (const unsigned char *)s;
	size_t start = t->len;

	sht_text_char(t, '"');
	while (*p != '\0') {
		const unsigned char *run = p;
		size_t n;

		/* The bytes written as they are: printable ASCII and whole UTF-8 sequences. */
		while (*p >= 0x20 && *p != '"' && *p != '\\') {
			if (*p < 0x80) {
				p++;
			} else if ((n = sht_utf8_sequence((const char *)p)) != 0) {
				p += n;
			} else {
				t->len = start; /* json_string gives no value: nothing is written */
				return false;
			}
		}
		sht_text_bytes(t, (const char *)run, (size_t)(p - run));
		if (*p == '\0')
			break;
		/* jansson's escapes: the two it must, short forms for five controls, \u00XX else. */
		switch (*p) {
		case '"': sht_text_lit(t, "\\\""); break;
		case '\\': sht_text_lit(t, "\\\\"); break;
		case '\b': sht_text_lit(t, "\\b"); break;
		case '\f': sht_text_lit(t, "\\f"); break;
		case '\n': sht_text_lit(t, "\\n"); break;
		case '\r': sht_text_lit(t, "\\r"); break;
		case '\t': sht_text_lit(t, "\\t"); break;
		default: {
			char u[6] = { '\\', 'u', '0', '0', hex[*p >> 4], hex[*p & 15] };

			sht_text_bytes(t, u, sizeof(u));
		}
		}
		p++;
	}
	sht_text_char(t, '"');
	return true;
}

void
sht_text_int(struct sht_text *t, long long v)
{
	char buf[24], *e = buf + sizeof(buf), *d = e;
	/* The magnitude as unsigned, so that LLONG_MIN has one too. */
	unsigned long long m = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;

	do {
		*--d = (char)('0' + m % 10);
		m /= 10;
	} while (m != 0);
	if (v < 0)
		*--d = '-';
	sht_text_bytes(t, d, (size_t)(e - d));
}

void
sht_text_real(struct sht_text *t, double v)
{
	char buf[40], *e, *from, *to, *point;
	int n = snprintf(buf, sizeof(buf), "%.10g", v);

	if (n < 0 || (size_t)n + 3 > sizeof(buf))
		return;
	/* jansson's form of what printf gives: a '.' whatever the locale, a dot or an exponent
	 * in every real ("100" is "100.0"), and an exponent without '+' or leading zeros ("1e+20"
	 * is "1e20", "1e-07" is "1e-7"). */
	if ((point = strchr(buf, *localeconv()->decimal_point)) != NULL)
		*point = '.';
	if (strchr(buf, '.') == NULL && strchr(buf, 'e') == NULL) {
		memcpy(buf + n, ".0", 3);
		n += 2;
	}
	if ((e = strchr(buf, 'e')) != NULL) {
		to = e + 1;
		from = to + 1; /* past the sign printf always writes */
		if (*to == '-')
			to++;
		while (*from == '0')
			from++;
		memmove(to, from, strlen(from) + 1);
		n = (int)strlen(buf);
	}
	sht_text_bytes(t, buf, (size_t)n);
}

void
sht_text_ratio(struct sht_text *t, int num, int den)
{
	/* Fractions of ten digits or fewer are exact decimals ("%.10g" prints them whole): written
	 * without printf.  Anything longer goes through sht_text_real. */
	int digits = den == 2 ? 1 : 2;
	long long mag = num < 0 ? -(long long)num : num, whole = mag / den, frac = mag % den;
	char f[2];
	int nf = 0;

	if (frac == 0) {
		sht_text_int(t, num / den);
		return;
	}
	if (whole >= 10000000) {
		sht_text_real(t, (double)num / den);
		return;
	}
	/* The fraction in hundredths (or tenths for halves), trailing zeros dropped. */
	frac = den == 2 ? frac * 5 : den == 4 ? frac * 25 : frac;
	f[0] = (char)('0' + frac / (digits == 1 ? 1 : 10));
	if (digits == 2) {
		f[1] = (char)('0' + frac % 10);
		nf = f[1] == '0' ? 1 : 2;
	} else {
		nf = 1;
	}
	if (num < 0)
		sht_text_char(t, '-');
	sht_text_int(t, whole);
	sht_text_char(t, '.');
	sht_text_bytes(t, f, (size_t)nf);
}

static int
append_dump(const char *buffer, size_t size, void *data)
{
	struct sht_text *t = data;

	sht_text_bytes(t, buffer, size);
	return t->failed ? -1 : 0;
}

bool
sht_text_json(struct sht_text *t, const json_t *v)
{
	return json_dump_callback(v, append_dump, t, SHT_JSON_REPLY_FLAGS | JSON_ENCODE_ANY) == 0;
}

json_t *
sht_json_string_lossy(const char *text)
{
	json_t *s = json_string(text);
	char *copy;

	if (s != NULL || (copy = strdup(text)) == NULL)
		return s;
	for (char *p = copy; *p != '\0'; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	s = json_string(copy);
	free(copy);
	return s;
}
