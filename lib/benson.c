/* Benson's unconditional life (1976): chains that can never be captured, and what they own. */
#include <stdlib.h>
#include <string.h>

#include "board_impl.h"

/* One (region, chain) adjacency: the region borders the chain, and is vital to it when every
 * empty point of the region is a liberty of the chain (every point, empty or not, where the
 * opponent may commit multi-stone suicide and so empty its own stones' points). */
struct pair {
	int region, chain;
	bool vital;
};

int
sht_benson(const struct sht_board *b, int c, bool multi_stone_suicide, uint8_t *status)
{
	int np = b->npoints, nchains = 0, nregions = 0, npairs = 0, alive_stones = 0;
	int *cidx = malloc((size_t)np * sizeof(int));      /* chain id -> chain index */
	int *rlabel = malloc((size_t)np * sizeof(int));    /* point -> region index + 1 */
	int *stack = malloc((size_t)np * sizeof(int));
	int *adjcount = calloc((size_t)np, sizeof(int));   /* per chain index, scratch */
	int *rempty = calloc((size_t)np, sizeof(int));     /* points that vitality looks at */
	int *rinternal = calloc((size_t)np, sizeof(int));  /* points not touching c's stones */
	bool *chain_alive = calloc((size_t)np, sizeof(bool));
	bool *region_healthy = calloc((size_t)np, sizeof(bool));
	struct pair *pairs = malloc((size_t)np * 4 * sizeof(*pairs));
	bool ok = cidx && rlabel && stack && adjcount && rempty && rinternal && chain_alive &&
	    region_healthy && pairs;

	if (!ok || (c != SHT_BLACK && c != SHT_WHITE))
		goto out;

	for (int p = 0; p < np; p++) {
		cidx[p] = -1;
		rlabel[p] = 0;
	}
	for (int p = 0; p < np; p++)
		if (b->color[p] == c && b->chain[p] == p)
			cidx[p] = nchains++;
	if (nchains == 0)
		goto out;

	/* Regions: maximal connected sets of points that are not c's stones, grown from empty
	 * points; opponent stones with no empty point beside them form no region (KataGo's
	 * reading of Benson, which the conformance run checks against). */
	for (int p = 0; p < np; p++) {
		int top = 0, first_pair = npairs, r;

		if (b->color[p] != SHT_EMPTY || rlabel[p] != 0)
			continue;
		r = nregions++;
		rlabel[p] = r + 1;
		stack[top++] = p;
		while (top > 0) {
			int s = stack[--top];
			bool touches_c = false;
			bool counts = multi_stone_suicide || b->color[s] == SHT_EMPTY;

			if (counts)
				rempty[r]++;
			for (int d = 0; d < 4; d++) {
				int q = s + b->dir[d];

				if (b->color[q] == c) {
					int ch = cidx[b->chain[q]];
					bool seen_here = false;

					touches_c = true;
					/* Count each chain once per empty point for vitality. */
					for (int e = 0; e < d; e++) {
						int q2 = s + b->dir[e];

						if (b->color[q2] == c && b->chain[q2] == b->chain[q])
							seen_here = true;
					}
					if (seen_here)
						continue;
					if (adjcount[ch] == 0) {
						pairs[npairs].region = r;
						pairs[npairs].chain = ch;
						npairs++;
					}
					/* adjcount counts empty points adjacent to the chain, plus one
					 * for having been seen at all. */
					if (adjcount[ch] == 0)
						adjcount[ch] = 1;
					if (counts)
						adjcount[ch]++;
				} else if (b->color[q] != SHT_OFFBOARD && rlabel[q] == 0) {
					rlabel[q] = r + 1;
					stack[top++] = q;
				}
			}
			if (!touches_c)
				rinternal[r]++;
		}
		for (int k = first_pair; k < npairs; k++) {
			pairs[k].vital = adjcount[pairs[k].chain] - 1 == rempty[r];
			adjcount[pairs[k].chain] = 0;
		}
	}

	/* Benson's iteration: drop every chain with fewer than two vital regions among the regions
	 * whose bordering chains are all still standing, until nothing changes. */
	for (int k = 0; k < nchains; k++)
		chain_alive[k] = true;
	for (;;) {
		bool changed = false;

		for (int r = 0; r < nregions; r++)
			region_healthy[r] = true;
		for (int k = 0; k < npairs; k++)
			if (!chain_alive[pairs[k].chain])
				region_healthy[pairs[k].region] = false;
		memset(adjcount, 0, (size_t)nchains * sizeof(int));
		for (int k = 0; k < npairs; k++)
			if (pairs[k].vital && region_healthy[pairs[k].region])
				adjcount[pairs[k].chain]++;
		for (int k = 0; k < nchains; k++)
			if (chain_alive[k] && adjcount[k] < 2) {
				chain_alive[k] = false;
				changed = true;
			}
		if (!changed)
			break;
	}

	for (int p = 0; p < np; p++) {
		if (b->color[p] == c && chain_alive[cidx[b->chain[p]]]) {
			status[p] = 1;
			alive_stones++;
		}
	}
	/* A region is owned for certain when all its bordering chains live and it is too small for
	 * the opponent to make two eyes in: at most one empty point away from c's stones. */
	memset(rempty, 0, (size_t)nregions * sizeof(int)); /* reused: bordering chains */
	for (int k = 0; k < npairs; k++)
		rempty[pairs[k].region]++;
	for (int r = 0; r < nregions; r++)
		region_healthy[r] = rinternal[r] <= 1 && rempty[r] > 0;
	for (int k = 0; k < npairs; k++)
		if (!chain_alive[pairs[k].chain])
			region_healthy[pairs[k].region] = false;
	for (int p = 0; p < np; p++)
		if (rlabel[p] != 0 && region_healthy[rlabel[p] - 1])
			status[p] = 2;
out:
	free(cidx);
	free(rlabel);
	free(stack);
	free(adjcount);
	free(rempty);
	free(rinternal);
	free(chain_alive);
	free(region_healthy);
	free(pairs);
	return alive_stones;
}

void
sht_pass_alive_map(const struct sht_board *b, bool multi_stone_suicide, uint8_t *owner)
{
	uint8_t *status = malloc((size_t)b->npoints);

	memset(owner, SHT_EMPTY, (size_t)b->npoints);
	if (status == NULL)
		return;
	for (int c = SHT_BLACK; c <= SHT_WHITE; c++) {
		memset(status, 0, (size_t)b->npoints);
		sht_benson(b, c, multi_stone_suicide, status);
		for (int p = 0; p < b->npoints; p++)
			if (status[p])
				owner[p] = (uint8_t)c;
	}
	free(status);
}
