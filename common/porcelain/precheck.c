#include "porcelain/precheck.h"
#include "git/git.h"
#include "contract/manifest.h"
#include "porcelain/workspace.h"
#include "sandbox/bwrap_pin.h"
#include "sandbox/gnutime.h"
#include "sandbox/hostcheck.h"
#include "sandbox/inputs.h"
#include "sandbox/sandbox_args.h"
#include "sandbox/user.h"
#include "util/die.h"
#include "util/execdir.h"
#include "util/fsroom.h"
#include "util/pathcheck.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

/* The workspace, resolved through the folder that will hold it, must not
 * lie in or around the toolchain or the dependencies. */
static int workspace_apart(const struct sc_run_opts *o, struct strbuf *why)
{
	const char *ws = o->workspace;
	char *pdir = sc_workspace_parent(ws);
	char parent[PATH_MAX], tc[PATH_MAX], deps[PATH_MAX];
	int rc = 0;
	if (realpath(pdir, parent) && realpath(o->sandbox.toolchain, tc) && realpath(o->sandbox.deps, deps)) {
		char *future = xasprintf("%s/%s", parent, strrchr(ws, '/') ? strrchr(ws, '/') + 1 : ws);
		char cache[PATH_MAX];
		if (sc_path_within(future, tc) || sc_path_within(tc, future))
			rc = -1, sb_addf(why, "toolchain and workspace overlap (%s)", o->sandbox.toolchain);
		else if (sc_path_within(future, deps) || sc_path_within(deps, future))
			rc = -1, sb_addf(why, "dependencies and workspace overlap (%s)", o->sandbox.deps);
		else if (o->sandbox.lake_cache && realpath(o->sandbox.lake_cache, cache) &&
		         (sc_path_within(future, cache) || sc_path_within(cache, future)))
			rc = -1, sb_addf(why, "the Lake cache and workspace overlap (%s)", o->sandbox.lake_cache);
		free(future);
	}
	free(pdir);
	return rc;
}

int sc_check_linux(struct strbuf *why)
{
	struct utsname u;
	if (uname(&u) < 0 || strcmp(u.sysname, "Linux") != 0) {
		sb_addf(why, "profile-run needs Linux namespaces (uname: %s)", u.sysname);
		return -1;
	}
	if (sc_gnu_time_check() < 0) {
		sb_addf(why, "GNU time is required: %s (%s; apt-get install time)",
		        errno == ENOEXEC ? "its --version does not say GNU Time" : strerror(errno),
		        SC_GNU_TIME_PATH);
		return -1;
	}
	return 0;
}

int sc_check_toolchain_folder(const struct sc_run_opts *o, struct strbuf *why)
{
	struct stat st;
	/* a file cannot wait; elan's folder waits for the plan, whose
	 * lean-toolchain names the folder to pass (sc_check_toolchain) */
	if (sc_toolchain_misnamed(o->sandbox.toolchain, NULL, why) == SC_TOOLCHAIN_A_FILE)
		return -1;
	sb_reset(why);
	if (stat(o->sandbox.toolchain, &st) < 0 || !S_ISDIR(st.st_mode)) {
		sb_addf(why, "toolchain folder is missing: install T's toolchain (elan toolchain install, "
		             "with the name in T's lean-toolchain) and pass its folder, which elan keeps "
		             "under ~/.elan/toolchains/ (%s)", o->sandbox.toolchain);
		return -1;
	}
	return 0;
}

/* --cache is mounted read-only beside the toolchain and the dependencies:
 * disjoint from both (and from the workspace, checked with it), so no
 * mount ever exposes the operator's cache writable. */
int sc_check_deps_folder(const struct sc_run_opts *o, struct strbuf *why)
{
	struct stat st;
	if (stat(o->sandbox.deps, &st) < 0 || !S_ISDIR(st.st_mode))
		sb_addf(why, "dependencies folder is missing: prepare it with `lake build` in a trusted "
		             "checkout of T and pass its packages folder, .lake/packages (%s)", o->sandbox.deps);
	else if (o->sandbox.toolchain && sc_paths_overlap(o->sandbox.deps, o->sandbox.toolchain))
		sb_addf(why, "dependencies and toolchain overlap (%s)", o->sandbox.deps);
	return why->len ? -1 : 0;
}

int sc_check_cache_folder(const struct sc_run_opts *o, struct strbuf *why)
{
	struct stat st;
	const char *c = o->sandbox.lake_cache;
	if (c && (stat(c, &st) < 0 || !S_ISDIR(st.st_mode)))
		sb_addf(why, "the Lake cache folder is missing: fill it with a trusted build of T "
		             "(LAKE_CACHE_DIR), or run without one (%s)", c);
	else if (c && o->sandbox.toolchain && sc_paths_overlap(c, o->sandbox.toolchain))
		sb_addf(why, "the Lake cache and toolchain overlap (%s)", c);
	else if (c && sc_paths_overlap(c, o->sandbox.deps))
		sb_addf(why, "the Lake cache and dependencies overlap (%s)", c);
	return why->len ? -1 : 0;
}

int sc_check_data_folders(const struct sc_run_opts *o, struct strbuf *why)
{
	return sc_check_deps_folder(o, why) < 0 ? -1 : sc_check_cache_folder(o, why);
}

int sc_check_workspace_place(const struct sc_run_opts *o, struct strbuf *why)
{
	struct stat st;
	if (lstat(o->workspace, &st) == 0) {
		sb_addf(why, "workspace already exists; runs are never resumed or overwritten (%s)",
		        o->workspace);
		return -1;
	}
	char *parent = sc_workspace_parent(o->workspace);
	long long free_b, free_i;
	int asked = 0;
	if (stat(parent, &st) < 0 || !S_ISDIR(st.st_mode))
		sb_addf(why, "the folder that would hold the workspace is missing: create it first "
		        "(mkdir -p %s), or name a workspace in a folder that exists (%s)",
		        parent, o->workspace);
	else if (workspace_apart(o, why) == 0)
		asked = sc_fs_room(parent, &free_b, &free_i) == 0;
	if (asked && (unsigned long long)free_b < SC_WORKSPACE_MIN_FREE)
		sb_addf(why, "only %lld MiB free where the workspace goes; profile-run needs at least "
		        "%llu MiB (%s)", free_b >> 20, SC_WORKSPACE_MIN_FREE >> 20, parent);
	else if (asked && free_i < SC_WORKSPACE_MIN_INODES)
		sb_addf(why, "only %lld inodes free where the workspace goes; profile-run needs at "
		        "least %lld (%s)", free_i, SC_WORKSPACE_MIN_INODES, parent);
	free(parent);
	return why->len ? -1 : 0;
}

/* Each dies with its own line: the first one failing is the run's. */
void sc_check_host(const struct sc_run_opts *o)
{
	struct strbuf why = STRBUF_INIT;
	if (sc_check_linux(&why) < 0 || sc_check_toolchain_folder(o, &why) < 0 ||
	    sc_check_data_folders(o, &why) < 0 || sc_check_workspace_place(o, &why) < 0)
		sc_die("%s", why.buf);
	sb_release(&why);
}

/* T's lake-manifest.json (PLAN's blob in REPO), parsed; empty without one. */
static void read_manifest(const char *repo, const struct sc_plan *plan, struct sc_manifest *m)
{
	memset(m, 0, sizeof *m);
	const char *blob = plan->lake_blobs[SC_LAKE_MANIFEST];
	if (!blob)
		return;
	struct sc_git g;
	struct strbuf why = STRBUF_INIT;
	if (sc_git_open(&g, repo, &why) < 0)
		sc_die("%s (%s)", why.buf, repo);
	sb_release(&why);
	struct sc_catfile *c = sc_catfile_open(&g);
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	char type[16];
	if (sc_catfile_read(c, blob, type, &text) < 0 || strcmp(type, "blob") != 0)
		sc_die("cannot read lake-manifest.json blob %s (%s)", blob, repo);
	sc_catfile_close(c);
	sc_git_close(&g);
	if (sc_manifest_parse(text.buf, text.len, m, &err) < 0)
		sc_die("%s (lake-manifest.json at %.12s)", err.buf, plan->tooling);
	sb_release(&text);
	sb_release(&err);
}

void sc_check_sandbox_start(const struct sc_step_opts *o, const char *dir, const char *const *args,
                            int sandbox, struct sc_stage *s)
{
	struct sc_argv a = SC_ARGV_INIT;
	for (const char *const *p = args; *p; p++)
		sc_argv_push(&a, *p);
	sc_steps_push_bwrap(o, &a, sandbox);
	sc_stage_start(s, dir, "sandbox-exec", a.v, SC_STAGE_ALL_OUTPUT);
	sc_argv_release(&a);
}

void sc_check_pin_args(const struct sc_plan *cfg, struct sc_argv *out)
{
	for (size_t i = 0; i < cfg->n_bwrap_pins; i++) {
		/* --opt=VALUE: a value can never be taken for an option */
		sc_argv_push_owned(out, xasprintf("--check-bwrap=%s", cfg->bwrap_pins[i].sha256));
		sc_argv_push_owned(out, xasprintf("--check-bwrap=%s", cfg->bwrap_pins[i].version));
	}
}

/* A failed check's own error line is the diagnostic; its success report is
 * not repeated here. */
void sc_check_finish(struct sc_stage *s, const char *workspace, int claimed)
{
	struct strbuf out = STRBUF_INIT;
	int rc = sc_stage_finish(s, &out);
	sc_stage_stop_if_interrupted(workspace);
	if (rc != 0 && claimed) {
		/* One line still, ours, saying the workspace stays, with the
		 * check's own line in it as it wrote it. */
		sc_stage_die(rc, SC_EXIT_USAGE, "the sandbox self-test failed: %.*s",
		             (int)strcspn(out.buf, "\n"), out.buf);
	}
	if (rc != 0) {
		sc_forward_lines(stderr, out.buf, out.len);
		exit(sc_stage_exit_code(rc, SC_EXIT_USAGE));
	}
	sb_release(&out);
}

/* The folder of the programs the sandbox starts (sc-pid1 and its
 * siblings): this program's own in a build tree, else the installed
 * ../libexec/sphereceti. */
static char *programs_dir(void)
{
	char *own = sc_exec_dir(), *pid1 = xasprintf("%s/sc-pid1", own);
	if (access(pid1, X_OK) != 0) {
		char *lib = xasprintf("%s/../libexec/sphereceti", own);
		free(own);
		own = lib;
	}
	free(pid1);
	return own;
}

int sc_check_programs_reachable(const struct sc_run_opts *o, struct strbuf *why)
{
	if (geteuid() != 0)
		return 0;
	char *dir = programs_dir();
	struct strbuf err = STRBUF_INIT;
	if (sc_sandbox_can_reach(dir, o->sandbox.sb.uid, o->sandbox.sb.gid, &err) < 0)
		sb_addf(why, "%s, so bubblewrap cannot mount sphereceti's own programs into the sandbox: "
		             "install sphereceti (make install), or build it where every user can enter "
		             "(%s)", err.buf, dir);
	sb_release(&err);
	free(dir);
	return why->len ? -1 : 0;
}

/* Run as root, the sandbox runs as another user, which must reach what
 * bwrap mounts: the toolchain, the dependencies and (through the folder
 * that will hold it) the workspace, which does not exist yet. */
int sc_check_reachable(const struct sc_run_opts *o, struct strbuf *why)
{
	if (geteuid() != 0)
		return 0;
	if (sc_check_programs_reachable(o, why) < 0)
		return -1;
	char *ws_parent = o->workspace ? sc_workspace_parent(o->workspace) : NULL;
	const char *paths[] = {ws_parent, o->sandbox.toolchain, o->sandbox.deps, o->sandbox.lake_cache};
	const char *inputs[] = {"the workspace", "the toolchain", "the dependencies", "the Lake cache"};
	struct strbuf err = STRBUF_INIT;
	for (int i = 0; i < 4 && !why->len; i++)
		if (paths[i] && sc_sandbox_can_reach(paths[i], o->sandbox.sb.uid, o->sandbox.sb.gid, &err) < 0)
			sb_addf(why, "%s: give it search permission (%s)", err.buf, inputs[i]);
	sb_release(&err);
	free(ws_parent);
	return why->len ? -1 : 0;
}

char *sc_check_bwrap_path(const struct sc_run_opts *o)
{
	return sc_sandbox_resolve_bwrap(o->sandbox.bwrap ? o->sandbox.bwrap : "/usr/bin/bwrap");
}

void sc_check_bwrap_sha256(const struct sc_run_opts *o, char out[65])
{
	char *bwrap = sc_check_bwrap_path(o);
	sc_bwrap_pin_hash(bwrap, out);
	free(bwrap);
}

void sc_check_sandbox(const struct sc_run_opts *o, const struct sc_plan *plan, const char *dir)
{
	struct strbuf err = STRBUF_INIT;
	if (sc_check_reachable(o, &err) < 0)
		sc_die("%s", err.buf);
	sb_release(&err);
	if (!plan->n_bwrap_pins) {
		char *bwrap = sc_check_bwrap_path(o);
		struct strbuf line = STRBUF_INIT;
		sc_bwrap_pin_line(bwrap, &line);
		free(bwrap);
		sc_die("no bubblewrap pin: commit this line under [sandbox] in .sphereceti on the base "
		       "branch, after reviewing this host's bubblewrap: %s (.sphereceti at %.12s)",
		       line.buf, plan->tooling);
	}
	struct sc_stage check;
	struct sc_argv pins = SC_ARGV_INIT;
	sc_check_pin_args(plan, &pins);
	sc_check_sandbox_start(&o->sandbox, dir, pins.v, 0, &check);
	sc_argv_release(&pins);
	sc_check_finish(&check, o->workspace, 0);
}

void sc_start_self_test(const struct sc_step_opts *o, const char *dir, struct sc_stage *self_test)
{
	const char *self_test_args[] = {"--self-test", NULL};
	sc_check_sandbox_start(o, dir, self_test_args, 1, self_test);
}

void sc_check_inputs(const struct sc_run_opts *o, const struct sc_plan *plan,
                     struct sc_toolchain_info *tc, struct sc_manifest *manifest)
{
	struct strbuf err = STRBUF_INIT;
	if (sc_check_toolchain(o->sandbox.toolchain, plan->lean_toolchain, tc, &err) < 0)
		sc_die("%s", err.buf);
	read_manifest(o->repo, plan, manifest);
	if (sc_check_dependencies(o->sandbox.deps, manifest, &err) < 0)
		sc_die("%s", err.buf);
	sb_release(&err);
	sc_stage_stop_if_interrupted(o->workspace);
}
