/* sc-materialize: write one commit's tree into a new directory from raw
 * blobs, as the measured source tree of one side.  See sc-materialize(1).
 *
 * Every check comes before anything is written, so a refused tree leaves
 * nothing, not even the temporary; then the tree is written under a
 * temporary name beside NEWDIR and renamed into place whole
 * (planning/materialize.h sc_placement), and the summary goes to stdout.  A
 * failure leaves nothing under either name; a kill leaves at most the
 * temporary. */
#include "planning/materialize.h"
#include "util/closeout.h"
#include "util/die.h"
#include "util/oid.h"
#include "util/fsroom.h"
#include "util/options.h"
#include "util/spawn.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const usage[] = {
	"usage: sc-materialize --repo DIR --commit C --dest NEWDIR [--plan FILE]",
	"Write the tree of commit C into the new directory NEWDIR from raw blobs;",
	"print a summary (JSON).",
	NULL,
};

static const char *repo, *commit, *dest, *plan_path;

/* What the checks found, for the writing. */
struct checked {
	struct sc_git g;
	char commit[SC_MAX_HEXSZ + 1], tree[SC_MAX_HEXSZ + 1];
	struct sc_plan plan, *pp;
	struct strbuf plan_raw;
	struct sc_catfile *c;
	struct sc_tree t;
	struct sc_skipped_list sk;
};

/* Dies with CODE unless it is SC_EXIT_OK: what WHY says, and the input
 * that gave it. */
static void die_if(int code, const struct strbuf *why, const char *flag, const char *value)
{
	if (code == SC_EXIT_OK)
		return;
	if (value)
		sc_die_code(code, "%s (%s %s)", why->buf, flag, value);
	sc_die_code(code, "%s (%s)", why->buf, flag);
}

/* The tree, read within the room where it goes: no more entries than the
 * free inodes (and the fixed ceiling), no more bytes than are free there,
 * each counted as it is read, before anything is written
 * (Documentation/threat-model.txt "The fourth round"). */
static void bounded_load(const char *canon_dest, struct checked *k, struct strbuf *why)
{
	char *parent = xstrdup(canon_dest);
	char *slash = strrchr(parent, '/');
	if (slash)
		slash[slash == parent] = '\0';
	long long bytes, inodes;
	if (sc_fs_room(parent, &bytes, &inodes) < 0)
		sc_die_path_errno("cannot ask the file system for its room (--dest %s)", dest);
	struct sc_tree_bounds b = {inodes < (long long)SC_TREE_MAX_ENTRIES ? (size_t)(inodes > 0 ? inodes : 0)
	                                                                   : SC_TREE_MAX_ENTRIES};
	if (sc_tree_load(k->c, k->tree, k->g.rawsz, &b, &k->t, why) < 0)
		sc_die("the tree of commit %s holds %s: the bound is the free inodes where it goes "
		       "(%lld), at most %u (--commit %s)", k->commit, why->buf, inodes, SC_TREE_MAX_ENTRIES, commit);
	unsigned long long total;
	if (sc_tree_blob_bytes(&k->g, &k->t, bytes > 0 ? (unsigned long long)bytes : 0, &total, why) < 0)
		sc_die("the tree of commit %s: %s, the free space where it goes (--commit %s)", k->commit,
		       why->buf, commit);
	free(parent);
}

static void check(char **canon_dest, struct checked *k)
{
	struct strbuf why = STRBUF_INIT;
	if (plan_path && !*plan_path)
		sc_die("empty value (--plan)");
	*canon_dest = sc_dest_new_dir(dest, &why);
	die_if(*canon_dest ? SC_EXIT_OK : SC_EXIT_USAGE, &why, "--dest", dest);
	if (sc_git_open(&k->g, repo, &why) < 0)
		sc_die("%s (--repo %s)", why.buf, repo);
	int code = sc_dest_outside_git_dir(*canon_dest, k->g.git_dir, &why);
	if (code == SC_EXIT_SYSTEM) /* the git directory, named by git a moment ago */
		sc_die_code(code, "%s", why.buf);
	die_if(code, &why, "--dest", dest);
	if (sc_oid_normalize(commit, k->g.hexsz, k->commit) < 0)
		sc_die("not a full %s object ID (--commit %s)", k->g.object_format, commit);
	k->pp = NULL;
	sb_init(&k->plan_raw);
	if (plan_path) {
		sc_plan_load_or_die(plan_path, &k->plan, &k->plan_raw);
		k->pp = &k->plan;
		/* the plan's own path is where a format mismatch lies */
		die_if(sc_plan_for_format(k->pp, k->g.object_format, &why), &why, plan_path, NULL);
		die_if(sc_plan_has_side(k->pp, k->commit, &why), &why, "--commit", commit);
	}
	k->c = sc_catfile_open(&k->g);
	die_if(sc_materialize_commit(k->c, k->commit, k->g.hexsz, k->tree, &why), &why, "--commit",
	       NULL);
	bounded_load(*canon_dest, k, &why);
	/* a refused link names its own path */
	if (sc_links_decide(&k->t, k->pp, &k->sk, &why) != SC_EXIT_OK)
		sc_die("%s", why.buf);
	sb_release(&why);
}

int main(int argc, char **argv)
{
	static const struct sc_option opts[] = {
		SC_OPT_REQUIRED_STRING(0, "repo", &repo, "DIR", "the Git repository"),
		SC_OPT_REQUIRED_STRING(0, "commit", &commit, "C", "the commit to write (a full object ID)"),
		SC_OPT_REQUIRED_STRING(0, "dest", &dest, "NEWDIR", "the directory to create"),
		SC_OPT_STRING(0, "plan", &plan_path, "FILE", "a plan: C is its merge_base or head"),
		SC_OPT_END(),
	};
	static const struct sc_command cmd = {usage, NULL};
	sc_set_progname("sc-materialize");
	sc_check_stdout_at_exit();
	sc_parse_options(argc, argv, opts, &cmd, SC_PARSE_NO_ARGS);

	char *canon;
	struct checked k;
	check(&canon, &k);

	char *where = xasprintf("--dest %s", dest);
	struct sc_placement pl;
	int rootfd = sc_placement_begin(&pl, canon, where);
	struct sc_write_stats st;
	sc_tree_write(k.c, &k.t, rootfd, dest, &st);
	close(rootfd);
	sc_catfile_close(k.c);
	sc_placement_commit(&pl, where);

	struct strbuf out = STRBUF_INIT;
	sc_materialize_summary(k.g.object_format, k.commit, k.tree, &st, &k.sk, &out);
	if (sc_write_all(STDOUT_FILENO, out.buf, out.len) < 0)
		sc_die_sys_errno("cannot write summary (stdout)");
	sc_placement_keep(&pl);

	sb_release(&out);
	sc_placement_release(&pl);
	free(where);
	free(canon);
	sc_skipped_release(&k.sk);
	sc_tree_free(&k.t);
	if (k.pp)
		sc_plan_free(k.pp);
	sb_release(&k.plan_raw);
	sc_git_close(&k.g);
	return 0;
}
