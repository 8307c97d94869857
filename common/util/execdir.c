#include "util/execdir.h"
#include "util/die.h"
#include "util/strbuf.h"

#include <limits.h>
#include <string.h>
#include <unistd.h>

char *sc_exec_dir(void)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
	if (n <= 0)
		sc_die_sys_errno("cannot find my own location (/proc/self/exe)");
	buf[n] = '\0';
	char *slash = strrchr(buf, '/');
	if (slash)
		*slash = '\0';
	return xstrdup(buf);
}
