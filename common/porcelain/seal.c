#include "porcelain/seal.h"
#include "git/srccheck.h"
#include "util/die.h"
#include "util/fswalk.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Where Lake keeps a lakefile.lean's compiled configuration: the
 * workspace's .lake/config/<index>/ from Lean 4.31 (lean4#13683), the
 * package's own .lake/ before (Load/Lean/Elab.lean importConfigFile). */
static const char *const config_cache[] = {".lake/config", ".lake/lakefile.olean",
                                           ".lake/lakefile.olean.trace", NULL};

void sc_seal_prepare_tree(const struct sc_steps *steps, int side)
{
	const struct sc_step_opts *o = steps->o;
	char *lake = xasprintf("%s/.lake", steps->tree[side]);
	if (mkdir(lake, 0755) < 0) {
		if (errno == EEXIST)
			sc_die("the %s revision has a .lake of its own: Lake's build folder is never taken from "
			       "Git (%s)", sc_side_name(side), lake);
		sc_die_sys_errno("cannot create the %s tree's .lake (%s)", sc_side_name(side), lake);
	}
	if (geteuid() == 0 && lchown(lake, o->sb.uid, o->sb.gid) < 0)
		sc_die_sys_errno("cannot hand the %s tree's .lake to the sandbox user %s (%s)",
		                 sc_side_name(side), o->user, lake);
	free(lake);
}

void sc_seal_find_config(const char *tree, struct sc_argv *out)
{
	for (const char *const *p = config_cache; *p; p++) {
		char *path = xasprintf("%s/%s", tree, *p);
		struct stat st;
		if (lstat(path, &st) == 0 && (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode)))
			sc_argv_push(out, *p);
		free(path);
	}
}

int sc_seal_unchanged(const char *tree, int side, const struct sc_plan *plan,
                      const struct sc_plan_file *f, struct strbuf *why)
{
	const char *blob = side == SC_SIDE_BASE ? f->base_blob : f->head_blob;
	struct strbuf one = STRBUF_INIT;
	int same = sc_source_is_blob(tree, f->path, blob, &one);
	if (!same)
		sb_addf(why, "%s is not the plan's blob %.12s: %s", f->path, blob, one.buf);
	for (int i = 0; same && i < SC_LAKE_NFILES; i++) {
		const char *want = plan->lake_blobs[i];
		sb_reset(&one);
		if (want && !sc_source_is_blob(tree, sc_lake_files[i], want, &one)) {
			sb_addf(why, "%s is not the plan's blob %.12s: %s", sc_lake_files[i], want, one.buf);
			same = 0;
		}
		char *path = xasprintf("%s/%s", tree, sc_lake_files[i]);
		struct stat st;
		if (!want && lstat(path, &st) == 0) {
			sb_addf(why, "%s appeared, the plan has none", sc_lake_files[i]);
			same = 0;
		}
		free(path);
	}
	/* Lake reads .lake/package-overrides.json on every command
	 * (Config/Workspace.lean, Load/Resolve.lean): it may point a
	 * dependency anywhere.  Nothing of ours writes one, so one that
	 * appeared is the candidate's. */
	char *overrides = xasprintf("%s/.lake/package-overrides.json", tree);
	struct stat st;
	if (same && lstat(overrides, &st) == 0) {
		sb_adds(why, ".lake/package-overrides.json appeared: Lake would take dependencies from it");
		same = 0;
	}
	free(overrides);
	sb_release(&one);
	return same;
}

/* What candidate code wrote is never handed to the operator: a
 * repository it left in .lake, given to root, would no longer meet git's
 * "dubious ownership" check, and its hooks would run as root there.  As
 * root, .lake stays the run's own uid's (no login uses it), setuid and
 * setgid bits cleared, and is closed (mode 000); as anyone else the
 * candidate ran as the operator, and .lake goes, as it goes after a side
 * that filled the disk (bytes or inodes).  The rest of the tree was
 * read-only in the sandbox and stays the operator's. */
int sc_seal_give_back(const struct sc_steps *steps, int side, struct strbuf *why)
{
	char *lake = xasprintf("%s/.lake", steps->tree[side]), *where = NULL;
	int rc = 0;
	/* a side that filled the disk gives the space back, or the next run
	 * on this file system could not even make its workspace */
	if (geteuid() == 0 && !steps->disk_full) {
		if (sc_fswalk_seal(lake, -1, -1, &where) < 0 || chmod(lake, 0) < 0) {
			sb_addf(why, "cannot close what candidate code wrote in the %s tree: %s (%s)",
			        sc_side_name(side), strerror(errno), where ? where : lake);
			rc = -1;
		}
	} else if (sc_fswalk_remove(lake, &where) < 0) {
		sb_addf(why, "cannot remove what candidate code wrote in the %s tree: %s (%s)",
		        sc_side_name(side), strerror(errno), where ? where : lake);
		rc = -1;
	}
	free(where);
	free(lake);
	return rc;
}
