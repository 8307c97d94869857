/* The bwrap command line of common/sandbox_args, where no end-to-end test
 * can see a rule: GNU time already starts bwrap with an empty environment,
 * so bwrap's own --clearenv shows only here.  It is the second wall: if the
 * host ever passed an environment on, the candidate must still get none. */
#include "unit_main.h"
#include <check.h>
#include <string.h>

#include "sandbox_args.h"

static const char BWRAP[] = "/usr/bin/bwrap";

/* Index of the first s in a->v[from, to), or -1. */
static long find(const struct sc_argv *a, size_t from, size_t to, const char *s)
{
	for (size_t i = from; i < to && i < a->n; i++)
		if (strcmp(a->v[i], s) == 0)
			return (long)i;
	return -1;
}

START_TEST(bwrap_clears_the_environment_before_setting_path_and_home)
{
	struct sc_sandbox sb = {.bwrap = BWRAP, .init = "/opt/sc/sc-init", .tree = "/w/tree",
	                        .toolchain = "/w/toolchain", .deps = "/w/deps", .report_fd = 5};
	struct sc_argv a = SC_ARGV_INIT;
	sc_sandbox_bwrap_argv(&sb, &a);
	/* bwrap's options: from the bwrap binary to the "--" before sc-init */
	long start = find(&a, 0, a.n, BWRAP);
	ck_assert_int_ge(start, 0);
	long end = find(&a, (size_t)start, a.n, "--");
	ck_assert_int_gt(end, start);
	ck_assert_str_eq(a.v[end + 1], SC_SANDBOX_INIT);
	long clear = find(&a, (size_t)start, (size_t)end, "--clearenv");
	ck_assert_int_gt(clear, start);
	/* bwrap applies options in order: a --setenv before --clearenv
	 * would be wiped */
	long set = find(&a, (size_t)start, (size_t)end, "--setenv");
	ck_assert_int_gt(set, clear);
	ck_assert_int_eq(find(&a, (size_t)start, (size_t)clear, "--setenv"), -1);
	sc_argv_release(&a);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sandbox_args");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, bwrap_clears_the_environment_before_setting_path_and_home);
	suite_add_tcase(s, tc);
	return sc_unit_run(s);
}
