/* Where the command and the daemon find plugins and rulesets by default. */
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host.h"
#include "paths.h"

static bool
is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

void
sht_default_dirs(const char **plugins_dir, const char **rulesets_dir)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	bool in_build = false;

	if (n > 0) {
		exe[n] = '\0';
		in_build = strncmp(exe, SHT_BUILD_ROOT "/", strlen(SHT_BUILD_ROOT) + 1) == 0;
	}
	*plugins_dir = getenv("SHOUTAN_PLUGINS_DIR");
	*rulesets_dir = getenv("SHOUTAN_RULESETS_DIR");
	if (*plugins_dir == NULL)
		*plugins_dir = in_build || !is_dir(SHT_INSTALLED_PLUGINS_DIR) ?
		    SHT_BUILD_PLUGINS_DIR : SHT_INSTALLED_PLUGINS_DIR;
	if (*rulesets_dir == NULL)
		*rulesets_dir = in_build || !is_dir(SHT_INSTALLED_RULESETS_DIR) ?
		    SHT_SOURCE_RULESETS_DIR : SHT_INSTALLED_RULESETS_DIR;
}
