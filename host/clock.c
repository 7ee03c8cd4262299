/* Time controls as people write them (YAML, JSON, SGF's TM/OT), timed moves, and calls as words. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"

static const struct {
	const char *name;
	int kind;
} kinds[] = {
	{ "absolute", SHT_CLOCK_ABSOLUTE }, { "byo-yomi", SHT_CLOCK_BYOYOMI },
	{ "canadian", SHT_CLOCK_CANADIAN }, { "fischer", SHT_CLOCK_FISCHER },
	{ "dumiao", SHT_CLOCK_DUMIAO }, { "minute-counting", SHT_CLOCK_MINUTES },
};

const char *
sht_clock_kind_name(int kind)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i].kind == kind)
			return kinds[i].name;
	return "none";
}

bool
sht_duration_parse(const char *text, int64_t *ms)
{
	const char *p = text;
	int64_t total = 0;
	bool any = false;

	while (*p == ' ')
		p++;
	while (*p != '\0') {
		char *end;
		double v = strtod(p, &end);
		int64_t unit;

		if (end == p || v < 0 || v > 1e9)
			return false;
		p = end;
		if (strncmp(p, "ms", 2) == 0) {
			unit = 1;
			p += 2;
		} else if (*p == 'h') {
			unit = 3600000;
			p++;
		} else if (*p == 'm') {
			unit = 60000;
			p++;
		} else if (*p == 's' || *p == '\0' || *p == ' ') {
			unit = 1000; /* a bare number is seconds */
			p += *p == 's';
		} else {
			return false;
		}
		/* Rounded to the millisecond: "0.0005s" is not a time anyone keeps. */
		total += (int64_t)(v * (double)unit + 0.5);
		any = true;
		while (*p == ' ')
			p++;
	}
	*ms = total;
	return any;
}

bool
sht_clock_spec_set(struct sht_clock_spec *spec, const char *key, const char *value, char *why,
    size_t whylen)
{
	int64_t ms;

	if (strcmp(key, "type") == 0) {
		for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
			if (strcmp(kinds[i].name, value) == 0) {
				spec->kind = kinds[i].kind;
				return true;
			}
		snprintf(why, whylen, "unknown time control '%.40s' (known: absolute, byo-yomi, "
		    "canadian, fischer, dumiao, minute-counting)", value);
		return false;
	}
	if (strcmp(key, "periods") == 0 || strcmp(key, "moves") == 0) {
		char *end;
		long n = strtol(value, &end, 10);

		if (end == value || *end != '\0' || n < 0 || n > 1000) {
			snprintf(why, whylen, "%s must be a whole number from 0 to 1000, not '%.40s'",
			    key, value);
			return false;
		}
		*(key[0] == 'p' ? &spec->periods : &spec->moves) = (int)n;
		return true;
	}
	if (!sht_duration_parse(value, &ms)) {
		snprintf(why, whylen, "%s must be a duration such as 90, 1m30s, 2h or 500ms, not "
		    "'%.40s'", key, value);
		return false;
	}
	if (strcmp(key, "main") == 0)
		spec->main_ms = ms;
	else if (strcmp(key, "period") == 0)
		spec->period_ms = ms;
	else if (strcmp(key, "increment") == 0)
		spec->increment_ms = ms;
	else if (strcmp(key, "delay") == 0)
		spec->delay_ms = ms;
	else if (strcmp(key, "remainder") == 0)
		spec->remainder_ms = ms;
	else {
		snprintf(why, whylen, "unknown time-control key '%.40s' (known: type, main, periods, "
		    "period, moves, increment, delay, remainder)", key);
		return false;
	}
	return true;
}

bool
sht_clock_spec_from_json(const json_t *obj, struct sht_clock_spec *spec, struct sht_error *err)
{
	const char *key;
	json_t *v;
	char why[200];

	if (!json_is_object(obj))
		return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "clock must be an object such as "
		    "{\"type\": \"dumiao\", \"main\": \"1h\", \"periods\": 5}");
	json_object_foreach((json_t *)obj, key, v) {
		char text[64];

		if (json_is_string(v))
			snprintf(text, sizeof(text), "%s", json_string_value(v));
		else if (json_is_integer(v))
			snprintf(text, sizeof(text), "%lld", (long long)json_integer_value(v));
		else if (json_is_real(v))
			snprintf(text, sizeof(text), "%.3f", json_real_value(v));
		else
			return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "clock.%.40s must be a string "
			    "or a number", key);
		if (!sht_clock_spec_set(spec, key, text, why, sizeof(why)))
			return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "clock: %s", why);
	}
	if (sht_clock_spec_problem(spec) != NULL)
		return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "clock: %s",
		    sht_clock_spec_problem(spec));
	return true;
}

/* SGF's OT: "5x30 byo-yomi", "25/600 Canadian" (what KGS and most servers write). */
static bool
spec_from_sgf(const struct sht_sgf_node *root, struct sht_clock_spec *spec)
{
	const char *tm = sht_sgf_get(root, "TM"), *ot = sht_sgf_get(root, "OT");
	int64_t main_ms;
	int a;
	double b;

	if (tm == NULL || !sht_duration_parse(tm, &main_ms))
		return false;
	memset(spec, 0, sizeof(*spec));
	spec->kind = SHT_CLOCK_ABSOLUTE;
	spec->main_ms = main_ms;
	if (ot != NULL && sscanf(ot, "%dx%lf", &a, &b) == 2 && strstr(ot, "yo") != NULL) {
		spec->kind = SHT_CLOCK_BYOYOMI;
		spec->periods = a;
		spec->period_ms = (int64_t)(b * 1000 + 0.5);
	} else if (ot != NULL && sscanf(ot, "%d/%lf", &a, &b) == 2 &&
	    (strstr(ot, "anad") != NULL || strstr(ot, "ANAD") != NULL)) {
		spec->kind = SHT_CLOCK_CANADIAN;
		spec->moves = a;
		spec->period_ms = (int64_t)(b * 1000 + 0.5);
	}
	return sht_clock_spec_problem(spec) == NULL;
}

/* Seconds as SGF writes them (BL[1794.3]), in milliseconds. */
static bool
sgf_seconds(const char *text, int64_t *ms)
{
	char *end;
	double v = text ? strtod(text, &end) : 0;

	if (text == NULL || end == text || v < 0 || v > 1e9)
		return false;
	*ms = (int64_t)(v * 1000 + 0.5);
	return true;
}

/*
 * A move's thinking time from the time left that the record gives after it (BL/WL, with OB/OW
 * the periods or, for Canadian, the moves left): in byo-yomi BL is the time left in the current
 * period when the move was made; in Canadian the period's time left, OB 0 once it is done.
 */
/* One player's clock as the record tells it. */
struct recorded_clock {
	int64_t ms;      /* main time left; in overtime, what is left of the period */
	int count;       /* periods, or Canadian moves, left */
	bool overtime;
};

static bool
sgf_duration(const struct sht_clock_spec *spec, struct recorded_clock *prev, int64_t left,
    bool has_count, int count, int64_t *d)
{
	if (!has_count || (spec->kind != SHT_CLOCK_BYOYOMI && spec->kind != SHT_CLOCK_CANADIAN)) {
		/* Main time (Fischer adds its increment after the move). */
		*d = prev->ms - left + (spec->kind == SHT_CLOCK_FISCHER ? spec->increment_ms : 0);
		prev->ms = left;
		return *d >= 0;
	}
	if (spec->kind == SHT_CLOCK_BYOYOMI) {
		int before = prev->overtime ? prev->count : spec->periods;

		*d = (prev->overtime ? 0 : prev->ms) + (int64_t)(before - count) * spec->period_ms +
		    (spec->period_ms - left);
	} else {
		/* Canadian: a new period after the last one's moves were made. */
		int64_t period_left = prev->overtime && prev->count > 0 ? prev->ms : spec->period_ms;

		*d = (prev->overtime ? 0 : prev->ms) + period_left - left;
	}
	prev->overtime = true;
	prev->count = count;
	prev->ms = left;
	return *d >= 0;
}

bool
sht_timed_moves_from_sgf(const struct sht_game *game, struct sht_clock_spec *spec,
    enum sht_clock_source source, struct sht_timed_move **out, int *n, struct sht_error *err)
{
	const struct sht_sgf_node *node = game->sgf && game->sgf->ntrees > 0 ?
	    game->sgf->trees[0] : NULL;
	struct recorded_clock prev[3];
	struct sht_clock_spec recorded;
	int cap = 64, number = 0;

	if (node == NULL)
		return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "the game has no SGF record");
	if (source != SHT_CLOCK_FROM_REQUEST && spec_from_sgf(node, &recorded))
		*spec = recorded;
	else if (source == SHT_CLOCK_FROM_NONE)
		return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "no time control: give one (clock, "
		    "or a ruleset with one), or a record with TM (and OT such as 5x30 byo-yomi)");
	*n = 0;
	*out = malloc(sizeof(**out) * (size_t)cap);
	if (*out == NULL)
		return sht_error_set(err, SHT_ERROR_INTERNAL, "out of memory");
	memset(prev, 0, sizeof(prev));
	prev[SHT_BLACK].ms = prev[SHT_WHITE].ms = spec->main_ms;
	for (; node != NULL; node = node->child) {
		const char *b = sht_sgf_get(node, "B"), *w = sht_sgf_get(node, "W");
		int c = b != NULL ? SHT_BLACK : w != NULL ? SHT_WHITE : 0;
		const char *left_text, *count_text;
		int64_t left;

		if (c == 0)
			continue;
		number++;
		left_text = sht_sgf_get(node, c == SHT_BLACK ? "BL" : "WL");
		count_text = sht_sgf_get(node, c == SHT_BLACK ? "OB" : "OW");
		if (*n == cap) {
			struct sht_timed_move *bigger = realloc(*out, sizeof(**out) * (size_t)(cap *= 2));

			if (bigger == NULL) {
				free(*out);
				*out = NULL;
				return sht_error_set(err, SHT_ERROR_INTERNAL, "out of memory");
			}
			*out = bigger;
		}
		(*out)[*n].color = c;
		if (!sgf_seconds(left_text, &left) ||
		    !sgf_duration(spec, &prev[c], left, count_text != NULL,
		    count_text ? atoi(count_text) : 0, &(*out)[*n].ms)) {
			free(*out);
			*out = NULL;
			return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "move %d (%c): %s", number,
			    c == SHT_BLACK ? 'B' : 'W', left_text == NULL ? "the record gives no time "
			    "left (BL/WL), so its time is not known" : "the time left (BL/WL) does not "
			    "follow from the one before under this time control");
		}
		(*n)++;
	}
	return true;
}

enum sht_duration_found
sht_json_duration(const json_t *m, int64_t *last_at, int64_t *ms)
{
	json_t *v = json_object_get(m, "ms"), *sec = json_object_get(m, "seconds");
	json_t *at = json_object_get(m, "at_ms");

	if (v == NULL && sec == NULL && at == NULL)
		return SHT_DURATION_ABSENT;
	if (json_is_integer(v) && json_integer_value(v) >= 0)
		*ms = json_integer_value(v);
	else if (json_is_number(sec) && json_number_value(sec) >= 0 &&
	    json_number_value(sec) < 1e9)
		*ms = (int64_t)(json_number_value(sec) * 1000 + 0.5);
	else if (json_is_integer(at) && json_integer_value(at) >= *last_at)
		/* A timestamp: the clock ran since the previous move, by either player. */
		*ms = json_integer_value(at) - *last_at;
	else
		return SHT_DURATION_UNUSABLE;
	*last_at += *ms;
	return SHT_DURATION_FOUND;
}

bool
sht_timed_moves_from_json(const json_t *moves, struct sht_timed_move **out, int *n,
    struct sht_error *err)
{
	size_t i;
	json_t *m;
	int64_t last_at = 0;
	int color = SHT_BLACK;

	if (!json_is_array(moves) || json_array_size(moves) > 100000)
		return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "moves must be a list such as "
		    "[{\"color\": \"B\", \"ms\": 12000}, {\"color\": \"W\", \"seconds\": 3.5}]");
	*n = 0;
	*out = calloc(json_array_size(moves) + 1, sizeof(**out));
	if (*out == NULL)
		return sht_error_set(err, SHT_ERROR_INTERNAL, "out of memory");
	json_array_foreach(moves, i, m) {
		const char *c = json_string_value(json_object_get(m, "color"));
		int64_t d;

		if (c != NULL && (strcmp(c, "B") == 0 || strcmp(c, "W") == 0))
			color = c[0] == 'B' ? SHT_BLACK : SHT_WHITE;
		else if (c != NULL || !json_is_object(m))
			goto bad;
		if (sht_json_duration(m, &last_at, &d) != SHT_DURATION_FOUND)
			goto bad;
		(*out)[*n].color = color;
		(*out)[*n].ms = d;
		(*n)++;
		color = 3 - color;
		continue;
bad:
		free(*out);
		*out = NULL;
		return sht_error_set(err, SHT_ERROR_BAD_PARAMS, "moves[%zu] must be {\"color\": "
		    "\"B\"|\"W\" (optional: players alternate), and one of \"ms\" (a whole number), "
		    "\"seconds\" or \"at_ms\" (a time since the start, not before the last)}", i);
	}
	return true;
}

void
sht_clock_call_text(int kind, const struct sht_clock_call *call, char *buf, size_t len)
{
	bool chinese = kind == SHT_CLOCK_DUMIAO, japanese = kind == SHT_CLOCK_MINUTES;

	switch (call->kind) {
	case SHT_CALL_SECONDS:
		if (chinese || japanese)
			snprintf(buf, len, "%d秒", call->value);
		else
			snprintf(buf, len, "%d seconds", call->value);
		break;
	case SHT_CALL_COUNT:
		snprintf(buf, len, "%d", call->value);
		break;
	case SHT_CALL_MINUTES_LEFT:
		if (japanese)
			snprintf(buf, len, "残り%d分", call->value);
		else
			snprintf(buf, len, "还剩%d分钟", call->value);
		break;
	case SHT_CALL_PERIODS_LEFT:
		snprintf(buf, len, "%d period%s left", call->value, call->value == 1 ? "" : "s");
		break;
	case SHT_CALL_OVERTIME:
		if (chinese)
			snprintf(buf, len, "开始读秒，%d次", call->value);
		else if (kind == SHT_CLOCK_CANADIAN)
			snprintf(buf, len, "main time is over: %d moves in each period", call->value);
		else
			snprintf(buf, len, "main time is over: byo-yomi, %d period%s", call->value,
			    call->value == 1 ? "" : "s");
		break;
	case SHT_CALL_TIME_LOST:
		if (chinese)
			snprintf(buf, len, "10，超时判负");
		else if (japanese)
			snprintf(buf, len, "10、時間切れ負け");
		else
			snprintf(buf, len, "time is up: the game is lost on time");
		break;
	default:
		snprintf(buf, len, "?");
	}
}
