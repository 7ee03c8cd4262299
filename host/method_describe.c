/* Method `describe`: a ruleset's parameters (value, default, reconstruction), text and sources. */
#include <stdio.h>
#include <string.h>

#include "method.h"
#include "render.h"

static const char *
type_name(enum sht_param_type t)
{
	switch (t) {
	case SHT_PARAM_BOOL: return "bool";
	case SHT_PARAM_INT: return "int";
	case SHT_PARAM_DECIMAL: return "decimal";
	case SHT_PARAM_CHOICE: return "choice";
	}
	return "unknown";
}

/* The ruleset's paragraph: the plugin's, composed from this ruleset's values when the plugin
 * can, then what the host rules from the YAML itself (dead stones), so that no part of the
 * text is written apart from the parameters it speaks of. */
static void
description(const struct sht_ruleset *rs, char *buf, size_t len)
{
	const struct sht_ruleset_plugin *d = rs->plugin->desc;
	size_t used;

	buf[0] = '\0';
	if (d->size >= offsetof(struct sht_ruleset_plugin, describe) + sizeof(d->describe) &&
	    d->describe != NULL) {
		d->describe(rs->rules, buf, len);
		buf[len - 1] = '\0';
	} else if (d->description != NULL) {
		snprintf(buf, len, "%s", d->description);
	}
	used = strlen(buf);
	snprintf(buf + used, len - used, "%s%s", used > 0 ? "  " : "",
	    rs->default_dead == SHT_DEAD_NONE ? "Every stone on the board is alive unless a "
	    "request lists dead stones." : "Dead stones are judged automatically unless a "
	    "request lists them or says none.");
}

static json_t *
sht_method_describe(const struct sht_context *ctx, json_t *params, struct sht_error *err)
{
	const struct sht_ruleset *rs;
	const struct sht_ruleset_plugin *d;
	json_t *name = json_object_get(params, "ruleset"), *list, *seated, *out, *setup;
	char text[2048];

	if (!json_is_string(name))
		return sht_fail(err, SHT_ERROR_BAD_PARAMS, "ruleset (a name) is required");
	rs = sht_registry_find(ctx->registry, json_string_value(name));
	if (rs == NULL)
		return sht_fail(err, SHT_ERROR_UNKNOWN_RULESET, "unknown ruleset '%.60s'",
		    json_string_value(name));
	d = rs->plugin->desc;
	description(rs, text, sizeof(text));
	list = json_array();
	for (int i = 0; i < d->nparams; i++) {
		const struct sht_param_spec *p = &d->params[i];
		char value[64];
		json_t *o;

		sht_param_format(p, &rs->values[i], value, sizeof(value));
		/* A file's own reconstruction note marks its value even where the plugin's default
		 * is attested (Ing's ko rule on the modern Chinese plugin's superko). */
		o = json_pack("{s:s, s:s, s:s, s:s, s:b, s:b, s:s}", "name", p->name,
		    "type", type_name(p->type), "value", value, "default", p->default_value,
		    "reconstruction", p->reconstruction != 0 || rs->reconstruction_note[i] != NULL,
		    "set_in_file", rs->explicit_value[i],
		    "description", p->description ? p->description : "");
		if (rs->reconstruction_note[i] != NULL)
			json_object_set_new(o, "reconstruction_note",
			    json_string(rs->reconstruction_note[i]));
		if (p->type == SHT_PARAM_CHOICE) {
			json_t *choices = json_array();

			for (int k = 0; p->choices[k] != NULL; k++)
				json_array_append_new(choices, json_string(p->choices[k]));
			json_object_set_new(o, "choices", choices);
		} else if (p->type == SHT_PARAM_INT) {
			json_object_set_new(o, "min", json_integer(p->min));
			json_object_set_new(o, "max", json_integer(p->max));
		}
		json_array_append_new(list, o);
	}
	seated = json_array();
	for (int i = 0; i < rs->setup.nseated; i++) {
		struct sht_board_options o;
		struct sht_board *b;

		sht_board_options_init(&o, rs->setup.width, rs->setup.height);
		b = sht_board_new(&o);
		if (b != NULL)
			json_array_append_new(seated, json_pack("{s:s, s:o}", "color",
			    rs->setup.seated[i].color == SHT_RP_BLACK ? "B" : "W", "vertex",
			    sht_json_vertex(b, sht_board_point(b, rs->setup.seated[i].x,
			    rs->setup.seated[i].y))));
		sht_board_free(b);
	}
	out = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:{s:[i,i], s:s, s:o, s:s, "
	    "s:b, s:[i,i], s:o, s:i, s:s}, s:o}",
	    "name", rs->name, "plugin", d->family, "title", rs->title, "summary", rs->summary,
	    "description", text,
	    "sources", d->sources ? d->sources : "", "file", rs->path,
	    "parameters", list,
	    "setup", "board", rs->setup.width, rs->setup.height,
	    "ko", rs->setup.ko == SHT_RULES_KO_SIMPLE ? "simple" :
	    rs->setup.ko == SHT_RULES_KO_POSITIONAL ? "positional" : "situational",
	    "komi", sht_json_points(rs->setup.komi),
	    "first", rs->setup.first_player == SHT_RP_BLACK ? "B" : "W",
	    "multi_stone_suicide", rs->setup.multi_stone_suicide != 0,
	    "stones", rs->setup.supply[SHT_RP_BLACK], rs->setup.supply[SHT_RP_WHITE],
	    "seated", seated,
	    "warnings_to_lose", rs->setup.warnings_to_lose,
	    "ko_life", rs->setup.ko_life == SHT_KO_LIFE_DEAD ? "dead" : "play",
	    "clock", rs->clock.kind != 0 ? sht_clock_spec_json(&rs->clock) : json_null());
	/* Who must pass last (AGA) and Tibetan go's capture ban, beside the rest of the setup. */
	setup = json_object_get(out, "setup");
	json_object_set_new(setup, "last_pass", rs->setup.last_pass == SHT_RP_EMPTY ?
	    json_string("either") : json_string(rs->setup.last_pass == SHT_RP_BLACK ? "B" : "W"));
	json_object_set_new(setup, "capture_ban", json_boolean(rs->setup.capture_ban != 0));
	return out;
}

static const char *const describe_params[] = { "ruleset", NULL };

const struct sht_method_entry sht_method_describe_entry = {
	.name = "describe",
	.summary = "A ruleset's parameters, text, sources and setup.",
	.params = describe_params,
	.usage = "describe RULESET [--json [--compact]]",
	.pure = true,
	.cost = SHT_COST_LIGHT,
	.run = sht_method_describe,
};
