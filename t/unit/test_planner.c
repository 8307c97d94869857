/* Unit tests for common/planning/planner: the rules sc-plan applies to git's
 * answers (one merge base, Lake configuration equal to T's, one toolchain
 * name) and the one home of the plan digest. */
#include "unit_main.h"
#include "contract/plan.h"
#include "planning/planner.h"
#include "util/die.h"
#include "util/strbuf.h"

#include <stdlib.h>
#include <string.h>

#define A40 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define B40 "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

static int pick(int rc, const char *out, int hexsz, char **mb, struct strbuf *why)
{
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, out);
	static const char *const names[2] = {"--base", "--head"};
	int code = sc_merge_base_pick(rc, &sb, hexsz, names, mb, why);
	sb_release(&sb);
	return code;
}

START_TEST(merge_base_exactly_one)
{
	struct strbuf why = STRBUF_INIT;
	char *mb;
	ck_assert_int_eq(pick(0, A40 "\n", 40, &mb, &why), SC_EXIT_OK);
	ck_assert_str_eq(mb, A40);
	ck_assert_uint_eq(why.len, 0);
	free(mb);
}
END_TEST

START_TEST(merge_base_refusals)
{
	struct strbuf why = STRBUF_INIT;
	char *mb;
	ck_assert_int_eq(pick(0, A40 "\n" B40 "\n", 40, &mb, &why), SC_EXIT_USAGE);
	ck_assert_ptr_null(mb);
	ck_assert_str_eq(why.buf, "ambiguous merge base: --base and --head have 2 merge bases (git merge-base --all)");
	sb_reset(&why);
	ck_assert_int_eq(pick(1, "", 40, &mb, &why), SC_EXIT_USAGE);
	ck_assert_str_eq(why.buf, "no merge base: --base and --head have unrelated histories (git merge-base)");
	sb_reset(&why);
	ck_assert_int_eq(pick(128, "", 40, &mb, &why), SC_EXIT_SYSTEM);
	ck_assert_str_eq(why.buf, "git merge-base failed (git merge-base --all)");
	sb_reset(&why);
	ck_assert_int_eq(pick(0, A40 "\n", 64, &mb, &why), SC_EXIT_SYSTEM);
	ck_assert_str_eq(why.buf, "unexpected git merge-base output (git merge-base --all)");
	sb_reset(&why);
	ck_assert_int_eq(pick(0, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n", 40, &mb, &why), SC_EXIT_SYSTEM);
	sb_release(&why);
}
END_TEST

START_TEST(lake_configuration_equal_or_named_change)
{
	ck_assert_ptr_null(sc_lake_change(NULL, NULL));
	ck_assert_ptr_null(sc_lake_change(A40, A40));
	ck_assert_str_eq(sc_lake_change(NULL, A40), "is absent");
	ck_assert_str_eq(sc_lake_change(A40, NULL), "is added");
	ck_assert_str_eq(sc_lake_change(B40, A40), "changed");
}
END_TEST

START_TEST(toolchain_one_printable_token)
{
	char *s = sc_toolchain_name(" leanprover/lean4:v4.9.0\r\n", 26);
	ck_assert_str_eq(s, "leanprover/lean4:v4.9.0");
	free(s);
	ck_assert_ptr_null(sc_toolchain_name("  \n", 3));
	ck_assert_ptr_null(sc_toolchain_name("a b\n", 4));
	ck_assert_ptr_null(sc_toolchain_name("a\x7f", 2));
	char big[SC_MAX_TOOLCHAIN_BYTES + 1];
	memset(big, 'x', sizeof big);
	ck_assert_ptr_null(sc_toolchain_name(big, sizeof big));
	s = sc_toolchain_name(big, sizeof big - 1);
	ck_assert_uint_eq(strlen(s), SC_MAX_TOOLCHAIN_BYTES);
	free(s);
}
END_TEST

START_TEST(regular_mode_only)
{
	ck_assert(sc_is_regular_mode(0100644u));
	ck_assert(sc_is_regular_mode(0100755u));
	ck_assert(!sc_is_regular_mode(0120000u));
	ck_assert(!sc_is_regular_mode(0160000u));
	ck_assert(!sc_is_regular_mode(040000u));
}
END_TEST

START_TEST(plan_digest_is_sha256_of_exact_bytes)
{
	char hex[65];
	sc_plan_digest("abc", 3, hex);
	ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	sc_plan_digest("abc\n", 4, hex);
	ck_assert_str_ne(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}
END_TEST

static void needs(const struct sc_plan *p, const char *path, const char *want)
{
	char *why = sc_plan_needs_sources(p, path);
	if (!want) {
		ck_assert_ptr_null(why);
		return;
	}
	ck_assert_ptr_nonnull(why);
	ck_assert_str_eq(why, want);
	free(why);
}

START_TEST(links_refused_where_sources_are_needed)
{
	char *lib[] = {"Lib"}, *road[] = {"Lib/Road"};
	struct sc_plan p = {.library = lib, .n_library = 1, .roadmap = road, .n_roadmap = 1};
	needs(&p, "lakefile.toml", "a Lake configuration file");
	needs(&p, "lean-toolchain", "a Lake configuration file");
	needs(&p, "sub/lakefile.toml", NULL);
	needs(&p, "Lib", "at or inside library root 'Lib'");
	needs(&p, "Lib.lean", "under a library root");
	needs(&p, "Lib/X.lean", "under a library root");
	needs(&p, "Lib/X", "at or inside library root 'Lib'");
	needs(&p, "Lib/Road/X.lean", "under a roadmap root");
	needs(&p, "Other/X.lean", NULL);
	needs(&p, "Libx", NULL);
	p.library = NULL, p.n_library = 0;
	needs(&p, "Lib", "above roadmap root 'Lib/Road'");
	p.source_dir = "src";
	needs(&p, "Lib/Road", NULL);
	needs(&p, "src", "above roadmap root 'src/Lib/Road'");
	needs(&p, "src/Lib/Road/A.lean", "under a roadmap root");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("planner");
	TCase *tc = tcase_create("planner");
	tcase_add_test(tc, merge_base_exactly_one);
	tcase_add_test(tc, merge_base_refusals);
	tcase_add_test(tc, lake_configuration_equal_or_named_change);
	tcase_add_test(tc, toolchain_one_printable_token);
	tcase_add_test(tc, regular_mode_only);
	tcase_add_test(tc, plan_digest_is_sha256_of_exact_bytes);
	tcase_add_test(tc, links_refused_where_sources_are_needed);
	suite_add_tcase(s, tc);
	return sc_unit_run(s);
}
