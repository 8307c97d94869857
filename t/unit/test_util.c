/* util/: the strbuf that is never NULL and the option table every program
 * parses with. */
#include "util/suggest.h"
#include "unit_main.h"
#include "util/decimal.h"
#include "util/die.h"
#include "util/options.h"
#include "util/rmtree.h"
#include "util/spawn.h"
#include "util/seconds.h"
#include "util/strbuf.h"

#include "unit_tmp.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>
#include <stdarg.h>
#include <string.h>

START_TEST(strbuf_never_null)
{
	struct strbuf sb = STRBUF_INIT;
	ck_assert_ptr_nonnull(sb.buf);
	ck_assert_str_eq(sb.buf, "");
	sb_reset(&sb);
	sb_chomp(&sb);
	ck_assert_str_eq(sb.buf, "");
	sb_adds(&sb, "x\n");
	sb_chomp(&sb);
	ck_assert_str_eq(sb.buf, "x");
	sb_release(&sb);
	ck_assert_ptr_nonnull(sb.buf);
	ck_assert_uint_eq(sb.len, 0);
	char *p = sb_detach(&sb, NULL);
	ck_assert_str_eq(p, "");
	ck_assert_ptr_ne(p, sc_strbuf_slopbuf); /* the caller may free it */
	free(p);
	struct strbuf zeroed;
	memset(&zeroed, 0, sizeof zeroed);
	sb_init(&zeroed);
	ck_assert_str_eq(zeroed.buf, "");
	sb_release(&zeroed);
}
END_TEST

static const char *repo, *head, *tree, *pin[2];
static int quiet;
static struct sc_argv files, forwarded;
static unsigned even;

/* A CALLBACK option's check: an even number. */
static int check_even(void *target, const char *arg, struct strbuf *why)
{
	unsigned long v = strtoul(arg, NULL, 10);
	if (!*arg || v % 2) {
		sb_adds(why, "wants an even number");
		return -1;
	}
	*(unsigned *)target = (unsigned)v;
	return 0;
}

static const struct sc_option opts[] = {
	SC_OPT_REQUIRED_STRING(0, "repo", &repo, "DIR", "the repository"),
	SC_OPT_STRING(0, "head", &head, "H", "the head"),
	SC_OPT_STRING(0, "hello", &head, "X", "a name sharing a prefix"),
	SC_OPT_BOOL('q', "quiet", &quiet, "say less"),
	SC_OPT_LIST_F("samples", &files, "FILE", "samples", 0),
	SC_OPT_ARGS("pin", pin, 2, "SHA VERSION", "two values"),
	SC_OPT_STRING_F(0, "tree", &tree, "DIR", "required in one mode only", SC_OPT_MODE),
	SC_OPT_CALLBACK("even", &even, "N", "checked as it is parsed", check_even),
	SC_OPT_PASSTHRU("merge-of", &forwarded, "P", "forwarded, unread"),
	SC_OPT_PASSTHRU("importers", &forwarded, "N", "forwarded, unread"),
	SC_OPT_END(),
};
static const char *const usage[] = {"usage: t --repo DIR", NULL};
static const struct sc_command cmd = {usage, NULL};

static int parse(int flags, ...)
{
	char *argv[32] = {"t"};
	int argc = 1;
	va_list ap;
	va_start(ap, flags);
	for (char *a; (a = va_arg(ap, char *));)
		argv[argc++] = a;
	va_end(ap);
	repo = head = tree = pin[0] = pin[1] = NULL;
	quiet = 0;
	even = 0;
	sc_argv_release(&files);
	sc_argv_release(&forwarded);
	return sc_parse_options(argc, argv, opts, &cmd, flags);
}

START_TEST(options_values_prefixes_lists)
{
	ck_assert_int_eq(parse(SC_PARSE_NO_ARGS, "--repo", "r", "--hea=h", "-q", NULL), 5);
	ck_assert_str_eq(repo, "r");
	ck_assert_str_eq(head, "h");
	ck_assert_int_eq(quiet, 1);
	ck_assert_int_eq(parse(SC_PARSE_NO_ARGS, "--repo=r", "--samples", "a", "b", "--samples=c",
	                       "--pin", "s", "v", NULL), 9);
	ck_assert_uint_eq(files.n, 3);
	ck_assert_str_eq(files.v[2], "c");
	ck_assert_str_eq(pin[1], "v");
	/* options stop at "--" or at the first other argument */
	ck_assert_int_eq(parse(SC_PARSE_ARGS, "--repo", "r", "--", "--quiet", NULL), 4);
	ck_assert_int_eq(quiet, 0);
	ck_assert_int_eq(parse(SC_PARSE_ARGS, "--repo", "r", "cmd", "--quiet", NULL), 3);
	/* a value may start with a dash, as getopt allows */
	parse(SC_PARSE_NO_ARGS, "--repo", "-x", NULL);
	ck_assert_str_eq(repo, "-x");
}
END_TEST

/* A CALLBACK option's value is checked as it is read, once for every
 * program; a PASSTHRU option is forwarded as given, flag first, in the
 * order given. */
START_TEST(options_checked_and_passed_through)
{
	ck_assert_int_eq(parse(SC_PARSE_NO_ARGS, "--repo", "r", "--even", "42", "--importers=7",
	                       "--merge-of", "abc", NULL), 8);
	ck_assert_uint_eq(even, 42);
	ck_assert_uint_eq(forwarded.n, 4);
	ck_assert_str_eq(forwarded.v[0], "--importers");
	ck_assert_str_eq(forwarded.v[1], "7");
	ck_assert_str_eq(forwarded.v[2], "--merge-of");
	ck_assert_str_eq(forwarded.v[3], "abc");
	ck_assert_ptr_null(forwarded.v[4]);
}
END_TEST

START_TEST(errno_input_or_system)
{
	const int input[] = {ENOENT, ENOTDIR, EACCES, EPERM, ENAMETOOLONG, ELOOP, EROFS};
	const int system[] = {ENOSPC, EDQUOT, EIO, ENOMEM};
	for (size_t i = 0; i < sizeof input / sizeof *input; i++)
		ck_assert_msg(sc_errno_is_input(input[i]), "errno %d", input[i]);
	for (size_t i = 0; i < sizeof system / sizeof *system; i++)
		ck_assert_msg(!sc_errno_is_input(system[i]), "errno %d", system[i]);
}
END_TEST

START_TEST(path_errno_input)
{
	errno = ENOENT;
	sc_die_path_errno("cannot create x (%s)", "/nope");
}
END_TEST

START_TEST(path_errno_system)
{
	errno = ENOSPC;
	sc_die_path_errno("cannot create x (%s)", "/full");
}
END_TEST

/* Documentation/threat-model.txt "The fourth round": whatever a
 * candidate's name holds, a printed line stays one line and carries no
 * control byte; "::" and "%" pass, harmless after the line's own prefix. */
START_TEST(every_printed_line_quoted)
{
	static const char hostile[] = "Demo/x\r::warning::forged 100%\n\x1b[2J\tend\x7f";
	char out[256];
	sc_quote_line(hostile, sizeof hostile - 1, out, sizeof out);
	ck_assert_str_eq(out, "Demo/x ::warning::forged 100% \\x1b[2J end\\x7f");
	/* a stream gets the same, with its prefix first */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	sc_say(f, "[3/7] ", "head %s: failed", hostile);
	static const char stage[] = "one\x1b]0;title\x07\ntwo\r\n";
	sc_forward_lines(f, stage, sizeof stage - 1);
	fclose(f);
	ck_assert_str_eq(buf, "[3/7] head Demo/x ::warning::forged 100% \\x1b[2J end\\x7f: failed\n"
	                      "one\\x1b]0;title\\x07\ntwo \n");
	free(buf);
}
END_TEST

/* sc-sandbox-exec's --timeout and profile-run's three timeouts. */
/* An array a candidate's input fills one element at a time is grown a
 * handful of times, never once per element (n^2 bytes copied). */
START_TEST(arrays_grow_by_doubling)
{
	int *v = NULL;
	size_t alloc = 0, grown = 0;
	for (size_t n = 0; n < 100000; n++) {
		size_t before = alloc;
		v = xgrow(v, n, &alloc, sizeof *v);
		grown += alloc != before;
		ck_assert_uint_gt(alloc, n);
		v[n] = (int)n;
	}
	ck_assert_uint_le(grown, 16);
	ck_assert_int_eq(v[99999], 99999);
	free(v);
}
END_TEST

START_TEST(seconds_between_zero_and_a_day)
{
	double v = -1;
	ck_assert_int_eq(sc_parse_seconds("1", &v), 0);
	ck_assert_double_eq_tol(v, 1, 1e-9);
	ck_assert_int_eq(sc_parse_seconds("0.25", &v), 0);
	ck_assert_double_eq_tol(v, 0.25, 1e-9);
	ck_assert_int_eq(sc_parse_seconds("5", &v), 0);
	ck_assert(v == 5.0);
	ck_assert_int_eq(sc_parse_seconds("0.5", &v), 0);
	ck_assert(v == 0.5);
	ck_assert_int_eq(sc_parse_seconds("86400", &v), 0);
	ck_assert_double_eq_tol(v, 86400, 1e-9);
	const char *bad[] = {"0", "-1", "-3", "86400.5", "abc", "", "5x", "5s", "inf", "nan",
	                     "1e400", "1e999", " "};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		v = 7;
		ck_assert_msg(sc_parse_seconds(bad[i], &v) < 0, "accepted '%s'", bad[i]);
		ck_assert_double_eq_tol(v, 7, 1e-9);
	}
}
END_TEST

/* A mode's required options: not the parser's business, the mode's. */
START_TEST(mode_required_given)
{
	parse(SC_PARSE_NO_ARGS, "--repo", "r", NULL);
	ck_assert_ptr_null(tree);
	parse(SC_PARSE_NO_ARGS, "--repo", "r", "--tree", "t", NULL);
	sc_options_require(opts, SC_OPT_MODE);
	ck_assert_str_eq(tree, "t");
}
END_TEST

START_TEST(mode_required_missing)
{
	parse(SC_PARSE_NO_ARGS, "--repo", "r", NULL);
	sc_options_require(opts, SC_OPT_MODE);
}
END_TEST

#define DIES(name, ...)                              \
	START_TEST(name) { parse(SC_PARSE_NO_ARGS, __VA_ARGS__, NULL); } \
	END_TEST
DIES(dies_twice, "--repo", "r", "--repo", "s")
DIES(dies_twice_bool, "--repo", "r", "-q", "--quiet")
DIES(dies_ambiguous, "--repo", "r", "--he", "x")
DIES(dies_unknown, "--repo", "r", "--bogus")
DIES(dies_unknown_short, "--repo", "r", "-z")
DIES(dies_missing_value, "--repo")
DIES(dies_bool_value, "--repo", "r", "--quiet=1")
DIES(dies_missing_required, "--head", "h")
DIES(dies_empty_required, "--repo=")
DIES(dies_stray, "--repo", "r", "extra")
DIES(dies_list_empty, "--repo", "r", "--samples", "--quiet")
DIES(dies_args_short, "--repo", "r", "--pin", "s")
DIES(dies_help_value, "--help=yes")
DIES(dies_callback_refuses, "--repo", "r", "--even", "3")
DIES(dies_passthru_twice, "--repo", "r", "--merge-of", "a", "--merge-of=b")
#define EXITS0(name, ...)                              \
	START_TEST(name) { parse(SC_PARSE_NO_ARGS, __VA_ARGS__, NULL); } \
	END_TEST
EXITS0(help_exits_0, "-h")
EXITS0(help_beats_required, "--help")
EXITS0(version_exits_0, "--version")

/* What an unknown --TYPED is offered among a small option table. */
static void assert_suggested(const char *typed, const char *want)
{
	static const char *const names[] = {"repo", "prebuild-timeout", "sample-timeout",
	                                    "phase-timeout", "head"};
	struct sc_suggest s = SC_SUGGEST_INIT;
	struct strbuf out = STRBUF_INIT;
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		sc_suggest_add(&s, typed, strlen(typed), names[i]);
	sc_suggest_text(&s, "--", &out);
	ck_assert_str_eq(out.buf, want);
	sb_release(&out);
}

/* git's weights: a swap is free, a missing character cheap, an extra one
 * dear; a whole dash-separated part is near. */
START_TEST(suggest_nearest_names)
{
	ck_assert_int_eq(sc_suggest_distance("reop", 4, "repo"), 0);
	ck_assert_int_eq(sc_suggest_distance("profle-run", 10, "profile-run"), 1);
	ck_assert_int_eq(sc_suggest_distance("timeout", 7, "sample-timeout"), 1);
	ck_assert_int_eq(sc_suggest_distance("time", 4, "sample-timeout"), 10);
	ck_assert_int_eq(sc_suggest_distance("heads", 5, "head"), 3);
	ck_assert_int_eq(sc_suggest_distance("hxad", 4, "head"), 2);
	/* a slip inside a whole part still finds it: a letter missing, two
	 * swapped, one wrong */
	ck_assert_int_eq(sc_suggest_distance("timout", 6, "sample-timeout"), 2);
	ck_assert_int_eq(sc_suggest_distance("tiemout", 7, "phase-timeout"), 1);
	ck_assert_int_eq(sc_suggest_distance("timeoot", 7, "prebuild-timeout"), 3);
	ck_assert_int_eq(sc_suggest_distance("tmout", 5, "sample-timeout"), 3);
	ck_assert_int_eq(sc_suggest_distance("tout", 4, "sample-timeout"), 10);
	/* too short to tell a slip: --x is no --max-procs */
	ck_assert_int_eq(sc_suggest_distance("x", 1, "max-procs"), 8);
	ck_assert_int_eq(sc_suggest_distance("max", 3, "max-procs"), 1);
	const char *near = "; did you mean --prebuild-timeout, --sample-timeout or --phase-timeout?";
	assert_suggested("timeout", near);
	assert_suggested("timout", near);
	assert_suggested("zzzzzzz", "");
}
END_TEST

/* The one argv number parser: digits only, within [min, max], overflow
 * refused rather than wrapped. */
START_TEST(decimal_digits_within_bounds)
{
	unsigned long long v = 7;
	ck_assert_int_eq(sc_decimal("42", 2, 0, 100, &v), 0);
	ck_assert_uint_eq(v, 42);
	ck_assert_int_eq(sc_decimal("4294967294", 10, 1, 0xfffffffeull, &v), 0);
	static const char *const bad[] = {"", "-1", "+1", " 1", "1 ", "0x10", "1e3", "4294967295",
	                                  "18446744073709551616", "99999999999999999999", NULL};
	for (const char *const *b = bad; *b; b++)
		ck_assert_int_eq(sc_decimal(*b, strlen(*b), 1, 0xfffffffeull, &v), -1);
	ck_assert_int_eq(sc_decimal("0", 1, 1, 5, &v), -1);
	ck_assert_int_eq(sc_decimal("12", 1, 0, 5, &v), 0); /* only n bytes */
	ck_assert_uint_eq(v, 1);
	ck_assert_int_eq(sc_decimal("7", 1, 0, 5, &v), -1);
	ck_assert_int_eq(sc_decimal("18446744073709551615", 20, 0, ~0ull, &v), 0);
	ck_assert_int_eq(sc_decimal("18446744073709551616", 20, 0, ~0ull, &v), -1);
	int fd;
	ck_assert_int_eq(sc_decimal_int("2147483648", 3, 2147483647, &fd), -1);
	ck_assert_int_eq(sc_decimal_int("2", 3, 2147483647, &fd), -1);
	ck_assert_int_eq(sc_decimal_int("3", 3, 2147483647, &fd), 0);
	ck_assert_int_eq(fd, 3);
}
END_TEST


/* One child setup: a child started without waiting for its exec
 * gets what sc_spawn's get, an empty signal mask among them, whatever the
 * parent holds blocked (the porcelain holds the stop signals). */
START_TEST(nowait_child_has_an_empty_signal_mask)
{
	sigset_t term, old;
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigprocmask(SIG_BLOCK, &term, &old);
	const char *const argv[] = {"/usr/bin/grep", "^SigBlk:", "/proc/self/status", NULL};
	const char *const envp[] = {NULL};
	struct sc_proc p;
	ck_assert_int_eq(sc_spawn_nowait(&p, argv, envp), 0);
	struct strbuf out = STRBUF_INIT;
	ck_assert_int_eq(sc_read_all(p.out_fd, &out), 0);
	close(p.out_fd);
	ck_assert_int_eq(sc_wait(p.pid), 0);
	sigprocmask(SIG_SETMASK, &old, NULL);
	ck_assert_str_eq(out.buf, "SigBlk:\t0000000000000000\n");
	sb_release(&out);
}
END_TEST


/* sc-materialize's undo: a whole tree goes, a link inside goes as a link
 * (what it points at stays), a tree deeper than the bound stays. */
START_TEST(rmtree_removes_ours_never_follows)
{
	const char *t = sc_unit_tmp_make("rmtree");
	int dfd = open(t, O_RDONLY | O_DIRECTORY);
	ck_assert_int_ge(dfd, 0);
	ck_assert_int_eq(mkdirat(dfd, "keep", 0777), 0);
	ck_assert_int_eq(close(openat(dfd, "keep/f", O_WRONLY | O_CREAT, 0666)), 0);
	ck_assert_int_eq(mkdirat(dfd, "tree", 0777), 0);
	ck_assert_int_eq(mkdirat(dfd, "tree/a", 0777), 0);
	ck_assert_int_eq(mkdirat(dfd, "tree/a/b", 0777), 0);
	ck_assert_int_eq(close(openat(dfd, "tree/a/b/f", O_WRONLY | O_CREAT, 0666)), 0);
	ck_assert_int_eq(close(openat(dfd, "tree/g", O_WRONLY | O_CREAT, 0666)), 0);
	char *target = xasprintf("%s/keep", t);
	ck_assert_int_eq(symlinkat(target, dfd, "tree/a/link"), 0);
	free(target);
	errno = 0;
	ck_assert_int_eq(sc_remove_tree_at(dfd, "tree", 1), -1);
	ck_assert_int_eq(errno, ELOOP);
	ck_assert_int_eq(faccessat(dfd, "tree/a/b/f", F_OK, 0), 0);
	ck_assert_int_eq(sc_remove_tree_at(dfd, "tree", 3), 0);
	ck_assert_int_eq(faccessat(dfd, "tree", F_OK, AT_SYMLINK_NOFOLLOW), -1);
	ck_assert_int_eq(faccessat(dfd, "keep/f", F_OK, 0), 0);
	ck_assert_int_eq(sc_remove_tree_at(dfd, "tree", 3), 0); /* gone already */
	close(dfd);
	sc_unit_tmp_remove();
}
END_TEST


int main(void)
{
	Suite *s = suite_create("util");
	TCase *tc = tcase_create("util");
	tcase_add_test(tc, strbuf_never_null);
	tcase_add_test(tc, arrays_grow_by_doubling);
	tcase_add_test(tc, options_values_prefixes_lists);
	tcase_add_test(tc, options_checked_and_passed_through);
	tcase_add_test(tc, errno_input_or_system);
	tcase_add_test(tc, every_printed_line_quoted);
	tcase_add_test(tc, decimal_digits_within_bounds);
	tcase_add_test(tc, nowait_child_has_an_empty_signal_mask);
	tcase_add_test(tc, rmtree_removes_ours_never_follows);
	tcase_add_test(tc, mode_required_given);
	tcase_add_test(tc, seconds_between_zero_and_a_day);
	tcase_add_test(tc, suggest_nearest_names);
	const TTest *dies[] = {dies_twice, dies_twice_bool, dies_ambiguous, dies_unknown, dies_unknown_short,
	               dies_missing_value, dies_bool_value, dies_missing_required, dies_empty_required,
	               dies_stray, dies_list_empty, dies_args_short, dies_help_value,
	               dies_callback_refuses, dies_passthru_twice};
	/* An exit test ends the process it runs in: only in a forked child
	 * (CK_FORK=no is how make check-valgrind runs the units). */
	const char *fork = getenv("CK_FORK");
	if (!fork || strcmp(fork, "no") != 0) {
		for (size_t i = 0; i < sizeof dies / sizeof *dies; i++)
			tcase_add_exit_test(tc, dies[i], 2);
		tcase_add_exit_test(tc, help_exits_0, 0);
		tcase_add_exit_test(tc, help_beats_required, 0);
		tcase_add_exit_test(tc, version_exits_0, 0);
		tcase_add_exit_test(tc, path_errno_input, 2);
		tcase_add_exit_test(tc, path_errno_system, 3);
		tcase_add_exit_test(tc, mode_required_missing, 2);
	}
	suite_add_tcase(s, tc);
	return sc_unit_run(s);
}
