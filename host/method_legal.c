/* Method `legal`: whether a move may be played next, why not, what the ruleset does, what it takes. */
#include <string.h>
#include <strings.h>

#include "method.h"
#include "render.h"

static json_t *
sht_method_legal(const struct sht_context *ctx, json_t *params, struct sht_error *err)
{
	json_t *mv = json_object_get(params, "move"), *captures, *out;
	const struct sht_ruleset *rs;
	struct sht_game game;
	struct sht_replay replay;
	struct sht_move_info info;
	const char *text, *sp;
	int color, point, violation = 0;

	text = json_is_string(mv) ? json_string_value(mv) : NULL;
	sp = text ? strchr(text, ' ') : NULL;
	if (sp == NULL || (sp - text != 1 && sp - text != 5))
		return sht_fail(err, SHT_ERROR_BAD_PARAMS, "move must be a string such as \"B D4\" "
		    "or \"W pass\"");
	if (strncasecmp(text, "b", 1) == 0 && (sp - text == 1 || strncasecmp(text, "black", 5) == 0))
		color = SHT_BLACK;
	else if (strncasecmp(text, "w", 1) == 0 && (sp - text == 1 || strncasecmp(text, "white", 5) == 0))
		color = SHT_WHITE;
	else
		return sht_fail(err, SHT_ERROR_BAD_PARAMS, "move: the colour must be B or W");
	if (!sht_params_ruleset_game(ctx, params, &rs, &game, err))
		return NULL;
	if (!sht_judge_replay(rs, &game, NULL, &replay, err)) {
		sht_game_free(&game);
		return NULL;
	}
	sht_game_free(&game);
	while (*sp == ' ')
		sp++;
	point = sht_vertex_parse(replay.board, sp);
	if (point == SHT_NO_POINT) {
		/* The message reads the board: say it before the replay (and its board) goes. */
		sht_fail(err, SHT_ERROR_BAD_PARAMS, "move: '%.20s' is not a vertex of the %dx%d board",
		    sp, sht_board_width(replay.board), sht_board_height(replay.board));
		sht_replay_free(&replay);
		return NULL;
	}
	captures = json_array();
	if (replay.end == SHT_END_LOSS || replay.end == SHT_END_DRAW ||
	    replay.end == SHT_END_NO_RESULT) {
		out = json_pack("{s:b, s:s, s:s, s:o, s:s}", "legal", 0, "reason", "game_over",
		    "consequence", "reject", "captures", captures, "why", replay.end_reason);
		sht_replay_free(&replay);
		return out;
	}
	if (color != (int)sht_board_to_move(replay.board))
		violation = SHT_VIOLATION_NOT_YOUR_TURN;
	else if (sht_board_check(replay.board, color, point, &info) != SHT_LEGAL)
		violation = (int)info.verdict;
	if (violation == 0) {
		struct sht_board_snapshot *snap = sht_board_snapshot_new(replay.board);
		const int *removed;
		int n;

		if (snap == NULL) {
			json_decref(captures);
			sht_replay_free(&replay);
			return sht_fail(err, SHT_ERROR_INTERNAL, "out of memory");
		}
		/* Play it to see what it takes, then put the board back. */
		sht_board_save(replay.board, snap);
		sht_board_play(replay.board, color, point, &info);
		n = sht_board_last_removed(replay.board, &removed);
		for (int i = 0; i < n; i++)
			json_array_append_new(captures, sht_json_vertex(replay.board, removed[i]));
		sht_board_restore(replay.board, snap);
		sht_board_snapshot_free(snap);
		out = json_pack("{s:b, s:n, s:s, s:o}", "legal", 1, "reason", "consequence", "none",
		    "captures", captures);
		if (info.suicided > 0)
			json_object_set_new(out, "suicide", json_integer(info.suicided));
	} else {
		enum sht_consequence cons = sht_ruleset_consequence(rs, violation);

		out = json_pack("{s:b, s:s, s:s, s:o}", "legal", 0, "reason",
		    sht_violation_name(violation), "consequence",
		    cons == SHT_CONSEQUENCE_REJECT ? "reject" : sht_consequence_name(cons),
		    "captures", captures);
	}
	sht_replay_free(&replay);
	return out;
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
};
