/* shoutan batch's scoring: one record's games under each ruleset, as JSON lines or CSV rows. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "batch.h"
#include "json_parse.h"
#include "method.h"

/* The columns of a result, in order: a JSON line's keys and the CSV's header, so the two carry
 * the same records.  Points are as the score object gives them (margin: Black positive). */
static const char *const columns[] = {
	"file", "tree", "width", "height", "black_player", "white_player", "date", "recorded",
	"ruleset", "how", "winner", "margin", "re", "native", "agrees", "dead_stones",
	"settle_moves", "unsure_points",
	"black_stones", "black_territory", "black_dame_share", "black_prisoners", "black_groups",
	"black_tax", "black_total",
	"white_stones", "white_territory", "white_dame_share", "white_prisoners", "white_groups",
	"white_tax", "white_komi", "white_handicap_compensation", "white_total",
	"error_kind", "error",
};
#define NCOLUMNS (sizeof(columns) / sizeof(columns[0]))

/* The score object's members that the breakdown columns copy, for each side. */
static const char *const breakdown[] = { "stones", "territory", "dame_share", "prisoners",
	"groups", "tax", "komi", "handicap_compensation", "total" };

static const char *const error_names[BATCH_NERRORS] = {
	[BATCH_ERR_BAD_SGF] = "bad_sgf",
	[BATCH_ERR_ILLEGAL_MOVE] = "illegal_move",
	[BATCH_ERR_UNKNOWN_RULESET] = "unknown_ruleset",
	[BATCH_ERR_TOO_LARGE] = "too_large",
	[BATCH_ERR_INVALID_GAME] = "invalid_game",
	[BATCH_ERR_INTERNAL] = "internal",
	[BATCH_ERR_UNREADABLE] = "unreadable",
};

const char *
batch_error_name(enum batch_error e)
{
	return (unsigned)e < BATCH_NERRORS ? error_names[e] : "internal";
}

void
batch_counts_add(struct batch_counts *into, const struct batch_counts *c)
{
	into->records += c->records;
	into->games += c->games;
	into->results += c->results;
	for (int i = 0; i < BATCH_NERRORS; i++)
		into->errors[i] += c->errors[i];
}

static enum batch_error
error_of(const struct sht_error *e)
{
	switch (e->kind) {
	case SHT_ERROR_BAD_SGF: return BATCH_ERR_BAD_SGF;
	case SHT_ERROR_ILLEGAL_MOVE: return BATCH_ERR_ILLEGAL_MOVE;
	case SHT_ERROR_UNKNOWN_RULESET: return BATCH_ERR_UNKNOWN_RULESET;
	case SHT_ERROR_TOO_LARGE: return BATCH_ERR_TOO_LARGE;
	case SHT_ERROR_BAD_PARAMS: return BATCH_ERR_INVALID_GAME;
	case SHT_ERROR_INTERNAL: break;
	}
	return BATCH_ERR_INTERNAL;
}

/* A text column: null for none, else the text, any bytes of it that are not UTF-8 as '?'. */
static json_t *
text_value(const char *text)
{
	json_t *s = text != NULL ? sht_json_string_lossy(text) : NULL;

	return s != NULL ? s : json_null();
}

/* A row with every column null but the record's name. */
static json_t *
row_new(const char *name)
{
	json_t *row = json_object();

	for (size_t i = 0; i < NCOLUMNS; i++)
		json_object_set_new(row, columns[i], json_null());
	json_object_set_new(row, "file", text_value(name));
	return row;
}

/* A CSV field as RFC 4180 writes it, quoted when it holds a comma or a quote; a line break in
 * it (a name written over two lines) is written as a space, so that every record is one line
 * for the tools that read CSV a line at a time (Hadoop streaming, grep, wc). */
static void
csv_field(struct sht_text *out, const char *s)
{
	if (strpbrk(s, ",\"\r\n") == NULL) {
		sht_text_bytes(out, s, strlen(s));
		return;
	}
	sht_text_char(out, '"');
	for (; *s != '\0'; s++) {
		if (*s == '"')
			sht_text_char(out, '"');
		sht_text_char(out, *s == '\r' || *s == '\n' ? ' ' : *s);
	}
	sht_text_char(out, '"');
}

/* The row as one line: a JSON object, or a CSV row whose numbers are the JSON's text; and as
 * a JSON line for the report, when it asks. */
static void
row_write(struct batch_sink *sink, json_t *row)
{
	struct sht_text *out = sink->lines;

	if (sink->format == BATCH_JSONL || sink->rows != NULL) {
		char *s = json_dumps(row, SHT_JSON_REPLY_FLAGS);

		if (s != NULL && sink->format == BATCH_JSONL)
			sht_text_bytes(out, s, strlen(s));
		if (s != NULL && sink->rows != NULL) {
			sht_text_bytes(sink->rows, s, strlen(s));
			sht_text_char(sink->rows, '\n');
		}
		free(s);
	}
	if (sink->format == BATCH_CSV) {
		for (size_t i = 0; i < NCOLUMNS; i++) {
			const json_t *v = json_object_get(row, columns[i]);

			if (i > 0)
				sht_text_char(out, ',');
			if (json_is_string(v)) {
				csv_field(out, json_string_value(v));
			} else if (v != NULL && !json_is_null(v)) {
				char *s = json_dumps(v, JSON_ENCODE_ANY | SHT_JSON_REPLY_FLAGS);

				if (s != NULL)
					csv_field(out, s);
				free(s);
			}
		}
	}
	sht_text_char(out, '\n');
	json_decref(row);
}

void
batch_csv_header(struct sht_text *out)
{
	for (size_t i = 0; i < NCOLUMNS; i++) {
		if (i > 0)
			sht_text_char(out, ',');
		sht_text_bytes(out, columns[i], strlen(columns[i]));
	}
	sht_text_char(out, '\n');
}

/* An error's message, which may quote a broken record's bytes: its control characters are
 * written as C writes them (\n) or as '?', so that it reads as one line. */
static void
set_error(json_t *row, enum batch_error kind, const char *message)
{
	struct sht_text t;

	sht_text_init(&t, strlen(message) + 16);
	for (const char *p = message; *p != '\0'; p++) {
		if (*p == '\n')
			sht_text_lit(&t, "\\n");
		else if (*p == '\r')
			sht_text_lit(&t, "\\r");
		else if (*p == '\t')
			sht_text_lit(&t, "\\t");
		else
			sht_text_char(&t, (unsigned char)*p < 0x20 || *p == 0x7f ? '?' : *p);
	}
	sht_text_char(&t, '\0');
	json_object_set_new(row, "error_kind", json_string(batch_error_name(kind)));
	json_object_set_new(row, "error", text_value(t.failed ? message : t.s));
	sht_text_free(&t);
}

void
batch_error_line(struct batch_sink *out, const char *name, enum batch_error kind,
    const char *message)
{
	json_t *row = row_new(name);

	set_error(row, kind, message);
	row_write(out, row);
}

/* What a record's RE says: the winner ('B', 'W', 'D' for a draw, 0 for none) and the margin
 * in points when it is a count. */
struct recorded {
	char winner;
	bool counted;
	double margin; /* Black positive */
};

static struct recorded
read_recorded(const struct sht_sgf_game *g)
{
	struct recorded r = { 0, false, 0 };
	const char *re = g->result;
	char *end;
	double v;

	if (re == NULL)
		return r;
	if (strcmp(re, "0") == 0 || strcasecmp(re, "draw") == 0 || strcasecmp(re, "jigo") == 0 ||
	    strcasecmp(re, "D") == 0) {
		r.winner = 'D';
		r.counted = true;
		return r;
	}
	if ((re[0] != 'B' && re[0] != 'W') || re[1] != '+')
		return r;
	r.winner = re[0];
	v = strtod(re + 2, &end);
	/* B+0 is a win decided otherwise (the Fox server's resignations): no count. */
	if (end != re + 2 && *end == '\0' && isfinite(v) && v > 0 && !g->result_zero_margin) {
		r.counted = true;
		r.margin = re[0] == 'B' ? v : -v;
	}
	return r;
}

/* "exact" (the record's count), "winner" (its winner, by another margin or a result that is
 * no count), "no", or null when the record gives no result to compare. */
static json_t *
agreement(const struct recorded *rec, const json_t *score)
{
	const char *w = json_string_value(json_object_get(score, "winner"));
	double margin = json_number_value(json_object_get(score, "margin"));
	char ours = w == NULL ? 0 : strcmp(w, "draw") == 0 ? 'D' : w[0];

	if (rec->winner == 0)
		return json_null();
	if (ours != rec->winner)
		return json_string("no");
	if (rec->counted && fabs(margin - rec->margin) < 0.01)
		return json_string("exact");
	return json_string(rec->winner == 'D' ? "exact" : "winner");
}

/* Points whose owner the judge gives less than 70% confidence: its doubt, in one number. */
static json_t *
unsure_points(const json_t *score)
{
	const json_t *rows = json_object_get(score, "ownership_confidence"), *row;
	json_int_t n = 0;
	size_t i;

	if (rows == NULL)
		return json_null();
	json_array_foreach(rows, i, row)
		for (const char *p = json_string_value(row); p != NULL && *p != '\0'; p++)
			n += *p < '7';
	return json_integer(n);
}

/* The columns of a score object. */
static void
set_score(json_t *row, const json_t *score, const struct recorded *rec)
{
	static const char *const copied[] = { "how", "winner", "margin", "re" };
	const json_t *settle = json_object_get(score, "settle");

	for (size_t i = 0; i < sizeof(copied) / sizeof(copied[0]); i++)
		json_object_set(row, copied[i], json_object_get(score, copied[i]));
	json_object_set(row, "native", json_object_get(json_object_get(score, "native"), "text"));
	json_object_set_new(row, "agrees", agreement(rec, score));
	json_object_set_new(row, "dead_stones",
	    json_integer((json_int_t)json_array_size(json_object_get(score, "dead"))));
	json_object_set_new(row, "settle_moves", settle != NULL ?
	    json_integer((json_int_t)json_array_size(settle)) : json_null());
	json_object_set_new(row, "unsure_points", unsure_points(score));
	for (int side = 0; side < 2; side++) {
		const json_t *b = json_object_get(score, side == 0 ? "black" : "white");

		for (size_t i = 0; i < sizeof(breakdown) / sizeof(breakdown[0]); i++) {
			char key[64];

			snprintf(key, sizeof(key), "%s_%s", side == 0 ? "black" : "white", breakdown[i]);
			if (json_object_get(row, key) != NULL && json_object_get(b, breakdown[i]) != NULL)
				json_object_set(row, key, json_object_get(b, breakdown[i]));
		}
	}
}

/* The row of one game before its ruleset's result: who played, when, what the record says. */
static json_t *
game_row(const char *name, int tree, const struct sht_game *game)
{
	const struct sht_sgf_game *g = &game->g;
	json_t *row = row_new(name);

	json_object_set_new(row, "tree", json_integer(tree));
	json_object_set_new(row, "width", json_integer(g->width));
	json_object_set_new(row, "height", json_integer(g->height));
	json_object_set_new(row, "black_player", text_value(g->black));
	json_object_set_new(row, "white_player", text_value(g->white));
	json_object_set_new(row, "date", text_value(g->date));
	json_object_set_new(row, "recorded", text_value(g->result));
	return row;
}

/* The line of an SGF record where move n is, for an illegal move's error; 0 when unknown. */
static int
move_line(const struct sht_game *game, int n)
{
	int line = 0, column;

	if (game == NULL || game->sgf == NULL || n <= 0)
		return 0;
	for (int i = 0; i < game->g.nevents; i++)
		if (game->g.events[i].move_number == n) {
			sht_sgf_position(game->sgf, game->g.events[i].offset, &line, &column);
			break;
		}
	return line;
}

/* A game (SGF, or a JSON game object read for each ruleset's board) under every ruleset. */
static void
score_game(const struct batch_job *job, const char *name, int tree, struct sht_game *sgf_game,
    const json_t *json_game, struct batch_sink *out, struct batch_counts *counts)
{
	/* The rulesets judge the one final position alike, most of them: judged once each way. */
	struct sht_context ctx = *job->ctx;

	ctx.judgements = sht_judgements_new();
	counts->games++;
	for (int i = 0; i < job->nrulesets; i++) {
		const struct sht_ruleset *rs = job->rulesets[i];
		struct sht_game own, *game = sgf_game;
		struct sht_error e;
		json_t *row, *score = NULL;
		struct recorded rec;

		memset(&e, 0, sizeof(e));
		/* A JSON game without a size is on the ruleset's board. */
		if (game == NULL && sht_game_from_json(json_game, rs->setup.width, rs->setup.height,
		    &own, &e))
			game = &own;
		if (game != NULL)
			score = sht_score_game(&ctx, rs, game, job->params, &e);
		row = game != NULL ? game_row(name, tree, game) : row_new(name);
		json_object_set_new(row, "ruleset", json_string(rs->name));
		if (game != NULL && json_game != NULL)
			json_object_set_new(row, "tree", json_null());
		if (score != NULL) {
			rec = read_recorded(&game->g);
			set_score(row, score, &rec);
			counts->results++;
		} else {
			char message[SHT_ERR_MAX + 600];
			int line = e.kind == SHT_ERROR_BAD_SGF ? e.line : move_line(game, e.move);

			if (e.kind == SHT_ERROR_BAD_SGF && e.line > 0)
				snprintf(message, sizeof(message), "%s:%d:%d: %s", name, e.line, e.column,
				    strstr(e.message, ": ") ? strstr(e.message, ": ") + 2 : e.message);
			else if (line > 0)
				snprintf(message, sizeof(message), "%s:%d: %s", name, line, e.message);
			else
				snprintf(message, sizeof(message), "%s: %s", name, e.message);
			set_error(row, error_of(&e), message);
			counts->errors[error_of(&e)]++;
		}
		row_write(out, row);
		json_decref(score);
		if (game == &own)
			sht_game_free(&own);
	}
	sht_judgements_free(ctx.judgements);
}

/* An SGF record: every game tree (or the one `only` names, when 0 or more). */
static void
score_sgf(const struct batch_job *job, const char *name, const char *data, size_t len, int only,
    struct batch_sink *out, struct batch_counts *counts)
{
	struct sht_game first;
	struct sht_sgf_collection *c = NULL;
	struct sht_sgf_error se;
	struct sht_error e;
	int ntrees;

	/* Most files hold one game, which the direct reader reads fastest; a collection is read
	 * once, its games taken from it one by one. */
	if (only <= 0 && sht_game_from_sgf(data, len, 0, &first, &e)) {
		c = first.sgf;
		ntrees = only == 0 ? 1 : c->ntrees;
		score_game(job, name, 0, &first, NULL, out, counts);
	} else {
		memset(&first, 0, sizeof(first));
		if ((c = sht_sgf_parse(data, len, &se)) == NULL) {
			char message[SHT_ERR_MAX + 600];

			snprintf(message, sizeof(message), "%s:%d:%d: %s", name, se.line, se.column,
			    se.message);
			batch_error_line(out, name, BATCH_ERR_BAD_SGF, message);
			counts->errors[BATCH_ERR_BAD_SGF]++;
			return;
		}
		ntrees = c->ntrees;
	}
	if (only >= ntrees) {
		char message[SHT_ERR_MAX + 600];

		snprintf(message, sizeof(message), "%s: no game tree %d: the record holds %d", name,
		    only, ntrees);
		batch_error_line(out, name, BATCH_ERR_INVALID_GAME, message);
		counts->errors[BATCH_ERR_INVALID_GAME]++;
	}
	for (int t = first.sgf != NULL ? 1 : 0; t < ntrees; t++) {
		struct sht_game g;

		if (only >= 0 && t != only)
			continue;
		if (sht_game_from_collection(c, t, &g, &e)) {
			score_game(job, name, t, &g, NULL, out, counts);
			sht_game_free(&g);
		} else {
			char message[SHT_ERR_MAX + 600];
			json_t *row = row_new(name);

			snprintf(message, sizeof(message), "%s:%d:%d: game tree %d: %s", name, e.line,
			    e.column, t, strstr(e.message, ": ") ? strstr(e.message, ": ") + 2 :
			    e.message);
			json_object_set_new(row, "tree", json_integer(t));
			set_error(row, BATCH_ERR_BAD_SGF, message);
			row_write(out, row);
			counts->errors[BATCH_ERR_BAD_SGF]++;
		}
	}
	if (first.sgf != NULL)
		sht_game_free(&first);
	else
		sht_sgf_free(c);
}

/* A line {"path": P}: the records of P (a file, a folder, an archive) as batch reads an operand,
 * each named as it would name them: on a cluster with shared storage, a partition of the paths
 * a batch would read gives the lines the batch gives for them. */
static void
score_path(const struct batch_job *job, const char *name, const json_t *path,
    struct batch_sink *out, struct batch_counts *counts)
{
	const char *p = json_string_value(path);
	struct batch_input *in;
	struct batch_record rec;

	if (p == NULL || *p == '\0' || strcmp(p, "-") == 0) {
		char message[SHT_ERR_MAX + 600];

		snprintf(message, sizeof(message), "%s: \"path\" must name a file, a folder or an "
		    "archive", name);
		batch_error_line(out, name, BATCH_ERR_INVALID_GAME, message);
		counts->errors[BATCH_ERR_INVALID_GAME]++;
		return;
	}
	/* The line stands for the records it names, which count themselves. */
	counts->records--;
	if ((in = batch_input_open(&p, 1, false)) == NULL)
		return;
	while (batch_input_next(in, &rec)) {
		batch_score_record(job, &rec, out, counts);
		batch_record_free(&rec);
	}
	batch_input_close(in);
}

/* A JSON record: a game object, or {"sgf": text} with an optional "tree", either with an
 * optional "file" that names it in the output; a line of standard input may be {"path": P}
 * too (not a file: a file naming itself would never end). */
static void
score_json(const struct batch_job *job, const char *name, const char *data, size_t len,
    bool line, struct batch_sink *out, struct batch_counts *counts)
{
	json_error_t je;
	json_t *j = json_loadb(data, len, 0, &je), *sgf, *file, *tree, *path;
	char message[SHT_ERR_MAX + 600];

	if (!json_is_object(j)) {
		if (j == NULL)
			snprintf(message, sizeof(message), "%s:%d:%d: not valid JSON: %s", name, je.line,
			    je.column, je.text);
		else
			snprintf(message, sizeof(message), "%s: not a JSON object", name);
		batch_error_line(out, name, BATCH_ERR_INVALID_GAME, message);
		counts->errors[BATCH_ERR_INVALID_GAME]++;
		json_decref(j);
		return;
	}
	path = json_object_get(j, "path");
	if (path != NULL && line) {
		score_path(job, name, path, out, counts);
		json_decref(j);
		return;
	}
	file = json_object_get(j, "file");
	if (json_is_string(file))
		name = json_string_value(file);
	sgf = json_object_get(j, "sgf");
	tree = json_object_get(j, "tree");
	if (json_is_string(sgf) && (tree == NULL || (json_is_integer(tree) &&
	    json_integer_value(tree) >= 0 && json_integer_value(tree) <= 100000))) {
		score_sgf(job, name, json_string_value(sgf), json_string_length(sgf),
		    tree != NULL ? (int)json_integer_value(tree) : -1, out, counts);
	} else if (sgf != NULL) {
		snprintf(message, sizeof(message), "%s: \"sgf\" must be the text of an SGF record, and "
		    "\"tree\" a game tree's number from 0", name);
		batch_error_line(out, name, BATCH_ERR_INVALID_GAME, message);
		counts->errors[BATCH_ERR_INVALID_GAME]++;
	} else {
		json_t *game = json_deep_copy(j);

		/* The name is the batch's, not the game's. */
		json_object_del(game, "file");
		score_game(job, name, 0, NULL, game, out, counts);
		json_decref(game);
	}
	json_decref(j);
}

void
batch_score_record(const struct batch_job *job, const struct batch_record *rec,
    struct batch_sink *out, struct batch_counts *counts)
{
	size_t skip;

	counts->records++;
	if (rec->unreadable) {
		batch_error_line(out, rec->name, rec->kind, rec->why ? rec->why : rec->name);
		counts->errors[rec->kind]++;
		return;
	}
	skip = strspn(rec->data, " \t\r\n");
	if (rec->json_line || rec->data[skip] == '{')
		score_json(job, rec->name, rec->data + skip, rec->len - skip, rec->json_line, out,
		    counts);
	else
		score_sgf(job, rec->name, rec->data, rec->len, -1, out, counts);
}
