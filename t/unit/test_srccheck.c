/* Unit tests for common/git/srccheck: the selected source against its blob,
 * opened beneath the tree without following links or blocking.  Natively
 * this runs the openat2 path; under valgrind (make check-valgrind), which
 * has no openat2, the component-by-component fallback. */
#include "unit_main.h"
#include "unit_tmp.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "git/srccheck.h"

#define HELLO_SHA1 "ce013625030ba8dba906f756967f9e9ca394464a"
#define HELLO_SHA256 "2cf8d83d9ee29543b34a87727421fdecb7e3f3a183d337639025de576db9ebb4"

static const char *dir = "";

static void put(const char *rel, const char *text)
{
	char p[256];
	snprintf(p, sizeof p, "%s/%s", dir, rel);
	FILE *f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void mk_tree(void)
{
	dir = sc_unit_tmp_make("srccheck");
	char p[256];
	snprintf(p, sizeof p, "%s/Demo", dir);
	ck_assert_int_eq(mkdir(p, 0755), 0);
	put("Demo/A.lean", "hello\n");
}

static int check(const char *rel, const char *oid, char *why, size_t n)
{
	struct strbuf w = STRBUF_INIT;
	int r = sc_source_is_blob(dir, rel, oid, &w);
	snprintf(why, n, "%s", w.buf);
	sb_release(&w);
	return r;
}

START_TEST(blob_matches_in_both_formats)
{
	char why[128];
	mk_tree();
	ck_assert_int_eq(check("Demo/A.lean", HELLO_SHA1, why, sizeof why), 1);
	ck_assert_int_eq(check("Demo/A.lean", HELLO_SHA256, why, sizeof why), 1);
	put("Demo/A.lean", "hellO\n");
	ck_assert_int_eq(check("Demo/A.lean", HELLO_SHA1, why, sizeof why), 0);
	ck_assert_str_eq(why, "content differs");
	ck_assert_int_eq(check("Demo/A.lean", HELLO_SHA256, why, sizeof why), 0);
	ck_assert_int_eq(check("Demo/A.lean", "CE013625030BA8DBA906F756967F9E9CA394464A", why, sizeof why), 0);
	ck_assert_int_eq(check("Demo/Missing.lean", HELLO_SHA1, why, sizeof why), 0);
	ck_assert_str_eq(why, "it is missing");
}
END_TEST

START_TEST(links_fifos_and_escapes_are_refused)
{
	char why[128], p[256], q[256];
	mk_tree();
	put("Elsewhere.lean", "hello\n");
	/* a link at the file and a link on its path, both to the right bytes */
	snprintf(p, sizeof p, "%s/Demo/L.lean", dir);
	ck_assert_int_eq(symlink("../Elsewhere.lean", p), 0);
	ck_assert_int_eq(check("Demo/L.lean", HELLO_SHA1, why, sizeof why), 0);
	ck_assert_str_eq(why, "a link on its path");
	snprintf(p, sizeof p, "%s/Via", dir);
	ck_assert_int_eq(symlink("Demo", p), 0);
	ck_assert_int_eq(check("Via/A.lean", HELLO_SHA1, why, sizeof why), 0);
	ck_assert_str_eq(why, "a link on its path");
	/* out of the tree */
	ck_assert_int_eq(check("../x", HELLO_SHA1, why, sizeof why), 0);
	snprintf(q, sizeof q, "%s/Demo/A.lean", dir);
	ck_assert_int_eq(check(q, HELLO_SHA1, why, sizeof why), 0);
	/* a FIFO nobody writes: must answer at once, not block */
	snprintf(p, sizeof p, "%s/Demo/F.lean", dir);
	ck_assert_int_eq(mkfifo(p, 0644), 0);
	ck_assert_int_eq(check("Demo/F.lean", HELLO_SHA1, why, sizeof why), 0);
	ck_assert_str_eq(why, "not a regular file");
	ck_assert_int_eq(check("Demo", HELLO_SHA1, why, sizeof why), 0);
	ck_assert_str_eq(why, "not a regular file");
	ck_assert_int_eq(check("Demo/A.lean", "ce0136", why, sizeof why), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("srccheck");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 10);
	tcase_add_checked_fixture(tc, NULL, sc_unit_tmp_remove);
	tcase_add_test(tc, blob_matches_in_both_formats);
	tcase_add_test(tc, links_fifos_and_escapes_are_refused);
	suite_add_tcase(s, tc);
	return sc_unit_run(s);
}
