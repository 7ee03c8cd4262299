/* Loading ruleset plugins with dlopen: entry symbol, ABI version check, init, and clean unload. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"

/* Checks a descriptor and runs its init: what every plugin goes through, loaded or built in. */
static struct sht_plugin *
adopt(const char *path, const struct sht_ruleset_plugin *desc, char *err, size_t errlen)
{
	struct sht_plugin *p;
	char why[256] = "";

	if (desc->abi_version != SHT_RULESET_ABI_VERSION) {
		snprintf(err, errlen, "%s: plugin built for ruleset ABI version %u, but this host "
		    "speaks version %u; rebuild the plugin against this shoutan/ruleset.h", path,
		    desc->abi_version, SHT_RULESET_ABI_VERSION);
		return NULL;
	}
	if (desc->size < offsetof(struct sht_ruleset_plugin, score) + sizeof(desc->score) ||
	    desc->family == NULL || desc->configure == NULL || desc->setup == NULL ||
	    desc->score == NULL || (desc->nparams > 0 && desc->params == NULL)) {
		snprintf(err, errlen, "%s: plugin descriptor is incomplete (family, configure, setup "
		    "and score are required)", path);
		return NULL;
	}
	if (desc->init != NULL && desc->init(sht_host_services(), why, sizeof(why)) != 0) {
		snprintf(err, errlen, "%s: plugin %s failed to initialise: %s", path, desc->family,
		    why[0] ? why : "no reason given");
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (p == NULL || (p->path = strdup(path)) == NULL) {
		free(p);
		if (desc->fini != NULL)
			desc->fini();
		snprintf(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	p->desc = desc;
	return p;
}

struct sht_plugin *
sht_plugin_load(const char *path, char *err, size_t errlen)
{
	struct sht_plugin *p;
	void *handle;
	void *sym;
	sht_ruleset_entry_fn entry;
	const struct sht_ruleset_plugin *desc;

	/* RTLD_NOW: an unresolved symbol fails here, not in the middle of a request.  RTLD_LOCAL:
	 * plugins cannot see each other's symbols. */
	handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (handle == NULL) {
		snprintf(err, errlen, "%s: cannot load plugin: %s", path, dlerror());
		return NULL;
	}
	dlerror();
	sym = dlsym(handle, SHT_RULESET_ENTRY);
	if (sym == NULL) {
		const char *e = dlerror();

		snprintf(err, errlen, "%s: not a Shoutan ruleset plugin: no symbol %s (%s)", path,
		    SHT_RULESET_ENTRY, e != NULL ? e : "NULL");
		dlclose(handle);
		return NULL;
	}
	/* POSIX guarantees that a data pointer from dlsym converts to a function pointer. */
	memcpy(&entry, &sym, sizeof(entry));
	desc = entry();
	if (desc == NULL) {
		snprintf(err, errlen, "%s: the plugin returned no descriptor", path);
		dlclose(handle);
		return NULL;
	}
	p = adopt(path, desc, err, errlen);
	if (p == NULL) {
		dlclose(handle);
		return NULL;
	}
	p->handle = handle;
	return p;
}

struct sht_plugin *
sht_plugin_builtin(const struct sht_ruleset_plugin *desc, char *err, size_t errlen)
{
	return adopt("(built in)", desc, err, errlen);
}

void
sht_plugin_unload(struct sht_plugin *p)
{
	if (p == NULL)
		return;
	if (p->desc->fini != NULL)
		p->desc->fini();
	if (p->handle != NULL)
		dlclose(p->handle);
	free(p->path);
	free(p);
}
