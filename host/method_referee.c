/* Method `referee`: a game's event log, or a record's moves, read from the request and ruled by the referee (referee.c); the rulings and the outcome as JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "method.h"
#include "render.h"

/* The protocol's spelling of each event type, tied to its enum by designated initialisers. */
static const char *const event_names[] = { [SHT_EVENT_MOVE] = "move",
	[SHT_EVENT_PASS] = "pass", [SHT_EVENT_SEAL] = "seal", [SHT_EVENT_RESIGN] = "resign",
	[SHT_EVENT_TAKE_BACK] = "take_back", [SHT_EVENT_DISTURB] = "disturb" };

static const char *
color_letter(int c)
{
	return c == SHT_BLACK ? "B" : "W";
}

static json_t *
warnings_json(const struct sht_replay *r)
{
	return json_pack("{s:i, s:i}", "B", r->warnings[SHT_BLACK], "W", r->warnings[SHT_WHITE]);
}

static bool
parse_event(const struct sht_board *b, const json_t *e, size_t i, int64_t *last_at,
    struct sht_referee_event *out, struct sht_error *err)
{
	const char *type = json_string_value(json_object_get(e, "type"));
	const char *color = json_string_value(json_object_get(e, "color"));
	const char *vertex = json_string_value(json_object_get(e, "vertex"));
	enum sht_duration_found found;
	bool known = false;

	memset(out, 0, sizeof(*out));
	for (int k = 0; type != NULL && k < (int)(sizeof(event_names) / sizeof(event_names[0]));
	    k++)
		if (strcmp(type, event_names[k]) == 0) {
			out->type = k;
			known = true;
		}
	if (!json_is_object(e) || !known)
		return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "events[%zu]: type must be move, "
		    "pass, seal, resign, take_back or disturb", i);
	if (color != NULL && strcmp(color, "B") != 0 && strcmp(color, "W") != 0)
		return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "events[%zu]: color must be B or W",
		    i);
	out->color = color == NULL ? 0 : color[0] == 'B' ? SHT_BLACK : SHT_WHITE;
	if (out->color == 0 && out->type >= SHT_EVENT_RESIGN)
		return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "events[%zu]: a %s needs its color",
		    i, type);
	if (out->type == SHT_EVENT_MOVE || out->type == SHT_EVENT_SEAL) {
		out->point = vertex ? sht_vertex_parse(b, vertex) : SHT_NO_POINT;
		if (out->point == SHT_NO_POINT)
			return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "events[%zu]: vertex must be a "
			    "point of the board such as D4, or pass", i);
		if (out->point == SHT_PASS)
			out->type = SHT_EVENT_PASS;
	} else {
		out->point = SHT_PASS;
	}
	found = sht_json_duration(e, last_at, &out->ms);
	if (found == SHT_DURATION_UNUSABLE)
		return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "events[%zu]: the time must be "
		    "\"ms\" (a whole number), \"seconds\", or \"at_ms\" not before the last", i);
	out->timed = found == SHT_DURATION_FOUND;
	return true;
}

/* `setup`: {"B": ["D4", ...], "W": [...]}, stones on the board before the first event.  A point
 * in both lists is no position: refused, naming it. */
static bool
place_setup(const json_t *setup, struct sht_replay *r, struct sht_error *err)
{
	signed char *listed;
	const char *key;
	json_t *list;

	if (setup == NULL)
		return true;
	if (!json_is_object(setup))
		return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "setup must be {\"B\": [\"D4\", ...], "
		    "\"W\": [...]}");
	listed = calloc((size_t)sht_board_capacity(r->board), 1);
	if (listed == NULL)
		return sht_error_set(err, SHT_ERROR_INTERNAL, "out of memory");
	json_object_foreach((json_t *)setup, key, list) {
		size_t i;
		json_t *v;
		int color = strcmp(key, "B") == 0 ? SHT_BLACK : strcmp(key, "W") == 0 ? SHT_WHITE : 0;

		if (color == 0 || !json_is_array(list)) {
			free(listed);
			return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "setup: keys are B and W, each a "
			    "list of vertices");
		}
		json_array_foreach(list, i, v) {
			int p = json_is_string(v) ? sht_vertex_parse(r->board, json_string_value(v)) :
			    SHT_NO_POINT;

			if (p == SHT_NO_POINT || p == SHT_PASS) {
				free(listed);
				return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "setup.%s[%zu] is not a "
				    "point of the board", key, i);
			}
			if (listed[p] != 0 && listed[p] != color) {
				free(listed);
				return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "setup.%s[%zu]: %.20s is "
				    "also in setup.%s (a point holds one stone)", key, i,
				    json_string_value(v), color == SHT_BLACK ? "W" : "B");
			}
			listed[p] = (signed char)color;
			sht_board_setup(r->board, (enum sht_color)color, p);
		}
	}
	free(listed);
	return true;
}

/* The events of a record: its moves, timed when it has BL/WL and a time control (its own TM
 * and OT, or the request's); *timed says whether they are. */
static bool
events_from_record(const struct sht_game *game, struct sht_referee *ref,
    struct sht_clock_spec *clock, enum sht_clock_source source, bool *timed,
    struct sht_referee_event **evs, int *n, struct sht_error *err)
{
	struct sht_timed_move *moves = NULL;
	int nmoves = 0;
	struct sht_error terr;
	bool ok;

	/* Without the time left after every move the events are ruled without a clock. */
	*timed = game->sgf != NULL && sht_timed_moves_from_sgf(game, clock, source, &moves,
	    &nmoves, &terr);
	if (!*timed)
		moves = NULL;
	ok = sht_referee_events_from_game(ref, game, moves, nmoves, evs, n, err);
	free(moves);
	return ok;
}

/* One ruling as the protocol writes it. */
static json_t *
ruling_json(const struct sht_referee *ref, int index, const struct sht_referee_event *ev,
    const struct sht_referee_ruling *ruling)
{
	json_t *row = json_pack("{s:i, s:s, s:s}", "event", index, "type", event_names[ev->type],
	    "color", color_letter(ruling->color));

	if (ev->type == SHT_EVENT_MOVE || ev->type == SHT_EVENT_SEAL)
		json_object_set_new(row, "vertex", sht_json_vertex(ref->replay.board, ev->point));
	if (ruling->clocked) {
		json_object_set_new(row, "clock", sht_clock_state_json(&ref->clock, &ruling->clock));
		json_object_set_new(row, "calls", sht_clock_calls_json(ref->clock.kind,
		    ruling->calls, ruling->ncalls, ruling->game_ms));
	}
	json_object_set_new(row, "ruling", json_string(sht_ruling_name(ruling->ruling)));
	if (ruling->reason[0] != '\0')
		json_object_set_new(row, "reason", json_string(ruling->reason));
	json_object_set_new(row, "warnings", warnings_json(&ref->replay));
	return row;
}

/* When the last ruling called for the count: the dead stones the request names (they must be
 * stones of the final position, so they are read only now), and the count. */
static void
count_if_due(const struct sht_context *ctx, struct sht_referee *ref, json_t *params)
{
	struct sht_dead_spec *dead;
	struct sht_error err;

	if (!ref->counting_due)
		return;
	dead = malloc(sizeof(*dead));
	if (dead == NULL)
		sht_referee_count(ref, NULL, "out of memory");
	else if (!sht_params_dead(ctx, params, ref->rs, ref->replay.board, dead, &err))
		sht_referee_count(ref, NULL, err.message);
	else
		sht_referee_count(ref, dead, NULL);
	free(dead);
}

static json_t *
outcome_json(const struct sht_referee *ref)
{
	const struct sht_score_result *r = &ref->result;
	json_t *o;

	if (!ref->over)
		return json_pack("{s:s, s:n, s:s, s:s}", "how", "playing", "winner", "re", "", "text",
		    "the game goes on");
	o = json_pack("{s:s, s:s?, s:s, s:s, s:{s:s}, s:i}", "how", sht_decision_name(
	    ref->decision), "winner", r->winner == SHT_WINNER_BLACK ? "B" : r->winner ==
	    SHT_WINNER_WHITE ? "W" : NULL, "re", r->re, "text", r->text, "native", "text",
	    r->native_text, "event", ref->end_event);
	if (ref->scored)
		json_object_set_new(o, "score", sht_json_score(ref->rs, &ref->replay, &ref->count));
	return o;
}

static json_t *
sht_method_referee(const struct sht_context *ctx, json_t *params, struct sht_error *err)
{
	json_t *name = json_object_get(params, "ruleset"), *list = json_object_get(params, "events");
	json_t *size = json_object_get(params, "size"), *rows, *out;
	const struct sht_ruleset *rs;
	struct sht_referee ref;
	struct sht_referee_event *evs = NULL;
	struct sht_clock_spec clock;
	enum sht_clock_source clock_source;
	struct sht_game game;
	bool have_game = false, timed;
	int n = 0, w, h, komi = 0;
	bool komi_given;
	int64_t last_at = 0;

	if (!json_is_string(name))
		return sht_fail(err, SHT_ERROR_BAD_PARAMS, "ruleset is required: the referee rules "
		    "under one ruleset");
	if ((rs = sht_registry_find(ctx->registry, json_string_value(name))) == NULL)
		return sht_fail(err, SHT_ERROR_UNKNOWN_RULESET, "unknown ruleset '%.60s' (see method "
		    "rulesets)", json_string_value(name));
	if (!sht_params_clock(ctx, params, &clock, &clock_source, err) ||
	    !sht_params_komi(params, &komi, &komi_given, err))
		return NULL;
	timed = clock_source != SHT_CLOCK_FROM_NONE;
	w = rs->setup.width;
	h = rs->setup.height;
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
	if (list != NULL && (!json_is_array(list) || json_array_size(list) > 100000))
		return sht_fail(err, SHT_ERROR_BAD_PARAMS, "events must be a list such as "
		    "[{\"type\": \"move\", \"color\": \"B\", \"vertex\": \"D4\", \"seconds\": 12}]");
	/* A record brings its own board. */
	if (list == NULL) {
		if (!sht_game_from_params(ctx, json_object_get(params, "game"), w, h, &game,
		    err))
			return NULL;
		have_game = true;
	}
	/* Room for every event, or for a record's moves. */
	if (!sht_referee_begin(&ref, rs, have_game ? &game : NULL, w, h, list ?
	    (int)json_array_size(list) : game.g.nmoves + 1, komi_given ? &komi : NULL, err) ||
	    !place_setup(json_object_get(params, "setup"), &ref.replay, err)) {
		if (have_game)
			sht_game_free(&game);
		sht_referee_free(&ref);
		return NULL;
	}
	if (list != NULL) {
		evs = calloc(json_array_size(list) + 1, sizeof(*evs));
		if (evs == NULL) {
			sht_referee_free(&ref);
			return sht_fail(err, SHT_ERROR_INTERNAL, "out of memory");
		}
		for (size_t i = 0; i < json_array_size(list); i++, n++)
			if (!parse_event(ref.replay.board, json_array_get(list, i), i, &last_at, &evs[i],
			    err)) {
				free(evs);
				sht_referee_free(&ref);
				return NULL;
			}
	} else {
		bool record_timed, ok = events_from_record(&game, &ref, &clock, clock_source,
		    &record_timed, &evs, &n, err);

		timed = timed || record_timed;
		sht_game_free(&game);
		if (!ok) {
			sht_referee_free(&ref);
			return NULL;
		}
	}
	if (timed)
		sht_referee_start_clock(&ref, &clock);
	rows = json_array();
	for (int i = 0; i < n; i++) {
		struct sht_referee_ruling ruling;

		sht_referee_rule(&ref, i, &evs[i], &ruling);
		count_if_due(ctx, &ref, params);
		json_array_append_new(rows, ruling_json(&ref, i, &evs[i], &ruling));
	}
	out = json_pack("{s:s, s:o, s:o, s:o, s:o}", "ruleset", rs->name, "time_control",
	    timed ? sht_clock_spec_json(&clock) : json_null(), "events", rows, "warnings",
	    warnings_json(&ref.replay), "outcome", outcome_json(&ref));
	free(evs);
	sht_referee_free(&ref);
	return out;
}

static const char *const referee_params[] = { "ruleset", "clock", "events", "game", "size",
	"dead", "setup", "komi", NULL };

const struct sht_method_entry sht_method_referee_entry = {
	.name = "referee",
	.summary = "A game's event log ruled event by event under a ruleset, and the outcome.",
	.params = referee_params,
	.usage = "referee FILE|- -r RULESET [--clock type=...,main=...] "
	    "[--dead auto|auto-thorough|none|V,V,...] [--komi X] [--tree N] [--json [--compact]]",
	.pure = true,
	/* The dead-stone judge runs only for a log that ends in counting; most requests rule on a
	 * game still being played, and a wrong guess only moves a request between queues. */
	.cost = SHT_COST_LIGHT,
	.run = sht_method_referee,
};
