/* The SGF writer: a collection back to FF[4] text, iteratively so deep variation trees are safe. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "shoutan/sgf.h"

struct outbuf {
	char *s;
	size_t len, cap;
	bool failed;
};

static void
put(struct outbuf *o, const char *s, size_t n)
{
	if (o->failed)
		return;
	if (o->len + n + 1 > o->cap) {
		size_t cap = o->cap ? o->cap : 4096;
		char *ns;

		while (o->len + n + 1 > cap)
			cap *= 2;
		ns = realloc(o->s, cap);
		if (ns == NULL) {
			o->failed = true;
			return;
		}
		o->s = ns;
		o->cap = cap;
	}
	memcpy(o->s + o->len, s, n);
	o->len += n;
	o->s[o->len] = '\0';
}

static void
put_value(struct outbuf *o, const char *v)
{
	put(o, "[", 1);
	for (const char *s = v; *s != '\0'; s++) {
		/* "CA[" inside a value ("C[set CA[GB2312]]") is escaped as "C\A[": the reader
		 * takes the first "CA[" of the bytes for the encoding, before it can tell values
		 * from properties, and this text is UTF-8 whatever a value says. */
		if (*s == ']' || *s == '\\' || (*s == 'A' && s > v && s[-1] == 'C' && s[1] == '['))
			put(o, "\\", 1);
		put(o, s, 1);
	}
	put(o, "]", 1);
}

static void
put_node(struct outbuf *o, const struct sht_sgf_node *n)
{
	put(o, ";", 1);
	for (int i = 0; i < n->nprops; i++) {
		const struct sht_sgf_prop *p = &n->props[i];

		put(o, p->id, strlen(p->id));
		/* The text is UTF-8 now, whatever the file declared, wherever it declared it. */
		if (strcmp(p->id, "CA") == 0) {
			put_value(o, "UTF-8");
			continue;
		}
		for (int k = 0; k < p->nvalues; k++)
			put_value(o, p->values[k]);
	}
}

/* A work item: write "(" and then the node's line, or write ")". */
struct item {
	const struct sht_sgf_node *node; /* NULL: close a variation */
	bool open;
};

char *
sht_sgf_write(const struct sht_sgf_collection *c, size_t *len)
{
	struct outbuf o = { NULL, 0, 0, false };
	struct item *stack = NULL;
	size_t depth = 0, cap = 0;

	for (int t = 0; t < c->ntrees && !o.failed; t++) {
		put(&o, "(", 1);
		depth = 0;
		if (cap == 0) {
			cap = 64;
			stack = malloc(cap * sizeof(*stack));
			if (stack == NULL) {
				o.failed = true;
				break;
			}
		}
		stack[depth++] = (struct item){ c->trees[t], false };
		while (depth > 0 && !o.failed) {
			struct item it = stack[--depth];
			const struct sht_sgf_node *n = it.node, *ch;
			size_t nchildren = 0;

			if (n == NULL) {
				put(&o, ")", 1);
				continue;
			}
			if (it.open)
				put(&o, "(", 1);
			put_node(&o, n);
			for (ch = n->child; ch != NULL; ch = ch->sibling)
				nchildren++;
			if (depth + 2 * nchildren + 1 > cap) {
				struct item *ns;

				while (depth + 2 * nchildren + 1 > cap)
					cap *= 2;
				ns = realloc(stack, cap * sizeof(*stack));
				if (ns == NULL) {
					o.failed = true;
					break;
				}
				stack = ns;
			}
			if (nchildren == 1) {
				stack[depth++] = (struct item){ n->child, false };
				continue;
			}
			/* Variations: push in reverse so the first child is written first. */
			{
				size_t k = 0;

				depth += 2 * nchildren;
				for (ch = n->child; ch != NULL; ch = ch->sibling, k++) {
					stack[depth - 1 - 2 * k] = (struct item){ ch, true };
					stack[depth - 2 - 2 * k] = (struct item){ NULL, false };
				}
				
			}
		}
		put(&o, ")\n", 2);
	}
	free(stack);
	if (o.failed) {
		free(o.s);
		return NULL;
	}
	if (o.s == NULL)
		put(&o, "", 0);
	if (len != NULL)
		*len = o.len;
	return o.s;
}
