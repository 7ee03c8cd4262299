/* A test plugin that scores from host->count, so a test sees what a third-party plugin reading
 * the counts gets: the tax's groups when its struct has them, nothing past its size when not. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shoutan/ruleset.h"

static const char *const layouts[] = { "current", "before_tax_groups", NULL };
enum layout { LAYOUT_CURRENT, LAYOUT_BEFORE_TAX_GROUPS };

static const struct sht_param_spec params[] = {
	{ "counts", SHT_PARAM_CHOICE, 0, 0, layouts, "current", 0,
	    "The struct sht_counts the plugin was built against: today's, or the one that ended "
	    "at komi." },
};

/* A value the host never writes: it shows a member the host left alone. */
enum { UNTOUCHED = -7 };

static void *
configure(const struct sht_param_value *values, char *err, size_t errlen)
{
	long *layout = malloc(sizeof(*layout));

	if (layout == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	*layout = values[0].number;
	return layout;
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

/* Area counting with no tax; each side's `groups` reports the tax_groups it was handed. */
static int
score(const void *rules, const struct sht_host *host, const struct sht_position *pos,
    struct sht_score_result *out, char *err, size_t errlen)
{
	const long *layout = rules;
	struct sht_counts k;
	struct sht_tally_policy policy = { .size = sizeof(policy), .counting = SHT_COUNTING_AREA };

	(void)err;
	(void)errlen;
	memset(&k, 0, sizeof(k));
	k.tax_groups[SHT_RP_BLACK] = k.tax_groups[SHT_RP_WHITE] = UNTOUCHED;
	k.size = *layout == LAYOUT_CURRENT ? sizeof(k) : offsetof(struct sht_counts, tax_groups);
	host->count(pos, &k);
	host->tally(pos, &policy, out);
	out->black.groups = k.tax_groups[SHT_RP_BLACK];
	out->white.groups = k.tax_groups[SHT_RP_WHITE];
	return 0;
}

static int
consequence(const void *rules, int violation)
{
	(void)rules;
	(void)violation;
	return SHT_CONSEQUENCE_REJECT;
}

static const struct sht_ruleset_plugin plugin = {
	.abi_version = SHT_RULESET_ABI_VERSION,
	.size = sizeof(struct sht_ruleset_plugin),
	.family = "counts_reader",
	.title = "A plugin that reports the counts the host gave it (tests only)",
	.params = params,
	.nparams = 1,
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
