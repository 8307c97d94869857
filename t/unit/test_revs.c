/* Unit tests for common/planning/revs (sc-plan's revision arguments: full IDs,
 * every bad one in one line, commits), the configuration verdict of
 * common/planning/repoconfig, and the diff-tree arguments of common/planning/changes.
 * The commit checks read a real repository made with real git. */
#include "unit_main.h"
#include "unit_tmp.h"
#include "git/git.h"
#include "git/treediff.h"
#include "git/treewalk.h"
#include "planning/changes.h"
#include "planning/repoconfig.h"
#include "planning/revs.h"
#include "util/die.h"
#include "util/spawn.h"
#include "util/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define A40 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

START_TEST(full_ids_only_before_the_hash_is_known)
{
	ck_assert(sc_looks_like_full_oid(A40));
	ck_assert(sc_looks_like_full_oid("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"));
	ck_assert(sc_looks_like_full_oid(A40 "aaaaaaaaaaaaaaaaaaaaaaaa"));
	ck_assert(!sc_looks_like_full_oid("aaaaaaa"));
	ck_assert(!sc_looks_like_full_oid(A40 "a"));
	ck_assert(!sc_looks_like_full_oid("HEAD"));
	ck_assert(!sc_looks_like_full_oid("-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"));
	ck_assert(!sc_looks_like_full_oid(""));
}
END_TEST

START_TEST(every_bad_id_in_one_line)
{
	struct sc_bad_ids bad = SC_BAD_IDS_INIT;
	struct strbuf line = STRBUF_INIT;
	sc_bad_ids_line(&bad, "; hint", &line);
	ck_assert_uint_eq(line.len, 0);
	sc_bad_id(&bad, "--base", "no such object %s", "x");
	sc_bad_ids_line(&bad, "; hint", &line);
	ck_assert_str_eq(line.buf, "no such object x; hint (--base)");
	sb_reset(&line);
	sc_bad_id(&bad, "--head", "object %s is a tree, not a commit", "y");
	sc_bad_ids_line(&bad, "", &line);
	ck_assert_str_eq(line.buf, "2 bad revisions: --base: no such object x; --head: object y is "
	                           "a tree, not a commit (--base, --head)");
	sb_release(&line);
	sc_bad_ids_release(&bad);
}
END_TEST

START_TEST(commit_verdicts)
{
	struct strbuf why = STRBUF_INIT;
	ck_assert_int_eq(sc_commit_verdict(SC_COMMIT_OK, "commit", A40, &why), SC_EXIT_OK);
	ck_assert_uint_eq(why.len, 0);
	ck_assert_int_eq(sc_commit_verdict(SC_COMMIT_MISSING, "", A40, &why), SC_EXIT_USAGE);
	ck_assert_str_eq(why.buf, "no such object " A40);
	sb_reset(&why);
	ck_assert_int_eq(sc_commit_verdict(SC_COMMIT_NOT_COMMIT, "blob", A40, &why), SC_EXIT_USAGE);
	ck_assert_str_eq(why.buf, "object " A40 " is a blob, not a commit");
	sb_reset(&why);
	ck_assert_int_eq(sc_commit_verdict(SC_COMMIT_MALFORMED, "commit", A40, &why), SC_EXIT_SYSTEM);
	ck_assert_str_eq(why.buf, "cannot parse commit " A40);
	sb_release(&why);
}
END_TEST

static int verdict(int found, unsigned mode, int rc, int parsed, size_t nlib, const char *want)
{
	char *lib[] = {"Lib"};
	struct sc_plan p = {.library = lib, .n_library = nlib};
	struct strbuf why = STRBUF_INIT;
	int code = sc_repoconfig_verdict(found, mode, "--tooling T", "T:.sphereceti", rc, parsed, "bad key",
	                                 &p, &why);
	ck_assert_str_eq(why.buf, want);
	sb_release(&why);
	return code;
}

START_TEST(configuration_errors_in_their_order)
{
	ck_assert_int_eq(verdict(1, 0100644, 0, 0, 1, ""), SC_EXIT_OK);
	ck_assert_int_eq(verdict(1, 0100755, 0, 0, 1, ""), SC_EXIT_OK);
	ck_assert_int_eq(verdict(0, 0, 1, -1, 0, "missing configuration: the tooling commit has no "
	                                          ".sphereceti (--tooling T)"),
	                 SC_EXIT_USAGE);
	ck_assert_int_eq(verdict(1, 0120000, 0, 0, 1, "missing configuration: .sphereceti is not a "
	                                               "regular file (--tooling T)"),
	                 SC_EXIT_USAGE);
	ck_assert_int_eq(verdict(1, 0100644, 1, -1, 0, "invalid configuration: git config cannot "
	                                                "parse it (T:.sphereceti)"),
	                 SC_EXIT_USAGE);
	ck_assert_int_eq(verdict(1, 0100644, 0, -1, 0, "invalid configuration: bad key (T:.sphereceti)"),
	                 SC_EXIT_USAGE);
	ck_assert_int_eq(verdict(1, 0100644, 0, 0, 0, "missing configuration: no profile.library "
	                                               "root (T:.sphereceti)"),
	                 SC_EXIT_USAGE);
}
END_TEST

static void args_of(const struct sc_plan *p, struct strbuf *sb)
{
	struct sc_argv a = SC_ARGV_INIT;
	sc_changes_diff_args(p, "M", &a);
	for (size_t i = 0; i < a.n; i++)
		sb_addf(sb, "%s%s", i ? " " : "", a.v[i]);
	ck_assert_ptr_null(a.v[a.n]);
	sc_argv_release(&a);
}

START_TEST(diff_tree_restricted_to_the_roots)
{
	char *lib[] = {"Lib", "Other"}, *road[] = {"Lib/Road"};
	struct sc_plan p = {.library = lib, .n_library = 2, .roadmap = road, .n_roadmap = 1,
	                    .head = "H"};
	struct strbuf sb = STRBUF_INIT;
	const char *fixed = "--literal-pathspecs diff-tree -r --no-renames -z --raw --no-abbrev "
	                    "--ignore-submodules=none --no-relative --no-ext-diff M H -- ";
	args_of(&p, &sb);
	struct strbuf want = STRBUF_INIT;
	sb_addf(&want, "%sLib Lib.lean Other Other.lean Lib/Road Lib/Road.lean", fixed);
	ck_assert_str_eq(sb.buf, want.buf);
	p.source_dir = "src";
	p.n_library = 1, p.n_roadmap = 0;
	sb_reset(&sb), sb_reset(&want);
	args_of(&p, &sb);
	sb_addf(&want, "%sLib Lib.lean src/Lib src/Lib.lean", fixed);
	ck_assert_str_eq(sb.buf, want.buf);
	sb_release(&sb);
	sb_release(&want);
}
END_TEST

static const char *dir = "";

/* git -C dir ARGS...; its stdout, last newline dropped, in out. */
static void git(struct strbuf *out, const char *const *args)
{
	const char *argv[16] = {"git", "-C", dir, "-c", "user.name=u", "-c", "user.email=u@e"};
	size_t n = 7;
	for (size_t i = 0; args[i]; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	sb_reset(out);
	ck_assert_int_eq(sc_spawn_capture(argv, sc_git_env(), NULL, SC_NULL_ERR, out), 0);
	if (out->len && out->buf[out->len - 1] == '\n')
		out->buf[--out->len] = '\0';
}

/* One place builds git's argv, without a bound: sc_git_run passed only the
 * first 63 of its arguments on. */
#define TEN "x", "x", "x", "x", "x", "x", "x", "x", "x", "x"
START_TEST(git_gets_every_argument)
{
	struct strbuf out = STRBUF_INIT;
	ck_assert_int_eq(sc_git_run(NULL, &out, 0, "rev-parse", "--sq-quote", TEN, TEN, TEN, TEN, TEN,
	                            TEN, TEN, NULL), 0);
	size_t n = 0;
	for (const char *p = out.buf; (p = strstr(p, " 'x'")); p++)
		n++;
	ck_assert_uint_eq(n, 70);
	sb_release(&out);
}
END_TEST

START_TEST(commits_of_a_real_repository)
{
	dir = sc_unit_tmp_make("revs");
	struct strbuf commit = STRBUF_INIT, tree = STRBUF_INIT;
	git(&commit, (const char *[]){"init", "-q", NULL});
	git(&commit, (const char *[]){"commit", "-q", "--allow-empty", "-m", "m", NULL});
	git(&commit, (const char *[]){"rev-parse", "HEAD", NULL});
	git(&tree, (const char *[]){"rev-parse", "HEAD^{tree}", NULL});
	struct sc_git g;
	struct strbuf why = STRBUF_INIT;
	ck_assert_int_eq(sc_git_open(&g, "/nonexistent/sc-repo", &why), -1);
	ck_assert_str_eq(why.buf, "repository does not exist");
	sb_reset(&why);
	ck_assert_int_eq(sc_git_open(&g, "/", &why), -1);
	ck_assert_str_eq(why.buf, "not a git repository");
	sb_reset(&why);
	ck_assert_int_eq(sc_git_open(&g, dir, &why), 0);
	ck_assert_uint_eq(why.len, 0);
	sb_release(&why);
	struct sc_catfile *c = sc_catfile_open(&g);
	struct sc_bad_ids bad = SC_BAD_IDS_INIT;
	char got[SC_MAX_HEXSZ + 1];
	sc_check_commit(c, &g, commit.buf, "--head", got, &bad);
	ck_assert_int_eq(bad.n, 0);
	ck_assert_str_eq(got, tree.buf);
	sc_check_commit(c, &g, tree.buf, "--base", got, &bad);
	sc_check_commit(c, &g, A40, "--tooling", got, &bad);
	struct strbuf line = STRBUF_INIT, want = STRBUF_INIT;
	sc_bad_ids_line(&bad, "", &line);
	sb_addf(&want, "2 bad revisions: --base: object %s is a tree, not a commit; --tooling: no "
	               "such object %s (--base, --tooling)", tree.buf, A40);
	ck_assert_str_eq(line.buf, want.buf);
	sc_bad_ids_release(&bad);
	sc_catfile_close(c);
	sc_git_close(&g);
	sb_release(&line), sb_release(&want), sb_release(&commit), sb_release(&tree);
}
END_TEST

/* A repository of two commits under dir: base holds A/x A/B/y A/B/z C/w D;
 * head changes A/B/y, adds A/N/p, removes C.  Their root trees' IDs. */
static void two_trees(struct strbuf *base, struct strbuf *head)
{
	struct strbuf out = STRBUF_INIT;
	git(&out, (const char *[]){"init", "-q", NULL});
	const char *files[] = {"A/x", "A/B/y", "A/B/z", "C/w", "D"};
	for (size_t i = 0; i < 5; i++) {
		char *path = xasprintf("%s/%s", dir, files[i]), *slash = strrchr(path, '/');
		*slash = '\0';
		(void)mkdir(path, 0755);
		*slash = '/';
		FILE *f = fopen(path, "w");
		ck_assert_ptr_nonnull(f);
		fprintf(f, "%s\n", files[i]);
		fclose(f);
		free(path);
	}
	git(&out, (const char *[]){"add", "-A", NULL});
	git(&out, (const char *[]){"commit", "-q", "-m", "base", NULL});
	git(base, (const char *[]){"rev-parse", "HEAD^{tree}", NULL});
	char *y = xasprintf("%s/A/B/y", dir), *n = xasprintf("%s/A/N", dir), *p = xasprintf("%s/A/N/p", dir);
	FILE *f = fopen(y, "a");
	fputs("changed\n", f);
	fclose(f);
	mkdir(n, 0755);
	f = fopen(p, "w");
	fputs("new\n", f);
	fclose(f);
	git(&out, (const char *[]){"rm", "-q", "-r", "C", NULL});
	git(&out, (const char *[]){"add", "-A", NULL});
	git(&out, (const char *[]){"commit", "-q", "-m", "head", NULL});
	git(head, (const char *[]){"rev-parse", "HEAD^{tree}", NULL});
	free(y), free(n), free(p);
	sb_release(&out);
}

/* threat-model.txt "The fourth round": a tree read counts its entries as
 * it goes and stops past its bound, keeping nothing. */
START_TEST(tree_reads_stop_at_their_bound)
{
	dir = sc_unit_tmp_make("treewalk");
	struct strbuf base = STRBUF_INIT, head = STRBUF_INIT, why = STRBUF_INIT;
	two_trees(&base, &head);
	struct sc_git g;
	ck_assert_int_eq(sc_git_open(&g, dir, &why), 0);
	struct sc_catfile *c = sc_catfile_open(&g);
	struct sc_tree t;
	struct sc_tree_bounds b = {8}; /* A A/B A/B/y A/B/z A/N A/N/p A/x D */
	ck_assert_int_eq(sc_tree_load(c, head.buf, g.rawsz, &b, &t, &why), 0);
	ck_assert_uint_eq(t.n, 9);
	sc_tree_free(&t);
	b.max_entries = 7;
	ck_assert_int_eq(sc_tree_load(c, head.buf, g.rawsz, &b, &t, &why), -1);
	ck_assert_str_eq(why.buf, "more than 7 entries (files and folders)");
	ck_assert_ptr_null(t.nodes);
	sc_catfile_close(c);
	sc_git_close(&g);
	sb_release(&why), sb_release(&base), sb_release(&head);
}
END_TEST

/* threat-model.txt "The fourth round": what differs is counted as git
 * diff-tree -r -t lists it, but a removed folder once (the old side is the
 * base branch's), and the count stops past its bound. */
START_TEST(tree_differences_counted_before_the_diff)
{
	dir = sc_unit_tmp_make("treediff");
	struct strbuf base = STRBUF_INIT, head = STRBUF_INIT, why = STRBUF_INIT;
	two_trees(&base, &head);
	size_t want = 6; /* A A/B A/B/y A/N A/N/p C */
	struct sc_git g;
	ck_assert_int_eq(sc_git_open(&g, dir, &why), 0);
	struct sc_catfile *c = sc_catfile_open(&g);
	size_t got;
	ck_assert_int_eq(sc_tree_diff_count(c, &g, base.buf, head.buf, 100, &got, &why), SC_TREEDIFF_OK);
	ck_assert_uint_eq(got, want);
	ck_assert_int_eq(sc_tree_diff_count(c, &g, base.buf, base.buf, 100, &got, &why), SC_TREEDIFF_OK);
	ck_assert_uint_eq(got, 0);
	/* all of the head, nothing before it: every entry */
	ck_assert_int_eq(sc_tree_diff_count(c, &g, NULL, head.buf, 100, &got, &why), SC_TREEDIFF_OK);
	ck_assert_uint_eq(got, 8); /* A A/B A/B/y A/B/z A/N A/N/p A/x D */
	ck_assert_int_eq(sc_tree_diff_count(c, &g, base.buf, head.buf, 5, &got, &why), SC_TREEDIFF_OVER);
	/* the batch is still in step after stopping early */
	ck_assert_int_eq(sc_tree_diff_count(c, &g, base.buf, head.buf, 6, &got, &why), SC_TREEDIFF_OK);
	ck_assert_uint_eq(got, 6);
	ck_assert_int_eq(sc_tree_diff_count(c, &g, base.buf, A40, 6, &got, &why), SC_TREEDIFF_BAD);
	ck_assert_str_eq(why.buf, "tree " A40 " is missing");
	sc_catfile_close(c);
	sc_git_close(&g);
	sb_release(&why), sb_release(&base), sb_release(&head);
}
END_TEST

/* Documentation/ci.txt "The profiler, pinned": the pin must be the build's
 * commit; a build that is no commit's is told how to become one. */
#define B40 "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
START_TEST(profiler_commit_pinned)
{
	struct strbuf why = STRBUF_INIT;
	ck_assert_int_eq(sc_profiler_commit_verdict(A40, A40, &why), SC_EXIT_OK);
	ck_assert_int_eq(why.len, 0);
	ck_assert_int_eq(sc_profiler_commit_verdict(A40, B40, &why), SC_EXIT_USAGE);
	ck_assert_str_eq(why.buf, "this profiler was built from commit " A40 ", not the pinned " B40
	                 ": build it from a checkout of " B40 " (git checkout " B40 " && make install), "
	                 "or pin " A40);
	sb_reset(&why);
	ck_assert_int_eq(sc_profiler_commit_verdict("", B40, &why), SC_EXIT_USAGE);
	ck_assert_str_eq(why.buf, "this profiler was not built from a clean Git checkout of sphereceti, "
	                 "so it is no commit's build: build it from a checkout of " B40 " (git checkout "
	                 B40 " && make install)");
	sb_reset(&why);
	ck_assert_int_eq(sc_profiler_commit_verdict(A40, "main", &why), SC_EXIT_USAGE);
	ck_assert_str_eq(why.buf, "not a full commit ID of sphereceti's repository: 'main'");
	sb_reset(&why);
	/* a SHA-256 repository's commit is as good */
	ck_assert_int_eq(sc_profiler_commit_verdict(A40 "aaaaaaaaaaaaaaaaaaaaaaaa", A40 "aaaaaaaaaaaaaaaaaaaaaaaa", &why), SC_EXIT_OK);
	sb_release(&why);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("revs");
	TCase *tc = tcase_create("revs");
	tcase_add_test(tc, full_ids_only_before_the_hash_is_known);
	tcase_add_test(tc, git_gets_every_argument);
	tcase_add_test(tc, every_bad_id_in_one_line);
	tcase_add_test(tc, commit_verdicts);
	tcase_add_test(tc, configuration_errors_in_their_order);
	tcase_add_test(tc, diff_tree_restricted_to_the_roots);
	tcase_add_test(tc, profiler_commit_pinned);
	tcase_add_test(tc, tree_differences_counted_before_the_diff);
	tcase_add_test(tc, tree_reads_stop_at_their_bound);
	tcase_add_checked_fixture(tc, NULL, sc_unit_tmp_remove);
	tcase_add_test(tc, commits_of_a_real_repository);
	suite_add_tcase(s, tc);
	return sc_unit_run(s);
}
