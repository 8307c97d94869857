/* sc-materialize: write one commit's tree into a new directory from raw
 * blobs, as the measured source tree of one side.  See sc-materialize(1). */
#include "git/git.h"
#include "git/treewalk.h"
#include "git/treewrite.h"
#include "plan/materialize.h"
#include "contract/plan.h"
#include "util/closeout.h"
#include "util/die.h"
#include "util/oid.h"
#include "util/options.h"
#include "util/spawn.h"
#include "util/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const usage[] = {
	"usage: sc-materialize --repo DIR --commit C --dest NEWDIR [--plan FILE]",
	"Write the tree of commit C into the new directory NEWDIR from raw blobs;",
	"print a summary (JSON).",
	NULL,
};

static struct {
	const char *repo, *commit, *dest, *plan;
} o;

static void die_if(int code, const struct strbuf *why)
{
	if (code != SC_EXIT_OK)
		sc_die_code(code, "%s", why->buf);
}

/* Only now, with the whole tree accepted, does NEWDIR come to exist. */
static int create_dest(void)
{
	if (mkdir(o.dest, 0777) < 0) {
		if (errno == EEXIST)
			sc_die("destination already exists (--dest %s)", o.dest);
		sc_die_path_errno("cannot create destination (--dest %s)", o.dest);
	}
	int fd = open(o.dest, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		sc_die_sys_errno("cannot open destination (--dest %s)", o.dest);
	return fd;
}

static void print_summary(const char *format, const char *commit, const char *tree,
                          const struct sc_write_stats *st, const struct sc_skipped_list *sk)
{
	struct strbuf out = STRBUF_INIT;
	sc_materialize_summary(format, commit, tree, st, sk, &out);
	if (sc_write_all(STDOUT_FILENO, out.buf, out.len) < 0)
		sc_die_sys_errno("cannot write summary (stdout)");
	sb_release(&out);
}

int main(int argc, char **argv)
{
	static const struct sc_option opts[] = {
		SC_OPT_REQUIRED_STRING(0, "repo", &o.repo, "DIR", "the Git repository"),
		SC_OPT_REQUIRED_STRING(0, "commit", &o.commit, "C", "the commit to write (a full object ID)"),
		SC_OPT_REQUIRED_STRING(0, "dest", &o.dest, "NEWDIR", "the directory to create"),
		SC_OPT_STRING(0, "plan", &o.plan, "FILE", "a plan: C is its merge_base or head"),
		SC_OPT_END(),
	};
	static const struct sc_command cmd = {usage, NULL};
	sc_set_progname("sc-materialize");
	sc_check_stdout_at_exit();
	sc_parse_options(argc, argv, opts, &cmd, SC_PARSE_NO_ARGS);
	if (o.plan && !*o.plan)
		sc_die("empty value (--plan)");

	struct strbuf why = STRBUF_INIT;
	char *canon_dest = sc_dest_new_dir(o.dest, &why);
	die_if(canon_dest ? SC_EXIT_OK : SC_EXIT_USAGE, &why);
	struct sc_git g;
	sc_git_open(&g, o.repo);
	die_if(sc_dest_outside_git_dir(canon_dest, g.git_dir, o.dest, &why), &why);
	free(canon_dest);
	char commit[SC_MAX_HEXSZ + 1];
	if (sc_oid_normalize(o.commit, g.hexsz, commit) < 0)
		sc_die("not a full %s object ID (--commit %s)", g.object_format, o.commit);

	struct sc_plan plan, *pp = NULL;
	struct strbuf raw = STRBUF_INIT;
	if (o.plan) {
		sc_plan_load_or_die(o.plan, &plan, &raw);
		pp = &plan;
		die_if(sc_plan_allows_commit(pp, g.object_format, commit, o.commit, o.plan, &why), &why);
	}

	struct sc_catfile *c = sc_catfile_open(&g);
	char tree_hex[SC_MAX_HEXSZ + 1];
	die_if(sc_materialize_commit(c, commit, g.hexsz, tree_hex, &why), &why);
	struct sc_tree t;
	sc_tree_load(c, tree_hex, g.rawsz, &t);
	struct sc_skipped_list sk;
	die_if(sc_links_decide(&t, pp, &sk, &why), &why);

	int rootfd = create_dest();
	struct sc_write_stats st;
	sc_tree_write(c, &t, rootfd, o.dest, &st);
	close(rootfd);
	sc_catfile_close(c);
	print_summary(g.object_format, commit, tree_hex, &st, &sk);

	sc_skipped_release(&sk);
	sc_tree_free(&t);
	if (pp)
		sc_plan_free(pp);
	sb_release(&raw);
	sb_release(&why);
	sc_git_close(&g);
	return 0;
}
