/* Unit tests of the reply writer (host/json_text.c, sht_text_score): jansson's bytes, exactly. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "host.h"
#include "json_text.h"
#include "render.h"
#include "rpc.h"

static const char *plugins_dir, *rulesets_dir, *replies_file;

static uint64_t rng = 0x9E3779B97F4A7C15u;

static uint32_t
next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

/* s written by sht_text_string and by jansson (json_string, then json_dumps): the same bytes,
 * or no value from either. */
static void
check_string(const char *s)
{
	json_t *v = json_string(s);
	struct sht_text t;
	bool ok;

	sht_text_init(&t, 0);
	sht_text_lit(&t, "[");
	ok = sht_text_string(&t, s);
	assert_int_equal(ok, v != NULL);
	assert_int_equal(sht_json_utf8_valid(s), v != NULL);
	if (v != NULL) {
		char *want = json_dumps(v, SHT_JSON_REPLY_FLAGS | JSON_ENCODE_ANY), *got;

		sht_text_lit(&t, "]");
		got = sht_text_take(&t);
		assert_non_null(want);
		assert_non_null(got);
		assert_int_equal(got[0], '[');
		got[strlen(got) - 1] = '\0';
		assert_string_equal(got + 1, want);
		free(want);
		free(got);
	} else {
		/* Nothing is written for a string jansson refuses: the text is as it was. */
		assert_int_equal(t.len, 1);
		sht_text_free(&t);
	}
	json_decref(v);
}

/* UTF-8 of codepoint c, without checking it is one (surrogates and overlong forms are wanted). */
static size_t
put_codepoint(char *out, uint32_t c)
{
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xC0 | c >> 6);
		out[1] = (char)(0x80 | (c & 0x3F));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xE0 | c >> 12);
		out[1] = (char)(0x80 | ((c >> 6) & 0x3F));
		out[2] = (char)(0x80 | (c & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | c >> 18);
	out[1] = (char)(0x80 | ((c >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((c >> 6) & 0x3F));
	out[3] = (char)(0x80 | (c & 0x3F));
	return 4;
}

static void
test_strings_are_escaped_as_jansson_escapes_them(void **state)
{
	char s[64];

	(void)state;
	check_string("");
	check_string("plain text, with / and ~ and \x7f");
	check_string("\"quoted\" \\ back\\slash \b\f\n\r\t \x01\x1f end");
	check_string("黑胜2¼子 黒6目半勝ち 흑 6집반 승 \xF0\x9F\x80\x84");
	/* Every string of one and two bytes, valid or not. */
	for (int a = 1; a < 256; a++) {
		s[0] = (char)a;
		s[1] = '\0';
		check_string(s);
		for (int b = 1; b < 256; b++) {
			s[1] = (char)b;
			s[2] = '\0';
			check_string(s);
		}
	}
	/* Three and four bytes from every lead byte, with continuation bytes at their edges and
	 * beyond (overlong forms, surrogates, above U+10FFFF, truncated sequences). */
	static const int edge[] = { 0x01, 0x22, 0x41, 0x5C, 0x7F, 0x80, 0x81, 0x8F, 0x90, 0x9F,
		0xA0, 0xBF, 0xC0, 0xC2, 0xE0, 0xF0, 0xF4, 0xF5, 0xFF };
	const int nedge = (int)(sizeof(edge) / sizeof(edge[0]));

	for (int a = 0xC0; a < 256; a++)
		for (int b = 0; b < nedge; b++)
			for (int c = 0; c < nedge; c++) {
				s[0] = (char)a;
				s[1] = (char)edge[b];
				s[2] = (char)edge[c];
				s[3] = '\0';
				check_string(s);
				for (int d = 0; d < nedge; d++) {
					s[3] = (char)edge[d];
					s[4] = '\0';
					check_string(s);
				}
			}
	/* Random codepoints of every length, surrogates and out-of-range values among them, and
	 * random bytes. */
	for (int i = 0; i < 200000; i++) {
		size_t n = 0;
		int count = 1 + (int)(next_random() % 6);

		for (int k = 0; k < count; k++) {
			uint32_t r = next_random(), c;

			switch (r % 5) {
			case 0: c = 1 + (r >> 3) % 0x7F; break;
			case 1: c = 0x80 + (r >> 3) % 0x780; break;
			case 2: c = 0x800 + (r >> 3) % 0xF800; break;
			case 3: c = 0x10000 + (r >> 3) % 0x100100; break;
			default: c = 0xD700 + (r >> 3) % 0x900; break;
			}
			n += put_codepoint(s + n, c);
		}
		if (next_random() % 4 == 0)
			s[next_random() % n] = (char)(1 + next_random() % 255);
		s[n] = '\0';
		check_string(s);
	}
}

/* A jansson value and the writer's bytes for it side by side. */
static void
check_dump(json_t *v, const struct sht_text *t)
{
	char *want = json_dumps(v, SHT_JSON_REPLY_FLAGS | JSON_ENCODE_ANY);

	assert_non_null(want);
	assert_int_equal(t->len, strlen(want));
	assert_memory_equal(t->s, want, t->len);
	free(want);
	json_decref(v);
}

static void
check_ratio(int num, int den)
{
	struct sht_text t;

	sht_text_init(&t, 0);
	sht_text_ratio(&t, num, den);
	/* The values the jansson forms were built from: an integer when it divides. */
	check_dump(num % den == 0 ? json_integer(num / den) : json_real((double)num / den), &t);
	sht_text_free(&t);
}

static void
test_numbers_are_written_as_jansson_dumps_them(void **state)
{
	static const long long ints[] = { 0, 1, -1, 9, 10, -10, 99, 100, 12345, -98765,
		INT_MAX, INT_MIN, LLONG_MAX, LLONG_MIN, LLONG_MIN + 1 };
	static const double reals[] = { 0.0, -0.0, 0.5, -0.5, 7.5, 100.0, 1e10, 1e16, 1e17, 1e20,
		1e-5, 1e-7, 0.1, 1.0 / 3, 123456789012.0, 5e-324, 1e300, -2.5e-300, 0.0001 };
	static const int dens[] = { 2, 4, 100 };
	struct sht_text t;

	(void)state;
	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
		sht_text_init(&t, 0);
		sht_text_int(&t, ints[i]);
		check_dump(json_integer(ints[i]), &t);
		sht_text_free(&t);
	}
	for (size_t i = 0; i < sizeof(reals) / sizeof(reals[0]); i++) {
		sht_text_init(&t, 0);
		sht_text_real(&t, reals[i]);
		check_dump(json_real(reals[i]), &t);
		sht_text_free(&t);
	}
	for (int i = 0; i < 100000; i++) {
		union { uint64_t u; double d; } r;

		r.u = (uint64_t)next_random() << 32 | next_random();
		if (r.d != r.d || r.d - r.d != 0)
			continue; /* NaN and infinities: jansson has no JSON for them */
		sht_text_init(&t, 0);
		sht_text_real(&t, r.d);
		check_dump(json_real(r.d), &t);
		sht_text_free(&t);
	}
	for (size_t k = 0; k < sizeof(dens) / sizeof(dens[0]); k++) {
		for (int num = -30000; num <= 30000; num++)
			check_ratio(num, dens[k]);
		for (int i = 0; i < 20000; i++)
			check_ratio((int)(next_random() >> 1) - (int)(next_random() >> 1), dens[k]);
		check_ratio(INT_MAX, dens[k]);
		check_ratio(INT_MIN, dens[k]);
		check_ratio(INT_MIN + 1, dens[k]);
	}
}

static void
test_vertices_are_sht_vertex_format(void **state)
{
	(void)state;
	for (int w = SHT_MIN_SIZE; w <= SHT_MAX_SIZE; w++)
		for (int h = SHT_MIN_SIZE; h <= SHT_MAX_SIZE; h += w == h ? 1 : SHT_MAX_SIZE) {
			struct sht_board_options o = { .width = w, .height = h };
			struct sht_board *b = sht_board_new(&o);

			assert_non_null(b);
			for (int p = 0; p < sht_board_capacity(b); p++) {
				struct sht_text t;
				char v[8];
				json_t *s;

				sht_text_init(&t, 0);
				sht_text_vertex(&t, b, p);
				s = json_string(sht_vertex_format(b, p, v, sizeof(v)));
				check_dump(s, &t);
				sht_text_free(&t);
			}
			sht_board_free(b);
		}
}

/* The reply lines of tests/data/protocol/reply-bytes.txt, through rpc_handle: byte for byte. */
static void
test_replies_are_the_bytes_jansson_wrote(void **state)
{
	struct sht_context ctx = { 0 };
	char err[SHT_ERR_MAX], *line = NULL, *request = NULL;
	struct sht_registry *reg = sht_registry_load(plugins_dir, rulesets_dir, err, sizeof(err));
	size_t cap = 0;
	ssize_t n;
	int checked = 0;
	FILE *f = fopen(replies_file, "r");

	(void)state;
	assert_non_null(f);
	assert_non_null(reg);
	ctx.registry = reg;
	while ((n = getline(&line, &cap, f)) > 0) {
		line[n - 1] = line[n - 1] == '\n' ? '\0' : line[n - 1];
		if (strncmp(line, "→ ", strlen("→ ")) == 0) {
			free(request);
			request = strdup(line + strlen("→ "));
		} else if (strncmp(line, "← ", strlen("← ")) == 0) {
			const char *want = line + strlen("← ");
			bool is_error, reusable;
			char *got;
			json_t *req, *result;

			assert_non_null(request);
			got = rpc_handle(&ctx, request, strlen(request), &is_error, &reusable);
			assert_non_null(got);
			assert_int_equal(got[strlen(got) - 1], '\n');
			got[strlen(got) - 1] = '\0';
			assert_string_equal(got, want);
			free(got);
			/* The in-process call (the command's --json) gives the same result object. */
			req = json_loads(request, 0, NULL);
			result = req ? sht_method_call(&ctx, json_string_value(json_object_get(req,
			    "method")), json_object_get(req, "params"), &is_error, &(struct sht_error){ 0 })
			    : NULL;
			if (result != NULL) {
				json_t *reply = json_pack("{s:s, s:O, s:o}", "jsonrpc", "2.0", "id",
				    json_object_get(req, "id"), "result", result);
				char *text = json_dumps(reply, SHT_JSON_REPLY_FLAGS);

				assert_string_equal(text, want);
				free(text);
				json_decref(reply);
			}
			json_decref(req);
			checked++;
		}
	}
	assert_true(checked >= 5);
	free(line);
	free(request);
	fclose(f);
	sht_registry_free(reg);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strings_are_escaped_as_jansson_escapes_them),
		cmocka_unit_test(test_numbers_are_written_as_jansson_dumps_them),
		cmocka_unit_test(test_vertices_are_sht_vertex_format),
		cmocka_unit_test(test_replies_are_the_bytes_jansson_wrote),
	};

	if (argc < 4) {
		fprintf(stderr, "usage: %s PLUGINS_DIR RULESETS_DIR REPLY_BYTES_FILE\n", argv[0]);
		return 2;
	}
	plugins_dir = argv[1];
	rulesets_dir = argv[2];
	replies_file = argv[3];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
