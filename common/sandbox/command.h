#ifndef SC_COMMAND_H
#define SC_COMMAND_H
/* One command run sealed in the sandbox, timed by GNU time on the host
 * (Documentation/measurement.txt "Measurement"): its folders and files checked, the run, the
 * time file put in place only when the run was whole. */
#include "sandbox/outcome.h"
#include "sandbox/sandbox_args.h"

/* What the operator named, as given (checked here). */
struct sc_command_spec {
	const char *tree, *toolchain, *deps; /* --tree, --toolchain, --dependencies */
	const char *time_file;               /* --time-file */
	const char *timeout;                 /* --timeout, seconds */
	const char *log;                     /* --log, or NULL */
	const char *const *sealed;           /* --read-only paths below TREE/.lake, or NULL */
	int lake_read_only;                  /* --lake-read-only */
	const char *lake_cache;              /* --cache, or NULL */
	const char *libexecdir;              /* where sc-pid1 is installed (hostcheck.h) */
	char **argv;                         /* the command, NULL-terminated */
};

/* Runs spec in sb.  Returns with o->status_line set (the caller prints the
 * status line and exits o->exit); dies on every other way out, the time
 * file's temporary removed first, and of the stop signal that ended the
 * run. */
void sc_command_run(struct sc_sandbox sb, const struct sc_command_spec *spec, struct sc_outcome *o);

#endif
