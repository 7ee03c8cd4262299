/* Method `referee`: a game's event log ruled event by event under a ruleset, and the outcome. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "method.h"
#include "render.h"

enum event_type { EV_MOVE, EV_PASS, EV_SEAL, EV_RESIGN, EV_TAKE_BACK, EV_DISTURB };

static const char *const event_names[] = { "move", "pass", "seal", "resign", "take_back",
	"disturb" };

struct event {
	int type;
	int color;       /* 0: the player to move */
	int point;       /* for moves */
	bool timed;
	int64_t ms;
};

/* The game so far, as the referee keeps it. */
struct game_state {
	const struct sht_ruleset *rs;
	struct sht_replay replay;
	int to_move, number;
	bool timed;
	enum sht_clock_source clock_source;
	struct sht_clock_spec clock;
	struct sht_clock_state clocks[3];
	struct sht_clock_call *calls;
	int64_t game_ms;            /* the clocks' time so far, both players together */
	json_t *outcome;            /* NULL while the game goes on */
};

static const char *
color_letter(int c)
{
	return c == SHT_BLACK ? "B" : "W";
}

static json_t *
warnings_json(const struct game_state *g)
{
	return json_pack("{s:i, s:i}", "B", g->replay.warnings[SHT_BLACK], "W",
	    g->replay.warnings[SHT_WHITE]);
}

/* The game ends: `how`, the winner (0: none), the result as SGF's RE writes it, and why. */
static void
end_game(struct game_state *g, int index, const char *how, int winner, const char *re,
    const char *text)
{
	g->outcome = json_pack("{s:s, s:s?, s:s, s:s, s:i}", "how", how, "winner",
	    winner ? color_letter(winner) : NULL, "re", re, "text", text, "event", index);
}

static bool
parse_event(const struct sht_board *b, const json_t *e, size_t i, int64_t *last_at,
    struct event *out, struct sht_error *err)
{
	const char *type = json_string_value(json_object_get(e, "type"));
	const char *color = json_string_value(json_object_get(e, "color"));
	const char *vertex = json_string_value(json_object_get(e, "vertex"));
	int found;

	memset(out, 0, sizeof(*out));
	out->type = -1;
	for (int k = 0; type != NULL && k < (int)(sizeof(event_names) / sizeof(event_names[0]));
	    k++)
		if (strcmp(type, event_names[k]) == 0)
			out->type = k;
	if (!json_is_object(e) || out->type < 0)
		return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "events[%zu]: type must be move, "
		    "pass, seal, resign, take_back or disturb", i);
	if (color != NULL && strcmp(color, "B") != 0 && strcmp(color, "W") != 0)
		return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "events[%zu]: color must be B or W",
		    i);
	out->color = color == NULL ? 0 : color[0] == 'B' ? SHT_BLACK : SHT_WHITE;
	if (out->color == 0 && out->type >= EV_RESIGN)
		return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "events[%zu]: a %s needs its color",
		    i, type);
	if (out->type == EV_MOVE || out->type == EV_SEAL) {
		out->point = vertex ? sht_vertex_parse(b, vertex) : SHT_NO_POINT;
		if (out->point == SHT_NO_POINT)
			return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "events[%zu]: vertex must be a "
			    "point of the board such as D4, or pass", i);
		if (out->point == SHT_PASS)
			out->type = EV_PASS;
	} else {
		out->point = SHT_PASS;
	}
	found = sht_json_duration(e, last_at, &out->ms);
	if (found < 0)
		return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "events[%zu]: the time must be "
		    "\"ms\" (a whole number), \"seconds\", or \"at_ms\" not before the last", i);
	out->timed = found == 1;
	return true;
}

/* The clock for a move: false when the flag fell (the game is then over). */
static bool
run_clock(struct game_state *g, int index, const struct event *ev, int color, json_t *row)
{
	int ncalls;
	int64_t flag_ms;
	bool in_time;

	in_time = sht_clock_move(&g->clock, &g->clocks[color], ev->ms, g->calls, SHT_MAX_CALLS,
	    &ncalls, &flag_ms);
	json_object_set_new(row, "clock", sht_clock_state_json(&g->clock, &g->clocks[color]));
	json_object_set_new(row, "calls", sht_clock_calls_json(g->clock.kind, g->calls, ncalls,
	    g->game_ms));
	g->game_ms += in_time ? ev->ms : flag_ms;
	if (!in_time) {
		char text[160], re[8];

		snprintf(re, sizeof(re), "%s+T", color_letter(SHT_OTHER(color)));
		snprintf(text, sizeof(text), "%s loses on time, %lld ms into the move",
		    color == SHT_BLACK ? "Black" : "White", (long long)flag_ms);
		end_game(g, index, "time", SHT_OTHER(color), re, text);
	}
	return in_time;
}

/* A move, pass or sealed move, as the ruleset rules on it. */
static void
rule_move(struct game_state *g, int index, const struct event *ev, int color, json_t *row,
    json_t *params)
{
	const struct sht_replay *r = &g->replay;
	int cons, violation;
	char why[200];

	cons = sht_judge_move(g->rs, &g->replay, color, ev->point, ++g->number, false,
	    &g->to_move);
	violation = r->nmoves > 0 ? r->moves[r->nmoves - 1].violation : 0;
	if (cons == -1) {
		json_object_set_new(row, "ruling", json_string("accepted"));
		if (ev->type == EV_SEAL)
			json_object_set_new(row, "reason", json_string("sealed at adjournment; the "
			    "move stands and is revealed when play resumes"));
	} else if (cons == SHT_CONSEQUENCE_REJECT || cons == -2) {
		g->number--;
		g->replay.nmoves -= cons == SHT_CONSEQUENCE_REJECT;
		snprintf(why, sizeof(why), "not a move (%s): the player plays again",
		    cons == -2 ? "too many moves" : sht_violation_text(violation));
		json_object_set_new(row, "ruling", json_string("refused"));
		json_object_set_new(row, "reason", json_string(why));
	} else {
		static const char *const rulings[] = { "refused", "void", "loss", "warning" };

		snprintf(why, sizeof(why), "%s%s", sht_violation_text(violation),
		    cons == SHT_CONSEQUENCE_LOSS ? ": the game is lost" :
		    violation == SHT_VIOLATION_NOT_YOUR_TURN ? ": the move is taken back" :
		    ": the move is void and the turn is lost");
		json_object_set_new(row, "ruling", json_string(r->end == SHT_END_LOSS ? "loss" :
		    rulings[cons]));
		json_object_set_new(row, "reason", json_string(r->end == SHT_END_LOSS ?
		    r->end_reason : why));
	}
	if (r->end == SHT_END_LOSS) {
		char re[8];

		snprintf(re, sizeof(re), "%s+F", color_letter(SHT_OTHER(r->end_player)));
		end_game(g, index, r->warnings[r->end_player] >= g->rs->setup.warnings_to_lose &&
		    g->rs->setup.warnings_to_lose > 0 ? "forfeit" : "infraction",
		    SHT_OTHER(r->end_player), re, r->end_reason);
		return;
	}
	if (r->end == SHT_END_DRAW || r->end == SHT_END_NO_RESULT) {
		end_game(g, index, r->end == SHT_END_DRAW ? "draw" : r->cycle_outcome ==
		    SHT_CYCLE_REPLAY ? "replay" : "no_result", 0, r->end == SHT_END_DRAW ? "0" :
		    "Void", r->end_reason);
		return;
	}
	sht_judge_check_end(g->rs, &g->replay);
	if (r->end == SHT_END_ENDED) {
		struct sht_dead_spec *dead = malloc(sizeof(*dead));
		struct sht_score_report rep;
		struct sht_error err;
		json_t *score;

		if (dead == NULL || !sht_params_dead(params, g->rs, r->board, dead, &err) ||
		    !sht_judge_score(g->rs, r, dead, &rep, &err)) {
			end_game(g, index, "counting", 0, "?", dead == NULL ? "out of memory" :
			    err.message);
			free(dead);
			return;
		}
		score = sht_json_score(g->rs, r, &rep);
		sht_score_report_free(&rep);
		free(dead);
		end_game(g, index, "counting", strcmp(json_string_value(json_object_get(score,
		    "winner")), "B") == 0 ? SHT_BLACK : strcmp(json_string_value(
		    json_object_get(score, "winner")), "W") == 0 ? SHT_WHITE : 0,
		    json_string_value(json_object_get(score, "re")),
		    json_string_value(json_object_get(score, "text")));
		json_object_set_new(g->outcome, "score", score);
	}
}

/* A move taken back, or stones disturbed by hand: the position is restored, then the penalty. */
static void
rule_infraction(struct game_state *g, int index, const struct event *ev, json_t *row)
{
	int violation = ev->type == EV_TAKE_BACK ? SHT_VIOLATION_TAKE_BACK : SHT_VIOLATION_DISTURBED;
	enum sht_consequence cons = sht_ruleset_consequence(g->rs, violation);
	int lose = g->rs->setup.warnings_to_lose;
	char why[200], re[8];

	snprintf(re, sizeof(re), "%s+F", color_letter(SHT_OTHER(ev->color)));
	if (cons == SHT_CONSEQUENCE_LOSS) {
		snprintf(why, sizeof(why), "%s: the game is lost", sht_violation_text(violation));
		json_object_set_new(row, "ruling", json_string("loss"));
		json_object_set_new(row, "reason", json_string(why));
		end_game(g, index, "infraction", SHT_OTHER(ev->color), re, why);
	} else if (cons == SHT_CONSEQUENCE_WARNING) {
		g->replay.warnings[ev->color]++;
		snprintf(why, sizeof(why), "%s: the stones are restored and a warning given (%d)",
		    sht_violation_text(violation), g->replay.warnings[ev->color]);
		json_object_set_new(row, "ruling", json_string(lose > 0 &&
		    g->replay.warnings[ev->color] >= lose ? "loss" : "warning"));
		json_object_set_new(row, "reason", json_string(why));
		if (lose > 0 && g->replay.warnings[ev->color] >= lose) {
			snprintf(why, sizeof(why), "%d warnings; the last for %s",
			    g->replay.warnings[ev->color], sht_violation_text(violation));
			end_game(g, index, "forfeit", SHT_OTHER(ev->color), re, why);
		}
	} else {
		snprintf(why, sizeof(why), "%s: the stones are restored; this ruleset gives no "
		    "penalty", sht_violation_text(violation));
		json_object_set_new(row, "ruling", json_string("restored"));
		json_object_set_new(row, "reason", json_string(why));
	}
}

/* The events of an SGF record: its moves, timed when it has BL/WL and a time control. */
static bool
events_from_sgf(const struct sht_game *game, struct game_state *g, struct event **evs, int *n,
    struct sht_error *err)
{
	struct sht_timed_move *timed = NULL;
	int ntimed = 0, k = 0;
	struct sht_error terr;

	/* Timed when the record has a time control (or the request gives one) and the time left
	 * after every move; otherwise the events are ruled without a clock. */
	if (game->sgf != NULL && sht_timed_moves_from_sgf(game, &g->clock, g->clock_source, &timed,
	    &ntimed, &terr))
		g->timed = true;
	else
		timed = NULL;
	*evs = calloc((size_t)game->g.nmoves + 1, sizeof(**evs));
	if (*evs == NULL) {
		free(timed);
		return sht_error_set(err, SHT_ERROR_INTERNAL, "out of memory");
	}
	*n = 0;
	for (int i = 0; i < game->g.nevents; i++) {
		const struct sht_sgf_event *e = &game->g.events[i];
		struct event *ev;

		if (e->kind != SHT_SGF_MOVE)
			continue;
		ev = &(*evs)[(*n)++];
		ev->type = e->x < 0 ? EV_PASS : EV_MOVE;
		ev->color = e->color;
		ev->point = e->x < 0 ? SHT_PASS : sht_board_point(g->replay.board, e->x, e->y);
		if (ev->point == SHT_NO_POINT) {
			free(*evs);
			free(timed);
			return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "move %d is off the board",
			    e->move_number);
		}
		if (timed != NULL && k < ntimed) {
			ev->timed = true;
			ev->ms = timed[k++].ms;
		}
	}
	free(timed);
	return true;
}

/* `setup`: {"B": ["D4", ...], "W": [...]}, stones on the board before the first event. */
static bool
place_setup(const json_t *setup, struct sht_replay *r, struct sht_error *err)
{
	const char *key;
	json_t *list;

	if (setup == NULL)
		return true;
	if (!json_is_object(setup))
		return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "setup must be {\"B\": [\"D4\", ...], "
		    "\"W\": [...]}");
	json_object_foreach((json_t *)setup, key, list) {
		size_t i;
		json_t *v;
		int color = strcmp(key, "B") == 0 ? SHT_BLACK : strcmp(key, "W") == 0 ? SHT_WHITE : 0;

		if (color == 0 || !json_is_array(list))
			return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "setup: keys are B and W, each a "
			    "list of vertices");
		json_array_foreach(list, i, v) {
			int p = json_is_string(v) ? sht_vertex_parse(r->board, json_string_value(v)) :
			    SHT_NO_POINT;

			if (p == SHT_NO_POINT || p == SHT_PASS)
				return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "setup.%s[%zu] is not a point "
				    "of the board", key, i);
			sht_board_setup(r->board, (enum sht_color)color, p);
		}
	}
	return true;
}

static json_t *
sht_method_referee(const struct sht_context *ctx, json_t *params, struct sht_error *err)
{
	struct game_state g;
	json_t *name = json_object_get(params, "ruleset"), *list = json_object_get(params, "events");
	json_t *size = json_object_get(params, "size"), *rows, *out;
	struct event *evs = NULL;
	struct sht_game game;
	bool have_game = false;
	int n = 0, w, h, komi = 0;
	bool komi_given;
	int64_t last_at = 0;

	memset(&g, 0, sizeof(g));
	if (!json_is_string(name))
		return sht_fail(err, SHT_ERROR_BAD_PARAMS, "ruleset is required: the referee rules "
		    "under one ruleset");
	if ((g.rs = sht_registry_find(ctx->registry, json_string_value(name))) == NULL)
		return sht_fail(err, SHT_ERROR_UNKNOWN_RULESET, "unknown ruleset '%.60s' (see method "
		    "rulesets)", json_string_value(name));
	if (!sht_params_clock(ctx, params, &g.clock, &g.clock_source, err) ||
	    !sht_params_komi(params, &komi, &komi_given, err))
		return NULL;
	g.timed = g.clock_source != SHT_CLOCK_FROM_NONE;
	w = g.rs->setup.width;
	h = g.rs->setup.height;
	if (size != NULL) {
		if (!json_is_integer(size) || json_integer_value(size) < SHT_MIN_SIZE ||
		    json_integer_value(size) > SHT_MAX_SIZE)
			return sht_fail(err, SHT_ERROR_BAD_PARAMS, "size must be a whole number from "
			    "%d to %d", SHT_MIN_SIZE, SHT_MAX_SIZE);
		w = h = (int)json_integer_value(size);
	}
	if ((list == NULL) == (json_object_get(params, "game") == NULL))
		return sht_fail(err, SHT_ERROR_BAD_PARAMS, "give events (the game's event log) or "
		    "game (an SGF record), not both");
	/* A record brings its own board. */
	if (list == NULL) {
		if (!sht_game_from_json(json_object_get(params, "game"), w, h, &game, err))
			return NULL;
		have_game = true;
		if (game.has_size) {
			w = game.g.width;
			h = game.g.height;
		}
	}
	if (list != NULL && (!json_is_array(list) || json_array_size(list) > 100000))
		return sht_fail(err, SHT_ERROR_BAD_PARAMS, "events must be a list such as "
		    "[{\"type\": \"move\", \"color\": \"B\", \"vertex\": \"D4\", \"seconds\": 12}]");
	/* Room for every event, or for a record's moves. */
	if (!sht_judge_begin(g.rs, w, h, list ? (int)json_array_size(list) :
	    game.g.nmoves + 1, true, &g.replay, err) ||
	    !place_setup(json_object_get(params, "setup"), &g.replay, err)) {
		if (have_game)
			sht_game_free(&game);
		sht_replay_free(&g.replay);
		return NULL;
	}
	g.replay.komi = sht_judge_komi(g.rs, have_game ? &game : NULL, komi_given ? &komi : NULL);
	if (list != NULL) {
		evs = calloc(json_array_size(list) + 1, sizeof(*evs));
		if (evs == NULL) {
			sht_replay_free(&g.replay);
			return sht_fail(err, SHT_ERROR_INTERNAL, "out of memory");
		}
		for (size_t i = 0; i < json_array_size(list); i++, n++)
			if (!parse_event(g.replay.board, json_array_get(list, i), i, &last_at, &evs[i],
			    err)) {
				free(evs);
				sht_replay_free(&g.replay);
				return NULL;
			}
	} else {
		bool ok = events_from_sgf(&game, &g, &evs, &n, err);

		sht_game_free(&game);
		if (!ok) {
			sht_replay_free(&g.replay);
			return NULL;
		}
	}
	g.to_move = g.rs->setup.first_player;
	g.calls = malloc(sizeof(*g.calls) * SHT_MAX_CALLS);
	if (g.calls == NULL) {
		free(evs);
		sht_replay_free(&g.replay);
		return sht_fail(err, SHT_ERROR_INTERNAL, "out of memory");
	}
	if (g.timed) {
		sht_clock_start(&g.clock, &g.clocks[SHT_BLACK]);
		sht_clock_start(&g.clock, &g.clocks[SHT_WHITE]);
	}
	rows = json_array();
	for (int i = 0; i < n; i++) {
		const struct event *ev = &evs[i];
		int color = ev->color ? ev->color : g.to_move;
		json_t *row = json_pack("{s:i, s:s, s:s}", "event", i, "type", event_names[ev->type],
		    "color", color_letter(color));

		if (ev->type == EV_MOVE || ev->type == EV_SEAL) {
			char v[8];

			json_object_set_new(row, "vertex", json_string(sht_vertex_format(
			    g.replay.board, ev->point, v, sizeof(v))));
		}
		if (g.outcome != NULL) {
			json_object_set_new(row, "ruling", json_string("ignored"));
			json_object_set_new(row, "reason", json_string("the game is over"));
		} else if (ev->type == EV_RESIGN) {
			char re[8];

			snprintf(re, sizeof(re), "%s+R", color_letter(SHT_OTHER(color)));
			json_object_set_new(row, "ruling", json_string("accepted"));
			end_game(&g, i, "resignation", SHT_OTHER(color), re, color == SHT_BLACK ?
			    "Black resigns" : "White resigns");
		} else if (ev->type == EV_TAKE_BACK || ev->type == EV_DISTURB) {
			rule_infraction(&g, i, ev, row);
		} else if (g.timed && ev->timed && !run_clock(&g, i, ev, color, row)) {
			json_object_set_new(row, "ruling", json_string("loss"));
			json_object_set_new(row, "reason", json_string("the flag fell before the move"));
		} else {
			rule_move(&g, i, ev, color, row, params);
		}
		json_object_set_new(row, "warnings", warnings_json(&g));
		json_array_append_new(rows, row);
	}
	if (g.outcome == NULL)
		g.outcome = json_pack("{s:s, s:n, s:s, s:s}", "how", "playing", "winner", "re", "",
		    "text", "the game goes on");
	out = json_pack("{s:s, s:o, s:o, s:o, s:o}", "ruleset", g.rs->name, "time_control",
	    g.timed ? sht_clock_spec_json(&g.clock) : json_null(), "events", rows, "warnings",
	    warnings_json(&g), "outcome", g.outcome);
	free(g.calls);
	free(evs);
	sht_replay_free(&g.replay);
	return out;
}

static const char *const referee_params[] = { "ruleset", "clock", "events", "game", "size",
	"dead", "setup", "komi", NULL };

const struct sht_method_entry sht_method_referee_entry = {
	.name = "referee",
	.summary = "A game's event log ruled event by event under a ruleset, and the outcome.",
	.params = referee_params,
	.usage = "referee FILE|- -r RULESET [--clock type=...,main=...] [--dead auto|none|V,V,...] "
	    "[--tree N] [--json [--compact]]",
	.pure = true,
	/* The dead-stone judge runs only for a log that ends in counting; most requests rule on a
	 * game still being played, and a wrong guess only moves a request between queues. */
	.cost = SHT_COST_LIGHT,
	.run = sht_method_referee,
};
