/* Whether the direct SGF reader and the tree reader gave the same game, field by field. */
#ifndef SHOUTAN_TESTS_SGF_SAME_GAME_H
#define SHOUTAN_TESTS_SGF_SAME_GAME_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "shoutan/sgf.h"

static bool
sgf_same_text(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* What host/clock.c reads of a collection: the root's TM and OT, and each main-line node with
 * a move, its colours and its BL, WL, OB and OW. */
static const char *
sgf_clock_difference(const struct sht_sgf_collection *ca, const struct sht_sgf_collection *cb,
    char *why, size_t size)
{
	static const char *const ids[] = { "B", "W", "BL", "WL", "OB", "OW" };
	const struct sht_sgf_node *a, *b;
	int number = 0;
	bool first_timed = false;

	if (ca->ntrees == 0 || cb->ntrees == 0)
		return ca->ntrees == cb->ntrees ? NULL : (snprintf(why, size, "trees"), why);
	a = ca->trees[0];
	b = cb->trees[0];
	if (!sgf_same_text(sht_sgf_get(a, "TM"), sht_sgf_get(b, "TM")) ||
	    !sgf_same_text(sht_sgf_get(a, "OT"), sht_sgf_get(b, "OT")))
		return snprintf(why, size, "TM or OT for the clock"), why;
	for (;;) {
		while (a != NULL && sht_sgf_get(a, "B") == NULL && sht_sgf_get(a, "W") == NULL)
			a = a->child;
		while (b != NULL && sht_sgf_get(b, "B") == NULL && sht_sgf_get(b, "W") == NULL)
			b = b->child;
		if (a == NULL || b == NULL)
			break;
		number++;
		/* B and W are there or not; the times as written. */
		for (int i = 0; i < 6; i++)
			if (i < 2 ? (sht_sgf_get(a, ids[i]) == NULL) != (sht_sgf_get(b, ids[i]) == NULL) :
			    !sgf_same_text(sht_sgf_get(a, ids[i]), sht_sgf_get(b, ids[i])))
				return snprintf(why, size, "%s of move node %d for the clock", ids[i],
				    number), why;
		if (number == 1)
			first_timed = sht_sgf_get(a, "BL") != NULL || sht_sgf_get(a, "WL") != NULL;
		a = a->child;
		b = b->child;
	}
	/* The direct reader's tree of a record without times stops at the first move, where
	 * the clock stops too (it finds no BL/WL there). */
	if ((a == NULL) != (b == NULL) && (number != 1 || first_timed))
		return snprintf(why, size, "%s move nodes for the clock after %d", a == NULL ?
		    "fewer" : "more", number), why;
	return NULL;
}

/* NULL when the two games and collections agree; else the first field that differs, written
 * into why. */
static const char *
sgf_game_difference(const struct sht_sgf_collection *ca, const struct sht_sgf_game *a,
    const struct sht_sgf_collection *cb, const struct sht_sgf_game *b, char *why, size_t size)
{
#define SAME_INT(f) if (a->f != b->f) { snprintf(why, size, #f ": %d, %d", (int)a->f, \
	(int)b->f); return why; }
#define SAME_TEXT(f) if (!sgf_same_text(a->f, b->f)) { snprintf(why, size, #f ": %s, %s", \
	a->f ? a->f : "(none)", b->f ? b->f : "(none)"); return why; }
	SAME_INT(width) SAME_INT(height) SAME_INT(komi_half_points) SAME_INT(has_komi)
	SAME_INT(komi_rounded) SAME_INT(fox_komi) SAME_INT(komi_reading) SAME_INT(fox_record)
	SAME_INT(result_zero_margin) SAME_INT(empty_node_passes) SAME_INT(handicap)
	SAME_INT(handicap_written)
	SAME_INT(nevents) SAME_INT(nmoves)
	SAME_TEXT(komi_written) SAME_TEXT(ruleset) SAME_TEXT(result) SAME_TEXT(black)
	SAME_TEXT(white) SAME_TEXT(date) SAME_TEXT(game_name)
#undef SAME_INT
#undef SAME_TEXT
	for (int i = 0; i < a->nevents; i++) {
		const struct sht_sgf_event *x = &a->events[i], *y = &b->events[i];

		if (x->kind != y->kind || x->color != y->color || x->x != y->x || x->y != y->y ||
		    x->move_number != y->move_number || x->offset != y->offset) {
			snprintf(why, size, "event %d: kind %d/%d colour %d/%d at %d,%d/%d,%d "
			    "number %d/%d offset %zu/%zu", i, x->kind, y->kind, x->color, y->color,
			    x->x, x->y, y->x, y->y, x->move_number, y->move_number, x->offset,
			    y->offset);
			return why;
		}
	}
	if (ca->text_len != cb->text_len || memcmp(ca->text, cb->text, ca->text_len) != 0)
		return snprintf(why, size, "decoded text"), why;
	if (strcmp(ca->encoding, cb->encoding) != 0 || ca->encoding_guessed != cb->encoding_guessed)
		return snprintf(why, size, "encoding %s, %s", ca->encoding, cb->encoding), why;
	return sgf_clock_difference(ca, cb, why, size);
}

#endif
