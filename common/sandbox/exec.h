#ifndef SC_SANDBOX_EXEC_H
#define SC_SANDBOX_EXEC_H
/* What the host does for sc-sandbox-exec whatever its mode
 * (cmd/sc-sandbox-exec.c owns the modes, their options and messages). */

/* The descriptors, the parent-death signal and stdio every mode needs,
 * before the options are read. */
void sc_sandbox_exec_prepare(void);

/* The open files each sandboxed process may hold on this host, with
 * MAX_PROCS processes (sandbox_args.h sc_sandbox_max_files over the
 * kernel's fs.file-max; where that cannot be read, its floor, 8192, so the
 * bound errs low). */
unsigned sc_sandbox_host_max_files(unsigned max_procs);

#endif
