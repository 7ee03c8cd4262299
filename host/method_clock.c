/* Method `clock`: a game's time move by move, every call a referee makes, and the flag's fall. */
#include <stdlib.h>
#include <string.h>

#include "method.h"

static const char *const call_names[] = { "?", "seconds", "count", "minutes_left",
	"periods_left", "overtime", "time_lost" };

json_t *
sht_clock_spec_json(const struct sht_clock_spec *s)
{
	json_t *o = json_pack("{s:s, s:I}", "type", sht_clock_kind_name(s->kind), "main_ms",
	    (json_int_t)s->main_ms);

	switch (s->kind) {
	case SHT_CLOCK_BYOYOMI:
		json_object_set_new(o, "periods", json_integer(s->periods));
		json_object_set_new(o, "period_ms", json_integer(s->period_ms));
		break;
	case SHT_CLOCK_CANADIAN:
		json_object_set_new(o, "moves", json_integer(s->moves));
		json_object_set_new(o, "period_ms", json_integer(s->period_ms));
		break;
	case SHT_CLOCK_FISCHER:
		json_object_set_new(o, "increment_ms", json_integer(s->increment_ms));
		json_object_set_new(o, "delay_ms", json_integer(s->delay_ms));
		break;
	case SHT_CLOCK_DUMIAO:
		json_object_set_new(o, "periods", json_integer(s->periods));
		break;
	case SHT_CLOCK_MINUTES:
		json_object_set_new(o, "remainder_ms", json_integer(s->remainder_ms));
		break;
	}
	return o;
}

json_t *
sht_clock_state_json(const struct sht_clock_spec *spec, const struct sht_clock_state *st)
{
	json_t *o = json_pack("{s:I, s:b, s:I, s:i, s:b}", "main_ms", (json_int_t)st->main_ms,
	    "overtime", st->overtime, "used_ms", (json_int_t)st->used_ms, "moves", st->moves,
	    "flagged", st->flagged);

	if (spec->kind == SHT_CLOCK_BYOYOMI || spec->kind == SHT_CLOCK_DUMIAO)
		json_object_set_new(o, "periods", json_integer(st->periods));
	if (spec->kind == SHT_CLOCK_CANADIAN) {
		json_object_set_new(o, "period_left_ms", json_integer(st->period_left_ms));
		json_object_set_new(o, "moves_left", json_integer(st->moves_left));
	}
	return o;
}

json_t *
sht_clock_calls_json(int kind, const struct sht_clock_call *calls, int n, int64_t game_ms)
{
	json_t *said = json_array();

	for (int k = 0; k < n && k < SHT_MAX_CALLS; k++) {
		char text[96];

		sht_clock_call_text(kind, &calls[k], text, sizeof(text));
		json_array_append_new(said, json_pack("{s:I, s:I, s:s, s:i, s:s}", "at_ms",
		    (json_int_t)calls[k].at_ms, "game_ms", (json_int_t)(game_ms + calls[k].at_ms),
		    "kind", call_names[calls[k].kind], "value", calls[k].value, "text", text));
	}
	return said;
}

bool
sht_params_clock(const struct sht_context *ctx, json_t *params, struct sht_clock_spec *spec,
    enum sht_clock_source *source, struct sht_error *err)
{
	json_t *name = json_object_get(params, "ruleset"), *clock = json_object_get(params, "clock");

	memset(spec, 0, sizeof(*spec));
	*source = SHT_CLOCK_FROM_NONE;
	if (name != NULL) {
		const struct sht_ruleset *rs = json_is_string(name) ?
		    sht_registry_find(ctx->registry, json_string_value(name)) : NULL;

		if (rs == NULL)
			return sht_error_set(err, json_is_string(name) ? SHT_ERROR_UNKNOWN_RULESET :
			    SHT_ERROR_BAD_PARAMS, "unknown ruleset '%.60s' (see method rulesets)",
			    json_is_string(name) ? json_string_value(name) : "?");
		if (rs->clock.kind != 0) {
			*spec = rs->clock;
			*source = SHT_CLOCK_FROM_RULESET;
		}
	}
	if (clock != NULL) {
		if (!sht_clock_spec_from_json(clock, spec, err))
			return false;
		*source = SHT_CLOCK_FROM_REQUEST;
	}
	return true;
}

bool
sht_params_timed_moves(const struct sht_context *ctx, json_t *params,
    struct sht_clock_spec *spec, enum sht_clock_source source, struct sht_timed_move **moves,
    int *n, struct sht_error *err)
{
	json_t *list = json_object_get(params, "moves"), *g = json_object_get(params, "game");
	struct sht_game game;
	bool ok;

	if (list != NULL) {
		if (source == SHT_CLOCK_FROM_NONE)
			return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "no time control: give clock, "
			    "or a ruleset that has one");
		return sht_timed_moves_from_json(list, moves, n, err);
	}
	if (g == NULL)
		return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "give moves ([{\"color\": \"B\", "
		    "\"ms\": 12000}, ...]) or game ({\"sgf\": \"...\"} with BL/WL/OB/OW)");
	if (!sht_game_from_params(ctx, g, 19, 19, &game, err))
		return false;
	ok = sht_timed_moves_from_sgf(&game, spec, source, moves, n, err);
	sht_game_free(&game);
	return ok;
}

static json_t *
sht_method_clock(const struct sht_context *ctx, json_t *params, struct sht_error *err)
{
	struct sht_clock_spec spec;
	struct sht_clock_state st[3];
	struct sht_clock_call *calls;
	struct sht_timed_move *moves = NULL;
	int n = 0;
	enum sht_clock_source source;
	int64_t game_ms = 0;
	json_t *out, *list, *flag = json_null();

	if (!sht_params_clock(ctx, params, &spec, &source, err) ||
	    !sht_params_timed_moves(ctx, params, &spec, source, &moves, &n, err))
		return NULL;
	calls = malloc(sizeof(*calls) * SHT_MAX_CALLS);
	if (calls == NULL) {
		free(moves);
		return sht_fail(err, SHT_ERROR_INTERNAL, "out of memory");
	}
	sht_clock_start(&spec, &st[SHT_BLACK]);
	sht_clock_start(&spec, &st[SHT_WHITE]);
	list = json_array();
	for (int i = 0; i < n; i++) {
		int c = moves[i].color, ncalls;
		int64_t flag_ms;
		bool in_time = sht_clock_move(&spec, &st[c], moves[i].ms, calls, SHT_MAX_CALLS, &ncalls,
		    &flag_ms);
		json_t *said = sht_clock_calls_json(spec.kind, calls, ncalls, game_ms);

		/* Both players' clocks after the move (the mover's is `clock`). */
		json_array_append_new(list, json_pack("{s:i, s:s, s:I, s:I, s:b, s:o, s:o, s:o, s:o}",
		    "move", i + 1, "color", c == SHT_BLACK ? "B" : "W", "ms", (json_int_t)moves[i].ms,
		    "game_ms", (json_int_t)(game_ms + (in_time ? moves[i].ms : flag_ms)), "in_time",
		    in_time, "clock", sht_clock_state_json(&spec, &st[c]), "black",
		    sht_clock_state_json(&spec, &st[SHT_BLACK]), "white",
		    sht_clock_state_json(&spec, &st[SHT_WHITE]), "calls", said));
		if (!in_time) {
			flag = json_pack("{s:s, s:i, s:I, s:I}", "color", c == SHT_BLACK ? "B" : "W",
			    "move", i + 1, "at_ms", (json_int_t)flag_ms, "game_ms",
			    (json_int_t)(game_ms + flag_ms));
			break; /* the game is over: later moves are not timed */
		}
		game_ms += moves[i].ms;
	}
	out = json_pack("{s:o, s:o, s:o, s:o, s:o}", "time_control", sht_clock_spec_json(&spec),
	    "moves", list, "black", sht_clock_state_json(&spec, &st[SHT_BLACK]), "white",
	    sht_clock_state_json(&spec, &st[SHT_WHITE]), "flag", flag);
	free(calls);
	free(moves);
	return out;
}

static const char *const clock_params[] = { "ruleset", "clock", "moves", "game", NULL };

const struct sht_method_entry sht_method_clock_entry = {
	.name = "clock",
	.summary = "A game's time move by move, every call a referee makes, and the flag's fall.",
	.params = clock_params,
	.usage = "clock FILE|- [-r RULESET] [--clock type=dumiao,main=1h,...] [--tree N] "
	    "[--json [--compact]]",
	.pure = true,
	.cost = SHT_COST_LIGHT,
	.run = sht_method_clock,
};
