/* Decoding SGF bytes to UTF-8 (private to the library). */
#ifndef SHOUTAN_CHARSET_H
#define SHOUTAN_CHARSET_H

#include <stdbool.h>
#include <stddef.h>

/* True when the bytes are well-formed UTF-8. */
bool sht_utf8_valid(const char *s, size_t len);

#define SHT_ENCODING_NAME_MAX 64

/*
 * Decodes data to UTF-8 into a malloc'd, NUL-terminated buffer.  encoding (SHT_ENCODING_NAME_MAX
 * bytes) receives the name of the encoding used and *guessed whether it came from detection
 * rather than a byte-order mark or the CA property.  valid_utf8 says the caller knows data is
 * well-formed UTF-8 (a JSON string, which its reader checked), so every question
 * sht_utf8_valid would answer is answered yes without reading it: the result is the same.
 * Returns NULL only when memory runs out.
 */
char *sht_decode_to_utf8(const char *data, size_t len, bool valid_utf8, size_t *out_len,
    char *encoding, bool *guessed);

#endif
