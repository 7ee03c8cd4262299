/* The replay cache's interface: positions a worker replayed, found again by the moves that led there. */
#ifndef SHT_REPLAY_CACHE_H
#define SHT_REPLAY_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "host.h"

/* What a replay's events are played from: two games whose events match are replayed alike
 * when these match (the start position after setup, and how the ruleset replays). */
struct sht_replay_key {
	const struct sht_ruleset *ruleset;
	bool on_request;      /* history kept as a list (simple ko) */
	bool implied_passes;  /* a missing pass is read between two moves of one colour */
	int width, height;
	uint64_t start_hash;
	int start_to_move;
	int start_stones;
};

/* Positions are kept every SHT_REPLAY_CHECKPOINT events of a game (after 16, 32, ...): a game
 * asked about move after move resumes from the last one and replays at most that many events,
 * and keeping one costs a copy of the board only once in that many moves. */
#define SHT_REPLAY_CHECKPOINT 16
/* Positions past this many events are not kept: real games end well before it, and a client
 * sending games of thousands of moves cannot make each entry cost more than about 60 KB. */
#define SHT_REPLAY_MAX_EVENTS 768

/* A cache of `entries` replayed positions; NULL for none (entries <= 0, or no memory). */
struct sht_replay_cache *sht_replay_cache_new(int entries);
void sht_replay_cache_free(struct sht_replay_cache *c);
/* One event as a number compared exactly (kind, colour, point, move number); false for one
 * that cannot be coded (it is off any board: the replay reports it, nothing is cached). */
bool sht_replay_event_code(const struct sht_sgf_event *e, uint64_t *code);
/* The longest cached replay of a prefix of events under key, copied into out (which
 * sht_judge_start made, with room for the game's moves): the number of events it covers,
 * *to_move the player to move after them; 0 when none is cached (out is untouched). */
int sht_replay_cache_resume(struct sht_replay_cache *c, const struct sht_replay_key *key,
    const uint64_t *events, int nevents, struct sht_replay *out, int *to_move);
/* Keeps a copy of r after events, nevents a multiple of SHT_REPLAY_CHECKPOINT (its notes from
 * first_note on are the events' own), the least recently used entry making room. */
void sht_replay_cache_store(struct sht_replay_cache *c, const struct sht_replay_key *key,
    const uint64_t *events, int nevents, const struct sht_replay *r, int first_note, int to_move);
/* Lookups that found a position, and those that found none. */
void sht_replay_cache_counts(const struct sht_replay_cache *c, long *hits, long *misses);

#endif
