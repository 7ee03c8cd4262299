/* Method `legal`: whether a move may be played next, why not, what the ruleset does, what it takes. */
#include <string.h>
#include <strings.h>

#include "method.h"
#include "render.h"

/* What `legal` answers, worked out once for its two forms (the jansson value, the text). */
struct legal_answer {
	struct sht_replay replay; /* owned: its board names the captured points */
	const char *reason;       /* NULL: legal */
	const char *consequence;  /* for an illegal move */
	const char *why;          /* game over: the replay's end reason, else NULL */
	const int *captures;      /* points the move takes, on replay.board */
	int ncaptures;
	int suicided;             /* own stones a legal multi-stone suicide removes */
};

static bool
legal_answer(const struct sht_context *ctx, json_t *params, struct legal_answer *a,
    struct sht_error *err)
{
	json_t *mv = json_object_get(params, "move");
	const struct sht_ruleset *rs;
	struct sht_game game;
	struct sht_move_info info;
	const char *text, *sp;
	int color, point, violation = 0;

	memset(a, 0, sizeof(*a));
	text = json_is_string(mv) ? json_string_value(mv) : NULL;
	sp = text ? strchr(text, ' ') : NULL;
	if (sp == NULL || (sp - text != 1 && sp - text != 5))
		return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "move must be a string such as "
		    "\"B D4\" or \"W pass\"");
	if (strncasecmp(text, "b", 1) == 0 && (sp - text == 1 || strncasecmp(text, "black", 5) == 0))
		color = SHT_BLACK;
	else if (strncasecmp(text, "w", 1) == 0 && (sp - text == 1 || strncasecmp(text, "white", 5) == 0))
		color = SHT_WHITE;
	else
		return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "move: the colour must be B or W");
	if (!sht_params_ruleset_game(ctx, params, &rs, &game, err))
		return false;
	if (!sht_judge_replay_cached(ctx->replays, rs, &game, NULL, &a->replay, err)) {
		sht_game_free(&game);
		return false;
	}
	sht_game_free(&game);
	while (*sp == ' ')
		sp++;
	point = sht_vertex_parse(a->replay.board, sp);
	if (point == SHT_NO_POINT) {
		/* The message reads the board: say it before the replay (and its board) goes. */
		sht_fail(err, SHT_ERROR_BAD_PARAMS, "move: '%.20s' is not a vertex of the %dx%d board",
		    sp, sht_board_width(a->replay.board), sht_board_height(a->replay.board));
		sht_replay_free(&a->replay);
		return false;
	}
	if (a->replay.end == SHT_END_LOSS || a->replay.end == SHT_END_DRAW ||
	    a->replay.end == SHT_END_NO_RESULT) {
		a->reason = "game_over";
		a->consequence = "reject";
		a->why = a->replay.end_reason;
		return true;
	}
	if (color != (int)sht_board_to_move(a->replay.board))
		violation = SHT_VIOLATION_NOT_YOUR_TURN;
	else if (sht_board_check(a->replay.board, color, point, &info) != SHT_LEGAL)
		violation = (int)info.verdict;
	if (violation == 0) {
		/* The check counted what the move takes.  A move that takes stones is played to
		 * name them, on the replay's own board, which goes with it, so it is not put back
		 * (a snapshot cost as much as the play); most take none, and the play's one more
		 * history state would grow the table the judge sized for the replay. */
		a->suicided = info.suicided;
		if (info.captured > 0 || info.suicided > 0) {
			sht_board_play(a->replay.board, color, point, &info);
			a->ncaptures = sht_board_last_removed(a->replay.board, &a->captures);
		}
	} else {
		enum sht_consequence cons = sht_ruleset_consequence(rs, violation);

		a->reason = sht_violation_name(violation);
		a->consequence = cons == SHT_CONSEQUENCE_REJECT ? "reject" : sht_consequence_name(cons);
	}
	return true;
}

static json_t *
sht_method_legal(const struct sht_context *ctx, json_t *params, struct sht_error *err)
{
	struct legal_answer a;
	json_t *captures, *out;

	if (!legal_answer(ctx, params, &a, err))
		return NULL;
	captures = json_array();
	for (int i = 0; i < a.ncaptures; i++)
		json_array_append_new(captures, sht_json_vertex(a.replay.board, a.captures[i]));
	if (a.why != NULL) {
		out = json_pack("{s:b, s:s, s:s, s:o, s:s}", "legal", 0, "reason", a.reason,
		    "consequence", a.consequence, "captures", captures, "why", a.why);
	} else if (a.reason == NULL) {
		out = json_pack("{s:b, s:n, s:s, s:o}", "legal", 1, "reason", "consequence", "none",
		    "captures", captures);
		if (a.suicided > 0)
			json_object_set_new(out, "suicide", json_integer(a.suicided));
	} else {
		out = json_pack("{s:b, s:s, s:s, s:o}", "legal", 0, "reason", a.reason, "consequence",
		    a.consequence, "captures", captures);
	}
	sht_replay_free(&a.replay);
	return out;
}

/* The same object written as text, member for member as json_dumps writes run's value. */
static bool
sht_method_legal_write(const struct sht_context *ctx, json_t *params, struct sht_text *out,
    struct sht_error *err)
{
	struct legal_answer a;
	bool ok = true;

	if (!legal_answer(ctx, params, &a, err))
		return false;
	if (a.reason == NULL) {
		sht_text_lit(out, "{\"legal\":true,\"reason\":null,\"consequence\":\"none\"");
	} else {
		sht_text_lit(out, "{\"legal\":false,\"reason\":");
		ok = sht_text_string(out, a.reason);
		sht_text_lit(out, ",\"consequence\":");
		ok = ok && sht_text_string(out, a.consequence);
	}
	sht_text_lit(out, ",\"captures\":[");
	for (int i = 0; i < a.ncaptures; i++) {
		char v[8];

		if (i > 0)
			sht_text_char(out, ',');
		ok = ok && sht_text_string(out, sht_vertex_format(a.replay.board, a.captures[i], v,
		    sizeof(v)));
	}
	sht_text_char(out, ']');
	if (a.why != NULL) {
		sht_text_lit(out, ",\"why\":");
		ok = ok && sht_text_string(out, a.why);
	}
	if (a.reason == NULL && a.suicided > 0) {
		sht_text_lit(out, ",\"suicide\":");
		sht_text_int(out, a.suicided);
	}
	sht_text_char(out, '}');
	sht_replay_free(&a.replay);
	if (!ok)
		sht_fail(err, SHT_ERROR_INTERNAL, "the result could not be written");
	return ok;
}

static const char *const legal_params[] = { "ruleset", "game", "move", NULL };

const struct sht_method_entry sht_method_legal_entry = {
	.name = "legal",
	.summary = "Whether a move may be played next, why not, what the ruleset does, what it takes.",
	.params = legal_params,
	.usage = "legal FILE|- MOVE [-r RULESET] [--tree N] [--json [--compact]]",
	.pure = true,
	.cost = SHT_COST_LIGHT,
	.run = sht_method_legal,
	.write = sht_method_legal_write,
};
