/* Replaying an SGF game's events (setup, turn, moves) onto a board, stopping at an illegal move. */
#include <stddef.h>

#include "shoutan/board.h"
#include "shoutan/sgf.h"

struct sht_board *
sht_sgf_replay(const struct sht_sgf_game *g, const struct sht_board_options *opt, int upto,
    struct sht_sgf_replay_stop *stop)
{
	struct sht_board_options o;
	struct sht_board *b;

	if (opt != NULL)
		o = *opt;
	else
		sht_board_options_init(&o, 0, 0);
	o.width = g->width;
	o.height = g->height;
	if (stop != NULL) {
		stop->move = 0;
		stop->event = -1;
		stop->verdict = SHT_LEGAL;
	}
	b = sht_board_new(&o);
	if (b == NULL)
		return NULL;
	for (int i = 0; i < g->nevents; i++) {
		const struct sht_sgf_event *e = &g->events[i];
		int p = e->x < 0 ? SHT_PASS : sht_board_point(b, e->x, e->y);
		enum sht_verdict v;

		if (e->kind == SHT_SGF_SETUP) {
			sht_board_setup(b, e->color, p);
		} else if (e->kind == SHT_SGF_TURN) {
			sht_board_set_to_move(b, e->color);
		} else {
			if (upto > 0 && e->move_number >= upto)
				break;
			v = sht_board_play(b, e->color, p, NULL);
			if (v != SHT_LEGAL) {
				if (stop != NULL) {
					stop->move = e->move_number;
					stop->event = i;
					stop->verdict = v;
				}
				break;
			}
		}
	}
	return b;
}
