/* Unit tests for common/sandbox/sandbox_args: the sandbox's command line holds
 * every rule of DESIGN.md's "The sandbox holds against hostile code"
 * (some, like --clearenv, no end-to-end test can see: the host already
 * starts GNU time with an empty environment). */
#include "unit_main.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sandbox/sandbox_args.h"

static struct sc_argv a = SC_ARGV_INIT;

static void build(void)
{
	struct sc_sandbox sb = {.bwrap = "/usr/bin/bwrap", .init = "/opt/sc/sc-init", .tree = "/w/head",
	                        .toolchain = "/tc", .deps = "/deps", .report_fd = 7, .uid = 65534,
	                        .gid = 65533, .tmp_size = 1u << 20};
	sc_argv_release(&a);
	sc_sandbox_bwrap_argv(&sb, &a);
}

/* Index of the run of words in the argv, or -1. */
static int find(const char *const *words)
{
	for (int i = 0; a.v[i]; i++) {
		int j = 0;
		while (words[j] && a.v[i + j] && strcmp(a.v[i + j], words[j]) == 0)
			j++;
		if (!words[j])
			return i;
	}
	return -1;
}

#define HAS(...) ck_assert_int_ge(find((const char *const[]){__VA_ARGS__, NULL}), 0)

START_TEST(host_step_then_bwrap)
{
	build();
	const char *const head[] = {"/opt/sc/sc-init", "--host", "65534", "65533", "7", "--",
	                            "/usr/bin/bwrap", NULL};
	ck_assert_int_eq(find(head), 0);
	HAS("--", "/sc-init", "7");
}
END_TEST

START_TEST(isolation_rules)
{
	build();
	HAS("--clearenv");
	HAS("--unshare-all");
	HAS("--unshare-user");
	HAS("--disable-userns");
	HAS("--cap-drop", "ALL");
	HAS("--die-with-parent");
	HAS("--new-session");
	HAS("--as-pid-1");
	HAS("--setenv", "GIT_CONFIG_COUNT", "3");
	HAS("--setenv", "GIT_CONFIG_KEY_0", "safe.directory");
	HAS("--setenv", "GIT_CONFIG_VALUE_0", "*");
	HAS("--setenv", "GIT_CONFIG_KEY_1", "core.checkStat");
	HAS("--setenv", "GIT_CONFIG_VALUE_1", "minimal");
	HAS("--setenv", "GIT_CONFIG_KEY_2", "core.trustctime");
	HAS("--setenv", "GIT_CONFIG_VALUE_2", "false");
	/* Lake: no release caches; the artifact cache off, in a folder of
	 * the sandbox's own (no --cache here) */
	HAS("--setenv", "LAKE_NO_CACHE", "1");
	HAS("--setenv", "LAKE_ARTIFACT_CACHE", "false");
	HAS("--setenv", "LAKE_RESTORE_ARTIFACTS", "false");
	HAS("--setenv", "LAKE_CACHE_DIR", "/tmp/lake-cache");
	HAS("--perms", "1777", "--size", "1048576", "--tmpfs", "/tmp");
	HAS("--ro-bind", "/tc", "/toolchain");
	HAS("--ro-bind", "/deps", "/project/.lake/packages");
	HAS("--bind", "/w/head", "/project");
	HAS("--ro-bind", "/opt/sc/sc-init", "/sc-init");
	/* /proc as runc masks it, wherever this kernel has the entry */
	struct stat st;
	if (stat("/proc/sys", &st) == 0)
		HAS("--ro-bind", "/proc/sys", "/proc/sys");
	if (stat("/proc/keys", &st) == 0)
		HAS("--bind", "/dev/null", "/proc/keys");
	if (stat("/proc/acpi", &st) == 0)
		HAS("--tmpfs", "/proc/acpi", "--remount-ro", "/proc/acpi");
	/* the masks come after /proc is mounted */
	ck_assert_int_lt(find((const char *const[]){"--proc", "/proc", NULL}),
	                 find((const char *const[]){"--ro-bind", "/proc/sys", "/proc/sys", NULL}));
}
END_TEST

START_TEST(sandbox_user_and_tmp_size)
{
	struct strbuf err = STRBUF_INIT;
	unsigned uid, gid;
	unsigned long long bytes;
	if (geteuid() == 0) {
		ck_assert_int_eq(sc_sandbox_user(NULL, &uid, &gid, &err), 0);
		ck_assert_uint_ne(uid, 0);
		ck_assert_int_eq(sc_sandbox_user("4242:4243", &uid, &gid, &err), 0);
		ck_assert_uint_eq(uid, 4242);
		ck_assert_uint_eq(gid, 4243);
	} else {
		ck_assert_int_eq(sc_sandbox_user(NULL, &uid, &gid, &err), 0);
		ck_assert_uint_eq(uid, getuid());
		ck_assert_int_eq(sc_sandbox_user("4242:4243", &uid, &gid, &err), -1);
	}
	const char *bad[] = {"root", "0:0", "5:0", "x:1", "1:", ":1", "1:2:3", "99999999999:1", NULL};
	for (const char **b = bad; *b; b++)
		ck_assert_int_eq(sc_sandbox_user(*b, &uid, &gid, &err), -1);
	sb_release(&err);
	ck_assert_int_eq(sc_sandbox_tmp_size("1G", &bytes), 0);
	ck_assert_uint_eq(bytes, 1ull << 30);
	ck_assert_int_eq(sc_sandbox_tmp_size("64M", &bytes), 0);
	ck_assert_uint_eq(bytes, 64ull << 20);
	ck_assert_int_eq(sc_sandbox_tmp_size("1048576", &bytes), 0);
	const char *bad_size[] = {"", "0", "1K", "1048575", "12X", "G", "-1G", "1.5G", NULL};
	for (const char **b = bad_size; *b; b++)
		ck_assert_int_eq(sc_sandbox_tmp_size(*b, &bytes), -1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sandbox_args");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, host_step_then_bwrap);
	tcase_add_test(tc, isolation_rules);
	tcase_add_test(tc, sandbox_user_and_tmp_size);
	suite_add_tcase(s, tc);
	return sc_unit_run(s);
}
