/* Text forms of board things: GTP vertices, ASCII diagrams, and the names of enums. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "board_impl.h"

/* GTP column letters: A to Z without I, which gives exactly the 25 columns of the largest board. */
static const char columns[] = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

int
sht_vertex_parse(const struct sht_board *b, const char *text)
{
	const char *col;
	int x, row = 0, digits = 0;

	if (text == NULL)
		return SHT_NO_POINT;
	/* A letter and one or two digits, what a dead list holds, read at once: the same
	 * answer as below, without the string functions (a tenth of counting went there). */
	if ((unsigned)((text[0] | 0x20) - 'a') < 26 && (unsigned)(text[1] - '0') < 10 &&
	    (text[2] == '\0' || ((unsigned)(text[2] - '0') < 10 && text[3] == '\0'))) {
		int letter = (text[0] | 0x20) - 'a';

		row = text[2] == '\0' ? text[1] - '0' : (text[1] - '0') * 10 + (text[2] - '0');
		if (letter == 'i' - 'a' || row < 1 || row > b->h)
			return SHT_NO_POINT;
		return sht_board_point(b, letter > 'i' - 'a' ? letter - 1 : letter, b->h - row);
	}
	while (*text == ' ' || *text == '\t')
		text++;
	if (strncasecmp(text, "pass", 4) == 0 && (text[4] == '\0' || isspace((unsigned char)text[4])))
		return SHT_PASS;
	if (*text == '\0')
		return SHT_NO_POINT;
	col = strchr(columns, toupper((unsigned char)*text));
	if (col == NULL)
		return SHT_NO_POINT;
	x = (int)(col - columns);
	for (text++; isdigit((unsigned char)*text); text++) {
		row = row * 10 + (*text - '0');
		if (++digits > 2)
			return SHT_NO_POINT;
	}
	while (*text == ' ' || *text == '\t' || *text == '\n' || *text == '\r')
		text++;
	if (digits == 0 || *text != '\0' || row < 1 || row > b->h)
		return SHT_NO_POINT;
	return sht_board_point(b, x, b->h - row);
}

char *
sht_vertex_format(const struct sht_board *b, int p, char *buf, size_t len)
{
	int x, y;

	if (p == SHT_PASS)
		snprintf(buf, len, "pass");
	else if (sht_board_xy(b, p, &x, &y))
		snprintf(buf, len, "%c%d", columns[x], b->h - y);
	else
		snprintf(buf, len, "?");
	return buf;
}

const char *
sht_verdict_name(enum sht_verdict v)
{
	switch (v) {
	case SHT_LEGAL: return "ok";
	case SHT_ILLEGAL_OFFBOARD: return "off_board";
	case SHT_ILLEGAL_OCCUPIED: return "occupied";
	case SHT_ILLEGAL_SUICIDE: return "suicide";
	case SHT_ILLEGAL_KO: return "ko";
	case SHT_ILLEGAL_SUPERKO: return "superko";
	case SHT_ILLEGAL_NO_STONES: return "no_stones_left";
	case SHT_ILLEGAL_COLOR: return "bad_color";
	}
	return "unknown";
}

const char *
sht_color_name(enum sht_color c)
{
	switch (c) {
	case SHT_BLACK: return "black";
	case SHT_WHITE: return "white";
	case SHT_EMPTY: return "empty";
	case SHT_OFFBOARD: return "offboard";
	}
	return "unknown";
}

struct sht_board *
sht_board_from_diagram(const char *text, const struct sht_board_options *opt)
{
	struct sht_board_options o;
	struct sht_board *b;
	int w = -1, h = 0, x = 0;
	const char *s;

	/* First pass: the size, and that every row has the same width. */
	for (s = text;; s++) {
		if (*s == '\n' || *s == '\0') {
			if (x > 0) {
				if (w >= 0 && x != w)
					return NULL;
				w = x;
				h++;
			}
			x = 0;
			if (*s == '\0')
				break;
		} else if (strchr("XxOo.+", *s) != NULL) {
			x++;
		} else if (*s != ' ' && *s != '\t' && *s != '\r') {
			return NULL;
		}
	}
	if (w < 0)
		return NULL;
	if (opt != NULL)
		o = *opt;
	else
		sht_board_options_init(&o, w, h);
	o.width = w;
	o.height = h;
	b = sht_board_new(&o);
	if (b == NULL)
		return NULL;
	x = 0;
	h = 0;
	for (s = text; *s != '\0'; s++) {
		if (*s == '\n') {
			if (x > 0)
				h++;
			x = 0;
		} else if (*s == 'X' || *s == 'x' || *s == 'O' || *s == 'o') {
			b->color[sht_board_point(b, x++, h)] =
			    (*s == 'X' || *s == 'x') ? SHT_BLACK : SHT_WHITE;
		} else if (*s == '.' || *s == '+') {
			x++;
		}
	}
	/* One rebuild for the whole diagram instead of one per stone. */
	sht_board_rebuild(b);
	return b;
}

size_t
sht_board_to_diagram(const struct sht_board *b, char *buf, size_t len)
{
	size_t need = (size_t)(b->w + 1) * (size_t)b->h;
	size_t i = 0;

	for (int y = 0; y < b->h; y++) {
		for (int x = 0; x < b->w; x++) {
			int c = b->color[sht_board_point(b, x, y)];

			if (i + 1 < len)
				buf[i] = c == SHT_BLACK ? 'X' : c == SHT_WHITE ? 'O' : '.';
			i++;
		}
		if (i + 1 < len)
			buf[i] = '\n';
		i++;
	}
	if (len > 0)
		buf[i < len ? i : len - 1] = '\0';
	return need;
}
