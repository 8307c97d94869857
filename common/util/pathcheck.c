#include "util/pathcheck.h"
#include "util/strbuf.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *sc_canonical_dir(const char *path)
{
	char *real = realpath(path, NULL);
	if (!real)
		return NULL;
	struct stat st;
	if (stat(real, &st) < 0 || !S_ISDIR(st.st_mode)) {
		free(real);
		errno = ENOTDIR;
		return NULL;
	}
	return real;
}

char *sc_canonical_new_file(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0) {
		errno = EINVAL;
		return NULL;
	}
	char *parent_in = slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : xstrdup(".");
	char *parent = sc_canonical_dir(parent_in);
	free(parent_in);
	if (!parent)
		return NULL;
	char *full = xasprintf("%s%s%s", parent, strcmp(parent, "/") == 0 ? "" : "/", base);
	free(parent);
	struct stat st;
	if (lstat(full, &st) == 0) {
		free(full);
		errno = EEXIST;
		return NULL;
	}
	return full;
}

int sc_path_within(const char *inner, const char *outer)
{
	size_t n = strlen(outer);
	if (n == 1 && outer[0] == '/')
		return inner[0] == '/';
	return strncmp(inner, outer, n) == 0 && (inner[n] == '\0' || inner[n] == '/');
}

int sc_is_executable_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

char *sc_path_join(const char *dir, const char *name)
{
	size_t n = strlen(dir);
	return xasprintf("%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name);
}
