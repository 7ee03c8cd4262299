/* JSON forms of the judge's results (jansson), the one source for the daemon and `--json`. */
#include <stdio.h>
#include <string.h>

#include "host.h"
#include "render.h"

json_t *
sht_json_points(int half_points)
{
	/* Whole numbers print as integers, halves as decimals: 7, 7.5. */
	if (half_points % 2 == 0)
		return json_integer(half_points / 2);
	return json_real(half_points / 2.0);
}

json_t *
sht_json_vertex(const struct sht_board *b, int point)
{
	char v[8];

	return json_string(sht_vertex_format(b, point, v, sizeof(v)));
}

const char *
sht_winner_name(int winner)
{
	switch (winner) {
	case SHT_WINNER_BLACK: return "B";
	case SHT_WINNER_WHITE: return "W";
	case SHT_WINNER_DRAW: return "draw";
	}
	return "none";
}

json_t *
sht_json_position(const struct sht_board *b)
{
	json_t *rows = json_array();
	char row[SHT_MAX_SIZE + 1];

	for (int y = 0; y < sht_board_height(b); y++) {
		for (int x = 0; x < sht_board_width(b); x++) {
			enum sht_color c = sht_board_at(b, sht_board_point(b, x, y));

			row[x] = c == SHT_BLACK ? 'X' : c == SHT_WHITE ? 'O' : '.';
		}
		row[sht_board_width(b)] = '\0';
		json_array_append_new(rows, json_string(row));
	}
	return rows;
}

static json_t *
side(const struct sht_side_score *s, bool white)
{
	json_t *o = json_pack("{s:o, s:o, s:o, s:o, s:i, s:o, s:o}",
	    "stones", sht_json_points(s->stones),
	    "territory", sht_json_points(s->territory),
	    "dame_share", sht_json_points(s->dame_share),
	    "prisoners", sht_json_points(s->prisoners),
	    "groups", s->groups,
	    "tax", sht_json_points(s->tax),
	    "total", sht_json_points(s->total));

	if (white) {
		json_object_set_new(o, "komi", sht_json_points(s->komi));
		json_object_set_new(o, "handicap_compensation",
		    sht_json_points(s->handicap_compensation));
	}
	return o;
}

/* Komi in the ruleset's own unit: quarter zi, or points. */
static json_t *
native_komi(const struct sht_score_result *r)
{
	if (strcmp(r->native_unit, "zi") == 0)
		return r->white.komi % 4 == 0 ? json_integer(r->white.komi / 4) :
		    json_real(r->white.komi / 4.0);
	return sht_json_points(r->white.komi);
}

json_t *
sht_json_result(const struct sht_score_result *r, int decision)
{
	/* A game decided otherwise than by counting has no margin: null, not 0, which would
	 * read as a draw by count. */
	bool counted = decision == SHT_DECISION_COUNT;

	return json_pack("{s:s, s:o, s:s, s:{s:s, s:o, s:s}, s:s}",
	    "winner", sht_winner_name(r->winner),
	    "margin", counted ? sht_json_points(r->margin) : json_null(),
	    "re", r->re,
	    "native", "unit", r->native_unit,
	    "margin", !counted ? json_null() : r->native_margin % 100 == 0 ?
	    json_integer(r->native_margin / 100) : json_real((double)r->native_margin / 100.0),
	    "text", r->native_text,
	    "text", r->text);
}

json_t *
sht_json_score(const struct sht_ruleset *rs, const struct sht_replay *replay,
    const struct sht_score_report *rep)
{
	const struct sht_score_result *r = &rep->result;
	const struct sht_board *b = replay->board;
	json_t *dead = json_array(), *seki = json_array(), *own = json_array(), *notes = json_array();
	json_t *extra_conf = NULL, *out, *result, *rest;
	char row[SHT_MAX_SIZE + 1];

	for (int y = 0; y < sht_board_height(b); y++)
		for (int x = 0; x < sht_board_width(b); x++) {
			int p = sht_board_point(b, x, y);

			if (rep->dead[p])
				json_array_append_new(dead, sht_json_vertex(b, p));
			if (rep->seki[p])
				json_array_append_new(seki, sht_json_vertex(b, p));
		}
	for (int y = 0; y < sht_board_height(b); y++) {
		for (int x = 0; x < sht_board_width(b); x++) {
			int o = rep->owner[sht_board_point(b, x, y)];

			row[x] = o == SHT_BLACK ? 'X' : o == SHT_WHITE ? 'O' : '.';
		}
		row[sht_board_width(b)] = '\0';
		json_array_append_new(own, json_string(row));
	}
	for (int i = 0; i < rep->nnotes; i++)
		json_array_append_new(notes, json_string(rep->notes[i]));
	if (rep->confidence != NULL) {
		/* One digit a point: how sure the playouts are of its owner, in tenths. */
		json_t *conf = json_array();

		for (int y = 0; y < sht_board_height(b); y++) {
			for (int x = 0; x < sht_board_width(b); x++) {
				int c = rep->confidence[sht_board_point(b, x, y)] / 100;

				row[x] = (char)('0' + (c > 9 ? 9 : c));
			}
			row[sht_board_width(b)] = '\0';
			json_array_append_new(conf, json_string(row));
		}
		extra_conf = conf;
	}
	/* The ruleset, how the game was decided and its result; then the count of the final
	 * position (and, for a game decided otherwise, the count's own result in `count`). */
	out = json_pack("{s:s, s:s}", "ruleset", rs->name, "how",
	    sht_decision_name(rep->decision));
	json_object_update(out, result = sht_json_result(r, rep->decision));
	json_decref(result);
	json_object_set_new(json_object_get(out, "native"), "komi", native_komi(r));
	json_object_update(out, rest = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}",
	    "black", side(&r->black, false),
	    "white", side(&r->white, true),
	    "dead", dead,
	    "seki", seki,
	    "ownership", own,
	    "notes", notes));
	json_decref(rest);
	if (rep->decision != SHT_DECISION_COUNT)
		json_object_set_new(out, "count", sht_json_result(&rep->count, SHT_DECISION_COUNT));
	if (extra_conf != NULL)
		json_object_set_new(out, "ownership_confidence", extra_conf);
	if (rep->settle != NULL) {
		/* The settle step's moves, in the order played on the copy that was counted. */
		json_t *moves = json_array();

		for (int i = 0; i < rep->nsettle; i++) {
			const struct sht_settle_move *m = &rep->settle[i];

			json_array_append_new(moves, json_pack("{s:o, s:s, s:s, s:b}",
			    "move", sht_json_vertex(b, m->point),
			    "color", m->color == SHT_BLACK ? "B" : "W",
			    "reason", sht_settle_reason_name(m->reason),
			    "unsure", m->unsure));
		}
		json_object_set_new(out, "settle", moves);
	}
	return out;
}

const char *
sht_end_name(enum sht_end e)
{
	switch (e) {
	case SHT_END_PLAYING: return "playing";
	case SHT_END_ENDED: return "ended";
	case SHT_END_NO_RESULT: return "no_result";
	case SHT_END_DRAW: return "draw";
	case SHT_END_LOSS: return "loss";
	}
	return "playing";
}

const char *
sht_consequence_name(int verdict)
{
	switch (verdict) {
	case SHT_CONSEQUENCE_VOID: return "void";
	case SHT_CONSEQUENCE_LOSS: return "loss";
	case SHT_CONSEQUENCE_WARNING: return "warning";
	}
	return "ok";
}

const char *
sht_violation_name(int violation)
{
	if (violation == SHT_VIOLATION_NOT_YOUR_TURN)
		return "not_your_turn";
	return sht_verdict_name((enum sht_verdict)violation);
}

json_t *
sht_json_replay(const struct sht_ruleset *rs, const struct sht_replay *r)
{
	json_t *moves = json_array(), *notes = json_array(), *end;

	for (int i = 0; i < r->nmoves; i++) {
		const struct sht_move_record *m = &r->moves[i];
		json_t *o = json_pack("{s:i, s:s, s:o, s:s, s:i}", "n", m->n,
		    "player", m->color == SHT_BLACK ? "B" : "W",
		    "vertex", sht_json_vertex(r->board, m->point),
		    "verdict", m->violation ? sht_consequence_name(m->verdict) : "ok",
		    "captures", m->captures);

		if (m->violation)
			json_object_set_new(o, "reason", json_string(sht_violation_name(m->violation)));
		json_array_append_new(moves, o);
	}
	end = json_pack("{s:s}", "state", sht_end_name(r->end));
	if (r->end == SHT_END_LOSS)
		json_object_set_new(end, "loser", json_string(r->end_player == SHT_BLACK ? "B" : "W"));
	if (r->end_reason[0])
		json_object_set_new(end, "why", json_string(r->end_reason));
	for (int i = 0; i < r->nnotes; i++)
		json_array_append_new(notes, json_string(r->notes[i]));
	return json_pack("{s:s, s:o, s:o, s:o, s:s, s:{s:i, s:i}, s:{s:i, s:i}, s:o, s:i, s:o}",
	    "ruleset", rs->name,
	    "moves", moves,
	    "end", end,
	    "position", sht_json_position(r->board),
	    "to_move", sht_board_to_move(r->board) == SHT_BLACK ? "B" : "W",
	    "captures", "B", sht_board_captures(r->board, SHT_BLACK),
	    "W", sht_board_captures(r->board, SHT_WHITE),
	    "warnings", "B", r->warnings[SHT_BLACK], "W", r->warnings[SHT_WHITE],
	    "komi", sht_json_points(r->komi),
	    "implied_passes", r->implied_passes,
	    "notes", notes);
}
