/* Pictures of judgements as SVG 1.1: the board after a score, or a small board per ruleset. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "picture.h"

/* SVG text written with printf's formats, through a buffer big enough for any one element. */
static void svg(struct sht_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
svg(struct sht_text *t, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0)
		sht_text_bytes(t, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

void
sht_svg_escaped(struct sht_text *t, const char *s)
{
	for (; *s != '\0'; s++) {
		switch (*s) {
		case '&': sht_text_lit(t, "&amp;"); break;
		case '<': sht_text_lit(t, "&lt;"); break;
		case '>': sht_text_lit(t, "&gt;"); break;
		case '"': sht_text_lit(t, "&quot;"); break;
		default:
			/* Control characters but the tab are not XML. */
			if ((unsigned char)*s >= 0x20 || *s == '\t')
				sht_text_char(t, *s);
		}
	}
}

static const char columns[] = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

/* The lines of a board that carry star points: the usual ones on boards from 7 lines up (the
 * fourth line from 13 up, the third below; the middle of an odd board). */
static int
star_lines(int n, int out[3])
{
	int k = 0, edge = n >= 13 ? 3 : 2;

	if (n < 7)
		return 0;
	out[k++] = edge;
	if (n % 2 == 1 && n >= 9)
		out[k++] = n / 2;
	out[k++] = n - 1 - edge;
	return k;
}

/* One point's marks, drawn by what stood there and who owns it after the judgement. */
enum mark { MARK_NONE, MARK_TERRITORY, MARK_DAME, MARK_SEKI_POINT };

/* Whether an empty point of the settled board is a seki point: nobody's, beside a stone in
 * seki. */
static bool
seki_point(const struct sht_board *b, const struct sht_score_report *rep, int p)
{
	int off[4];

	sht_board_neighbor_offsets(b, off);
	for (int d = 0; d < 4; d++) {
		int q = p + off[d];

		if (sht_board_on_board(b, q) && rep->seki[q])
			return true;
	}
	return false;
}

/* The board at (x0, y0), `cell` pixels between lines: wood, lines, star points, coordinates
 * (with labels), stones, dead stones faded and crossed, seki stones marked, territory squares,
 * dame crosses, seki points ringed, the settle moves numbered, the last move ringed. */
static void
draw_board(struct sht_text *t, const struct sht_replay *replay,
    const struct sht_score_report *rep, double x0, double y0, double cell, bool labels)
{
	const struct sht_board *b = replay->board;
	int w = sht_board_width(b), h = sht_board_height(b), stars_x[3], stars_y[3];
	int nx = star_lines(w, stars_x), ny = star_lines(h, stars_y), last = SHT_PASS;
	double r = cell * 0.47, font = cell * 0.42;

	/* The last stone played: a game ends with passes, which the ring cannot show. */
	for (int i = replay->nmoves - 1; i >= 0; i--)
		if (replay->moves[i].verdict == 0 && replay->moves[i].point != SHT_PASS) {
			last = replay->moves[i].point;
			break;
		}
	svg(t, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" class=\"wood\"/>\n",
	    x0 - cell * 0.6, y0 - cell * 0.6, (w - 1) * cell + cell * 1.2, (h - 1) * cell + cell * 1.2);
	for (int x = 0; x < w; x++)
		svg(t, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"line\"/>\n",
		    x0 + x * cell, y0, x0 + x * cell, y0 + (h - 1) * cell);
	for (int y = 0; y < h; y++)
		svg(t, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"line\"/>\n", x0,
		    y0 + y * cell, x0 + (w - 1) * cell, y0 + y * cell);
	for (int i = 0; i < nx; i++)
		for (int j = 0; j < ny; j++)
			svg(t, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" class=\"star\"/>\n",
			    x0 + stars_x[i] * cell, y0 + stars_y[j] * cell, cell * 0.1);
	if (labels) {
		for (int x = 0; x < w; x++) {
			svg(t, "<text x=\"%.1f\" y=\"%.1f\" class=\"coord\" font-size=\"%.1f\">%c</text>\n",
			    x0 + x * cell, y0 - cell * 0.8, font, columns[x]);
			svg(t, "<text x=\"%.1f\" y=\"%.1f\" class=\"coord\" font-size=\"%.1f\">%c</text>\n",
			    x0 + x * cell, y0 + (h - 1) * cell + cell * 1.1, font, columns[x]);
		}
		for (int y = 0; y < h; y++) {
			svg(t, "<text x=\"%.1f\" y=\"%.1f\" class=\"coord\" font-size=\"%.1f\">%d</text>\n",
			    x0 - cell * 1.0, y0 + y * cell + font * 0.35, font, h - y);
			svg(t, "<text x=\"%.1f\" y=\"%.1f\" class=\"coord\" font-size=\"%.1f\">%d</text>\n",
			    x0 + (w - 1) * cell + cell * 1.0, y0 + y * cell + font * 0.35, font, h - y);
		}
	}
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			int p = sht_board_point(b, x, y), c = sht_board_at(b, p);
			int owner = sht_area_owner(&rep->owner, p);
			double cx = x0 + x * cell, cy = y0 + y * cell;
			bool settled = false;
			enum mark mark = MARK_NONE;

			for (int i = 0; i < rep->nsettle && !settled; i++)
				settled = rep->settle[i].point == p;
			if (c == SHT_BLACK || c == SHT_WHITE) {
				bool dead = rep->dead != NULL && rep->dead[p];

				svg(t, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" class=\"%s%s\"/>\n", cx,
				    cy, r, c == SHT_BLACK ? "b" : "w", dead ? " dead" : "");
				if (dead) {
					svg(t, "<path d=\"M%.1f %.1fl%.1f %.1fm0 %.1fl%.1f %.1f\" "
					    "class=\"cross\"/>\n", cx - r * 0.5, cy - r * 0.5, r, r, -r, -r,
					    r);
					/* Whose the point is once the stone is lifted shows through. */
					if (!settled)
						mark = owner != SHT_EMPTY ? MARK_TERRITORY : MARK_DAME;
				} else if (rep->seki != NULL && rep->seki[p]) {
					svg(t, "<path d=\"M%.1f %.1fl%.1f %.1fh%.1fz\" class=\"seki %s\"/>\n",
					    cx, cy - r * 0.45, r * 0.45, r * 0.8, -r * 0.9,
					    c == SHT_BLACK ? "on-b" : "on-w");
				}
			} else if (!settled) {
				mark = owner != SHT_EMPTY ? MARK_TERRITORY :
				    rep->seki != NULL && seki_point(b, rep, p) ? MARK_SEKI_POINT : MARK_DAME;
			}
			if (mark == MARK_TERRITORY)
				svg(t, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				    "class=\"%s\"/>\n", cx - cell * 0.17, cy - cell * 0.17, cell * 0.34,
				    cell * 0.34, owner == SHT_BLACK ? "tb" : "tw");
			else if (mark == MARK_DAME)
				svg(t, "<path d=\"M%.1f %.1fl%.1f %.1fm0 %.1fl%.1f %.1f\" class=\"dame\"/>\n",
				    cx - cell * 0.12, cy - cell * 0.12, cell * 0.24, cell * 0.24,
				    -cell * 0.24, -cell * 0.24, cell * 0.24);
			else if (mark == MARK_SEKI_POINT)
				svg(t, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" class=\"sekipt\"/>\n", cx, cy,
				    cell * 0.18);
			/* A point whose owner the judge's playouts gave less than 70% of the time:
			 * a mark in its corner, for a person to look at. */
			if (rep->confidence != NULL && rep->confidence[p] < 700)
				svg(t, "<path d=\"M%.1f %.1fh%.1fv%.1fz\" class=\"unsure\"/>\n",
				    cx + cell * 0.22, cy - cell * 0.48, cell * 0.26, cell * 0.26);
			if (p == last && (c == SHT_BLACK || c == SHT_WHITE))
				svg(t, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" class=\"last %s\"/>\n", cx,
				    cy, r * 0.45, c == SHT_BLACK ? "on-b" : "on-w");
		}
	/* The settle moves, numbered in the order played, over whatever was there. */
	for (int i = 0; i < rep->nsettle; i++) {
		const struct sht_settle_move *m = &rep->settle[i];
		int x, y;

		sht_board_xy(b, m->point, &x, &y);
		svg(t, "<g><title>settle move %d: %s</title><circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" "
		    "class=\"settle %s\"/><text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\" "
		    "class=\"num %s\">%d</text></g>\n", i + 1, sht_settle_reason_name(m->reason),
		    x0 + x * cell, y0 + y * cell, r * 0.8, m->color == SHT_BLACK ? "b" : "w",
		    x0 + x * cell, y0 + y * cell + font * 0.33, i + 1 < 100 ? font * 0.95 : font * 0.7,
		    m->color == SHT_BLACK ? "on-b" : "on-w", i + 1);
	}
}

static void
begin(struct sht_text *t, double width, double height)
{
	svg(t, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
	    "version=\"1.1\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
	    "font-family=\"sans-serif, 'Noto Sans CJK SC', 'Noto Sans CJK JP', "
	    "'Noto Sans CJK KR'\">\n", width, height, width, height);
	sht_text_lit(t, "<style type=\"text/css\">.wood{fill:#dcb35c}.line{stroke:#3a2a10;stroke-width:1}"
	    ".star{fill:#3a2a10}.coord{fill:#3a2a10;text-anchor:middle}"
	    ".b{fill:#111;stroke:#000}.w{fill:#f8f8f4;stroke:#222}.dead{opacity:0.45}"
	    ".cross{stroke:#c0282d;stroke-width:2;fill:none}.tb{fill:#111}.tw{fill:#fff;"
	    "stroke:#222;stroke-width:0.8}.dame{stroke:#6b6b6b;stroke-width:1.2;fill:none}"
	    ".seki{fill:none;stroke-width:1.5}.sekipt{fill:none;stroke:#1d7a3a;stroke-width:2}"
	    ".on-b{stroke:#fff}.on-w{stroke:#111}.last{fill:none;stroke-width:1.6}"
	    ".settle{opacity:0.75;stroke-dasharray:2 1.5}.num{text-anchor:middle;stroke:none}"
	    ".num.on-b{fill:#fff}.num.on-w{fill:#111}.seki.on-b{stroke:#5fd080}"
	    ".seki.on-w{stroke:#1d7a3a}.unsure{fill:#e08a00}.res{font-size:14px;fill:#111}"
	    ".small{font-size:11px;"
	    "fill:#444}.head{font-size:14px;font-weight:bold;fill:#111}.differs{fill:none;"
	    "stroke:#c0282d;stroke-width:3}.err{font-size:12px;fill:#c0282d}</style>\n"
	    "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
}

/* The result as points and as the ruleset notes it: "chinese: Black wins by 3.5 points (B+3.5)"
 * and "黑胜1¾子". */
static void
result_lines(struct sht_text *t, const struct sht_ruleset *rs,
    const struct sht_score_report *rep, double x, double y, const char *cls)
{
	svg(t, "<text x=\"%.1f\" y=\"%.1f\" class=\"%s\">", x, y, cls);
	sht_svg_escaped(t, rs->name);
	sht_text_lit(t, ": ");
	sht_svg_escaped(t, rep->result.text);
	sht_text_lit(t, " (");
	sht_svg_escaped(t, rep->result.re);
	sht_text_lit(t, ")</text>\n");
	svg(t, "<text x=\"%.1f\" y=\"%.1f\" class=\"%s\">", x, y + 17, cls);
	sht_svg_escaped(t, rep->result.native_text);
	sht_text_lit(t, "</text>\n");
}

/* What the marks mean, in three lines under the board (each line's literals on one source
 * line, which compilers take as one element, not two that lack a comma). */
#define DOT " \xc2\xb7 "
#define SQUARE "\xe2\x96\xaa "
#define CROSS "\xc3\x97 "
#define RING "\xe2\x97\x8b "
#define TRIANGLE "\xe2\x96\xb3 "
static const char legend[3][100] = {
	SQUARE "territory" DOT CROSS "dame" DOT RING "seki point" DOT TRIANGLE "seki stone",
	"faded and crossed: dead" DOT "numbered: settle moves" DOT "ring: the last move",
	"orange corner: the judge is less than 70% sure of the owner",
};
#undef DOT
#undef SQUARE
#undef CROSS
#undef RING
#undef TRIANGLE

static void
legend_lines(struct sht_text *t, double y)
{
	for (int i = 0; i < 3; i++)
		svg(t, "<text x=\"10\" y=\"%.1f\" class=\"small\">%s</text>\n", y + 14 * i,
		    legend[i]);
}

/* The pixels between lines for a board of w x h lines to fit in about `room` pixels. */
static double
cell_for(int w, int h, double room, double least, double most)
{
	int n = w > h ? w : h;
	double c = n > 1 ? room / n : most;

	return c < least ? least : c > most ? most : c;
}

void
sht_picture_score(struct sht_text *t, const struct sht_ruleset *rs,
    const struct sht_replay *replay, const struct sht_score_report *rep)
{
	int w = sht_board_width(replay->board), h = sht_board_height(replay->board);
	double cell = cell_for(w, h, 560, 18, 40), margin = cell * 1.6;
	double width = 2 * margin + (w - 1) * cell, board_h = 2 * margin + (h - 1) * cell;

	if (width < 420)
		width = 420;
	begin(t, width, board_h + 90);
	/* Where the points are, for a page that maps a click to a vertex (the lab page). */
	svg(t, "<desc>{\"x0\":%.1f,\"y0\":%.1f,\"cell\":%.4f,\"width\":%d,\"height\":%d}</desc>\n",
	    margin, margin, cell, w, h);
	draw_board(t, replay, rep, margin, margin, cell, true);
	result_lines(t, rs, rep, 10, board_h + 14, "res");
	legend_lines(t, board_h + 50);
	sht_text_lit(t, "</svg>\n");
}

void
sht_picture_compare(struct sht_text *t, const struct sht_picture_panel *panels, int n)
{
	int w = 9, h = 9, cols, rows;
	double cell, panel_w, panel_h, board_w, board_h;
	int first_winner = SHT_WINNER_NONE - 1;

	for (int i = 0; i < n; i++)
		if (panels[i].replay != NULL) {
			w = sht_board_width(panels[i].replay->board);
			h = sht_board_height(panels[i].replay->board);
			if (first_winner < SHT_WINNER_NONE)
				first_winner = panels[i].report->result.winner;
		}
	cols = n < 3 ? (n > 0 ? n : 1) : n == 4 ? 2 : 3;
	rows = (n + cols - 1) / cols;
	cell = cell_for(w, h, 300, 9, 24);
	board_w = (w - 1) * cell + cell * 3;
	board_h = (h - 1) * cell + cell * 3;
	panel_w = board_w < 300 ? 320 : board_w + 20;
	panel_h = board_h + 70;
	begin(t, cols * panel_w + 10, rows * panel_h + 68);
	for (int i = 0; i < n; i++) {
		const struct sht_picture_panel *pn = &panels[i];
		double px = 10 + (i % cols) * panel_w, py = 10 + (i / cols) * panel_h;

		if (pn->replay == NULL) {
			/* A ruleset that refused the game: why, where its board would be. */
			svg(t, "<text x=\"%.1f\" y=\"%.1f\" class=\"head\">", px, py + 14);
			sht_svg_escaped(t, pn->ruleset->name);
			svg(t, "</text>\n<text x=\"%.1f\" y=\"%.1f\" class=\"err\">", px, py + 36);
			sht_svg_escaped(t, pn->error);
			sht_text_lit(t, "</text>\n");
			continue;
		}
		if (pn->report->result.winner != first_winner)
			svg(t, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			    "class=\"differs\"><title>the winner differs from the first ruleset's"
			    "</title></rect>\n", px - 4, py - 4, panel_w - 8, panel_h - 8);
		svg(t, "<text x=\"%.1f\" y=\"%.1f\" class=\"head\">", px, py + 14);
		sht_svg_escaped(t, pn->ruleset->name);
		if (pn->report->result.winner != first_winner)
			sht_text_lit(t, " \xe2\x80\x94 the winner differs");
		sht_text_lit(t, "</text>\n");
		draw_board(t, pn->replay, pn->report, px + cell * 1.5, py + 24 + cell * 1.5, cell,
		    false);
		result_lines(t, pn->ruleset, pn->report, px, py + 24 + board_h + 14, "small");
	}
	legend_lines(t, rows * panel_h + 28);
	sht_text_lit(t, "</svg>\n");
}
