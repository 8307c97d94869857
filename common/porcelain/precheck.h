#ifndef SC_PRECHECK_H
#define SC_PRECHECK_H
/* A profile run's preconditions (Documentation/measurement.txt "Measurement"): all checked
 * before the workspace exists and before candidate code runs, so a refused
 * run leaves nothing behind. */
#include "porcelain/state.h"
#include "porcelain/stage.h"

/* Each precondition alone, for profile-run and sphereceti doctor alike:
 * 0, or -1 with what is wrong and its fix in WHY (one line). */
int sc_check_linux(struct strbuf *why);                                  /* and GNU time */
int sc_check_toolchain_folder(const struct sc_run_opts *o, struct strbuf *why);
/* The dependencies folder alone, and the Lake cache's (none: nothing to
 * check), each 0 or -1 with WHY saying what to do. */
int sc_check_deps_folder(const struct sc_run_opts *o, struct strbuf *why);
int sc_check_cache_folder(const struct sc_run_opts *o, struct strbuf *why);
/* The dependencies folder, and --cache apart from it and the toolchain. */
int sc_check_data_folders(const struct sc_run_opts *o, struct strbuf *why);
/* A workspace that does not exist, in a folder that does, with room,
 * lying in or around none of the data folders. */
int sc_check_workspace_place(const struct sc_run_opts *o, struct strbuf *why);
/* Run as root: the sandbox's user reaches every folder bwrap mounts. */
int sc_check_reachable(const struct sc_run_opts *o, struct strbuf *why);

/* sc-sandbox-exec started into S as one check of this host (ARGS: the
 * pin check, the self-test), all its output collected, with the
 * operator's bubblewrap and, with SANDBOX, the sandbox's options (the
 * stages in DIR). */
void sc_check_sandbox_start(const struct sc_step_opts *o, const char *dir, const char *const *args,
                            int sandbox, struct sc_stage *s);
/* The pin check's arguments: each bubblewrap pin of CFG, appended to OUT. */
void sc_check_pin_args(const struct sc_plan *cfg, struct sc_argv *out);

/* The host, before the plan: what needs neither the plan nor the
 * workspace, the first four above, the first failing dying with its line
 * (the reach is checked with the preconditions). */
void sc_check_host(const struct sc_run_opts *o);

/* Run as root: the sandbox's user reaches the folder of sphereceti's own
 * programs (sc-pid1 and its siblings, which bwrap mounts), or WHY says to
 * install sphereceti or build it where every user can enter.  Returns 0
 * or -1. */
int sc_check_programs_reachable(const struct sc_run_opts *o, struct strbuf *why);
/* The bubblewrap the run uses (--bwrap, else /usr/bin/bwrap), resolved;
 * allocated. */
char *sc_check_bwrap_path(const struct sc_run_opts *o);
/* The SHA-256 of the bubblewrap the run uses (the pin it matched), for a
 * report that merges runners to hold them alike; dies when unreadable. */
void sc_check_bwrap_sha256(const struct sc_run_opts *o, char out[65]);
/* The preconditions, after the plan, in the order cmd/sc-profile-run.c
 * calls them, with the stages in DIR.  The sandbox first: the sandbox
 * user reaches what bwrap mounts, and the operator's bubblewrap is one
 * PLAN's .sphereceti pins (the self-test runs it). */
void sc_check_sandbox(const struct sc_run_opts *o, const struct sc_plan *plan, const char *dir);
/* The sandbox self-test burns CPU for a while: it is started into
 * SELF_TEST and left running beside the rest; sc_check_finish waits for
 * it. */
void sc_start_self_test(const struct sc_step_opts *o, const char *dir, struct sc_stage *self_test);
/* The toolchain (into TC), T's lake-manifest.json (read once, into
 * MANIFEST), and the dependencies it names. */
void sc_check_inputs(const struct sc_run_opts *o, const struct sc_plan *plan,
                     struct sc_toolchain_info *tc, struct sc_manifest *manifest);
/* Waits for a sandbox-exec check (the pin, the self-test); a failed one
 * dies with its own error line (once the WORKSPACE is CLAIMED: ours,
 * saying that the workspace stays). */
void sc_check_finish(struct sc_stage *check, const char *workspace, int claimed);

#endif
