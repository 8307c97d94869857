#include "util/badopt.h"
#include "util/die.h"
#include "util/strbuf.h"

#include <string.h>

void sc_die_bad_option(const struct option *opts, const char *arg)
{
	const char *help = sc_progname();
	if (strncmp(arg, "--", 2) != 0 || !arg[2])
		sc_die("unknown option; see man %s (%s)", help, arg);
	const char *name = arg + 2;
	size_t len = strcspn(name, "=");
	struct strbuf cands = STRBUF_INIT;
	const struct option *hit = NULL;
	size_t n = 0;
	for (const struct option *o = opts; o->name; o++) {
		if (strncmp(o->name, name, len) != 0)
			continue;
		if (strlen(o->name) == len) {
			hit = o, n = 1;
			break;
		}
		sb_addf(&cands, "%s--%s", n ? ", " : "", o->name);
		hit = o, n++;
	}
	if (n > 1)
		sc_die("ambiguous option: could be %s; see man %s (%s)", cands.buf, help, arg);
	if (n == 0)
		sc_die("unknown option; see man %s (%s)", help, arg);
	if (hit->has_arg == no_argument && name[len] == '=')
		sc_die("option --%s takes no value (%s)", hit->name, arg);
	sc_die("option --%s needs a value (%s)", hit->name, arg);
}
