/* Unit tests for the untrusted-name checks behind sc-materialize and its
 * rules (common/planning/materialize): the destination, the plan's sides, the
 * link-versus-root decision and the summary. */
#include "unit_main.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "planning/materialize.h"
#include "util/die.h"
#include "util/safepath.h"
#include "util/strbuf.h"

static int safe(const char *s) { return sc_safe_component(s, strlen(s)); }

START_TEST(components)
{
	ck_assert(safe("a"));
	ck_assert(safe("..."));
	ck_assert(safe("..X"));
	ck_assert(safe(".gitx"));
	ck_assert(safe("-rf"));
	ck_assert(safe("new\nline"));
	ck_assert(!safe(""));
	ck_assert(!safe("."));
	ck_assert(!safe(".."));
	ck_assert(!safe(".git"));
	ck_assert(!safe(".GiT"));
	ck_assert(!safe("a/b"));
	ck_assert(!safe("/"));
	ck_assert(!sc_safe_component("a\0b", 3));
}
END_TEST

START_TEST(quoting)
{
	struct strbuf sb = STRBUF_INIT;
	sc_quote_path(&sb, "a\nb\\c\x7f\xc3\xa9 d", 10);
	ck_assert_str_eq(sb.buf, "a\\x0ab\\x5cc\\x7f\\xc3\\xa9 d");
	sb_release(&sb);
}
END_TEST

static int utf8(const char *s) { return sc_is_utf8(s, strlen(s)); }

START_TEST(utf8_validation)
{
	ck_assert(utf8("plain"));
	ck_assert(utf8("\xc3\xa9t\xc3\xa9"));
	ck_assert(utf8("\xf0\x9f\x98\x80"));
	ck_assert(!utf8("\xc3"));
	ck_assert(!utf8("\xc0\xaf"));         /* overlong '/' */
	ck_assert(!utf8("\xe0\x80\xaf"));     /* overlong */
	ck_assert(!utf8("\xed\xa0\x80"));     /* surrogate */
	ck_assert(!utf8("\xf4\x90\x80\x80")); /* > U+10FFFF */
	ck_assert(!utf8("\xff"));
}
END_TEST

START_TEST(destination_new_and_outside_the_git_dir)
{
	char dir[] = "/tmp/sc-mat-XXXXXX", path[64], gd[64];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	struct strbuf why = STRBUF_INIT;
	snprintf(path, sizeof path, "%s/new", dir);
	char *canon = sc_dest_new_dir(path, &why);
	ck_assert_ptr_nonnull(canon);
	ck_assert_uint_eq(why.len, 0);
	ck_assert_int_eq(sc_dest_outside_git_dir(canon, "/", &why), SC_EXIT_USAGE);
	ck_assert_ptr_nonnull(strstr(why.buf, "destination is inside the repository's git directory"));
	sb_reset(&why);
	snprintf(gd, sizeof gd, "%s/.git", dir);
	ck_assert_int_eq(mkdir(gd, 0700), 0);
	ck_assert_int_eq(sc_dest_outside_git_dir(canon, gd, &why), SC_EXIT_OK);
	free(canon);
	ck_assert_int_eq(rmdir(gd), 0);
	ck_assert_int_eq(sc_dest_outside_git_dir("/x", gd, &why), SC_EXIT_SYSTEM);
	sb_reset(&why);
	ck_assert_ptr_null(sc_dest_new_dir(dir, &why));
	ck_assert_str_eq(why.buf, "destination already exists");
	sb_reset(&why);
	snprintf(path, sizeof path, "%s/..", dir);
	ck_assert_ptr_null(sc_dest_new_dir(path, &why));
	ck_assert_ptr_nonnull(strstr(why.buf, "must end in a new directory name"));
	sb_reset(&why);
	snprintf(path, sizeof path, "%s/no/new", dir);
	ck_assert_ptr_null(sc_dest_new_dir(path, &why));
	ck_assert_ptr_nonnull(strstr(why.buf, "parent directory does not exist"));
	sb_release(&why);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

#define M40 "1111111111111111111111111111111111111111"
#define H40 "2222222222222222222222222222222222222222"

START_TEST(only_the_plans_sides)
{
	char *lib[] = {"Lib"};
	struct sc_plan p = {.object_format = "sha1", .merge_base = M40, .head = H40,
	                    .library = lib, .n_library = 1};
	struct strbuf why = STRBUF_INIT;
	ck_assert_int_eq(sc_plan_has_side(&p, M40, &why), SC_EXIT_OK);
	ck_assert_int_eq(sc_plan_has_side(&p, H40, &why), SC_EXIT_OK);
	ck_assert_int_eq(sc_plan_for_format(&p, "sha1", &why), SC_EXIT_OK);
	ck_assert_uint_eq(why.len, 0);
	ck_assert_int_eq(sc_plan_has_side(&p, "33", &why), SC_EXIT_USAGE);
	ck_assert_str_eq(why.buf, "commit is neither the plan's merge_base nor its head");
	sb_reset(&why);
	ck_assert_int_eq(sc_plan_for_format(&p, "sha256", &why), SC_EXIT_USAGE);
	ck_assert_str_eq(why.buf, "plan is for sha1 objects, repository uses sha256");
	sb_release(&why);
}
END_TEST

/* root/, Lib/ (tree), Lib/L (link), out (link), sub (submodule), in tree order */
static struct sc_tree_node nodes[] = {
	{"", 0, NULL, 0, 1, 3, SC_MODE_TREE, 0},
	{"Lib", 3, NULL, 0, 4, 1, SC_MODE_TREE, 1},
	{"out", 3, NULL, 0, 0, 0, SC_MODE_LINK, 1},
	{"sub", 3, NULL, 0, 0, 0, SC_MODE_GITLINK, 1},
	{"L", 1, NULL, 1, 0, 0, SC_MODE_LINK, 2},
};
static size_t order[] = {1, 4, 2, 3};
static const struct sc_tree tree = {20, nodes, 5, 5, order, NULL, 0, 0};

START_TEST(links_skipped_or_refused)
{
	struct sc_skipped_list sk;
	struct strbuf why = STRBUF_INIT, out = STRBUF_INIT;
	ck_assert_int_eq(sc_links_decide(&tree, NULL, &sk, &why), SC_EXIT_OK);
	ck_assert_uint_eq(sk.n, 3);
	ck_assert_str_eq(sk.v[0].path, "Lib/L");
	ck_assert_str_eq(sk.v[1].path, "out");
	ck_assert_str_eq(sk.v[2].path, "sub");
	struct sc_write_stats st = {2, 1, 10};
	sc_materialize_summary("sha1", M40, H40, &st, &sk, &out);
	ck_assert_str_eq(out.buf,
	                 "{\n  \"schema\": \"sphereceti.materialize/1\",\n"
	                 "  \"object_format\": \"sha1\",\n  \"commit\": \"" M40 "\",\n"
	                 "  \"tree\": \"" H40 "\",\n  \"files\": 2,\n  \"directories\": 1,\n"
	                 "  \"bytes\": 10,\n  \"skipped\": [\n"
	                 "    {\n      \"path\": \"Lib/L\",\n      \"mode\": \"120000\",\n"
	                 "      \"reason\": \"symlink\"\n    },\n"
	                 "    {\n      \"path\": \"out\",\n      \"mode\": \"120000\",\n"
	                 "      \"reason\": \"symlink\"\n    },\n"
	                 "    {\n      \"path\": \"sub\",\n      \"mode\": \"160000\",\n"
	                 "      \"reason\": \"submodule\"\n    }\n  ]\n}\n");
	sc_skipped_release(&sk);
	ck_assert_uint_eq(sk.n, 0);
	char *lib[] = {"Lib"};
	struct sc_plan p = {.library = lib, .n_library = 1};
	ck_assert_int_eq(sc_links_decide(&tree, &p, &sk, &why), SC_EXIT_USAGE);
	ck_assert_str_eq(why.buf, "symbolic link at or inside library root 'Lib' (Lib/L)");
	ck_assert_uint_eq(sk.n, 0);
	ck_assert_ptr_null(sk.v);
	sb_release(&why);
	sb_release(&out);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("materialize");
	TCase *tc = tcase_create("safepath");
	tcase_add_test(tc, components);
	tcase_add_test(tc, quoting);
	tcase_add_test(tc, utf8_validation);
	suite_add_tcase(s, tc);
	TCase *rules = tcase_create("rules");
	tcase_add_test(rules, destination_new_and_outside_the_git_dir);
	tcase_add_test(rules, only_the_plans_sides);
	tcase_add_test(rules, links_skipped_or_refused);
	suite_add_tcase(s, rules);
	return sc_unit_run(s);
}
