/* The direct SGF reader against the tree reader: hostile snippets, then every corpus record. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "corpus.h"
#include "sgf_same_game.h"

static int failures, direct_reads, tree_reads;

/* Whether text is UTF-8, as far as the reading that took it shows: it was read as UTF-8, or
 * it is ASCII (which any CA would decode the same). */
static bool
is_utf8(const struct sht_sgf_collection *c, const char *text, size_t len)
{
	if (strcmp(c->encoding, "UTF-8") == 0)
		return true;
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)text[i] >= 0x80)
			return false;
	return true;
}

/* Reads text both ways.  When the direct reader takes it, the tree reader must read the same
 * game (and, for UTF-8, the reader of text known to be UTF-8 too); when it declines, game must
 * come back zeroed.  Returns whether it took the text. */
static bool
check(const char *what, const char *text, size_t len)
{
	struct sht_sgf_game direct, tree;
	struct sht_sgf_error err;
	struct sht_sgf_collection *cd = sht_sgf_read_game(text, len, &direct);
	struct sht_sgf_collection *ct;
	char why[512];
	const char *diff;

	if (cd == NULL) {
		static const struct sht_sgf_game zero;

		tree_reads++;
		if (memcmp(&direct, &zero, sizeof(zero)) != 0) {
			printf("FAIL %s: declined, but the game is not zeroed\n", what);
			failures++;
		}
		return false;
	}
	direct_reads++;
	if (is_utf8(cd, text, len)) {
		/* Text known to be UTF-8 (a JSON string) is read the same without the check. */
		struct sht_sgf_game known;
		struct sht_sgf_collection *ck = sht_sgf_read_game_utf8(text, len, &known);

		if (ck == NULL) {
			printf("FAIL %s: declined when known to be UTF-8\n", what);
			failures++;
		} else {
			if ((diff = sgf_game_difference(ck, &known, cd, &direct, why,
			    sizeof(why))) != NULL) {
				printf("FAIL %s: known to be UTF-8: %s\n", what, diff);
				failures++;
			}
			sht_sgf_game_free(&known);
			sht_sgf_free(ck);
		}
	}
	ct = sht_sgf_parse(text, len, &err);
	if (ct == NULL || !sht_sgf_game(ct, 0, &tree, &err)) {
		printf("FAIL %s: read directly, but the tree reader refuses it: %d:%d %s\n", what,
		    err.line, err.column, err.message);
		failures++;
	} else {
		if ((diff = sgf_game_difference(cd, &direct, ct, &tree, why, sizeof(why))) != NULL) {
			printf("FAIL %s: %s\n", what, diff);
			failures++;
		}
		sht_sgf_game_free(&tree);
	}
	sht_sgf_free(ct);
	sht_sgf_game_free(&direct);
	sht_sgf_free(cd);
	return true;
}

struct snippet {
	const char *text;
	bool direct; /* whether the direct reader should take it */
};

/* Plain files it must read, and each kind of file it must leave to the tree reader. */
static const struct snippet snippets[] = {
	{ "(;SZ[9]KM[6.5];B[ee];W[cc])", true },
	{ " \n(;FF[4]GM[1]SZ[19]RU[Japanese]RE[W+R]PB[a\\]b]PW[c\\\\]C[x\\]y];B[pd];W[];B[tt])\n",
	  true },
	{ "(;B[aa]SZ[5]HA[2]AB[bb][cc]PL[W];W[dd])", true },          /* SZ after a move */
	{ "(;SZ[9];B[aa](;W[bb];B[cc])(;W[dd](;B[ee])(;B[ff])))", true }, /* variations */
	{ "(;SZ[9];AB[aa:cc][bb]AW[ee];B[ff];PL[b];AE[aa]W[aa])", true },
	{ "(;AP[foxwq]RU[Japanese]KM[0]SZ[19];B[pd])", true },
	{ "(;KM[650]AP[foxwq]AP[YuanYu];B[pd])", true },
	{ "(;KM[7.5]KM[6.5]HA[]C[(;B[aa\\])];B[pd];W[dp]C[a\\\n)])", true },
	{ "(;SZ[9];B[aa];B[aa])", true },                             /* judged later, not here */
	{ "(;SZ[19];B[pd]N[\xff\xfe])", true },                       /* not UTF-8: decoded */
	{ "(;CA[GB2312]PB[\xc4\xe3];B[pd])", true },
	{ "(;TM[600]OT[5x30 byo-yomi]TM[1];C[x];W[aa]B[bb])", true }, /* the clock's view */
	{ "(;OT[3/60 Canadian];W[aa];B[bb]OB[2])", true },
	{ "(;SZ[9];B[aa];W[bb]C[x]B[cc];B[dd] W[ee]\n;W[tt];B[ab]\n)", true }, /* more than a move */
	{ "(;SZ[21];B[aa];W[tt])", true },                            /* tt a point */
	/* Passes written as nodes without a move (read_empty_node_passes): the nodes after the
	 * last move are passes, two at most, in either reading. */
	{ "(;SZ[9];B[aa];;B[bb];W[cc];;C[B+1])", true },
	{ "(;SZ[9];B[aa];W[bb]C[x];;B[cc];;W[dd];C[a];;;)", true },
	{ "(;SZ[9];B[aa];;B[bb];W[cc];;C[B+1](;B[dd]))", true },
	{ "", false },
	{ "(;SZ[9];B[aa];W[jj])", false },                            /* off the board */
	{ "(;SZ[9];B[aa];W[bb][cc])", true },
	{ "(;SZ[9];B[aa];W[bb] [cc])", false },
	{ "(;SZ[9];B[aa];W[bb]AB[bb]AE[bb])", false },
	{ "(;SZ[9])", false },                                        /* no move: the clock */
	{ "(;SZ[9]AB[aa])", false },
	{ "(;SZ[9];B[aa]BL[30];W[bb])", true },                       /* the clock's times */
	{ "(;SZ[9];B[aa];W[bb]WL[30])", true },
	{ "(;TM[60]OT[5x30 byo-yomi];B[aa]BL[50]OB[5]BL[40];W[bb]WL[29]OW[4]\n;B[cc]BL[1\\0]"
	  ";W[dd] WL[ 9 ][8] OW[3];C[x];B[tt]BL[30];W[];AB[ee]BL[2];B[ff]BL[1]W[gg]WL[2])", true },
	{ "(;SZ[9]B[aa]BL[30]TM[60];W[bb]BL[30]WL[20];B[cc](;W[dd]WL[10])(;W[ee]WL[5]))", true },
	{ "(;SZ[9]WL[3];OB[2];B[aa];W[bb]OW[1])", true },             /* times without moves */
	{ "(;SZ[9];B[aa]BL[30];W[bb]WL[30]XX[)", false },
	{ "(;SZ[9];B[aa]BL[30];W[bb]WL[30", false },
	{ "(;SZ[9];B[aa]BL[30];W[zz]WL[30])", false },
	{ "(;SZ[9];B[aa])(;B[bb])", false },                          /* two games */
	{ "(;SZ[9];B[aa]) x", false },
	{ "x(;SZ[9];B[aa])", false },
	{ "(;SZ[9];B[aa]", false },                                   /* not closed */
	{ "(;SZ[9];B[aa", false },
	{ "(;SZ[9];B[aa]C[\\", false },
	{ "(;SZ[9];B[aa](;W[bb]", false },
	{ "(;SZ[9];B[aa](;W[bb])(;W[cc]C[)", false },                 /* bad after the main line */
	{ "(;SZ[9];B[aa]())", false },                                /* empty "()" */
	{ "(;SZ[9];B[aa]()(;W[bb]))", false },
	{ "(;SZ[9];B[aa](W[bb]))", false },                           /* missing ';' */
	{ "(SZ[9];B[aa])", false },
	{ "(;SZ[9];b[aa])", false },                                  /* lower case */
	{ "(;SZ[9];CoPyright[x]B[aa])", false },
	{ "(;SZ[9];B [aa]X;W[bb])", false },                          /* no value */
	{ "(;SZ[9];B[aa]ABCDEFGHIJKLMNOP[x])", false },               /* 16 letters */
	{ "(;SZ[9];B[aa](;W[bb]);B[cc])", false },                    /* node after a variation */
	{ "(;SZ[9];B[aa](;W[bb]))(", false },
	{ "(;SZ[9];B[aa]))", false },                                 /* stray ')' */
	{ "(;SZ[9];B[aa][bb] [cc]\x01)", false },
	{ "(;SZ[99];B[aa])", false },                                 /* errors: the tree's */
	{ "(;SZ[x];B[aa])", false },
	{ "(;SZ[9];B[zz])", false },
	{ "(;SZ[9];B[aa]AB[bb]AW[bb])", false },
	{ "(;KM[x];B[aa])", false },
	{ "(;SZ[9];B[aa];W[bb](;B[cc]C[x)", false },
};

static void
check_file(const char *path, void *arg)
{
	size_t len;
	char *text = corpus_read(path, &len);

	(void)arg;
	if (text == NULL) {
		printf("FAIL %s: not readable\n", path);
		failures++;
		return;
	}
	check(path, text, len);
	free(text);
}

int
main(int argc, char **argv)
{
	struct stat st;
	int corpus_direct;

	for (size_t i = 0; i < sizeof(snippets) / sizeof(snippets[0]); i++) {
		char what[64];

		snprintf(what, sizeof(what), "snippet %zu", i);
		if (check(what, snippets[i].text, strlen(snippets[i].text)) != snippets[i].direct) {
			printf("FAIL %s: %s\n", what, snippets[i].direct ?
			    "left to the tree reader, but it is plain" :
			    "read directly, but the tree reader must read it");
			failures++;
		}
	}
	direct_reads = tree_reads = 0;
	if (argc < 2 || stat(argv[1], &st) != 0) {
		printf("the shared corpus is not here: the snippets alone were checked\n");
	} else {
		corpus_walk_sgf(argv[1], check_file, NULL);
		corpus_direct = direct_reads;
		printf("corpus: %d records read directly, %d left to the tree reader\n",
		    corpus_direct, tree_reads);
		/* The point of the direct reader is the common case: most records are plain. */
		if (corpus_direct < tree_reads) {
			printf("FAIL: fewer records read directly than by the tree\n");
			failures++;
		}
	}
	printf("%d failures\n", failures);
	return failures ? 1 : 0;
}
