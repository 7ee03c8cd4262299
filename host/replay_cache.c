/* A worker's cache of replayed positions, so that a live game asked about again, one move
 * longer, is replayed from where it stood rather than from its first move. */
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "replay_cache.h"

struct entry {
	uint64_t fingerprint; /* of the key and the first SHT_REPLAY_CHECKPOINT events */
	struct sht_replay_key key;
	uint64_t *events;  /* the events played, as sht_replay_event_code wrote them */
	int nevents;
	uint64_t last_use; /* the cache's clock when last found or stored: the oldest goes first */
	/* The replay after those events, before the end of the game is looked at. */
	struct sht_board *board;
	struct sht_move_record *moves;
	int nmoves;
	struct sht_replay state; /* scalars and the notes the events added; no board, no moves */
	int to_move;
};

struct sht_replay_cache {
	struct entry *entries;
	int n;
	uint64_t clock;
	long hits, misses;
};

struct sht_replay_cache *
sht_replay_cache_new(int entries)
{
	struct sht_replay_cache *c;

	if (entries <= 0)
		return NULL;
	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return NULL;
	c->entries = calloc((size_t)entries, sizeof(*c->entries));
	if (c->entries == NULL) {
		free(c);
		return NULL;
	}
	c->n = entries;
	return c;
}

static void
entry_clear(struct entry *e)
{
	sht_board_free(e->board);
	free(e->moves);
	free(e->events);
	memset(e, 0, sizeof(*e));
}

void
sht_replay_cache_free(struct sht_replay_cache *c)
{
	if (c == NULL)
		return;
	for (int i = 0; i < c->n; i++)
		entry_clear(&c->entries[i]);
	free(c->entries);
	free(c);
}

bool
sht_replay_event_code(const struct sht_sgf_event *e, uint64_t *code)
{
	/* x and y of a board up to 25 lines, or -1 for a pass: one byte each once shifted. */
	if (e->x < -1 || e->x > 254 || e->y < -1 || e->y > 254 || e->move_number < 0 ||
	    (unsigned)e->kind > 255 || (unsigned)e->color > 255)
		return false;
	*code = (uint64_t)(unsigned)e->kind << 56 | (uint64_t)(unsigned)e->color << 48 |
	    (uint64_t)(unsigned)(e->x + 1) << 40 | (uint64_t)(unsigned)(e->y + 1) << 32 |
	    (uint64_t)(unsigned)e->move_number;
	return true;
}

/* The key and the first SHT_REPLAY_CHECKPOINT events in one number, so that the scan compares
 * one word per entry: every game on an empty board has the same key, and many the same first
 * moves, but few the same sixteen. */
static uint64_t
fingerprint(const struct sht_replay_key *k, const uint64_t *events)
{
	uint64_t h = (uint64_t)(uintptr_t)k->ruleset ^ k->start_hash ^
	    (uint64_t)k->width << 40 ^ (uint64_t)k->height << 48 ^
	    (uint64_t)k->start_to_move << 56 ^ (uint64_t)k->start_stones << 8 ^
	    (uint64_t)k->on_request << 60 ^ (uint64_t)k->implied_passes << 61;

	for (int i = 0; i < SHT_REPLAY_CHECKPOINT; i++) {
		/* splitmix64's finaliser over the running value */
		h ^= events[i] + 0x9E3779B97F4A7C15u;
		h ^= h >> 30;
		h *= 0xBF58476D1CE4E5B9u;
		h ^= h >> 27;
		h *= 0x94D049BB133111EBu;
		h ^= h >> 31;
	}
	return h;
}

static bool
same_key(const struct sht_replay_key *a, const struct sht_replay_key *b)
{
	return a->ruleset == b->ruleset && a->on_request == b->on_request &&
	    a->implied_passes == b->implied_passes && a->width == b->width &&
	    a->height == b->height && a->start_hash == b->start_hash &&
	    a->start_to_move == b->start_to_move && a->start_stones == b->start_stones;
}

/* How the game stands, besides its board, moves and notes: what an entry keeps and gives back. */
static void
copy_standing(struct sht_replay *dst, const struct sht_replay *src)
{
	dst->end = src->end;
	dst->end_player = src->end_player;
	memcpy(dst->end_reason, src->end_reason, sizeof(dst->end_reason));
	memcpy(dst->end_short, src->end_short, sizeof(dst->end_short));
	memcpy(dst->warnings, src->warnings, sizeof(dst->warnings));
	dst->implied_passes = src->implied_passes;
	dst->cycle_outcome = src->cycle_outcome;
	dst->decision = src->decision;
}

int
sht_replay_cache_resume(struct sht_replay_cache *c, const struct sht_replay_key *key,
    const uint64_t *events, int nevents, struct sht_replay *out, int *to_move)
{
	struct entry *best = NULL;
	struct sht_board *board;
	uint64_t fp;

	if (c == NULL || nevents < SHT_REPLAY_CHECKPOINT)
		return 0;
	fp = fingerprint(key, events);
	/* A linear scan: a few hundred keys compared is well under a microsecond, a small part
	 * of the replay it saves, and needs no table to keep in step. */
	for (int i = 0; i < c->n; i++) {
		struct entry *e = &c->entries[i];

		if (e->fingerprint == fp && e->board != NULL && e->nevents <= nevents &&
		    (best == NULL || e->nevents > best->nevents) && same_key(&e->key, key) &&
		    memcmp(e->events, events, sizeof(*events) * (size_t)e->nevents) == 0)
			best = e;
	}
	if (best == NULL || best->nmoves > out->capacity ||
	    (board = sht_board_clone(best->board)) == NULL) {
		c->misses++;
		return 0;
	}
	sht_board_free(out->board);
	out->board = board;
	memcpy(out->moves, best->moves, sizeof(*out->moves) * (size_t)best->nmoves);
	out->nmoves = best->nmoves;
	copy_standing(out, &best->state);
	for (int i = 0; i < best->state.nnotes && out->nnotes < SHT_MAX_NOTES; i++)
		memcpy(out->notes[out->nnotes++], best->state.notes[i], SHT_NOTE_MAX);
	*to_move = best->to_move;
	best->last_use = ++c->clock;
	c->hits++;
	return best->nevents;
}

void
sht_replay_cache_store(struct sht_replay_cache *c, const struct sht_replay_key *key,
    const uint64_t *events, int nevents, const struct sht_replay *r, int first_note, int to_move)
{
	struct entry *slot = NULL, fresh;
	uint64_t fp;

	/* A full list of notes may have dropped some of the events' own, which another game's
	 * fewer opening notes would have kept: not stored. */
	if (c == NULL || r->nnotes >= SHT_MAX_NOTES || nevents < SHT_REPLAY_CHECKPOINT ||
	    nevents > SHT_REPLAY_MAX_EVENTS || r->nmoves > SHT_REPLAY_MAX_EVENTS)
		return;
	fp = fingerprint(key, events);
	for (int i = 0; i < c->n; i++) {
		struct entry *e = &c->entries[i];

		if (e->fingerprint == fp && e->board != NULL && e->nevents == nevents &&
		    same_key(&e->key, key) && memcmp(e->events, events, sizeof(*events) * (size_t)nevents) == 0) {
			e->last_use = ++c->clock; /* already here */
			return;
		}
		if (slot == NULL || e->board == NULL ||
		    (slot->board != NULL && e->last_use < slot->last_use))
			slot = e;
	}
	memset(&fresh, 0, sizeof(fresh));
	fresh.fingerprint = fp;
	fresh.key = *key;
	fresh.nevents = nevents;
	fresh.nmoves = r->nmoves;
	fresh.to_move = to_move;
	fresh.board = sht_board_clone(r->board);
	fresh.events = malloc(sizeof(*events) * (size_t)(nevents > 0 ? nevents : 1));
	fresh.moves = malloc(sizeof(*r->moves) * (size_t)(r->nmoves > 0 ? r->nmoves : 1));
	if (fresh.board == NULL || fresh.events == NULL || fresh.moves == NULL) {
		entry_clear(&fresh); /* out of memory: the cache is only a shortcut */
		return;
	}
	memcpy(fresh.events, events, sizeof(*events) * (size_t)nevents);
	memcpy(fresh.moves, r->moves, sizeof(*r->moves) * (size_t)r->nmoves);
	copy_standing(&fresh.state, r);
	for (int i = first_note; i < r->nnotes; i++)
		memcpy(fresh.state.notes[fresh.state.nnotes++], r->notes[i], SHT_NOTE_MAX);
	fresh.last_use = ++c->clock;
	entry_clear(slot);
	*slot = fresh;
}

void
sht_replay_cache_counts(const struct sht_replay_cache *c, long *hits, long *misses)
{
	*hits = c != NULL ? c->hits : 0;
	*misses = c != NULL ? c->misses : 0;
}
