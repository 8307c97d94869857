/* Unit tests for common/sandbox/sandbox_args: the sandbox's command line holds
 * every rule of Documentation/threat-model.txt "The sandbox holds against hostile code"
 * (some, like --clearenv, no end-to-end test can see: the host already
 * starts GNU time with an empty environment). */
#include "unit_main.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandbox/dynuser.h"
#include "sandbox/sandbox_args.h"
#include "sandbox/user.h"

static struct sc_argv a = SC_ARGV_INIT;

static void build_probe(const char *probe)
{
	static const char *const sealed[] = {".lake/config", NULL};
	struct sc_sandbox sb = {.bwrap = "/usr/bin/bwrap", .init = "/opt/sc/sc-pid1",
	                        .host_step = "/opt/sc/sc-confine", .probe = probe, .tree = "/w/head",
	                        .toolchain = "/tc", .deps = "/deps", .report_fd = 7, .uid = 65534,
	                        .gid = 65533, .tmp_size = 1u << 20, .seccomp_fd = 9,
	                        .sealed = sealed};
	sc_argv_release(&a);
	sc_sandbox_bwrap_argv(&sb, &a);
}

static void build(void)
{
	build_probe(NULL);
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
	const char *const head[] = {"/opt/sc/sc-confine", "--uid", "65534", "--gid", "65533",
	                            "--max-procs", "4096", "--tmpfs-size", "1048576", "--tmpfs-inodes",
	                            "1024", "--keep-fd", "7", "--keep-fd", "9", "--",
	                            "/usr/bin/bwrap", NULL};
	ck_assert_int_eq(find(head), 0);
	HAS("--", "/sc-pid1", "7");
	/* the self-test's probe is mounted only when there is one */
	ck_assert_int_lt(find((const char *const[]){"/sc-sandbox-probe", NULL}), 0);
	build_probe("/opt/sc/sc-sandbox-probe");
	HAS("--ro-bind", "/opt/sc/sc-sandbox-probe", "/sc-sandbox-probe");
}
END_TEST

/* The seccomp filter handed to bwrap; every writable tmpfs
 * bounded; /dev and / read-only, each after what is mounted in it. */
START_TEST(sealed_rules)
{
	build();
	HAS("--seccomp", "9");
	/* /tmp and /dev/shm are the host step's tmpfs, bounded in bytes and
	 * inodes (bwrap's --tmpfs bounds no inode) */
	HAS("--bind", "/sys/shm", "/dev/shm");
	int dev = find((const char *const[]){"--dev", "/dev", NULL});
	int shm = find((const char *const[]){"--bind", "/sys/shm", "/dev/shm", NULL});
	int dev_ro = find((const char *const[]){"--remount-ro", "/dev", NULL});
	int root_ro = find((const char *const[]){"--remount-ro", "/", NULL});
	int last_bind = find((const char *const[]){"--ro-bind", "/opt/sc/sc-pid1", "/sc-pid1", NULL});
	ck_assert_int_ge(dev, 0);
	ck_assert_int_lt(dev, shm);
	ck_assert_int_lt(shm, dev_ro);
	ck_assert_int_lt(last_bind, root_ro);
	/* no --tmpfs but /proc's read-only masks and the empty /dev/pts,
	 * each remounted read-only right after */
	for (int i = 0; a.v[i]; i++)
		if (strcmp(a.v[i], "--tmpfs") == 0) {
			ck_assert_str_eq(a.v[i + 2], "--remount-ro");
			ck_assert_str_eq(a.v[i + 3], a.v[i + 1]);
		}
}
END_TEST

/* Open files per process: all the processes together hold at most half
 * the kernel's file table, within the floor and the ceiling. */
START_TEST(max_files)
{
	ck_assert_uint_eq(sc_sandbox_max_files(2466246, 4096), 301);
	ck_assert_uint_eq(sc_sandbox_max_files(9223372036854775807ull, 4096), 1024);
	ck_assert_uint_eq(sc_sandbox_max_files(8192, 4096), 256);
	ck_assert_uint_eq(sc_sandbox_max_files(2466246, 0), 1024);
	ck_assert_uint_le(301ull * 4096, 2466246 / 2);
}
END_TEST

/* No pseudo-terminal: /dev/pts is an empty read-only tmpfs, bounded. */
START_TEST(no_pty)
{
	build();
	HAS("--perms", "0555", "--size", "4096", "--tmpfs", "/dev/pts");
	int pts = find((const char *const[]){"--tmpfs", "/dev/pts", NULL});
	int pts_ro = find((const char *const[]){"--remount-ro", "/dev/pts", NULL});
	int dev_ro = find((const char *const[]){"--remount-ro", "/dev", NULL});
	ck_assert_int_lt(pts, pts_ro);
	ck_assert_int_lt(pts_ro, dev_ro);
}
END_TEST

START_TEST(max_procs)
{
	unsigned n;
	struct strbuf why = STRBUF_INIT;
	ck_assert_int_eq(sc_sandbox_max_procs("8", &n, &why), 0);
	ck_assert_uint_eq(n, 8);
	ck_assert_int_eq(sc_sandbox_max_procs("4194304", &n, &why), 0);
	ck_assert_uint_eq(why.len, 0);
	const char *bad[] = {"", "0", "7", "4194305", "-1", "1e3", "12x", "99999999999", NULL};
	for (const char **b = bad; *b; b++) {
		sb_reset(&why);
		ck_assert_int_eq(sc_sandbox_max_procs(*b, &n, &why), -1);
		ck_assert_str_eq(why.buf, "wants a count from 8 to 4194304");
	}
	sb_release(&why);
}
END_TEST

/* From one start, a second run skips the uid the first holds (its lock),
 * and both skip uids that processes hold. */
START_TEST(dynuser_lock)
{
	if (geteuid() != 0)
		return;
	struct strbuf err = STRBUF_INIT;
	unsigned start = (unsigned)getpid() * 7u, first, second;
	ck_assert_int_eq(sc_dynuser_acquire_at(start, &first, &err), 0);
	ck_assert_int_eq(sc_dynuser_acquire_at(start, &second, &err), 0);
	ck_assert_uint_ne(first, second);
	ck_assert_uint_ge(first, SC_DYNUSER_FIRST);
	ck_assert_uint_le(second, SC_DYNUSER_LAST);
	sb_release(&err);
}
END_TEST

/* A uid a process runs as is in use (and skipped by the allocation), a
 * fresh one is not. */
START_TEST(dynuser_in_use)
{
	if (geteuid() != 0)
		return;
	struct strbuf err = STRBUF_INIT;
	unsigned u;
	ck_assert_int_eq(sc_dynuser_acquire(&u, &err), 0);
	ck_assert_int_eq(sc_dynuser_in_use(u), 0);
	int go[2];
	ck_assert_int_eq(pipe(go), 0);
	pid_t p = fork();
	if (p == 0) {
		char c;
		if (setresuid(u, u, u) == 0) {
			close(go[1]);
			if (read(go[0], &c, 1) < 0)
				_exit(1);
		}
		_exit(0);
	}
	close(go[0]);
	/* the child becomes u at some point: until then, retry */
	int seen = 0;
	for (int i = 0; i < 100000 && !seen; i++)
		seen = sc_dynuser_in_use(u) == 1;
	close(go[1]);
	waitpid(p, NULL, 0);
	ck_assert(seen);
	ck_assert_int_eq(sc_dynuser_in_use(u), 0);
	sb_release(&err);
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
	HAS("--bind", "/sys/tmp", "/tmp");
	HAS("--ro-bind", "/tc", "/toolchain");
	HAS("--ro-bind", "/deps", "/project/.lake/packages");
	/* the tree read-only, its .lake writable on top, the sealed configuration
	 * read-only on that, the dependencies last */
	HAS("--ro-bind", "/w/head", "/project");
	ck_assert_int_lt(find((const char *const[]){"--bind", "/w/head", "/project", NULL}), 0);
	HAS("--bind", "/w/head/.lake", "/project/.lake");
	HAS("--ro-bind", "/w/head/.lake/config", "/project/.lake/config");
	ck_assert_int_lt(find((const char *const[]){"--ro-bind", "/w/head", "/project", NULL}),
	                 find((const char *const[]){"--bind", "/w/head/.lake", "/project/.lake", NULL}));
	ck_assert_int_lt(find((const char *const[]){"--bind", "/w/head/.lake", "/project/.lake", NULL}),
	                 find((const char *const[]){"--ro-bind", "/w/head/.lake/config", NULL}));
	ck_assert_int_lt(find((const char *const[]){"--ro-bind", "/w/head/.lake/config", NULL}),
	                 find((const char *const[]){"--ro-bind", "/deps", NULL}));
	HAS("--ro-bind", "/opt/sc/sc-pid1", "/sc-pid1");
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
		ck_assert_uint_ge(uid, SC_DYNUSER_FIRST);
		ck_assert_uint_le(uid, SC_DYNUSER_LAST);
		ck_assert_uint_eq(gid, uid);
		/* held: the next one is another */
		unsigned uid2, gid2;
		ck_assert_int_eq(sc_sandbox_user(NULL, &uid2, &gid2, &err), 0);
		ck_assert_uint_ne(uid2, uid);
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
	sb_reset(&err);
	ck_assert_int_eq(sc_sandbox_tmp_size("1G", &bytes, &err), 0);
	ck_assert_uint_eq(bytes, 1ull << 30);
	ck_assert_int_eq(sc_sandbox_tmp_size("64M", &bytes, &err), 0);
	ck_assert_uint_eq(bytes, 64ull << 20);
	ck_assert_int_eq(sc_sandbox_tmp_size("1048576", &bytes, &err), 0);
	ck_assert_uint_eq(err.len, 0);
	const char *bad_size[] = {"", "0", "1K", "1048575", "12X", "G", "-1G", "1.5G", NULL};
	for (const char **b = bad_size; *b; b++) {
		sb_reset(&err);
		ck_assert_int_eq(sc_sandbox_tmp_size(*b, &bytes, &err), -1);
		ck_assert_str_eq(err.buf, "wants bytes (K, M, G suffixes allowed), at least 1M");
	}
	sb_release(&err);
	/* inodes of a bounded tmpfs: one per 16 KiB, at least 1024 */
	ck_assert_uint_eq(sc_sandbox_tmp_inodes(1u << 20), 1024);
	ck_assert_uint_eq(sc_sandbox_tmp_inodes(1u << 30), 65536);
	ck_assert_uint_eq(sc_sandbox_tmp_inodes(1ull << 60), 0xfffffffeu);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sandbox_args");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, host_step_then_bwrap);
	tcase_add_test(tc, isolation_rules);
	tcase_add_test(tc, sandbox_user_and_tmp_size);
	tcase_add_test(tc, sealed_rules);
	tcase_add_test(tc, max_procs);
	tcase_add_test(tc, max_files);
	tcase_add_test(tc, no_pty);
	tcase_add_test(tc, dynuser_in_use);
	tcase_add_test(tc, dynuser_lock);
	suite_add_tcase(s, tc);
	return sc_unit_run(s);
}
