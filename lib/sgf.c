/* The SGF reader: decoding, an iterative parser that survives hostile files, and game extraction. */
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "charset.h"
#include "shoutan/board.h"
#include "shoutan/sgf.h"

/* ---- a bump allocator: one collection's nodes, properties and values live and die together */

struct chunk {
	struct chunk *next;
	max_align_t data[];
};

struct arena {
	struct chunk *head;
	char *cur;       /* the free part of the newest chunk: left bytes from cur */
	size_t left;
	char *text;      /* the decoded text */
};

/* Everything the parser allocates holds pointers and sizes at most, so 8-byte alignment. */
#define ARENA_ALIGN 8

static void *
arena_grow(struct arena *a, size_t n)
{
	size_t size = n > 65536 ? n : 65536;
	struct chunk *c = malloc(sizeof(*c) + size);

	if (c == NULL)
		return NULL;
	c->next = a->head;
	a->head = c;
	a->cur = (char *)c->data + n;
	a->left = size - n;
	return c->data;
}

/* Inline, since the parser allocates a few times per node: a bump in the newest chunk. */
static inline void *
arena_alloc(struct arena *a, size_t n)
{
	char *r = a->cur;

	n = (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	if (a->left >= n) {
		a->cur = r + n;
		a->left -= n;
		return r;
	}
	return arena_grow(a, n);
}

static void
arena_free(struct arena *a)
{
	while (a->head != NULL) {
		struct chunk *next = a->head->next;

		free(a->head);
		a->head = next;
	}
	free(a->text);
	free(a);
}

/* ---- parser ---- */

struct value_buf {
	const char **v;
	int cap;
};

struct prop_buf {
	struct sht_sgf_prop *p;
	int n, cap;
};

/* A node as the parser builds it: the public node, and its last child, so that appending a
 * variation does not walk the ones before it (80,000 siblings took 54 s when it did). */
struct parse_node {
	struct sht_sgf_node node; /* first: a parse_node's address is its node's */
	struct sht_sgf_node *last_child;
};

struct open_tree {
	struct parse_node *attach;   /* the node the variation hangs from; NULL for a new game */
	size_t offset;               /* of its '(' */
};

struct parser {
	const char *s;
	/* A copy of the text that values and identifiers are written into where they stand: a
	 * value or an identifier is never longer unescaped than as written, and the ']' or the
	 * byte after an identifier takes its NUL.  One copy of the whole text instead of an
	 * allocation and a copy for each value and identifier (most values are two letters). */
	char *out;
	size_t len, pos;
	struct arena *arena;
	struct sht_sgf_collection *c;
	struct sht_sgf_error *err;
	struct open_tree *stack;
	int depth, stack_cap;
	struct parse_node *cur;    /* the last node of the sequence being read */
	struct sht_sgf_node *open; /* the node taking properties, or NULL */
	struct prop_buf props;
	struct value_buf values;
	int tree_cap;
};

/* Fills err (when there is one) with the position of offset and the message; returns false. */
static bool set_error(const struct sht_sgf_collection *c, struct sht_sgf_error *err,
    size_t offset, const char *fmt, va_list ap) __attribute__((format(printf, 4, 0)));

static bool
set_error(const struct sht_sgf_collection *c, struct sht_sgf_error *err, size_t offset,
    const char *fmt, va_list ap)
{
	if (err != NULL) {
		sht_sgf_position(c, offset, &err->line, &err->column);
		vsnprintf(err->message, sizeof(err->message), fmt, ap);
	}
	return false;
}

static bool fail(struct parser *p, size_t offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static bool
fail(struct parser *p, size_t offset, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_error(p->c, p->err, offset, fmt, ap);
	va_end(ap);
	return false;
}

static void warn(struct parser *p, size_t offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
warn(struct parser *p, size_t offset, const char *fmt, ...)
{
	va_list ap;

	if (p->c->nwarnings < SHT_SGF_MAX_WARNINGS) {
		struct sht_sgf_warning *w = &p->c->warnings[p->c->nwarnings];

		w->offset = offset;
		va_start(ap, fmt);
		vsnprintf(w->message, sizeof(w->message), fmt, ap);
		va_end(ap);
	}
	p->c->nwarnings++;
}

static bool
oom(struct parser *p)
{
	return fail(p, p->pos, "out of memory");
}

/* One subtraction and one comparison each: the parser asks these of nearly every byte. */
static inline bool
is_upper(char ch)
{
	return (unsigned char)(ch - 'A') < 26;
}

static inline bool
is_lower(char ch)
{
	return (unsigned char)(ch - 'a') < 26;
}

static inline bool
is_space(char ch)
{
	return ch == ' ' || (unsigned char)(ch - '\t') < 5; /* \t \n \v \f \r */
}

/* Moves the open node's properties into the arena. */
static inline bool
close_node(struct parser *p)
{
	struct sht_sgf_node *n = p->open;
	struct sht_sgf_prop *props;
	int count = p->props.n;

	if (n == NULL)
		return true;
	p->open = NULL;
	if (count == 0)
		return true;
	props = arena_alloc(p->arena, sizeof(*props) * (size_t)count);
	if (props == NULL)
		return oom(p);
	/* A loop, not memcpy: a node has one property or two, and the call cost more. */
	for (int i = 0; i < count; i++)
		props[i] = p->props.p[i];
	n->props = props;
	n->nprops = count;
	p->props.n = 0;
	return true;
}

/* Inline (as read_value is): a call was a tenth of the parse, once per node and value. */
static inline __attribute__((always_inline)) bool
new_node(struct parser *p, size_t offset)
{
	struct parse_node *pn;
	struct sht_sgf_node *n;

	if (!close_node(p))
		return false;
	pn = arena_alloc(p->arena, sizeof(*pn));
	if (pn == NULL)
		return oom(p);
	*pn = (struct parse_node){ .node.offset = offset };
	n = &pn->node;
	if (p->depth == 0) {
		/* A node outside any "(": read it as the start of a game, as most readers do. */
		if (p->depth == p->stack_cap) {
			int cap = p->stack_cap ? p->stack_cap * 2 : 16;
			struct open_tree *s = realloc(p->stack, sizeof(*s) * (size_t)cap);

			if (s == NULL)
				return oom(p);
			p->stack = s;
			p->stack_cap = cap;
		}
		p->stack[p->depth].attach = NULL;
		p->stack[p->depth].offset = SIZE_MAX; /* implicit: closed by the end of file */
		p->depth++;
		p->cur = NULL;
	}
	if (p->cur == NULL) {
		if (p->c->ntrees == p->tree_cap) {
			int cap = p->tree_cap ? p->tree_cap * 2 : 4;
			struct sht_sgf_node **t = realloc(p->c->trees, sizeof(*t) * (size_t)cap);

			if (t == NULL)
				return oom(p);
			p->c->trees = t;
			p->tree_cap = cap;
		}
		p->c->trees[p->c->ntrees++] = n;
	} else {
		if (p->cur->last_child == NULL)
			p->cur->node.child = n;
		else
			p->cur->last_child->sibling = n;
		p->cur->last_child = n;
		n->parent = &p->cur->node;
	}
	p->cur = pn;
	p->open = n;
	return true;
}

/* Reads the value whose '[' is at *at, unescaped into out where it stands, and moves *at past
 * its ']'; false when the ']' never comes.  The text ends with a NUL (s[len]), which stops every
 * scan below without a bound to test.  Plain arguments rather than the parser, so that the
 * stores into out (a char pointer, which may alias anything) do not make the compiler load the
 * parser's fields again after each. */
static inline __attribute__((always_inline)) bool
read_value(const char *s, char *out, size_t len, size_t *at, const char **value)
{
	size_t start = *at, end = start + 1, pos;
	char *v = out + start + 1, *o;

	/* Most values (a move, a number) hold no escape and no NUL: they are the text as it is,
	 * ended by a NUL over their ']'. */
	while (s[end] != ']' && s[end] != '\\' && s[end] != '\0')
		end++;
	if (s[end] == ']') {
		out[end] = '\0';
		*at = end + 1;
		*value = v;
		return true;
	}
	/* The bytes before the escape or NUL are already in place in out. */
	o = v + (end - start - 1);
	pos = end;
	for (;;) {
		char ch;

		if (pos >= len)
			return false;
		ch = s[pos++];
		if (ch == ']')
			break;
		if (ch == '\0')
			continue; /* values are C strings: a NUL (U+0000) is dropped, not a terminator */
		if (ch == '\\') {
			if (pos >= len)
				return false;
			ch = s[pos++];
			if (ch == '\0')
				continue;
			if (ch == '\n' || ch == '\r') {
				/* A soft line break: escaped newline (\n, \r, \r\n or \n\r) vanishes. */
				if (pos < len && (s[pos] == '\n' || s[pos] == '\r') && s[pos] != ch)
					pos++;
				continue;
			}
		}
		*o++ = ch;
	}
	*o = '\0';
	*at = pos;
	*value = v;
	return true;
}

/* A value with no identifier, read whole so that its text is not taken for structure. */
static bool
skip_value(struct parser *p)
{
	const char *ignored;
	size_t at = p->pos;

	if (!read_value(p->s, p->out, p->len, &at, &ignored))
		return fail(p, p->pos, "property value is not closed: ']' missing");
	p->pos = at;
	return true;
}

static bool
read_property(struct parser *p)
{
	const char *s = p->s;
	size_t start = p->pos, pos = start, idlen = 0;
	char *id = p->out + start;
	struct sht_sgf_prop *prop;
	const char **values;
	int nvalues = 0;

	while (is_upper(s[pos]) || is_lower(s[pos])) {
		/* FF[1]-FF[3] let lower-case letters decorate identifiers; they carry no meaning.
		 * The upper-case ones are gathered where the identifier stands in p->out. */
		if (is_upper(s[pos]))
			id[idlen++] = s[pos];
		pos++;
	}
	if (idlen >= 16) {
		/* No SGF property is this long: read its values and drop it. */
		warn(p, start, "skipped a property with a %zu-letter identifier", idlen);
		idlen = 0;
	}
	while (is_space(s[pos]))
		pos++;
	p->pos = pos;
	if (s[pos] != '[') {
		/* Not a property: stray text inside a game (SGFC skips it too). */
		warn(p, start, "skipped '%.*s', which has no value", (int)(pos - start > 20 ?
		    20 : pos - start), s + start);
		return true;
	}
	/* The byte after the letters is white space or this '[', part of no value. */
	id[idlen] = '\0';
	if (p->open == NULL && !new_node(p, start))
		return false;
	{
		char *out = p->out;
		size_t len = p->len, at = pos;
		const char **vals = p->values.v;
		int cap = p->values.cap;

		while (s[at] == '[') {
			if (nvalues == cap) {
				cap = cap ? cap * 2 : 8;
				vals = realloc(vals, sizeof(*vals) * (size_t)cap);
				if (vals == NULL)
					return oom(p);
				p->values.v = vals;
				p->values.cap = cap;
			}
			if (!read_value(s, out, len, &at, &vals[nvalues]))
				return fail(p, at, "property value is not closed: ']' missing");
			nvalues++;
			while (is_space(s[at]))
				at++;
		}
		p->pos = at;
	}
	if (idlen == 0)
		return true; /* only lower-case letters: not a property FF[4] knows; skip it */
	if (p->props.n == p->props.cap) {
		int cap = p->props.cap ? p->props.cap * 2 : 16;
		struct sht_sgf_prop *np = realloc(p->props.p, sizeof(*np) * (size_t)cap);

		if (np == NULL)
			return oom(p);
		p->props.p = np;
		p->props.cap = cap;
	}
	values = arena_alloc(p->arena, sizeof(char *) * (size_t)nvalues);
	if (values == NULL)
		return oom(p);
	for (int i = 0; i < nvalues; i++)
		values[i] = p->values.v[i];
	prop = &p->props.p[p->props.n++];
	prop->id = id;
	prop->values = values;
	prop->nvalues = nvalues;
	prop->offset = start;
	return true;
}

static bool
parse_text(struct parser *p)
{
	while (p->pos < p->len) {
		char ch = p->s[p->pos];

		if (ch == '(') {
			if (!close_node(p))
				return false;
			if (p->depth == p->stack_cap) {
				int cap = p->stack_cap ? p->stack_cap * 2 : 16;
				struct open_tree *s = realloc(p->stack, sizeof(*s) * (size_t)cap);

				if (s == NULL)
					return oom(p);
				p->stack = s;
				p->stack_cap = cap;
			}
			p->stack[p->depth].attach = p->depth == 0 ? NULL : p->cur;
			p->stack[p->depth].offset = p->pos;
			p->depth++;
			if (p->stack[p->depth - 1].attach == NULL)
				p->cur = NULL;
			p->pos++;
		} else if (ch == ')') {
			if (!close_node(p))
				return false;
			if (p->depth > 0 && p->stack[p->depth - 1].offset != SIZE_MAX) {
				p->depth--;
				p->cur = p->stack[p->depth].attach;
			}
			/* A stray ')' outside any tree is ignored. */
			p->pos++;
		} else if (ch == ';') {
			if (!new_node(p, p->pos))
				return false;
			p->pos++;
		} else if (is_upper(ch) || (is_lower(ch) && p->depth > 0)) {
			if (p->depth == 0) {
				/* Properties before any '(' or ';' (e.g. "B[hh];W[ii]"): a game
				 * whose first node lacks its ';'.  Outside a game, plain text is
				 * ignored, as FF[4] allows, unless a value follows. */
				size_t q = p->pos;

				while (q < p->len && (is_upper(p->s[q]) || is_lower(p->s[q])))
					q++;
				while (q < p->len && is_space(p->s[q]))
					q++;
				if (q >= p->len || p->s[q] != '[') {
					p->pos = q > p->pos ? q : p->pos + 1;
					continue;
				}
			}
			if (!read_property(p))
				return false;
		} else if (ch == '[' && p->depth > 0) {
			if (!skip_value(p))
				return false;
		} else {
			/* White space, and stray bytes between properties, carry nothing. */
			p->pos++;
		}
	}
	if (!close_node(p))
		return false;
	if (p->c->ntrees == 0)
		return fail(p, 0, "no SGF game tree found");
	/* A truncated file: what was read stands, and the unclosed trees are closed. */
	for (int i = 0; i < p->depth; i++)
		if (p->stack[i].offset != SIZE_MAX) {
			warn(p, p->stack[i].offset,
			    "game tree not closed: ')' missing at the end of the file");
			break;
		}
	return true;
}

/* A collection holding the decoded text, and in *out a copy of it for values to be unescaped
 * into; NULL (err filled) when memory runs out. */
static struct sht_sgf_collection *
new_collection(const char *data, size_t len, bool valid_utf8, struct sht_sgf_error *err,
    char **out)
{
	struct arena *arena = calloc(1, sizeof(*arena));
	struct sht_sgf_collection *c;
	char *enc;

	if (err != NULL)
		memset(err, 0, sizeof(*err));
	if (arena == NULL)
		return NULL;
	c = arena_alloc(arena, sizeof(*c));
	enc = arena_alloc(arena, SHT_ENCODING_NAME_MAX);
	if (c == NULL || enc == NULL) {
		arena_free(arena);
		return NULL;
	}
	memset(c, 0, sizeof(*c));
	c->arena = arena;
	arena->text = sht_decode_to_utf8(data, len, valid_utf8, &c->text_len, enc,
	    &c->encoding_guessed);
	if (arena->text == NULL) {
		if (err != NULL)
			snprintf(err->message, sizeof(err->message), "out of memory");
		arena_free(arena);
		return NULL;
	}
	c->text = arena->text;
	c->encoding = enc;
	*out = arena_alloc(arena, c->text_len + 1);
	if (*out == NULL) {
		if (err != NULL)
			snprintf(err->message, sizeof(err->message), "out of memory");
		arena_free(arena);
		return NULL;
	}
	memcpy(*out, c->text, c->text_len + 1);
	return c;
}

struct sht_sgf_collection *
sht_sgf_parse(const char *data, size_t len, struct sht_sgf_error *err)
{
	struct parser p;
	struct sht_sgf_collection *c;
	bool ok;

	memset(&p, 0, sizeof(p));
	c = new_collection(data, len, false, err, &p.out);
	if (c == NULL)
		return NULL;
	p.s = c->text;
	p.len = c->text_len;
	p.arena = c->arena;
	p.c = c;
	p.err = err;
	ok = parse_text(&p);
	free(p.stack);
	free(p.props.p);
	free(p.values.v);
	if (!ok) {
		sht_sgf_free(c);
		return NULL;
	}
	return c;
}

void
sht_sgf_free(struct sht_sgf_collection *c)
{
	if (c == NULL)
		return;
	free(c->trees);
	arena_free(c->arena);
}

const struct sht_sgf_prop *
sht_sgf_find(const struct sht_sgf_node *n, const char *id)
{
	/* The first letters compared before strcmp is called: a root node holds a dozen
	 * properties or more, and a game's extraction looks up ten of them. */
	for (int i = 0; n != NULL && i < n->nprops; i++)
		if (n->props[i].id[0] == id[0] && strcmp(n->props[i].id, id) == 0)
			return &n->props[i];
	return NULL;
}

const char *
sht_sgf_get(const struct sht_sgf_node *n, const char *id)
{
	const struct sht_sgf_prop *p = sht_sgf_find(n, id);

	return (p != NULL && p->nvalues > 0) ? p->values[0] : NULL;
}

void
sht_sgf_position(const struct sht_sgf_collection *c, size_t offset, int *line, int *column)
{
	int l = 1, col = 1;

	if (c == NULL || c->text == NULL) {
		*line = *column = 0;
		return;
	}
	if (offset > c->text_len)
		offset = c->text_len;
	for (size_t i = 0; i < offset; i++) {
		if (c->text[i] == '\n') {
			l++;
			col = 1;
		} else {
			col++;
		}
	}
	*line = l;
	*column = col;
}

/* ---- game extraction ---- */

struct game_builder {
	const struct sht_sgf_collection *c;
	struct sht_sgf_game *g;
	struct sht_sgf_error *err;
	int cap;
	/* The setup of the node being read, per point: the node's number when AB, AW or AE of
	 * that node names the point (so nothing is cleared between nodes), and what it set. */
	int setup_node[SHT_MAX_SIZE * SHT_MAX_SIZE];
	signed char setup_color[SHT_MAX_SIZE * SHT_MAX_SIZE];
	bool setup_cleared; /* the two arrays are cleared at the first setup property only:
	                     * most records have none, and clearing them was 3 KB a game */
	int node;
	int setup_points; /* setup events so far, against SHT_SGF_MAX_SETUP_POINTS */
	/* The main line's last move so far: its node and colour; and whether a move has
	 * followed one of its own colour with a node without a move between them, the mark of a
	 * writer that records passes so (read_empty_node_passes). */
	int last_move_node, last_move_color;
	bool passes_as_empty_nodes;
};

/* The move of `color` in node `node` of the main line, for read_empty_node_passes. */
static inline void
note_move_node(struct game_builder *gb, int node, int color)
{
	if (color == gb->last_move_color && node > gb->last_move_node + 1)
		gb->passes_as_empty_nodes = true;
	gb->last_move_node = node;
	gb->last_move_color = color;
}

static bool game_fail(struct game_builder *gb, size_t offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static bool
game_fail(struct game_builder *gb, size_t offset, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_error(gb->c, gb->err, offset, fmt, ap);
	va_end(ap);
	return false;
}

static inline bool
add_event(struct game_builder *gb, enum sht_sgf_event_kind kind, int color, int x, int y,
    size_t offset)
{
	struct sht_sgf_event *e;

	if (gb->g->nevents == gb->cap) {
		int cap = gb->cap ? gb->cap * 2 : 512;
		struct sht_sgf_event *ev = realloc(gb->g->events, sizeof(*ev) * (size_t)cap);

		if (ev == NULL)
			return game_fail(gb, offset, "out of memory");
		gb->g->events = ev;
		gb->cap = cap;
	}
	e = &gb->g->events[gb->g->nevents++];
	e->kind = kind;
	e->color = color;
	e->x = x;
	e->y = y;
	e->offset = offset;
	e->move_number = kind == SHT_SGF_MOVE ? ++gb->g->nmoves : 0;
	if (kind == SHT_SGF_MOVE)
		note_move_node(gb, gb->node, color);
	return true;
}

/* SGF coordinate letter: a-z are 0-25, A-Z 26-51. */
static inline int
coord(char ch)
{
	if (ch >= 'a' && ch <= 'z')
		return ch - 'a';
	if (ch >= 'A' && ch <= 'Z')
		return ch - 'A' + 26;
	return -1;
}

static inline bool
parse_point(struct game_builder *gb, const char *v, size_t offset, int *x, int *y)
{
	*x = coord(v[0]);
	*y = *x >= 0 ? coord(v[1]) : -1;
	if (*x < 0 || *y < 0 || (v[2] != '\0' && v[2] != ':'))
		return game_fail(gb, offset, "'%.12s' is not an SGF point", v);
	if (*x >= gb->g->width || *y >= gb->g->height)
		return game_fail(gb, offset, "point '%.2s' is off the %dx%d board", v,
		    gb->g->width, gb->g->height);
	return true;
}

static const char *
setup_name(int color)
{
	return color == SHT_BLACK ? "AB" : color == SHT_WHITE ? "AW" : "AE";
}

/* One node may not set a point two ways (FF[4]: AB, AW and AE of a node share no point): a
 * stone of both colours on one point is no position, so the record is refused there. */
static bool
note_setup_point(struct game_builder *gb, const struct sht_sgf_prop *prop, int color, int x,
    int y)
{
	static const char columns[] = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
	int i = y * SHT_MAX_SIZE + x;

	if (gb->setup_node[i] == gb->node && gb->setup_color[i] != color)
		return game_fail(gb, prop->offset, "%s and %s of one node both set point %c%c (%c%d)",
		    setup_name(gb->setup_color[i]), setup_name(color), 'a' + x, 'a' + y, columns[x],
		    gb->g->height - y);
	gb->setup_node[i] = gb->node;
	gb->setup_color[i] = (signed char)color;
	return true;
}

static bool
add_setup(struct game_builder *gb, const struct sht_sgf_prop *prop, int color)
{
	if (!gb->setup_cleared) {
		memset(gb->setup_node, 0, sizeof(gb->setup_node));
		memset(gb->setup_color, 0, sizeof(gb->setup_color));
		gb->setup_cleared = true;
	}
	for (int i = 0; i < prop->nvalues; i++) {
		const char *v = prop->values[i];
		int x0, y0, x1, y1;

		if (v[0] == '\0')
			continue;
		if (!parse_point(gb, v, prop->offset, &x0, &y0))
			return false;
		x1 = x0;
		y1 = y0;
		/* A compressed list "dd:ee" names the rectangle between two corners. */
		if (v[2] == ':' && !parse_point(gb, v + 3, prop->offset, &x1, &y1))
			return false;
		for (int y = y0 < y1 ? y0 : y1; y <= (y0 < y1 ? y1 : y0); y++)
			for (int x = x0 < x1 ? x0 : x1; x <= (x0 < x1 ? x1 : x0); x++) {
				int k = y * SHT_MAX_SIZE + x;

				/* A point one node names twice with one colour (AB[aa:ss][dd]) is
				 * set once: a second event would count a handicap stone twice, and
				 * rectangles repeated in one value list would expand without end. */
				if (gb->setup_node[k] == gb->node && gb->setup_color[k] == color)
					continue;
				if (!note_setup_point(gb, prop, color, x, y))
					return false;
				if (++gb->setup_points > SHT_SGF_MAX_SETUP_POINTS)
					return game_fail(gb, prop->offset, "the setup names more than "
					    "%d points along the main line (each point of a "
					    "rectangle such as %.5s counts)", SHT_SGF_MAX_SETUP_POINTS,
					    v);
				if (!add_event(gb, SHT_SGF_SETUP, color, x, y, prop->offset))
					return false;
			}
	}
	return true;
}

/* The error of a move whose point does not read, with the move's number; out of line, so that
 * add_move stays small. */
static __attribute__((noinline)) bool
bad_move(struct game_builder *gb, const struct sht_sgf_prop *prop, const char *v)
{
	int x, y;
	char msg[sizeof(gb->err->message)];

	if (parse_point(gb, v, prop->offset, &x, &y))
		return true; /* not reached: the caller found the point bad */
	if (gb->err != NULL) {
		/* Prefix the move number; the point's own message is short. */
		memcpy(msg, gb->err->message, sizeof(msg));
		snprintf(gb->err->message, sizeof(gb->err->message), "move %d: %.200s",
		    gb->g->nmoves + 1, msg);
	}
	return false;
}

static inline __attribute__((always_inline)) bool
add_move(struct game_builder *gb, const struct sht_sgf_prop *prop, int color)
{
	const char *v = prop->nvalues > 0 ? prop->values[0] : "";
	int x, y;

	/* Passes: B[] in FF[4], and B[tt] on boards up to 19x19 (FF[3] and older files). */
	if (v[0] == '\0' || (v[0] == 't' && v[1] == 't' && v[2] == '\0' && gb->g->width <= 19 &&
	    gb->g->height <= 19))
		return add_event(gb, SHT_SGF_MOVE, color, -1, -1, prop->offset);
	x = coord(v[0]);
	y = x >= 0 ? coord(v[1]) : -1;
	if (x < 0 || y < 0 || (v[2] != '\0' && v[2] != ':') || x >= gb->g->width ||
	    y >= gb->g->height)
		return bad_move(gb, prop, v);
	return add_event(gb, SHT_SGF_MOVE, color, x, y, prop->offset);
}

/* Reads a decimal number as hundredths without floating point; false when it is not one. */
static bool
parse_hundredths(const char *s, long *out)
{
	long sign = 1, whole = 0, frac = 0;
	int fdigits = 0;
	bool any = false;

	while (*s == ' ')
		s++;
	if (*s == '-' || *s == '+')
		sign = *s++ == '-' ? -1 : 1;
	for (; *s >= '0' && *s <= '9'; s++, any = true)
		if (whole < 100000000)
			whole = whole * 10 + (*s - '0');
	if (*s == '.' || *s == ',') {
		for (s++; *s >= '0' && *s <= '9'; s++, any = true) {
			/* The third decimal rounds the second. */
			if (fdigits < 2)
				frac = frac * 10 + (*s - '0');
			else if (fdigits == 2 && *s >= '5')
				frac++;
			fdigits++;
		}
	}
	while (*s == ' ')
		s++;
	if (!any || *s != '\0')
		return false;
	for (; fdigits < 2; fdigits++)
		frac *= 10;
	*out = sign * (whole * 100 + frac);
	return true;
}

static char
ascii_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Whether `text` contains `needle`, ignoring ASCII case (and not the locale's). */
static bool
contains_ignoring_case(const char *text, const char *needle)
{
	size_t len = strlen(needle);

	for (; *text != '\0'; text++) {
		size_t i = 0;

		while (i < len && text[i] != '\0' &&
		    ascii_lower(text[i]) == ascii_lower(needle[i]))
			i++;
		if (i == len)
			return true;
	}
	return false;
}

static bool
any_value_contains(const struct sht_sgf_node *n, const char *id, const char *needle)
{
	for (int i = 0; i < n->nprops; i++) {
		if (n->props[i].id[0] != id[0] || strcmp(n->props[i].id, id) != 0)
			continue;
		for (int k = 0; k < n->props[i].nvalues; k++)
			if (contains_ignoring_case(n->props[i].values[k], needle))
				return true;
	}
	return false;
}

/* The Fox server's records name it in AP: AP[foxwq] from its long-standing client (beside an
 * AP[GNU Go:3.8] it also writes), AP[YuanYu...] from its newer one. */
static bool
is_fox_record(const struct sht_sgf_node *root)
{
	return any_value_contains(root, "AP", "foxwq") || any_value_contains(root, "AP", "YuanYu");
}

static bool
read_komi(struct game_builder *gb, const struct sht_sgf_node *root)
{
	const struct sht_sgf_prop *km = sht_sgf_find(root, "KM");
	long h;

	if (km == NULL || km->nvalues == 0 || km->values[0][0] == '\0')
		return true;
	if (!parse_hundredths(km->values[0], &h))
		return game_fail(gb, km->offset, "KM[%.*s] is not a number",
		    (int)strcspn(km->values[0], "\r\n]"), km->values[0]);
	gb->g->komi_written = km->values[0];
	/* The Fox server writes komi in hundredths, and in hundredths of a zi (a stone, two
	 * points) for Chinese games: KM[650] is 6.5 points, KM[375] 3.75 zi = 7.5 points.  Read
	 * it so for Fox files, and for any whole KM of 100 or more, which no real komi is. */
	if (gb->g->fox_record || (h % 100 == 0 && (h >= 10000 || h <= -10000))) {
		if (h % 100 == 0 && h / 100 != 0) {
			h /= 100;
			gb->g->fox_komi = true;
			gb->g->komi_reading = SHT_SGF_KOMI_HUNDREDTHS;
			/* Now h is the komi in hundredths of its unit; a quarter fraction means the
			 * unit was zi. */
			if (h % 50 != 0) {
				h *= 2;
				gb->g->komi_reading = SHT_SGF_KOMI_HUNDREDTHS_OF_ZI;
			}
		}
	}
	gb->g->has_komi = true;
	gb->g->komi_rounded = h % 50 != 0;
	/* Nearest half point, ties away from zero. */
	gb->g->komi_half_points = (int)(h >= 0 ? (h + 25) / 50 : -((-h + 25) / 50));
	return true;
}

/* The Fox server writes KM[0] for even games it played with komi.  Under Japanese rules the
 * komi was 6.5: on the counted Fox games measured for issue 12, reading KM[0] as 6.5 under
 * territory counting gives the recorded result in 170 of 235, area counting with 7.5 in 103.
 * A handicap game's KM[0] (HA of 2 or more, or black stones before the first move) is its
 * komi, and nothing was measured for the server's other rules, so those stay as written. */
static void
read_fox_even_game_komi(struct sht_sgf_game *g)
{
	if (!g->fox_record || !g->has_komi || g->komi_reading != SHT_SGF_KOMI_AS_WRITTEN ||
	    g->komi_half_points != 0 || g->komi_rounded)
		return;
	if (g->ruleset == NULL || !contains_ignoring_case(g->ruleset, "japan") || g->handicap >= 2)
		return;
	for (int i = 0; i < g->nevents && g->events[i].kind != SHT_SGF_MOVE; i++)
		if (g->events[i].kind == SHT_SGF_SETUP && g->events[i].color == SHT_BLACK)
			return;
	g->komi_half_points = 13;
	g->komi_reading = SHT_SGF_KOMI_FOX_JAPANESE_EVEN;
}

/* Whether RE names a winner by no margin (B+0, W+0, B+0.0): no count gives that, since a
 * count of 0 is a draw, so the game was decided otherwise, however the record came about. */
static bool
is_zero_margin_win(const char *re)
{
	if (re == NULL || (re[0] != 'B' && re[0] != 'W') || re[1] != '+' || re[2] != '0')
		return false;
	re += 3;
	if (*re == '.')
		while (*++re == '0')
			;
	return *re == '\0';
}

static void
game_begin(struct game_builder *gb, const struct sht_sgf_collection *c, struct sht_sgf_game *g,
    struct sht_sgf_error *err)
{
	gb->c = c;
	gb->g = g;
	gb->err = err;
	gb->cap = 0;
	gb->setup_cleared = false;
	gb->node = 0;
	gb->setup_points = 0;
	gb->last_move_node = gb->last_move_color = 0;
	gb->passes_as_empty_nodes = false;
	memset(g, 0, sizeof(*g));
	if (err != NULL)
		memset(err, 0, sizeof(*err));
}

/* What the root node says of the whole game: size, komi, handicap, rules, result, players.
 * The tree reader and the direct one both read it here, from a node. */
static bool
read_root(struct game_builder *gb, const struct sht_sgf_node *root)
{
	struct sht_sgf_game *g = gb->g;
	const struct sht_sgf_prop *sz;
	const char *v;

	g->width = g->height = 19;
	sz = sht_sgf_find(root, "SZ");
	if (sz != NULL && sz->nvalues > 0 && sz->values[0][0] != '\0') {
		const char *s = sz->values[0];
		int w, h, used = 0;
		char extra;

		/* SZ[19], one or two digits alone, is what sscanf below reads it as, without the
		 * two calls that were a twentieth of reading a record. */
		if ((unsigned)(s[0] - '0') < 10 && (s[1] == '\0' ||
		    ((unsigned)(s[1] - '0') < 10 && s[2] == '\0'))) {
			w = h = s[1] == '\0' ? s[0] - '0' : (s[0] - '0') * 10 + (s[1] - '0');
		} else if (!(sscanf(s, " %d : %d %n%c", &w, &h, &used, &extra) == 2 ||
		    (sscanf(s, " %d %n%c", &w, &used, &extra) == 1 && (h = w, 1)))) {
			return game_fail(gb, sz->offset, "SZ[%.20s] is not a board size",
			    sz->values[0]);
		}
		g->width = w;
		g->height = h;
		if (w < SHT_MIN_SIZE || h < SHT_MIN_SIZE || w > SHT_MAX_SIZE || h > SHT_MAX_SIZE)
			return game_fail(gb, sz->offset,
			    "board size %dx%d is not supported (2 to 25 lines each way)", w, h);
	}
	g->fox_record = is_fox_record(root);
	if (!read_komi(gb, root))
		return false;
	g->handicap_written = sht_sgf_find(root, "HA") != NULL;
	if ((v = sht_sgf_get(root, "HA")) != NULL)
		g->handicap = atoi(v);
	g->ruleset = sht_sgf_get(root, "RU");
	g->result = sht_sgf_get(root, "RE");
	g->result_zero_margin = is_zero_margin_win(g->result);
	g->black = sht_sgf_get(root, "PB");
	g->white = sht_sgf_get(root, "PW");
	g->date = sht_sgf_get(root, "DT");
	g->game_name = sht_sgf_get(root, "GN");
	g->place = sht_sgf_get(root, "PC");
	return true;
}

/* Whether a property is one that makes events (B, W, AB, AW, AE, PL): the direct reader reads
 * the values of these alone. */
static inline bool
is_event_property(const char *id)
{
	return ((id[0] == 'B' || id[0] == 'W') && id[1] == '\0') ||
	    (id[0] == 'A' && (id[1] == 'B' || id[1] == 'W' || id[1] == 'E') && id[2] == '\0') ||
	    (id[0] == 'P' && id[1] == 'L' && id[2] == '\0');
}

/* The events one property of a main-line node makes, if any. */
static inline __attribute__((always_inline)) bool
read_event(struct game_builder *gb, const struct sht_sgf_prop *p)
{
	const char *id = p->id;

	/* The identifier's letters compared one by one: strcmp calls against six names were
	 * most of the extraction's time. */
	if (id[0] == 'B' && id[1] == '\0')
		return add_move(gb, p, SHT_BLACK);
	if (id[0] == 'W' && id[1] == '\0')
		return add_move(gb, p, SHT_WHITE);
	if (id[0] == 'A' && id[1] == 'B' && id[2] == '\0')
		return add_setup(gb, p, SHT_BLACK);
	if (id[0] == 'A' && id[1] == 'W' && id[2] == '\0')
		return add_setup(gb, p, SHT_WHITE);
	if (id[0] == 'A' && id[1] == 'E' && id[2] == '\0')
		return add_setup(gb, p, SHT_EMPTY);
	if (id[0] == 'P' && id[1] == 'L' && id[2] == '\0' && p->nvalues > 0) {
		char ch = p->values[0][0];

		if (ch == 'B' || ch == 'b' || ch == '1')
			return add_event(gb, SHT_SGF_TURN, SHT_BLACK, -1, -1, p->offset);
		if (ch == 'W' || ch == 'w' || ch == '2')
			return add_event(gb, SHT_SGF_TURN, SHT_WHITE, -1, -1, p->offset);
	}
	return true;
}

/*
 * Some writers record a pass as a node without a move (Many Faces of Go did: its records in
 * GNU Go's regression games, mertin13x13/gnugo-katsunari1 and others, read W[km];;W[lm] and end
 * B[ml];;C[B+21.5]).  Where the main line shows it, a move following one of its own colour
 * with such a node between them, the nodes without a move after the last move are passes too,
 * two at most (two end the game under every ruleset): without them the record reads as
 * stopped before the end, and a game its players had finished is settled as if it had not
 * been, its protecting moves charged.  They are added as pass events after the last event,
 * at its offset in the text, and counted in empty_node_passes.  False when memory runs out.
 */
static bool
read_empty_node_passes(struct game_builder *gb)
{
	int trailing = gb->node - gb->last_move_node, color = 3 - gb->last_move_color;
	size_t offset;

	if (!gb->passes_as_empty_nodes || gb->g->nmoves == 0 || trailing <= 0)
		return true;
	offset = gb->g->events[gb->g->nevents - 1].offset;
	for (int i = 0; i < trailing && i < 2; i++, color = 3 - color) {
		if (!add_event(gb, SHT_SGF_MOVE, color, -1, -1, offset))
			return false;
		gb->g->empty_node_passes++;
	}
	return true;
}

bool
sht_sgf_game(const struct sht_sgf_collection *c, int tree, struct sht_sgf_game *g,
    struct sht_sgf_error *err)
{
	struct game_builder gb;
	const struct sht_sgf_node *n;

	game_begin(&gb, c, g, err);
	if (tree < 0 || tree >= c->ntrees)
		return game_fail(&gb, 0, "game tree %d does not exist (the file has %d)", tree,
		    c->ntrees);
	if (!read_root(&gb, c->trees[tree]))
		goto fail;
	for (n = c->trees[tree]; n != NULL; n = n->child) {
		gb.node++; /* from 1: 0 in setup_node is "no node yet" */
		for (int i = 0; i < n->nprops; i++)
			if (!read_event(&gb, &n->props[i]))
				goto fail;
	}
	if (!read_empty_node_passes(&gb))
		goto fail;
	/* After the events: whether black stones stand before the first move decides it. */
	read_fox_even_game_komi(g);
	return true;
fail:
	sht_sgf_game_free(g);
	return false;
}

/* ---- the direct reader: the main line of a plain file, read from the text ---- */

/* Moves *at past white space as the tree reader counts it. */
static inline void
skip_space(const char *s, size_t *at)
{
	while (is_space(s[*at]))
		(*at)++;
}

/* Moves *at past the value whose '[' is at *at, unread; false when its ']' never comes.  An
 * escaped byte is skipped whatever it is, as read_value takes it. */
static bool
skip_raw_value(const char *s, size_t len, size_t *at)
{
	size_t pos = *at + 1, end = pos + 16 < len ? pos + 16 : len;

	/* A short value (a point, a label) byte by byte; a longer one, a comment most often,
	 * with memchr, which looks at many bytes at once: its ']', then whether an escape
	 * comes before it (one that does is passed over with the byte it escapes). */
	while (pos < end) {
		char ch = s[pos++];

		if (ch == ']') {
			*at = pos;
			return true;
		}
		if (ch == '\\')
			pos++;
	}
	while (pos < len) {
		const char *close = memchr(s + pos, ']', len - pos);
		const char *esc;

		if (close == NULL)
			return false;
		esc = memchr(s + pos, '\\', (size_t)(close - (s + pos)));
		if (esc == NULL) {
			*at = (size_t)(close - s) + 1;
			return true;
		}
		pos = (size_t)(esc - s) + 2;
	}
	return false;
}

/* An identifier at *at as FF[4] writes it, upper-case letters (at most 15, as the tree reader
 * keeps), written NUL-terminated into id, with *at moved to its first '['; false for anything
 * the tree reader would repair or drop (lower-case letters, no value). */
static inline bool
read_strict_id(const char *s, size_t *at, char id[16])
{
	size_t pos = *at;
	int n = 0;

	while (is_upper(s[pos])) {
		if (n == 15)
			return false;
		id[n++] = s[pos++];
	}
	id[n] = '\0';
	if (is_lower(s[pos]))
		return false;
	skip_space(s, &pos);
	if (s[pos] != '[')
		return false;
	*at = pos;
	return true;
}

/* Skips every value from the '[' at *at and the white space after them; false on one not
 * closed. */
static bool
skip_raw_values(const char *s, size_t len, size_t *at)
{
	size_t pos = *at;

	while (s[pos] == '[') {
		const char *v = s + pos;

		/* A point of two letters, as lists of them are written (TB[aa][ba]...), is
		 * passed over at once: neither letter is a ']' or an escape. */
		if (pos + 3 < len && v[3] == ']' && v[1] != ']' && v[1] != '\\' && v[2] != ']' &&
		    v[2] != '\\')
			pos += 4;
		else if (!skip_raw_value(s, len, &pos))
			return false;
		while (is_space(s[pos]))
			pos++;
	}
	*at = pos;
	return true;
}

struct direct_reader {
	const char *s;
	char *out;
	size_t len;
	const char **values; /* the values of the property being read */
	int cap;
};

/* Reads every value from the '[' at *at into r->values (unescaped into r->out, as the tree
 * reader does) and the white space after them; the count, or -1 on a value not closed or no
 * memory. */
static int
read_values(struct direct_reader *r, size_t *at, int first)
{
	int n = first;

	while (r->s[*at] == '[') {
		if (n == r->cap) {
			int cap = r->cap ? r->cap * 2 : 16;
			const char **v = realloc(r->values, sizeof(*v) * (size_t)cap);

			if (v == NULL)
				return -1;
			r->values = v;
			r->cap = cap;
		}
		if (!read_value(r->s, r->out, r->len, at, &r->values[n]))
			return -1;
		n++;
		skip_space(r->s, at);
	}
	return n - first;
}

/* The root's properties that read_root looks up, gathered into a node of their own; false
 * when there are more than it holds (the tree reader takes the file then). */
#define ROOT_PROPS_MAX 32
#define ROOT_VALUES_MAX 64

static bool
is_root_property(const char *id)
{
	static const char *const names[] = { "SZ", "KM", "HA", "RU", "RE", "PB", "PW", "DT",
		"GN", "AP", "TM", "OT", "PC" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (id[0] == names[i][0] && id[1] == names[i][1] && id[2] == '\0')
			return true;
	return false;
}

/* What host/clock.c reads of a main-line node with a move: whether it has B and W, and the first
 * values of its first BL, WL, OB and OW (NULL when it has none). */
struct clock_node {
	bool black, white;
	const char *bl, *wl, *ob, *ow;
};

/* The root's TM and OT, the first values of the first of each, for the clock's tree; and, in a
 * timed reading, every main-line node with a move. */
struct clock_view {
	const char *tm, *ot;
	struct clock_node first; /* the first main-line node with a move */
	bool timed;        /* the nodes' BL, WL, OB and OW are kept (a second reading) */
	bool times_seen;   /* an untimed reading met BL or WL, and stopped */
	struct clock_node *nodes;
	int nnodes, nodes_cap;
};

static bool
read_direct_root(struct direct_reader *r, struct game_builder *gb, size_t at,
    struct clock_view *clock)
{
	struct sht_sgf_prop props[ROOT_PROPS_MAX];
	const char *values[ROOT_VALUES_MAX];
	char ids[ROOT_PROPS_MAX][16];
	struct sht_sgf_node root = { .props = props };
	int nvalues = 0;

	for (skip_space(r->s, &at); is_upper(r->s[at]); ) {
		size_t start = at;
		char id[16];

		if (!read_strict_id(r->s, &at, id))
			return false;
		if (!is_root_property(id)) {
			if (!skip_raw_values(r->s, r->len, &at))
				return false;
			continue;
		}
		if (root.nprops == ROOT_PROPS_MAX)
			return false;
		{
			struct sht_sgf_prop *p = &props[root.nprops];
			int n = read_values(r, &at, 0);

			if (n < 0 || nvalues + n > ROOT_VALUES_MAX)
				return false;
			memcpy(values + nvalues, r->values, sizeof(*values) * (size_t)n);
			memcpy(ids[root.nprops], id, sizeof(id));
			p->id = ids[root.nprops];
			p->nvalues = n;
			p->values = values + nvalues;
			p->offset = start;
			nvalues += n;
			root.nprops++;
		}
	}
	clock->tm = sht_sgf_get(&root, "TM");
	clock->ot = sht_sgf_get(&root, "OT");
	return read_root(gb, &root);
}

/* Whether t starts with a move of two lower-case letters, B[pd] or W[pd]. */
static inline bool
is_plain_move(const char *t)
{
	return (t[0] == 'B' || t[0] == 'W') && t[1] == '[' && is_lower(t[2]) && is_lower(t[3]) &&
	    t[4] == ']';
}

/* The move that is_plain_move found at offset start, read as add_move reads it: tt is a pass
 * up to 19x19; false for a point off the board (the tree reader's error). */
static inline __attribute__((always_inline)) bool
read_plain_move(struct game_builder *gb, const char *t, size_t start)
{
	int x = t[2] - 'a', y = t[3] - 'a';

	if (x == 't' - 'a' && y == 't' - 'a' && gb->g->width <= 19 && gb->g->height <= 19)
		x = y = -1;
	else if (x >= gb->g->width || y >= gb->g->height)
		return false;
	return add_event(gb, SHT_SGF_MOVE, t[0] == 'B' ? SHT_BLACK : SHT_WHITE, x, y, start);
}

/* A clock property's first value into *slot, unless the node gave one already; false on a value
 * not closed. */
static bool
read_clock_value(struct direct_reader *r, size_t *at, const char **slot)
{
	const char *v;

	if (!read_value(r->s, r->out, r->len, at, &v))
		return false;
	if (*slot == NULL)
		*slot = v;
	skip_space(r->s, at);
	return skip_raw_values(r->s, r->len, at);
}

/* The node just read, kept for the clock's tree when it has a move; false when memory runs
 * out. */
static bool
keep_clock_node(struct clock_view *clock, const struct clock_node *n)
{
	if (!n->black && !n->white)
		return true;
	if (clock->nnodes == clock->nodes_cap) {
		int cap = clock->nodes_cap ? clock->nodes_cap * 2 : 256;
		struct clock_node *bigger = realloc(clock->nodes, sizeof(*bigger) * (size_t)cap);

		if (bigger == NULL)
			return false;
		clock->nodes = bigger;
		clock->nodes_cap = cap;
	}
	clock->nodes[clock->nnodes++] = *n;
	return true;
}

/*
 * The run of nodes from *at that are one move each, ";B[pd]" with white space between, each
 * read as read_direct_node reads such a node (read_plain_move, add_event): the common case of a
 * record, read in a loop of its own with the counts in locals and room made once for as many
 * nodes as the rest of the text could hold (six bytes each).  *at stops before the first byte
 * that is not such a node, or after a move that more properties follow.  False on a point off
 * the board, or when memory runs out.
 */
static bool
read_plain_moves(struct game_builder *gb, const char *s, size_t len, size_t *at)
{
	struct sht_sgf_game *g = gb->g;
	const int w = g->width, h = g->height;
	const bool tt_pass = w <= 19 && h <= 19;
	int n = g->nevents, moves = g->nmoves, node = gb->node;
	size_t pos = *at, room = (size_t)n + (len - pos) / 6 + 1;
	struct sht_sgf_event *ev, *e;

	if (room > (size_t)gb->cap) {
		if (room > INT_MAX || (ev = realloc(g->events, sizeof(*ev) * room)) == NULL)
			return false;
		g->events = ev;
		gb->cap = (int)room;
	}
	ev = g->events;
	for (;;) {
		size_t p = pos;
		const char *t;
		int x, y;

		while (is_space(s[p]))
			p++;
		t = s + p + 1;
		if (s[p] != ';' || !is_plain_move(t) || t[5] == '[')
			break;
		x = t[2] - 'a';
		y = t[3] - 'a';
		/* tt is off every board it is a pass on (up to 19x19), so a point on the board
		 * is one test. */
		if (x >= w || y >= h) {
			if (x != 't' - 'a' || y != 't' - 'a' || !tt_pass)
				return false;
			x = y = -1;
		}
		e = &ev[n++];
		e->kind = SHT_SGF_MOVE;
		e->color = t[0] == 'B' ? SHT_BLACK : SHT_WHITE;
		e->x = x;
		e->y = y;
		e->move_number = ++moves;
		e->offset = p + 1;
		node++;
		note_move_node(gb, node, e->color);
		pos = p + 6;
	}
	g->nevents = n;
	g->nmoves = moves;
	gb->node = node;
	*at = pos;
	return true;
}

/* The properties of the main-line node after the ';' at *at: its events made, *at moved past
 * them.  host/clock.c reads a move's BL/WL/OB/OW from the tree: a timed reading keeps them for
 * the clock's tree; an untimed one stops at the first of them (clock->times_seen), so that a
 * record is read timed only when it has times.  When root is set, read_root's properties were
 * read already and are skipped. */
static bool
read_direct_node(struct direct_reader *r, struct game_builder *gb, size_t *at, bool root,
    struct clock_view *clock)
{
	int moves_before = gb->g->nmoves;
	bool black = false;
	struct clock_node node = { 0 };

	for (skip_space(r->s, at); is_upper(r->s[*at]); ) {
		size_t start = *at;
		const char *t = r->s + start;
		char id[16];

		/* Most properties are a move of two lower-case letters, B[pd]: read at once. */
		if (is_plain_move(t)) {
			if (!read_plain_move(gb, t, start))
				return false;
			black |= t[0] == 'B';
			node.white |= t[0] == 'W';
			*at = start + 5;
			skip_space(r->s, at);
			if (!skip_raw_values(r->s, r->len, at))
				return false;
			continue;
		}
		if (!read_strict_id(r->s, at, id))
			return false;
		if (((id[0] == 'B' || id[0] == 'W') && id[1] == 'L' && id[2] == '\0') ||
		    (id[0] == 'O' && (id[1] == 'B' || id[1] == 'W') && id[2] == '\0')) {
			bool left = id[1] == 'L', of_black = id[left ? 0 : 1] == 'B';

			if (!clock->timed) {
				clock->times_seen = true;
				return false;
			}
			if (!read_clock_value(r, at, left ? (of_black ? &node.bl : &node.wl) :
			    (of_black ? &node.ob : &node.ow)))
				return false;
			continue;
		}
		if (!is_event_property(id) || (root && is_root_property(id))) {
			if (!skip_raw_values(r->s, r->len, at))
				return false;
			continue;
		}
		{
			int n = read_values(r, at, 0);
			struct sht_sgf_prop p = { .id = id, .nvalues = n, .values = r->values,
				.offset = start };

			if (n < 0 || !read_event(gb, &p))
				return false;
			black |= id[0] == 'B' && id[1] == '\0';
			node.white |= id[0] == 'W' && id[1] == '\0';
		}
	}
	node.black = black;
	if (moves_before == 0 && gb->g->nmoves > 0)
		clock->first = node;
	return !clock->timed || keep_clock_node(clock, &node);
}

/*
 * host/clock.c reads a record's time control from its root's TM and OT and the time left after
 * each move from the main line's BL/WL (with OB/OW).  The one tree of a collection read
 * directly is that much: a root with TM and OT, then, read timed, a node for each main-line
 * node with a move, holding its B and W (with no value) and its BL, WL, OB and OW; read
 * untimed, the record has none of those, so the clock stops at its first move, which it names
 * by colour, and a node with that move's B and W alone follows the root.
 */
static bool
add_clock_tree(struct sht_sgf_collection *c, const struct clock_view *clock)
{
	static const char *const ids[] = { "B", "W", "BL", "WL", "OB", "OW" };
	struct arena *a = c->arena;
	int nnodes = clock->timed ? clock->nnodes : 1;
	struct sht_sgf_node *root = arena_alloc(a, sizeof(*root));
	struct sht_sgf_node *nodes = arena_alloc(a, sizeof(*nodes) * (size_t)nnodes);
	/* Every property has one value: the root's and each node's values in a row of six,
	 * one per identifier, and their properties in a row of six likewise. */
	const char **values = arena_alloc(a, sizeof(*values) * 6 * ((size_t)nnodes + 1));
	struct sht_sgf_prop *props = arena_alloc(a, sizeof(*props) * 6 * ((size_t)nnodes + 1));
	struct sht_sgf_node *parent = root;

	c->trees = malloc(sizeof(*c->trees));
	if (root == NULL || nodes == NULL || values == NULL || props == NULL || c->trees == NULL)
		return false;
	*root = (struct sht_sgf_node){ .props = props };
	values[0] = clock->tm;
	values[1] = clock->ot;
	for (int k = 0; k < 2; k++)
		if (values[k] != NULL)
			props[root->nprops++] = (struct sht_sgf_prop){ .id = k ? "OT" : "TM",
				.nvalues = 1, .values = &values[k] };
	for (int i = 0; i < nnodes; i++) {
		struct sht_sgf_node *n = &nodes[i];
		const struct clock_node *k = clock->timed ? &clock->nodes[i] : &clock->first;
		const char **v = values + 6 * (i + 1);

		*n = (struct sht_sgf_node){ .props = props + 6 * (i + 1), .parent = parent };
		parent->child = n;
		parent = n;
		v[0] = k->black ? "" : NULL;
		v[1] = k->white ? "" : NULL;
		v[2] = k->bl;
		v[3] = k->wl;
		v[4] = k->ob;
		v[5] = k->ow;
		for (int j = 0; j < 6; j++)
			if (v[j] != NULL)
				n->props[n->nprops++] = (struct sht_sgf_prop){ .id = ids[j],
					.nvalues = 1, .values = &v[j] };
	}
	c->trees[0] = root;
	c->ntrees = 1;
	return true;
}

/* The rest of the tree after the main line's last ')': variations, each "(" then ";" and
 * nodes, then more variations, skipped until the `open` trees still open are closed; then
 * nothing but white space to the end.  False on anything the tree reader would repair. */
static bool
skip_variations(const char *s, size_t len, size_t at, int open)
{
	bool in_sequence = false; /* nodes may follow: false after a ')' */

	while (open > 0) {
		char ch = s[at];

		if (is_space(ch)) {
			at++;
		} else if (ch == ')') {
			open--;
			in_sequence = false;
			at++;
		} else if (ch == '(') {
			at++;
			skip_space(s, &at);
			if (s[at] != ';')
				return false;
			open++;
			in_sequence = true;
		} else if (ch == ';' && in_sequence) {
			at++;
		} else if (is_upper(ch) && in_sequence) {
			char id[16];

			if (!read_strict_id(s, &at, id) || !skip_raw_values(s, len, &at))
				return false;
		} else {
			return false;
		}
	}
	skip_space(s, &at);
	return at == len;
}

/* One reading of the text's game into g, timed or not as clock says; false for a file left to
 * the tree reader, or one an untimed reading found times in (clock->times_seen). */
static bool
read_direct(struct direct_reader *r, struct game_builder *gb, struct sht_sgf_game *g,
    struct clock_view *clock)
{
	size_t at = 0;
	int open = 1;

	skip_space(r->s, &at);
	if (r->s[at] != '(')
		return false;
	at++;
	skip_space(r->s, &at);
	if (r->s[at] != ';')
		return false;
	gb->node = 1;
	at++;
	if (!read_direct_root(r, gb, at, clock) || !read_direct_node(r, gb, &at, true, clock))
		return false;
	/* The main line: each ';' a node, the first '(' of a node's variations continues it, the
	 * first ')' ends it. */
	for (;;) {
		char ch = r->s[at];

		/* The first move, which the clock's tree names, is read by read_direct_node, and
		 * every node of a timed reading (which the clock's tree holds whole). */
		if (g->nmoves > 0 && !clock->timed && !read_plain_moves(gb, r->s, r->len, &at))
			return false;
		ch = r->s[at];
		if (is_space(ch)) {
			at++;
		} else if (ch == ';') {
			at++;
			gb->node++;
			/* Any node but one move alone (read_plain_moves took those). */
			if (!read_direct_node(r, gb, &at, false, clock))
				return false;
		} else if (is_upper(ch)) {
			/* More properties of the node whose move was read above. */
			if (!read_direct_node(r, gb, &at, false, clock))
				return false;
		} else if (ch == '(') {
			at++;
			skip_space(r->s, &at);
			if (r->s[at] != ';')
				return false;
			open++;
		} else if (ch == ')') {
			break;
		} else {
			return false;
		}
	}
	/* The clock (host/clock.c) reads a record without moves as timed with none: such a
	 * record keeps its tree. */
	return g->nmoves > 0 && skip_variations(r->s, r->len, at + 1, open - 1);
}

/* sht_sgf_read_game, told whether data is known to be UTF-8. */
static struct sht_sgf_collection *
read_game(const char *data, size_t len, bool valid_utf8, struct sht_sgf_game *g)
{
	struct direct_reader r = { 0 };
	struct clock_view clock = { 0 };
	struct game_builder *gb;
	struct sht_sgf_collection *c = new_collection(data, len, valid_utf8, NULL, &r.out);
	bool ok = false;

	memset(g, 0, sizeof(*g));
	if (c == NULL)
		return NULL;
	/* The builder's setup arrays are 3 KB: on the heap rather than the caller's stack. */
	gb = malloc(sizeof(*gb));
	if (gb == NULL)
		goto done;
	r.s = c->text;
	r.len = c->text_len;
	game_begin(gb, c, g, NULL);
	ok = read_direct(&r, gb, g, &clock);
	if (!ok && clock.times_seen) {
		/* A record with times (KGS writes BL/WL after every move) is read again, timed:
		 * most records have none, and the untimed reading keeps nothing per node.  The
		 * first reading only unescaped values into the copy, so the text is as it was. */
		sht_sgf_game_free(g);
		game_begin(gb, c, g, NULL);
		clock = (struct clock_view){ .timed = true };
		ok = read_direct(&r, gb, g, &clock);
	}
	ok = ok && add_clock_tree(c, &clock) && read_empty_node_passes(gb);
	if (ok)
		read_fox_even_game_komi(g);
done:
	free(r.values);
	free(clock.nodes);
	free(gb);
	if (!ok) {
		sht_sgf_game_free(g);
		memset(g, 0, sizeof(*g));
		sht_sgf_free(c);
		return NULL;
	}
	return c;
}

struct sht_sgf_collection *
sht_sgf_read_game(const char *data, size_t len, struct sht_sgf_game *g)
{
	return read_game(data, len, false, g);
}

struct sht_sgf_collection *
sht_sgf_read_game_utf8(const char *data, size_t len, struct sht_sgf_game *g)
{
	return read_game(data, len, true, g);
}

void
sht_sgf_game_free(struct sht_sgf_game *g)
{
	free(g->events);
	g->events = NULL;
	g->nevents = g->nmoves = 0;
}
