/* Unit tests for common/sandbox/seccomp: the BPF compiled at build time is
 * what libseccomp makes of the rule table now (a table edited without a
 * rebuild, or a libseccomp that compiles it otherwise, fails here), and the
 * descriptor bwrap gets holds exactly those bytes, sealed. */
#include "unit_main.h"
#include "sandbox/seccomp.h"
#include "sandbox/seccomp_rules.h"

#include <fcntl.h>
#include <linux/filter.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* What libseccomp exports for the rule table, read back (allocated). */
static unsigned char *exported(size_t *len)
{
	scmp_filter_ctx c = sc_seccomp_rules();
	ck_assert_ptr_nonnull(c);
	int fd = memfd_create("t-seccomp", MFD_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(seccomp_export_bpf(c, fd), 0);
	seccomp_release(c);
	off_t end = lseek(fd, 0, SEEK_END);
	ck_assert_int_gt(end, 0);
	unsigned char *buf = malloc((size_t)end);
	ck_assert_int_eq(pread(fd, buf, (size_t)end, 0), end);
	close(fd);
	*len = (size_t)end;
	return buf;
}

START_TEST(the_built_filter_is_what_libseccomp_makes_of_the_rules)
{
	size_t have_len, want_len;
	const unsigned char *have = sc_seccomp_filter(&have_len);
	unsigned char *want = exported(&want_len);
	ck_assert_uint_eq(have_len, want_len);
	ck_assert_uint_eq(have_len % sizeof(struct sock_filter), 0);
	ck_assert(memcmp(have, want, want_len) == 0);
	free(want);
}
END_TEST

START_TEST(the_descriptor_holds_the_filter_sealed_at_offset_0)
{
	struct strbuf err = STRBUF_INIT;
	int fd = sc_seccomp_filter_fd(&err);
	ck_assert_msg(fd >= 0, "%s", err.buf);
	ck_assert_int_eq(lseek(fd, 0, SEEK_CUR), 0);
	/* bwrap inherits it */
	ck_assert_int_eq(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0);
	int seals = fcntl(fd, F_GET_SEALS);
	int want = F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL;
	ck_assert_int_eq(seals & want, want);
	size_t len;
	const unsigned char *bpf = sc_seccomp_filter(&len);
	unsigned char buf[65536];
	ck_assert_uint_lt(len, sizeof buf);
	ck_assert_int_eq(read(fd, buf, sizeof buf), (ssize_t)len);
	ck_assert(memcmp(buf, bpf, len) == 0);
	ck_assert_int_lt(write(fd, "x", 1), 0);
	close(fd);
	sb_release(&err);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("seccomp");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, the_built_filter_is_what_libseccomp_makes_of_the_rules);
	tcase_add_test(tc, the_descriptor_holds_the_filter_sealed_at_offset_0);
	suite_add_tcase(s, tc);
	return sc_unit_run(s);
}
