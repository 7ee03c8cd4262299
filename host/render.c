/* JSON forms of the judge's results, the one source for the daemon and `--json`: the score
 * object as text (sht_text_score), the others as jansson values. */
#include <stdio.h>
#include <string.h>

#include "host.h"
#include "json_parse.h"
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

/* ---- the score object as text (the reply's hot path: no jansson values, no dump) ---- */

/* GTP columns, as sht_vertex_format writes them (I is skipped). */
static const char vertex_columns[] = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

/* The vertex of (x, y) as a JSON string, "D4", as sht_vertex_format writes it. */
static void
text_vertex_xy(struct sht_text *t, const struct sht_board *b, int x, int y)
{
	int row = sht_board_height(b) - y;
	char v[5] = { '"', vertex_columns[x] }, *e = v + 2;

	if (row >= 10)
		*e++ = (char)('0' + row / 10);
	*e++ = (char)('0' + row % 10);
	*e++ = '"';
	sht_text_bytes(t, v, (size_t)(e - v));
}

void
sht_text_vertex(struct sht_text *t, const struct sht_board *b, int point)
{
	int x, y;

	if (point != SHT_PASS && sht_board_xy(b, point, &x, &y)) {
		text_vertex_xy(t, b, x, y);
	} else {
		char v[8];

		sht_text_string(t, sht_vertex_format(b, point, v, sizeof(v)));
	}
}

/* One more string in an array whose first element is *first: a text that is not UTF-8 is left
 * out, as json_array_append_new left out the NULL json_string gave for it. */
static void
text_array_string(struct sht_text *t, const char *s, bool *first)
{
	size_t before = t->len;

	if (!*first)
		sht_text_char(t, ',');
	if (sht_text_string(t, s))
		*first = false;
	else
		t->len = before;
}

/* A margin in 1/den units, or null for a game no count decided. */
static void
text_margin(struct sht_text *t, bool counted, int margin, int den)
{
	if (counted)
		sht_text_ratio(t, margin, den);
	else
		sht_text_lit(t, "null");
}

static void
text_side(struct sht_text *t, const struct sht_side_score *s, bool white, int bonus)
{
	sht_text_lit(t, "{\"stones\":");
	sht_text_ratio(t, s->stones, 2);
	sht_text_lit(t, ",\"territory\":");
	sht_text_ratio(t, s->territory, 2);
	sht_text_lit(t, ",\"dame_share\":");
	sht_text_ratio(t, s->dame_share, 2);
	sht_text_lit(t, ",\"prisoners\":");
	sht_text_ratio(t, s->prisoners, 2);
	sht_text_lit(t, ",\"groups\":");
	sht_text_int(t, s->groups);
	sht_text_lit(t, ",\"tax\":");
	sht_text_ratio(t, s->tax, 2);
	/* Only a ruleset with a bonus (Tibetan go) shows one: other replies keep their bytes. */
	if (bonus != 0) {
		sht_text_lit(t, ",\"bonus\":");
		sht_text_ratio(t, bonus, 2);
	}
	sht_text_lit(t, ",\"total\":");
	sht_text_ratio(t, s->total, 2);
	if (white) {
		sht_text_lit(t, ",\"komi\":");
		sht_text_ratio(t, s->komi, 2);
		sht_text_lit(t, ",\"handicap_compensation\":");
		sht_text_ratio(t, s->handicap_compensation, 2);
	}
	sht_text_char(t, '}');
}

/*
 * The members of sht_json_result, after a comma when `comma`; with_komi adds the native komi
 * as the score object's `native` has it.  Returns false, writing nothing, when one of the texts
 * is not UTF-8: json_pack gave no object then, and the members were missing.
 */
static bool
text_result_members(struct sht_text *t, const struct sht_score_result *r, int decision,
    bool comma, bool with_komi)
{
	bool counted = decision == SHT_DECISION_COUNT;

	if (!sht_json_utf8_valid(r->re) || !sht_json_utf8_valid(r->native_unit) ||
	    !sht_json_utf8_valid(r->native_text) || !sht_json_utf8_valid(r->text))
		return false;
	if (comma)
		sht_text_char(t, ',');
	sht_text_lit(t, "\"winner\":");
	sht_text_string(t, sht_winner_name(r->winner));
	sht_text_lit(t, ",\"margin\":");
	text_margin(t, counted, r->margin, 2);
	sht_text_lit(t, ",\"re\":");
	sht_text_string(t, r->re);
	sht_text_lit(t, ",\"native\":{\"unit\":");
	sht_text_string(t, r->native_unit);
	sht_text_lit(t, ",\"margin\":");
	text_margin(t, counted, r->native_margin, 100);
	sht_text_lit(t, ",\"text\":");
	sht_text_string(t, r->native_text);
	if (with_komi) {
		/* Komi in the ruleset's own unit: quarter zi, or points. */
		sht_text_lit(t, ",\"komi\":");
		sht_text_ratio(t, r->white.komi, strcmp(r->native_unit, "zi") == 0 ? 4 : 2);
	}
	sht_text_lit(t, "},\"text\":");
	sht_text_string(t, r->text);
	return true;
}

/* The vertices of the points flagged in `flags`, in board order, comma-separated.  The board is
 * a padded array of rows (HACKING.md), so the flags from the first point to the last are read
 * eight bytes at a time, most words being 0, and a flag's row is followed as the scan moves on;
 * a flag in the padding between rows names no vertex and is passed over. */
static void
text_marked_vertices(struct sht_text *t, const struct sht_board *b, const uint8_t *flags)
{
	int w = sht_board_width(b), h = sht_board_height(b);
	int first_point = sht_board_point(b, 0, 0), end = sht_board_point(b, w - 1, h - 1) + 1;
	int stride = h > 1 ? sht_board_point(b, 0, 1) - first_point : w, y = 0, row = first_point;
	bool first = true;

	for (int p = first_point; p < end; p += 8) {
		uint64_t eight = 0;
		int n = end - p < 8 ? end - p : 8;

		memcpy(&eight, flags + p, (size_t)n);
		while (eight != 0) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			int k = __builtin_ctzll(eight) >> 3, q = p + k;
#else
			int k = 0, q;

			while (((const uint8_t *)&eight)[k] == 0)
				k++;
			q = p + k;
#endif
			((uint8_t *)&eight)[k] = 0;
			while (q >= row + stride) {
				row += stride;
				y++;
			}
			if (q - row >= w)
				continue;
			if (!first)
				sht_text_char(t, ',');
			text_vertex_xy(t, b, q - row, y);
			first = false;
		}
	}
}

void
sht_text_score(struct sht_text *t, const struct sht_ruleset *rs, const struct sht_replay *replay,
    const struct sht_score_report *rep)
{
	const struct sht_board *b = replay->board;
	int w = sht_board_width(b), h = sht_board_height(b);
	bool first;

	sht_text_lit(t, "{\"ruleset\":");
	sht_text_string(t, rs->name);
	sht_text_lit(t, ",\"how\":");
	sht_text_string(t, sht_decision_name(rep->decision));
	/* The ruleset, how the game was decided and its result; then the count of the final
	 * position (and, for a game decided otherwise, the count's own result in `count`). */
	text_result_members(t, &rep->result, rep->decision, true, true);
	sht_text_lit(t, ",\"black\":");
	text_side(t, &rep->result.black, false, rep->result.bonus[SHT_RP_BLACK]);
	sht_text_lit(t, ",\"white\":");
	text_side(t, &rep->result.white, true, rep->result.bonus[SHT_RP_WHITE]);
	/* Dead and seki stones in board order, then the owner of every point a row at a time.
	 * Points of a row are consecutive: the board is a padded array of rows (HACKING.md). */
	sht_text_lit(t, ",\"dead\":[");
	text_marked_vertices(t, b, rep->dead);
	sht_text_lit(t, "],\"seki\":[");
	text_marked_vertices(t, b, rep->seki);
	sht_text_lit(t, "],\"ownership\":[");
	for (int y = 0, p0 = sht_board_point(b, 0, 0),
	    stride = h > 1 ? sht_board_point(b, 0, 1) - p0 : w; y < h; y++) {
		static const char owner_char[4] = { '.', 'X', 'O', '.' };
		/* owner_char of two points: index bits 0-1 black's, 2-3 white's, low bit first. */
		static const char owner_pairs[16][2] = {
			{ '.', '.' }, { 'X', '.' }, { '.', 'X' }, { 'X', 'X' },
			{ 'O', '.' }, { '.', '.' }, { 'O', 'X' }, { '.', 'X' },
			{ '.', 'O' }, { 'X', 'O' }, { '.', '.' }, { 'X', '.' },
			{ 'O', 'O' }, { '.', 'O' }, { 'O', '.' }, { '.', '.' },
		};
		int p = p0 + y * stride, i = p >> 6, s = p & 63;
		/* The row's bits of each colour's area, from column 0. */
		uint64_t black = rep->owner.black[i] >> s, white = rep->owner.white[i] >> s;
		char row[SHT_MAX_SIZE + 3];

		if (s + w > 64) {
			black |= rep->owner.black[i + 1] << (64 - s);
			white |= rep->owner.white[i + 1] << (64 - s);
		}
		int x = 0;

		row[0] = row[w + 1] = '"';
		row[w + 2] = ',';
		/* Two points at a time: their four bits pick two characters. */
		for (; x + 2 <= w; x += 2, black >>= 2, white >>= 2)
			memcpy(row + x + 1, owner_pairs[(black & 3) | (white & 3) << 2], 2);
		if (x < w)
			row[x + 1] = owner_char[(black & 1) | (white & 1) << 1];
		sht_text_bytes(t, row, (size_t)w + (y + 1 < h ? 3 : 2));
	}
	sht_text_lit(t, "],\"notes\":[");
	first = true;
	for (int i = 0; i < rep->nnotes; i++)
		text_array_string(t, rep->notes[i], &first);
	sht_text_char(t, ']');
	if (rep->decision != SHT_DECISION_COUNT) {
		size_t before = t->len;

		sht_text_lit(t, ",\"count\":{");
		if (text_result_members(t, &rep->count, SHT_DECISION_COUNT, false, false))
			sht_text_char(t, '}');
		else
			t->len = before;
	}
	if (rep->confidence != NULL) {
		/* One digit a point: how sure the playouts are of its owner, in tenths. */
		sht_text_lit(t, ",\"ownership_confidence\":[");
		for (int y = 0; y < h; y++) {
			char row[SHT_MAX_SIZE + 3];

			row[0] = row[w + 1] = '"';
			row[w + 2] = ',';
			for (int x = 0, p = sht_board_point(b, 0, y); x < w; x++, p++) {
				int c = rep->confidence[p] / 100;

				row[x + 1] = (char)('0' + (c > 9 ? 9 : c));
			}
			sht_text_bytes(t, row, (size_t)w + (y + 1 < h ? 3 : 2));
		}
		sht_text_char(t, ']');
	}
	if (rep->settle != NULL) {
		/* The settle step's moves, in the order played on the copy that was counted. */
		sht_text_lit(t, ",\"settle\":[");
		for (int i = 0; i < rep->nsettle; i++) {
			const struct sht_settle_move *m = &rep->settle[i];

			sht_text_lit(t, "{\"move\":");
			sht_text_vertex(t, b, m->point);
			sht_text_lit(t, ",\"color\":");
			sht_text_string(t, m->color == SHT_BLACK ? "B" : "W");
			sht_text_lit(t, ",\"reason\":");
			sht_text_string(t, sht_settle_reason_name(m->reason));
			if (m->unsure)
				sht_text_lit(t, ",\"unsure\":true}");
			else
				sht_text_lit(t, ",\"unsure\":false}");
			if (i + 1 < rep->nsettle)
				sht_text_char(t, ',');
		}
		sht_text_char(t, ']');
	}
	sht_text_char(t, '}');
}

json_t *
sht_json_score(const struct sht_ruleset *rs, const struct sht_replay *replay,
    const struct sht_score_report *rep)
{
	/* One writer for the score object: the jansson value is its text read back. */
	struct sht_text t;
	json_t *v = NULL;

	sht_text_init(&t, 4096);
	sht_text_score(&t, rs, replay, rep);
	if (!t.failed)
		v = sht_json_read(t.s, t.len, 0, NULL);
	sht_text_free(&t);
	return v;
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
