/* Decoding SGF bytes to UTF-8: byte-order marks, the CA property, and detection, through iconv. */
#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "charset.h"

bool
sht_utf8_valid(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	while (i < len) {
		unsigned char c = s[i];
		size_t n;
		uint32_t cp;

		if (c < 0x80) {
			uint64_t w;

			/* Runs of ASCII, which is almost all of an SGF file, eight bytes at a time. */
			i++;
			while (i + 8 <= len) {
				memcpy(&w, s + i, 8);
				if (w & UINT64_C(0x8080808080808080))
					break;
				i += 8;
			}
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf) { n = 1; cp = c & 0x1f; }
		else if (c >= 0xe0 && c <= 0xef) { n = 2; cp = c & 0x0f; }
		else if (c >= 0xf0 && c <= 0xf4) { n = 3; cp = c & 0x07; }
		else return false;
		for (size_t k = 1; k <= n; k++) {
			if (i + k >= len || (s[i + k] & 0xc0) != 0x80)
				return false;
			cp = (cp << 6) | (s[i + k] & 0x3f);
		}
		/* Overlong forms, surrogates and code points past U+10FFFF. */
		if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10ffff)) ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return false;
		i += n + 1;
	}
	return true;
}

/* Converts with iconv; NULL when the input is not valid in `from`. */
static char *
convert(const char *from, const char *data, size_t len, size_t *out_len)
{
	iconv_t cd = iconv_open("UTF-8", from);
	size_t cap = len * 4 + 16, inleft = len, outleft;
	char *out, *in = (char *)(uintptr_t)data, *o;

	if (cd == (iconv_t)-1)
		return NULL;
	out = malloc(cap);
	if (out == NULL) {
		iconv_close(cd);
		return NULL;
	}
	o = out;
	outleft = cap - 1;
	while (inleft > 0) {
		if (iconv(cd, &in, &inleft, &o, &outleft) == (size_t)-1) {
			if (errno == E2BIG) {
				/* Cannot happen at 4 bytes out per byte in, but stay safe. */
				size_t used = (size_t)(o - out);
				char *bigger = realloc(out, cap * 2);

				if (bigger == NULL)
					break;
				out = bigger;
				o = out + used;
				outleft += cap;
				cap *= 2;
				continue;
			}
			free(out);
			iconv_close(cd);
			return NULL;
		}
	}
	iconv_close(cd);
	*o = '\0';
	*out_len = (size_t)(o - out);
	return out;
}

static char *
copy_bytes(const char *data, size_t len, size_t *out_len)
{
	char *out = malloc(len + 1);

	if (out == NULL)
		return NULL;
	memcpy(out, data, len);
	out[len] = '\0';
	*out_len = len;
	return out;
}

/* Latin-1 maps each byte to one code point, so it never fails: the last resort. */
static char *
from_latin1(const char *data, size_t len, size_t *out_len)
{
	char *out = malloc(len * 2 + 1), *o = out;

	if (out == NULL)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)data[i];

		if (c < 0x80) {
			*o++ = (char)c;
		} else {
			*o++ = (char)(0xc0 | (c >> 6));
			*o++ = (char)(0x80 | (c & 0x3f));
		}
	}
	*o = '\0';
	*out_len = (size_t)(o - out);
	return out;
}

/* The CA value of the first game, found in the raw bytes: property identifiers are ASCII in
 * every encoding SGF files use, so this is safe before decoding. */
static bool
find_declared(const char *data, size_t len, char *name, size_t size)
{
	const char *a;

	/* memchr for the 'A' of "CA[": the letter is rare in a record (moves are lower case), and
	 * memchr skips the bytes between many at a time, where a loop looked at every one. */
	for (size_t from = 1; from + 2 < len &&
	    (a = memchr(data + from, 'A', len - 2 - from)) != NULL; from = (size_t)(a - data) + 1) {
		size_t i = (size_t)(a - data) - 1, j, k = 0;

		if (data[i] != 'C' || data[i + 2] != '[')
			continue;
		if (i > 0 && ((data[i - 1] >= 'A' && data[i - 1] <= 'Z') ||
		    (data[i - 1] >= 'a' && data[i - 1] <= 'z')))
			continue;
		for (j = i + 3; j < len && data[j] != ']' && k + 1 < size; j++)
			if (data[j] != ' ')
				name[k++] = data[j];
		name[k] = '\0';
		return k > 0;
	}
	return false;
}

/* iconv names for the spellings found in SGF files, mapped to supersets where one exists (GBK
 * text labelled GB2312 is common; CP932 and CP949 cover vendor extensions). */
static const char *
iconv_name(const char *declared)
{
	static const struct { const char *alias, *name; } map[] = {
		{ "utf-8", "UTF-8" }, { "utf8", "UTF-8" },
		{ "gb2312", "GB18030" }, { "gbk", "GB18030" }, { "gb18030", "GB18030" },
		{ "euc-cn", "GB18030" }, { "cp936", "GB18030" }, { "gb_2312-80", "GB18030" },
		{ "shift_jis", "CP932" }, { "shift-jis", "CP932" }, { "sjis", "CP932" },
		{ "cp932", "CP932" }, { "windows-31j", "CP932" }, { "ms_kanji", "CP932" },
		{ "euc-kr", "CP949" }, { "cp949", "CP949" }, { "ks_c_5601-1987", "CP949" },
		{ "uhc", "CP949" }, { "big5", "BIG5-HKSCS" }, { "euc-jp", "EUC-JP" },
		{ "iso-8859-1", "WINDOWS-1252" }, { "latin1", "WINDOWS-1252" },
		{ "us-ascii", "WINDOWS-1252" }, { "ascii", "WINDOWS-1252" },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcasecmp(declared, map[i].alias) == 0)
			return map[i].name;
	return declared;
}

static void
set_name(char *encoding, const char *name)
{
	/* memcpy of a bounded length, not strncpy: GCC's -Wstringop-truncation flags strncpy
	 * here in optimised sanitizer builds even though truncation is what is meant. */
	size_t n = strnlen(name, SHT_ENCODING_NAME_MAX - 1);

	memcpy(encoding, name, n);
	encoding[n] = '\0';
}

char *
sht_decode_to_utf8(const char *data, size_t len, bool valid_utf8, size_t *out_len,
    char *encoding, bool *guessed)
{
	const unsigned char *u = (const unsigned char *)data;
	char declared[64];
	char *out;

	*guessed = false;
	if (len >= 3 && u[0] == 0xef && u[1] == 0xbb && u[2] == 0xbf) {
		set_name(encoding, "UTF-8");
		data += 3;
		len -= 3;
		if ((valid_utf8 || sht_utf8_valid(data, len)))
			return copy_bytes(data, len, out_len);
	} else if (len >= 2 && u[0] == 0xff && u[1] == 0xfe) {
		set_name(encoding, "UTF-16LE");
		if ((out = convert("UTF-16LE", data + 2, len - 2, out_len)) != NULL)
			return out;
	} else if (len >= 2 && u[0] == 0xfe && u[1] == 0xff) {
		set_name(encoding, "UTF-16BE");
		if ((out = convert("UTF-16BE", data + 2, len - 2, out_len)) != NULL)
			return out;
	} else if (find_declared(data, len, declared, sizeof(declared))) {
		const char *name = iconv_name(declared);

		if (strcmp(name, "UTF-8") == 0) {
			if ((valid_utf8 || sht_utf8_valid(data, len))) {
				set_name(encoding, "UTF-8");
				return copy_bytes(data, len, out_len);
			}
		} else if ((out = convert(name, data, len, out_len)) != NULL) {
			set_name(encoding, name);
			return out;
		}
	}
	/* Nothing declared, or the declaration was wrong: detect. */
	*guessed = true;
	if ((valid_utf8 || sht_utf8_valid(data, len))) {
		set_name(encoding, "UTF-8");
		return copy_bytes(data, len, out_len);
	}
	if ((out = convert("GB18030", data, len, out_len)) != NULL) {
		set_name(encoding, "GB18030");
		return out;
	}
	set_name(encoding, "ISO-8859-1");
	return from_latin1(data, len, out_len);
}
