/* The ruleset plugin ABI: the one header a ruleset plugin includes, and all it may rely on. */
#ifndef SHOUTAN_RULESET_H
#define SHOUTAN_RULESET_H

/*
 * How this works.  A plugin is a shared object exporting one function, named by
 * SHT_RULESET_ENTRY, that returns its descriptor (struct sht_ruleset_plugin).  The host loads it
 * with dlopen(RTLD_NOW | RTLD_LOCAL), refuses it unless the descriptor's first field equals the
 * host's SHT_RULESET_ABI_VERSION, and then talks to it only through the descriptor's methods.
 * The plugin talks to the host only through the table of functions it is given (struct
 * sht_host), so it never links against the host and never sees the board's layout.
 *
 * Rules of evolution: every struct here is append-only.  A new member goes at the end, and a
 * reader checks the `size` member before touching it.  A NULL method means "not provided" and
 * the host uses the behaviour documented beside the method.  Any other change (a removed or
 * reordered member, a changed meaning) bumps SHT_RULESET_ABI_VERSION.
 *
 * Units.  Every score is an integer in half points (7.5 points is 15), so that Chinese quarter-zi
 * results (1 zi = 2 points) are exact and nothing is ever a float.  Decimal parameters arrive in
 * hundredths (3.75 is 375).  Colours are 1 for Black and 2 for White, 0 for empty.
 *
 * This header includes only <stddef.h> and compiles alone under -std=c11 -pedantic.
 */

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The ABI version this header describes.  The descriptor's first field must equal it. */
#define SHT_RULESET_ABI_VERSION 1u

/* The symbol a plugin exports: const struct sht_ruleset_plugin *shoutan_ruleset_plugin(void). */
#define SHT_RULESET_ENTRY "shoutan_ruleset_plugin"

/* Colours, as the host numbers them. */
#define SHT_RP_EMPTY 0
#define SHT_RP_BLACK 1
#define SHT_RP_WHITE 2

/* ---- parameters: declared by the plugin, validated by the host, set from YAML ---- */

enum sht_param_type {
	SHT_PARAM_BOOL = 1,    /* YAML true / false */
	SHT_PARAM_INT = 2,     /* whole number in [min, max] */
	SHT_PARAM_DECIMAL = 3, /* decimal number, passed in hundredths, in [min, max] hundredths */
	SHT_PARAM_CHOICE = 4,  /* one of `choices` */
};

struct sht_param_spec {
	const char *name;            /* YAML key, lower case with '_' */
	enum sht_param_type type;
	long min, max;               /* INT and DECIMAL (DECIMAL in hundredths) */
	const char *const *choices;  /* CHOICE: NULL-terminated list of allowed values */
	const char *default_value;   /* spelled as in YAML: "true", "19", "3.75", "positional" */
	int reconstruction;          /* nonzero when the default is a reconstruction [R] (docs/rules.md) */
	const char *description;     /* one sentence for `describe` */
};

/* One parameter's value, in the order of the plugin's `params`. */
struct sht_param_value {
	long number;  /* BOOL 0/1; INT; DECIMAL in hundredths; CHOICE the index into `choices` */
};

/* ---- what a configured ruleset tells the host before play ---- */

#define SHT_RULES_MAX_SEATED 64

enum sht_ko_policy {
	SHT_RULES_KO_SIMPLE = 0,
	SHT_RULES_KO_POSITIONAL = 1,
	SHT_RULES_KO_SITUATIONAL = 2,
};

struct sht_rules_seated {
	int x, y;   /* from the top-left corner, from 0 */
	int color;
};

struct sht_rules_setup {
	size_t size;               /* sizeof(struct sht_rules_setup) as the host built it */
	int width, height;         /* the board when the game does not give one */
	int ko;                    /* enum sht_ko_policy */
	int multi_stone_suicide;   /* nonzero: a move that leaves its own chain (of 2+) dead is legal */
	int first_player;          /* SHT_RP_BLACK or SHT_RP_WHITE */
	int supply[3];             /* stones each colour may place, [1] Black, [2] White; -1 unlimited */
	int komi;                  /* White's compensation, half points */
	int passes_to_end;         /* consecutive passes that end the game; the host presets 2 */
	int warnings_to_lose;      /* warnings that lose the game; 0: warnings never lose */
	int nseated;               /* stones on the board before play (seated stones, 座子) */
	struct sht_rules_seated seated[SHT_RULES_MAX_SEATED];
	int ko_life;               /* enum sht_ko_life: how dead: "auto" rules on a group that only
	                            * a ko can capture */
	/* Added after ko_life (the host checks `size`): the colour whose pass must end the game
	 * (AGA: White passes last, so a game closing on Black's pass needs one more White pass);
	 * SHT_RP_EMPTY, the host's preset: either colour's. */
	int last_pass;
	/* Added after last_pass: nonzero forbids a stone on any point the opponent emptied by
	 * capture with the move just played (Tibetan go; it contains the simple ko rule). */
	int capture_ban;
};

/* How the automatic dead-stone judgement treats a group the opponent can capture only by way of
 * a ko (bent four in the corner; a group that lives only by winning a ko). */
enum sht_ko_life {
	SHT_KO_LIFE_PLAY = 0,  /* left to the playouts: the rules settle such disputes by playing
	                        * on (area counting); the default */
	SHT_KO_LIFE_DEAD = 1,  /* dead: in the confirmation a ko may not be retaken without first
	                        * passing for it (Japanese 1989, Art. 7 and its commentary) */
};

/* What went wrong with a move.  The numbers are those of the board's verdicts. */
enum sht_violation {
	SHT_VIOLATION_OFF_BOARD = 1,
	SHT_VIOLATION_OCCUPIED = 2,
	SHT_VIOLATION_SUICIDE = 3,
	SHT_VIOLATION_KO = 4,
	SHT_VIOLATION_SUPERKO = 5,
	SHT_VIOLATION_NO_STONES = 6,
	SHT_VIOLATION_NOT_YOUR_TURN = 16, /* a second move in a row */
	/* Infractions at the board, which the referee rules on (method referee); the position
	 * is always restored, and the consequence is the penalty (VOID or REJECT: none). */
	SHT_VIOLATION_TAKE_BACK = 17,     /* a move taken back */
	SHT_VIOLATION_DISTURBED = 18,     /* stones moved, or removed while they had liberties */
};

/* What the ruleset does about a violation. */
enum sht_consequence {
	SHT_CONSEQUENCE_REJECT = 0,  /* not a move at all: the record is refused (the default) */
	SHT_CONSEQUENCE_VOID = 1,    /* the move is void and the turn is lost (it counts as a pass) */
	SHT_CONSEQUENCE_LOSS = 2,    /* the player who made it loses the game */
	SHT_CONSEQUENCE_WARNING = 3, /* void, and a warning; warnings_to_lose of them lose */
};

/* What the ruleset does when play repeats an earlier (board, player to move) state under the
 * simple ko rule: triple ko, eternal life, sending two returning one, ... */
enum sht_cycle_outcome {
	SHT_CYCLE_CONTINUE = 0,   /* play on (the default) */
	SHT_CYCLE_DRAW = 1,
	SHT_CYCLE_NO_RESULT = 2,  /* 無勝負: the game has no result */
	SHT_CYCLE_REPLAY = 3,     /* the game is replayed: no result for this one */
};

/* How a game was decided when no count decided it: the host finishes such a result (winner,
 * `re`, English text, no margin) and asks the plugin only for the native text. */
enum sht_decision {
	SHT_DECISION_COUNT = 0,       /* by counting: the plugin's score() */
	SHT_DECISION_VIOLATION = 1,   /* a violation whose consequence is LOSS */
	SHT_DECISION_WARNINGS = 2,    /* warnings_to_lose warnings */
	SHT_DECISION_RESIGNATION = 3,
	SHT_DECISION_TIME = 4,        /* the flag fell */
	SHT_DECISION_DRAW = 5,        /* a cycle the rules call a draw */
	SHT_DECISION_NO_RESULT = 6,   /* a cycle with no result */
	SHT_DECISION_REPLAY = 7,      /* a cycle: no result, and the game is played again */
};

/* ---- what the host counts for the plugin, with the scoring's dead stones removed ---- */

/*
 * Territory is an empty point (or a dead stone's point) from which only one colour's live stones
 * can be reached; dame reach both colours.  A group here is a maximal connected set of one
 * colour's live stones and the territory they own.  A seki point is a dame point neither colour
 * can fill without leaving its own chain in atari.  An independent-life region (ILR, docs/rules.md
 * section 1) is a group with no chain in atari touching no seki point (or owning two separate
 * territory regions: two eyes are life); a seki group is any other group touching a seki point
 * (its eyes are the seki territory).  A group with a chain in atari
 * and no seki point is neither: it is unsettled, and its territory counts as territory.
 */
struct sht_counts {
	size_t size;                 /* sizeof(struct sht_counts) as the host built it */
	int stones[3];               /* live stones by colour */
	int territory[3];            /* territory points by colour, dead stones' points included */
	int dame;
	int neutral;                 /* points reaching no live stone at all */
	int dead[3];                 /* dead stones by colour (removed for the count) */
	int captures[3];             /* stones captured during play, by the capturing colour */
	int groups[3];               /* independent-life regions by colour */
	int seki_territory[3];       /* territory points of seki groups (eyes in seki) */
	int seki_groups_eyed[3];     /* seki groups that own at least one territory point */
	int seki_groups_eyeless[3];  /* seki groups that own none */
	int handicap;                /* the game's handicap stones (HA, or stones placed before play) */
	int moves;                   /* moves played, passes included */
	int komi;                    /* half points to White: the request's, else the game record's,
	                              * else the ruleset's own (setup.komi) */
	/* Added after komi (check `size`): the groups as historians count them for the tax
	 * (docs/rules.md section 5.4): one colour's chains the opponent cannot cut apart (a
	 * tiger's mouth, two miai connection points, territory only they reach) count once. */
	int tax_groups[3];           /* such groups in no seki, by colour */
	int tax_seki_groups_eyed[3]; /* such groups in seki that own a territory point */
	/* Added after tax_seki_groups_eyed (check `size`): how the record ended, for rules that
	 * count passes (AGA's pass stones) or care who passed first (WMSG 2008's komi).  A void
	 * move counts as a pass.  The closing passes alternate, so the first of them was made by
	 * the last mover when closing_passes is odd and by to_move when it is even. */
	int passes[3];               /* every pass of the game, by colour */
	int to_move;                 /* the colour to move after the record's last move */
	int closing_passes;          /* consecutive passes at the end of the record */
	int first_pass;              /* the colour that made the game's first pass; 0: none */
};

/* How to turn counts into a score: the arithmetic every counting method shares.  A plugin
 * chooses the policy; the host does the sums (and fills everything in the result but the
 * native unit, margin and text, which are the plugin's to write). */
enum sht_counting {
	SHT_COUNTING_AREA = 0,      /* stones + territory (+ half the dame) */
	SHT_COUNTING_TERRITORY = 1, /* territory + prisoners */
};

enum sht_seki_eyes {
	SHT_SEKI_EYES_COUNT = 0,   /* eyes of seki groups count for their owner */
	SHT_SEKI_EYES_NOBODY = 1,  /* they count for nobody (Japanese Art. 8; KataGo tax SEKI/ALL) */
	SHT_SEKI_EYES_SPLIT = 2,   /* they are shared like dame */
};

enum sht_group_tax {
	SHT_TAX_NONE = 0,
	SHT_TAX_PER_GROUP = 1,     /* 2 points per independent-life region (还棋头) */
	SHT_TAX_EYES_NEEDED = 2,   /* 2 per ILR and 1 per seki group with an eye (Spight) */
	/* Added after EYES_NEEDED: the same over the groups historians count (chains that cannot
	 * be cut apart: counts.tax_groups and tax_seki_groups_eyed). */
	SHT_TAX_PER_CONNECTED_GROUP = 3,
	SHT_TAX_EYES_NEEDED_CONNECTED = 4,
};

/* The komi is not part of the policy: the host applies the effective komi (the request's,
 * else the game record's, else the ruleset's setup.komi; sht_counts.komi). */
struct sht_tally_policy {
	size_t size;               /* sizeof(struct sht_tally_policy) as the plugin built it */
	int counting;              /* enum sht_counting */
	int split_dame;            /* area counting: each side gets half the dame */
	int seki_eyes;             /* enum sht_seki_eyes */
	int tax;                   /* enum sht_group_tax */
	/* Handicap compensation to White for N handicap stones (N >= 2): handicap_per_stone half
	 * points for each stone beyond the first handicap_free_stones.  Chinese: 2 and 0 (N/2 zi,
	 * N points); AGA: 2 and 1 (N - 1 points); ancient: 4 and 0 (N zi). */
	int handicap_per_stone;
	int handicap_free_stones;
	/* Territory counting: subtract the stones each side lost (Tang style) rather than add the
	 * prisoners it took.  The margin is the same; the totals are the historical ones. */
	int count_losses;
};

/* An opaque position being scored: the final board, its dead stones and its history. */
struct sht_position;

/* ---- the score a plugin computes ---- */

/* One side's breakdown, in half points except `groups`.  total = the side's count, komi and
 * compensation included for the side that receives them; margin = black.total - white.total. */
struct sht_side_score {
	int stones;
	int territory;
	int dame_share;
	int prisoners;
	int groups;                  /* a count, not points */
	int tax;                     /* points given up for groups (a positive number) */
	int komi;
	int handicap_compensation;
	int total;
};

enum sht_winner {
	SHT_WINNER_NONE = -1, /* no result */
	SHT_WINNER_DRAW = 0,
	SHT_WINNER_BLACK = 1,
	SHT_WINNER_WHITE = 2,
};

#define SHT_SCORE_TEXT 96

struct sht_score_result {
	size_t size;                      /* sizeof(struct sht_score_result) as the host built it */
	struct sht_side_score black, white;
	int margin;                       /* half points, Black positive */
	int winner;                       /* enum sht_winner */
	char native_unit[16];             /* "zi", "mu", "jip", "points" */
	long native_margin;               /* hundredths of the native unit, Black positive */
	char native_text[SHT_SCORE_TEXT]; /* 黑胜¾子, 黒6目半勝ち, 흑 6집반 승 */
	char re[24];                      /* SGF RE: "B+3.5", "W+0.5", "0", "Void" */
	char text[SHT_SCORE_TEXT];        /* English: "Black wins by 3.5 points" */
	/* Added after text (check `size`): one sentence the plugin adds to the score's notes,
	 * NUL-terminated; the host presets it empty.  AGA's second count is told here. */
	char note[256];
	/* Added after note (check `size`): half points a rule gives outside the breakdown's
	 * members (Tibetan go's bonus for the four 1-1 points and tengen), by colour ([1] Black,
	 * [2] White), already in the totals; the host presets them 0 and shows them as `bonus`. */
	int bonus[3];
	/* Added after bonus (check `size`): nonzero when a game that ended by passes is counted
	 * as its board stands, as a server counted it: the host's settle step plays nothing there
	 * (no dame filled, no protecting move), so a region that an unfilled point leaves open to
	 * both colours is dame.  The host presets it 0. */
	int as_it_stands;
};

/* The host's services.  Check `size` before using a member added after version 1. */
struct sht_host {
	unsigned abi_version;
	size_t size;
	/* Fills the counts above. */
	void (*count)(const struct sht_position *pos, struct sht_counts *out);
	/* Board size, and the colour at (x, y) before dead stones are removed. */
	int (*width)(const struct sht_position *pos);
	int (*height)(const struct sht_position *pos);
	int (*color_at)(const struct sht_position *pos, int x, int y);
	/* Scores with a policy: fills the breakdown, margin, winner, re and text of out. */
	void (*tally)(const struct sht_position *pos, const struct sht_tally_policy *policy,
	    struct sht_score_result *out);
	/* Added after tally (check `size`).  Rewrites re and text from out's margin and winner,
	 * for a plugin that changes them after tally: WMSG 2008's komi point for White's first
	 * pass, Ing's tie that Black wins (a winner with margin 0 is written "B+0", "Black wins
	 * the tie"). */
	void (*result_texts)(struct sht_score_result *out);
	/* Added after result_texts (check `size`).  The colour whose area (x, y) is in once the
	 * scoring's dead stones are removed: a live stone or a point only its stones reach;
	 * SHT_RP_EMPTY for dame and points reaching no stone. */
	int (*owner_at)(const struct sht_position *pos, int x, int y);
};

/* ---- the descriptor ---- */

struct sht_ruleset_plugin {
	unsigned abi_version;      /* must be the first member: SHT_RULESET_ABI_VERSION */
	size_t size;               /* sizeof(struct sht_ruleset_plugin) as the plugin was built */
	const char *family;        /* the plugin's name: "chinese", "japanese", "han17", "ancient" */
	const char *title;         /* one line for people */
	const char *description;   /* the family in a paragraph, for plugins without `describe` */
	const char *sources;       /* where the rules come from (docs/rules.md sections and source keys) */
	const struct sht_param_spec *params;
	int nparams;

	/* Once, after loading; nonzero fails the load with the message in err.  NULL: nothing. */
	int (*init)(const struct sht_host *host, char *err, size_t errlen);
	/* Before unloading.  NULL: nothing. */
	void (*fini)(void);

	/* A ruleset instance for a full set of validated values; NULL with err filled refuses the
	 * combination.  The host keeps one instance per YAML ruleset and may use it from several
	 * threads at once, so an instance must not change after configure. */
	void *(*configure)(const struct sht_param_value *values, char *err, size_t errlen);
	void (*release)(void *rules);

	/* Fills the setup; the host presets size, passes_to_end = 2, warnings_to_lose = 0. */
	void (*setup)(const void *rules, struct sht_rules_setup *out);
	/* The consequence of a violation.  NULL: SHT_CONSEQUENCE_REJECT for everything. */
	int (*consequence)(const void *rules, int violation);
	/* The outcome of a repeated state under simple ko.  NULL: SHT_CYCLE_CONTINUE. */
	int (*cycle)(const void *rules);
	/* Scores a finished position; nonzero with err filled when it cannot. */
	int (*score)(const void *rules, const struct sht_host *host, const struct sht_position *pos,
	    struct sht_score_result *out, char *err, size_t errlen);

	/* Added after score (the host checks `size`).  Writes, NUL-terminated within len, the
	 * paragraph `describe` shows for this instance, composed from its values so that a
	 * ruleset's text cannot contradict its parameters.  NULL: `description` serves. */
	void (*describe)(const void *rules, char *buf, size_t len);
	/* Added after describe (the host checks `size`).  Writes native_text for a result
	 * decided otherwise than by counting (`decision`, enum sht_decision); out->winner is
	 * already set (the winner, or SHT_WINNER_DRAW / SHT_WINNER_NONE), and everything else is
	 * the host's.  NULL: the native text is the English one. */
	void (*decided)(const void *rules, int decision, struct sht_score_result *out);
};

/* The entry point's type. */
typedef const struct sht_ruleset_plugin *(*sht_ruleset_entry_fn)(void);

#ifdef __cplusplus
}
#endif

#endif
