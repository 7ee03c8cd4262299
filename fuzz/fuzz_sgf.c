/* libFuzzer harness for the SGF reader: parse, extract every game, replay it, write it back. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shoutan/board.h"
#include "shoutan/sgf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The nodes of a tree in preorder, without recursion; aborts on a child or variation whose
 * parent link does not lead back to the node it hangs from. */
static size_t
count_nodes(const struct sht_sgf_node *root)
{
	const struct sht_sgf_node *n = root;
	size_t count = 0;

	if (root->parent != NULL)
		abort();
	while (n != NULL) {
		count++;
		if (n->child != NULL) {
			if (n->child->parent != n)
				abort();
			n = n->child;
			continue;
		}
		while (n != root && n->sibling == NULL)
			n = n->parent;
		if (n == root)
			break;
		if (n->sibling->parent != n->parent)
			abort();
		n = n->sibling;
	}
	return count;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sht_sgf_error err;
	struct sht_sgf_collection *c = sht_sgf_parse((const char *)data, size, &err);
	size_t len;
	char *text;

	if (c == NULL)
		return 0;
	for (int t = 0; t < c->ntrees && t < 4; t++) {
		struct sht_sgf_game g;
		struct sht_board *b;
		int setup = 0;

		if (!sht_sgf_game(c, t, &g, &err))
			continue;
		for (int i = 0; i < g.nevents; i++)
			setup += g.events[i].kind == SHT_SGF_SETUP;
		if (setup > SHT_SGF_MAX_SETUP_POINTS)
			abort();
		b = sht_sgf_replay(&g, NULL, 0, NULL);
		sht_board_free(b);
		sht_sgf_game_free(&g);
	}
	/* What we write must read back, as the same trees of the same nodes. */
	text = sht_sgf_write(c, &len);
	if (text != NULL) {
		struct sht_sgf_collection *again = sht_sgf_parse(text, len, &err);

		if (again == NULL || again->ntrees != c->ntrees)
			abort();
		for (int t = 0; t < c->ntrees; t++)
			if (count_nodes(again->trees[t]) != count_nodes(c->trees[t]))
				abort();
		sht_sgf_free(again);
		free(text);
	}
	sht_sgf_free(c);
	return 0;
}
