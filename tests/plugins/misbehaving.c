/* A test plugin that misbehaves on purpose (crash or sleep while scoring, answer a consequence
 * that is none, or forge a reply frame as a worker taken over would): the host and the daemon
 * must survive it. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "shoutan/ruleset.h"

static const char *const actions[] = { "crash", "sleep", "bad_consequence", "forge_frame",
	NULL };
enum action { ACTION_CRASH, ACTION_SLEEP, ACTION_BAD_CONSEQUENCE, ACTION_FORGE_FRAME };

static const struct sht_param_spec params[] = {
	{ "action", SHT_PARAM_CHOICE, 0, 0, actions, "crash", 0,
	    "What to do while scoring, or which consequence to give." },
	{ "sleep_ms", SHT_PARAM_INT, 0, 600000, NULL, "1000", 0, "How long to sleep." },
};

struct misbehaving {
	long action, sleep_ms;
};

static void *
configure(const struct sht_param_value *values, char *err, size_t errlen)
{
	struct misbehaving *m = malloc(sizeof(*m));

	if (m == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	m->action = values[0].number;
	m->sleep_ms = values[1].number;
	return m;
}

static void
release(void *rules)
{
	free(rules);
}

static void
setup(const void *rules, struct sht_rules_setup *out)
{
	(void)rules;
	out->width = out->height = 9;
}

static int
score(const void *rules, const struct sht_host *host, const struct sht_position *pos,
    struct sht_score_result *out, char *err, size_t errlen)
{
	const struct misbehaving *m = rules;
	struct timespec ts = { m->sleep_ms / 1000, (m->sleep_ms % 1000) * 1000000L };

	(void)host;
	(void)pos;
	(void)out;
	(void)err;
	(void)errlen;
	if (m->action == ACTION_CRASH)
		raise(SIGSEGV); /* what a buggy plugin does */
	if (m->action == ACTION_FORGE_FRAME) {
		/* In a daemon's worker, descriptor 3 is the pair to the parent: announce a reply
		 * of 1 GiB (daemon/frame.h's header), as code that took the worker over could. */
		const uint32_t header[3] = { UINT32_C(1) << 30, 0, 0 };

		(void)!write(3, header, sizeof(header));
	}
	nanosleep(&ts, NULL);
	snprintf(err, errlen, "slept %ld ms", m->sleep_ms);
	return -1;
}

/* Every violation's consequence: one outside enum sht_consequence, when asked to misbehave. */
static int
consequence(const void *rules, int violation)
{
	const struct misbehaving *m = rules;

	(void)violation;
	return m->action == ACTION_BAD_CONSEQUENCE ? 42 : SHT_CONSEQUENCE_REJECT;
}

static const struct sht_ruleset_plugin plugin = {
	.abi_version = SHT_RULESET_ABI_VERSION,
	.size = sizeof(struct sht_ruleset_plugin),
	.family = "misbehaving",
	.title = "A plugin that crashes or sleeps (tests only)",
	.params = params,
	.nparams = 2,
	.configure = configure,
	.release = release,
	.setup = setup,
	.consequence = consequence,
	.score = score,
};

__attribute__((visibility("default"))) const struct sht_ruleset_plugin *shoutan_ruleset_plugin(void);

const struct sht_ruleset_plugin *
shoutan_ruleset_plugin(void)
{
	return &plugin;
}
