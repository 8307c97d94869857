/* sc-materialize: write one commit's tree into a new directory from raw
 * blobs, as the measured source tree of one side.  See sc-materialize(1). */
#include "util/closeout.h"
#include "util/badopt.h"
#include "util/die.h"
#include "git/git.h"
#include "util/json.h"
#include "util/oid.h"
#include "util/pathcheck.h"
#include "plan/plan.h"
#include "plan/planner.h"
#include "util/run.h"
#include "util/safepath.h"
#include "util/strbuf.h"
#include "git/treewalk.h"
#include "git/treewrite.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SCHEMA "sphereceti.materialize/1"

static const char usage[] =
	"usage: sc-materialize --repo DIR --commit C --dest NEWDIR [--plan FILE]\n";

struct opts {
	const char *repo, *commit, *dest, *plan;
};

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{"repo", required_argument, NULL, 'r'},
		{"commit", required_argument, NULL, 'c'},
		{"dest", required_argument, NULL, 'd'},
		{"plan", required_argument, NULL, 'p'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	memset(o, 0, sizeof *o);
	const char **slots[] = {&o->repo, &o->commit, &o->dest, &o->plan};
	opterr = 0;
	int ch, idx;
	while ((ch = getopt_long(argc, argv, "+", longopts, &idx)) != -1) {
		if (ch == 'h') {
			fputs(usage, stdout);
			exit(0);
		}
		if (ch == '?' || ch == ':')
			sc_die_bad_option(longopts, argv[optind - 1]);
		const char **slot = slots[idx];
		if (*slot)
			sc_die("option given twice (--%s)", longopts[idx].name);
		if (!*optarg)
			sc_die("empty value (--%s)", longopts[idx].name);
		*slot = optarg;
	}
	if (optind < argc)
		sc_die("unexpected argument (%s)", argv[optind]);
	if (!o->repo || !o->commit || !o->dest)
		sc_die("--repo, --commit and --dest are required (%s)",
		       !o->repo ? "--repo" : !o->commit ? "--commit" : "--dest");
}

/* NEWDIR must not exist and its parent must be a directory; returns its
 * canonical path. */
static char *check_dest(const char *dest)
{
	char *canon = sc_canonical_new_file(dest);
	if (canon)
		return canon;
	if (errno == EEXIST)
		sc_die("destination already exists (--dest %s)", dest);
	if (errno == EINVAL)
		sc_die("destination must end in a new directory name (--dest %s)", dest);
	sc_die("parent directory does not exist (--dest %s)", dest);
}

/* Writing into the git directory would be writing the repository. */
static void refuse_dest_in_git_dir(const char *canon_dest, const struct sc_git *g,
                                   const char *dest)
{
	char *gd = sc_canonical_dir(g->git_dir);
	if (!gd)
		sc_die_errno("cannot resolve git directory (%s)", g->git_dir);
	if (sc_path_within(canon_dest, gd))
		sc_die("destination is inside the repository's git directory (--dest %s)", dest);
	free(gd);
}

/* Read commit C's tree ID through the batch (so one process reads it all). */
static void commit_tree(struct sc_catfile *c, const char *commit, int hexsz,
                        char tree[SC_MAX_HEXSZ + 1])
{
	char type[16];
	size_t size;
	if (sc_catfile_header(c, commit, type, &size) < 0)
		sc_die("commit not found (--commit %s)", commit);
	struct strbuf sb = STRBUF_INIT;
	sc_catfile_content(c, &sb);
	if (strcmp(type, "commit") != 0)
		sc_die("object is a %s, not a commit (--commit %s)", type, commit);
	if (sb.len < 5 + (size_t)hexsz + 1 || memcmp(sb.buf, "tree ", 5) != 0 ||
	    sb.buf[5 + hexsz] != '\n')
		sc_die_code(SC_EXIT_FAIL, "malformed commit object (--commit %s)", commit);
	memcpy(tree, sb.buf + 5, (size_t)hexsz);
	tree[hexsz] = '\0';
	if (!sc_is_lower_hex(tree, (size_t)hexsz))
		sc_die_code(SC_EXIT_FAIL, "malformed commit object (--commit %s)", commit);
	sb_release(&sb);
}

struct skipped {
	char *path;
	size_t len;
	unsigned mode;
};

static void free_skipped(struct skipped *sk, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(sk[i].path);
	free(sk);
}

/* Symlinks and submodules: refused where the plan needs sources, else
 * listed as skipped (without a plan, always skipped).  A refusal frees
 * what was listed first, so that no exit path leaks (check-asan). */
static struct skipped *decide_links(const struct sc_tree *t, const struct sc_plan *plan,
                                    size_t *nskipped)
{
	struct skipped *sk = NULL;
	size_t n = 0;
	struct strbuf path = STRBUF_INIT;
	for (size_t i = 0; i + 1 < t->n; i++) {
		size_t k = t->order[i];
		unsigned mode = t->nodes[k].mode;
		if (mode != SC_MODE_LINK && mode != SC_MODE_GITLINK)
			continue;
		sb_reset(&path);
		sc_tree_path(t, k, &path);
		struct strbuf q = STRBUF_INIT;
		sc_quote_path(&q, path.buf, path.len);
		const char *what = mode == SC_MODE_LINK ? "symbolic link" : "submodule";
		char *why = plan ? sc_plan_needs_sources(plan, path.buf) : NULL;
		if (why) {
			free_skipped(sk, n);
			sc_die("%s %s (%s)", what, why, q.buf);
		}
		/* The summary is JSON: a name it cannot carry exactly is refused. */
		if (!sc_is_utf8(path.buf, path.len)) {
			free_skipped(sk, n);
			sc_die("%s with a name that is not UTF-8 (%s)", what, q.buf);
		}
		sb_release(&q);
		sk = xrealloc(sk, (n + 1) * sizeof *sk);
		sk[n].len = path.len;
		sk[n].path = sb_detach(&path, NULL);
		sk[n].mode = mode;
		n++;
	}
	sb_release(&path);
	*nskipped = n;
	return sk;
}

static void print_summary(const char *commit, const char *tree, const char *format,
                          const struct sc_write_stats *st, const struct skipped *sk, size_t nsk)
{
	yajl_gen g = sc_json_gen_new(1);
	sc_json_map_open(g);
	sc_json_str(g, "schema");
	sc_json_str(g, SCHEMA);
	sc_json_str(g, "object_format");
	sc_json_str(g, format);
	sc_json_str(g, "commit");
	sc_json_str(g, commit);
	sc_json_str(g, "tree");
	sc_json_str(g, tree);
	sc_json_str(g, "files");
	sc_json_int(g, (long long)st->files);
	sc_json_str(g, "directories");
	sc_json_int(g, (long long)st->dirs);
	sc_json_str(g, "bytes");
	sc_json_int(g, (long long)st->bytes);
	sc_json_str(g, "skipped");
	sc_json_array_open(g);
	for (size_t i = 0; i < nsk; i++) {
		char mode[16];
		snprintf(mode, sizeof mode, "%06o", sk[i].mode);
		sc_json_map_open(g);
		sc_json_str(g, "path");
		sc_json_strn(g, sk[i].path, sk[i].len);
		sc_json_str(g, "mode");
		sc_json_str(g, mode);
		sc_json_str(g, "reason");
		sc_json_str(g, sk[i].mode == SC_MODE_LINK ? "symlink" : "submodule");
		sc_json_map_close(g);
	}
	sc_json_array_close(g);
	sc_json_map_close(g);
	struct strbuf out = STRBUF_INIT;
	sc_json_finish(g, &out);
	if (sc_write_all(STDOUT_FILENO, out.buf, out.len) < 0)
		sc_die_code(SC_EXIT_FAIL, "cannot write summary: %s (stdout)",
		            errno == ENOSPC ? "no space left on device" : strerror(errno));
	sb_release(&out);
}

int main(int argc, char **argv)
{
	sc_set_progname("sc-materialize");
	sc_check_stdout_at_exit();
	struct opts o;
	parse_args(argc, argv, &o);
	char *canon_dest = check_dest(o.dest);

	struct sc_git g;
	sc_git_open(&g, o.repo);
	refuse_dest_in_git_dir(canon_dest, &g, o.dest);
	free(canon_dest);
	char commit[SC_MAX_HEXSZ + 1];
	if (sc_oid_normalize(o.commit, g.hexsz, commit) < 0)
		sc_die("not a full %s object ID (--commit %s)", g.object_format, o.commit);

	struct sc_plan plan, *pp = NULL;
	struct strbuf raw = STRBUF_INIT;
	if (o.plan) {
		sc_plan_load_or_die(o.plan, &plan, &raw);
		pp = &plan;
		if (strcmp(plan.object_format, g.object_format) != 0)
			sc_die("plan is for %s objects, repository uses %s (%s)", plan.object_format,
			       g.object_format, o.plan);
		if (strcmp(commit, plan.merge_base) != 0 && strcmp(commit, plan.head) != 0)
			sc_die("commit is neither the plan's merge_base nor its head (--commit %s)",
			       o.commit);
	}

	struct sc_catfile *c = sc_catfile_open(&g);
	char tree_hex[SC_MAX_HEXSZ + 1];
	commit_tree(c, commit, g.hexsz, tree_hex);
	struct sc_tree t;
	sc_tree_load(c, tree_hex, g.rawsz, &t);
	size_t nsk;
	struct skipped *sk = decide_links(&t, pp, &nsk);

	/* Only now, with the whole tree accepted, does NEWDIR come to exist. */
	if (mkdir(o.dest, 0777) < 0) {
		if (errno == EEXIST)
			sc_die("destination already exists (--dest %s)", o.dest);
		sc_die_errno("cannot create destination (--dest %s)", o.dest);
	}
	int rootfd = open(o.dest, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (rootfd < 0)
		sc_die_code(SC_EXIT_FAIL, "cannot open destination (--dest %s): %s", o.dest,
		            strerror(errno));
	struct sc_write_stats st;
	sc_tree_write(c, &t, rootfd, o.dest, &st);
	close(rootfd);
	sc_catfile_close(c);

	print_summary(commit, tree_hex, g.object_format, &st, sk, nsk);

	free_skipped(sk, nsk);
	sc_tree_free(&t);
	if (pp)
		sc_plan_free(pp);
	sb_release(&raw);
	sc_git_close(&g);
	return 0;
}
