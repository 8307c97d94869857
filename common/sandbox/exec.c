#include "sandbox/exec.h"
#include "sandbox/hostcheck.h"
#include "sandbox/sandbox_args.h"
#include "sandbox/supervise.h"
#include "util/die.h"
#include "util/safefile.h"
#include "util/spawn.h"
#include "util/strbuf.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>

void sc_sandbox_exec_prepare(void)
{
	sc_sandbox_sane_stdio();
	if (sc_sandbox_no_inherited_descriptors() < 0)
		sc_die_sys_errno("cannot keep our descriptors from the sandbox (close_range)");
	/* Nobody is left to read the status line when whoever started us dies:
	 * SIGTERM then takes the sandbox down like an interrupt. */
	if (sc_die_with_parent(SIGTERM) < 0)
		sc_die_sys_errno("cannot follow our parent's death (prctl)");
}

unsigned sc_sandbox_host_max_files(unsigned max_procs)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned long long n = 8192;
	if (sc_read_file("/proc/sys/fs/file-max", &sb, 64) == 0) {
		char *end;
		errno = 0;
		unsigned long long v = strtoull(sb.buf, &end, 10);
		if (!errno && end != sb.buf && v > 0)
			n = v;
	}
	sb_release(&sb);
	return sc_sandbox_max_files(n, max_procs);
}
