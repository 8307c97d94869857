/* sc-plan: decide, from Git objects only, which Lean files a profile run
 * measures.  Reads T (tooling), B (base tip) and H (head) of --repo with
 * plumbing, never the working tree or index, never writes the repository,
 * and prints the plan JSON (plan.h, sc-plan(1)) on stdout.
 *
 * Independent git commands run side by side (merge base, configuration
 * blob, the object reader); only the tree diff has to wait for the merge
 * base.  That keeps the whole run close to the cost of the bare plumbing. */
#include "plan/changes.h"
#include "util/closeout.h"
#include "util/badopt.h"
#include "util/die.h"
#include "git/git.h"
#include "util/oid.h"
#include "plan/plan.h"
#include "plan/planner.h"
#include "plan/repoconfig.h"
#include "util/run.h"
#include "srctree-id.h"
#include "git/srctree.h"
#include "util/strbuf.h"
#include "git/treelookup.h"
#include "version.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CONFIG_FILE ".sphereceti"

static const char usage[] =
	"usage: sc-plan --repo DIR --tooling T --base B --head H\n"
	"       sc-plan --version\n"
	"Print the profiling plan (JSON) for head H against the merge base of B and H,\n"
	"configured by .sphereceti of commit T.  T, B, H: full commit object IDs.\n";

struct opts {
	const char *repo, *tooling, *base, *head;
};

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{"repo", required_argument, NULL, 'r'}, {"tooling", required_argument, NULL, 't'},
		{"base", required_argument, NULL, 'b'}, {"head", required_argument, NULL, 'H'},
		{"version", no_argument, NULL, 'V'},    {"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	memset(o, 0, sizeof *o);
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
		const char **slot = NULL, *name = NULL;
		switch (c) {
		case 'r': slot = &o->repo, name = "--repo"; break;
		case 't': slot = &o->tooling, name = "--tooling"; break;
		case 'b': slot = &o->base, name = "--base"; break;
		case 'H': slot = &o->head, name = "--head"; break;
		case 'V':
			printf("sc-plan %s\nsource-tree sha1 %s\nsource-tree sha256 %s\n", SC_VERSION,
			       SC_SRCTREE_SHA1, SC_SRCTREE_SHA256);
			exit(0);
		case 'h':
			fputs(usage, stdout);
			exit(0);
		default:
			sc_die_bad_option(longopts, argv[optind - 1]);
		}
		if (*slot)
			sc_die("option given twice (%s)", name);
		*slot = optarg;
	}
	if (optind < argc)
		sc_die("unexpected argument (%s)", argv[optind]);
	if (!o->repo || !o->tooling || !o->base || !o->head)
		sc_die("--repo, --tooling, --base and --head are all required (arguments)");
}

/* Every bad revision argument is named in one error line, not only the
 * first: "what (flag)" alone, or "flag: what; flag: what (flag, flag)". */
struct bad_ids {
	struct strbuf what, where;
	int n;
};

static void bad_id(struct bad_ids *b, const char *flag, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void bad_id(struct bad_ids *b, const char *flag, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	sb_addf(&b->what, "%s%s: %s", b->n ? "; " : "", flag, msg);
	sb_addf(&b->where, "%s%s", b->n ? ", " : "", flag);
	b->n++;
}

static void die_bad_ids(struct bad_ids *b, const char *hint)
{
	if (!b->n)
		return;
	if (b->n == 1) /* "flag: what" -> "what (flag)" */
		sc_die("%s%s (%s)", b->what.buf + b->where.len + 2, hint, b->where.buf);
	sc_die("%d bad revisions: %s%s (%s)", b->n, b->what.buf, hint, b->where.buf);
}

/* An ID already known to be full-length must name a commit. */
static void check_commit(struct sc_catfile *c, const struct sc_git *g, const char *hex,
                         const char *flag, char tree[SC_MAX_HEXSZ + 1], struct bad_ids *bad)
{
	char type[16];
	struct strbuf sb = STRBUF_INIT;
	if (sc_catfile_read(c, hex, type, &sb) < 0)
		bad_id(bad, flag, "no such object %s", hex);
	else if (strcmp(type, "commit") != 0)
		bad_id(bad, flag, "object %s is a %s, not a commit", hex, type);
	else if (sc_commit_parse_tree(sb.buf, sb.len, g->hexsz, tree) < 0)
		sc_die_code(SC_EXIT_FAIL, "cannot parse commit %s (%s)", hex, flag);
	sb_release(&sb);
}

static void check_tooling(struct sc_catfile *c, const struct sc_git *g, const char *ttree,
                          const char *path)
{
	char tree[SC_MAX_HEXSZ + 1], own[SC_MAX_HEXSZ + 1], type[16];
	if (strcmp(path, ".") == 0) {
		snprintf(tree, sizeof tree, "%s", ttree);
	} else {
		struct sc_tree_entry e;
		int r = sc_tree_find(c, g, ttree, path, &e);
		if (r < 0)
			sc_die_code(SC_EXIT_FAIL, "cannot read the tooling tree (profile.tooling %s)", path);
		if (r == 0 || e.mode != SC_MODE_TREE)
			sc_die("the tooling commit has no directory %s (profile.tooling)", path);
		memcpy(tree, e.hex, sizeof tree);
	}
	/* Only the profiler's own entries count (srctree.h), as at build time. */
	struct strbuf sb = STRBUF_INIT;
	if (sc_catfile_read(c, tree, type, &sb) < 0 || strcmp(type, "tree") != 0 ||
	    sc_srctree_own_id(sb.buf, sb.len, g->hexsz == 40 ? SC_HASH_SHA1 : SC_HASH_SHA256, own) < 0)
		sc_die_code(SC_EXIT_FAIL, "cannot read the tooling tree (profile.tooling %s)", path);
	sb_release(&sb);
	const char *mine = g->hexsz == 40 ? SC_SRCTREE_SHA1 : SC_SRCTREE_SHA256;
	if (strcmp(mine, own) != 0)
		sc_die("installed profiler sources (tree %s) differ from the tooling commit's "
		       "%s (tree %s) (profile.tooling)",
		       mine, path, own);
}

/* Could this be a full object ID of either hash?  Only such arguments may
 * reach git before the repository's hash is known. */
static int looks_like_oid(const char *s)
{
	size_t n = strspn(s, "0123456789abcdefABCDEF");
	return s[n] == '\0' && (n == 40 || n == 64);
}

static void start_diff(struct sc_gitjob *job, const struct sc_git *g, const struct sc_plan *p,
                       const char *mbase)
{
	static const char *const fixed[] = {
		"--literal-pathspecs", "diff-tree", "-r", "--no-renames", "-z", "--raw",
		"--no-abbrev", "--ignore-submodules=none", "--no-relative", "--no-ext-diff",
	};
	size_t nfixed = sizeof fixed / sizeof *fixed;
	size_t nroots = p->n_library + p->n_roadmap;
	const char **args = xcalloc(nfixed + 3 + 4 * nroots + 1, sizeof *args);
	char **specs = xcalloc(3 * nroots, sizeof *specs);
	size_t k = 0;
	for (size_t i = 0; i < nfixed; i++)
		args[k++] = fixed[i];
	args[k++] = mbase;
	args[k++] = p->head;
	args[k++] = "--";
	for (size_t i = 0; i < nroots; i++) {
		const char *root = i < p->n_library ? p->library[i] : p->roadmap[i - p->n_library];
		specs[i] = xasprintf("%s.lean", root);
		args[k++] = root;
		args[k++] = specs[i];
		if (p->source_dir) { /* roots live below it; the others are refused */
			specs[nroots + i] = xasprintf("%s/%s", p->source_dir, root);
			specs[2 * nroots + i] = xasprintf("%s/%s.lean", p->source_dir, root);
			args[k++] = specs[nroots + i];
			args[k++] = specs[2 * nroots + i];
		}
	}
	args[k] = NULL;
	sc_gitjob_start(job, g, args);
	for (size_t i = 0; i < 3 * nroots; i++)
		free(specs[i]);
	free(specs);
	free(args);
}

static void write_stdout(const struct strbuf *sb)
{
	if (sc_write_all(STDOUT_FILENO, sb->buf, sb->len) < 0)
		sc_die_errno("cannot write the plan (stdout)");
}

int main(int argc, char **argv)
{
	sc_set_progname("sc-plan");
	sc_check_stdout_at_exit();
	struct opts o;
	parse_args(argc, argv, &o);
	const char *flags[3] = {"--tooling", "--base", "--head"};
	const char *ins[3] = {o.tooling, o.base, o.head};

	/* Everything that needs only the arguments starts at once: these git
	 * commands read objects named by full IDs and nothing else, so their
	 * answers can wait until the IDs are known to be commits of this
	 * repository; every error is still reported in one fixed order. */
	struct sc_gitjob open_job, mb_job, cfg_job, diff_job;
	int early = looks_like_oid(o.tooling) && looks_like_oid(o.base) && looks_like_oid(o.head);
	char *cfg_spec = xasprintf("%s:%s", o.tooling, CONFIG_FILE);
	sc_git_open_start(&open_job, o.repo);
	if (early) {
		const char *mb_args[] = {"merge-base", "--all", o.base, o.head, NULL};
		const char *cfg_args[] = {"config", "--no-includes", "--blob", cfg_spec,
		                          "--list", "-z", NULL};
		sc_gitjob_start_at(&mb_job, o.repo, mb_args);
		sc_gitjob_start_at(&cfg_job, o.repo, cfg_args);
	}
	struct sc_git g;
	sc_git_open_finish(&open_job, o.repo, &g);

	struct sc_plan p;
	memset(&p, 0, sizeof p);
	p.tooling = xcalloc(1, SC_MAX_HEXSZ + 1);
	p.base_tip = xcalloc(1, SC_MAX_HEXSZ + 1);
	p.head = xcalloc(1, SC_MAX_HEXSZ + 1);
	char *hexes[3] = {p.tooling, p.base_tip, p.head};
	struct bad_ids bad = {STRBUF_INIT, STRBUF_INIT, 0};
	for (int i = 0; i < 3; i++)
		if (sc_oid_normalize(ins[i], g.hexsz, hexes[i]) < 0)
			bad_id(&bad, flags[i], "not a full %d-digit %s object ID: '%s'", g.hexsz,
			       g.object_format, ins[i]);
	die_bad_ids(&bad, "; 'git rev-parse REV^{commit}' in the repository prints the full ID");

	/* The object reader starts up while merge-base and config finish. */
	struct sc_catfile *c = sc_catfile_open(&g);
	struct strbuf cfg_out = STRBUF_INIT, mb_out = STRBUF_INIT, out = STRBUF_INIT;
	struct strbuf cfg_err = STRBUF_INIT, err = STRBUF_INIT;
	int cfg_rc = sc_gitjob_finish(&cfg_job, &cfg_out);
	int cfg_ok = cfg_rc == 0 &&
	             sc_repoconfig_parse(cfg_out.buf, cfg_out.len, &p, &cfg_err) == 0;
	int mb_rc = sc_gitjob_finish(&mb_job, &mb_out);
	/* The diff needs only the merge base and the roots: start it now. */
	int diffing = cfg_ok && p.n_library && mb_rc == 0 && mb_out.len == (size_t)g.hexsz + 1;
	char mbase[SC_MAX_HEXSZ + 1];
	if (diffing) {
		memcpy(mbase, mb_out.buf, (size_t)g.hexsz);
		mbase[g.hexsz] = '\0';
		start_diff(&diff_job, &g, &p, mbase);
	}

	char ttree[SC_MAX_HEXSZ + 1], btree[SC_MAX_HEXSZ + 1], htree[SC_MAX_HEXSZ + 1];
	char *trees[3] = {ttree, btree, htree};
	for (int i = 0; i < 3; i++)
		check_commit(c, &g, hexes[i], flags[i], trees[i], &bad);
	die_bad_ids(&bad, "");

	struct sc_tree_entry cfg_entry;
	int r = sc_tree_find(c, &g, ttree, CONFIG_FILE, &cfg_entry);
	if (r < 0)
		sc_die_code(SC_EXIT_FAIL, "cannot read tree %s (--tooling)", ttree);
	if (r == 0)
		sc_die("missing configuration: the tooling commit has no %s (--tooling %s)",
		       CONFIG_FILE, p.tooling);
	if (!sc_is_regular_mode(cfg_entry.mode))
		sc_die("missing configuration: %s is not a regular file (--tooling %s)", CONFIG_FILE,
		       p.tooling);
	if (cfg_rc != 0)
		sc_die("invalid configuration: git config cannot parse it (%s)", cfg_spec);
	if (!cfg_ok)
		sc_die("invalid configuration: %s (%s)", cfg_err.buf, cfg_spec);
	if (!p.n_library)
		sc_die("missing configuration: no profile.library root (%s)", cfg_spec);
	if (p.tooling_path)
		check_tooling(c, &g, ttree, p.tooling_path);

	sc_lake_blobs(c, &g, ttree, "tooling commit", p.lake_blobs);
	if (p.lake_blobs[SC_LAKE_TOOLCHAIN])
		p.lean_toolchain = sc_read_toolchain(c, p.lake_blobs[SC_LAKE_TOOLCHAIN]);

	p.merge_base = sc_merge_base_or_die(mb_rc, &mb_out, g.hexsz);
	if (!diffing)
		sc_die_code(SC_EXIT_FAIL, "internal: diff not started (merge base..head)");
	char mtree[SC_MAX_HEXSZ + 1];
	if (sc_commit_tree(c, &g, p.merge_base, mtree) < 0)
		sc_die_code(SC_EXIT_FAIL, "cannot read the merge base %s (git merge-base)", p.merge_base);
	sc_same_lake(c, &g, mtree, "merge base", p.lake_blobs);
	sc_same_lake(c, &g, htree, "head", p.lake_blobs);

	if (sc_gitjob_finish(&diff_job, &out) != 0)
		sc_die_code(SC_EXIT_FAIL, "git diff-tree failed (merge base..head)");
	if (sc_changes_select(&p, out.buf, out.len, g.hexsz, &err) < 0)
		sc_die("%s (merge base..head)", err.buf);

	p.profiler_version = xstrdup(SC_VERSION);
	p.object_format = xstrdup(g.object_format);
	sb_reset(&out);
	sc_plan_to_json(&p, &out);
	write_stdout(&out);

	sc_catfile_close(c);
	sb_release(&out);
	sb_release(&err);
	sb_release(&cfg_out);
	sb_release(&cfg_err);
	free(cfg_spec);
	sc_plan_free(&p);
	sc_git_close(&g);
	return 0;
}
