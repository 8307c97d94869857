/* What sc-report does before and after the binding (common/report/
 * report_args, sample_file, report_files): the checks on its options, the
 * environment block, samples files and their names, the two files written
 * and the exit codes of what cannot be done. */
#include "unit_main.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "contract/plan.h"
#include "report/report_attr.h"
#include "report/report_files.h"
#include "report/report_json.h"
#include "report/report_md.h"
#include "report/report.h"
#include "util/pathcheck.h"
#include "report/report_args.h"
#include "report/sample_file.h"
#include "util/die.h"
#include "util/safefile.h"

#define RUN "0123456789abcdef0123456789abcdef"
#define HEX64 "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

/* Arguments that pass every check, in a fresh folder (made once, in the
 * parent: an exit test ends before any teardown of its own). */
static struct sc_report_args good;
static char dir[] = "/tmp/sc-unit-report.XXXXXX";

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
	memset(&good, 0, sizeof good);
	good.plan = "plan.json";
	good.out_dir = dir;
	sc_argv_push(&good.samples, "a.jsonl");
	sc_argv_push(&good.samples, "-");
}

static void teardown(void)
{
	sc_argv_release(&good.samples);
	char *names[] = {"report.json", "report.md", NULL};
	for (char **f = names; *f; f++) {
		char *p = sc_path_join(dir, *f);
		unlink(p);
		free(p);
	}
	rmdir(dir);
	strcpy(dir, "/tmp/sc-unit-report.XXXXXX");
}

/* The first problem sc_report_args_check finds in a, or "" when none. */
static const char *problem(const struct sc_report_args *a, struct sc_thresholds *th)
{
	static struct strbuf err = STRBUF_INIT;
	sb_reset(&err);
	static const struct sc_report_arg_names names = {
		"--run-id", "--lean-version", "--lean-sha256", "--lake-sha256", "--sandbox-user", "--samples",
		"--bwrap-sha256", {"--threshold-ratio", "--threshold-delta", "--threshold-added"},
		{"--server-url", "--ci-repository", "--ci-run-id"},
	};
	if (sc_report_args_check(a, &names, th, &err) == 0)
		ck_assert_uint_eq(err.len, 0);
	return err.buf;
}

START_TEST(uid_gid)
{
	ck_assert(sc_is_uid_gid("65534:65534"));
	ck_assert(sc_is_uid_gid("0:0"));
	ck_assert(sc_is_uid_gid("4294967294:1"));
	ck_assert(!sc_is_uid_gid("4294967295:1")); /* (uid_t)-1 */
	ck_assert(!sc_is_uid_gid("4294967296:1"));
	ck_assert(!sc_is_uid_gid("01:1"));
	ck_assert(!sc_is_uid_gid("1:"));
	ck_assert(!sc_is_uid_gid(":1"));
	ck_assert(!sc_is_uid_gid("1"));
	ck_assert(!sc_is_uid_gid("1:2:3"));
	ck_assert(!sc_is_uid_gid("nobody"));
	ck_assert(!sc_is_uid_gid("1:2 "));
}
END_TEST

START_TEST(args_checked_after_parsing)
{
	struct sc_thresholds th;
	ck_assert_str_eq(problem(&good, &th), "");
	ck_assert(sc_thresholds_are_default(&th));

	struct sc_report_args a = good;
	a.ratio = "1.2", a.delta = "29.999", a.added = "0.001";
	ck_assert_str_eq(problem(&a, &th), "");
	ck_assert_int_eq(th.ratio_milli, 1200);
	ck_assert_int_eq(th.delta_ms, 29999);
	ck_assert_int_eq(th.added_ms, 1);
	a.ratio = "1000.001";
	ck_assert_str_eq(problem(&a, &th), "--threshold-ratio must be at most 1000 (1000.001)");
	a.ratio = NULL, a.delta = "-1";
	ck_assert_str_eq(problem(&a, &th),
	                 "--threshold-delta wants a decimal number with at most 3 decimals (-1)");
	a.delta = NULL, a.added = "1.0001";
	ck_assert_str_eq(problem(&a, &th),
	                 "--threshold-added wants a decimal number with at most 3 decimals (1.0001)");

	a = good;
	a.run_id = "0123456789ABCDEF0123456789abcdef";
	ck_assert_str_eq(problem(&a, &th), "--run-id is not a run ID of 32 lowercase hex digits "
	                                   "(0123456789ABCDEF0123456789abcdef)");
	a.run_id = RUN, a.lean_sha256 = HEX64, a.lake_sha256 = "abc";
	ck_assert_str_eq(problem(&a, &th), "--lake-sha256 is not a SHA-256 hex digest (abc)");
	a.lake_sha256 = HEX64, a.lean_version = "Lean 4\n";
	ck_assert_str_eq(problem(&a, &th), "--lean-version must be one printable UTF-8 line (argv)");
	a.lean_version = "", a.sandbox_user = "1:1";
	ck_assert_str_eq(problem(&a, &th), "--lean-version must be one printable UTF-8 line (argv)");
	a.lean_version = "Lean (version 4.34.0)", a.sandbox_user = "nobody";
	ck_assert_str_eq(problem(&a, &th), "--sandbox-user is not UID:GID in decimal (nobody)");
	a.sandbox_user = "1:1";
	ck_assert_str_eq(problem(&a, &th), "");
}
END_TEST

START_TEST(args_samples_and_out_dir)
{
	struct sc_thresholds th;
	struct sc_report_args a = good;
	a.samples = (struct sc_argv)SC_ARGV_INIT;
	sc_argv_push(&a.samples, "-");
	sc_argv_push(&a.samples, "b");
	sc_argv_push(&a.samples, "-");
	ck_assert_str_eq(problem(&a, &th), "--samples names stdin ('-') more than once (argv)");
	sc_argv_release(&a.samples);
	/* A name report.json cannot hold; inside the folder only the part
	 * below it is recorded. */
	sc_argv_push(&a.samples, "s\xff.jsonl");
	ck_assert_str_eq(problem(&a, &th), "--samples names a file whose name is not UTF-8 (argv)");
	sc_argv_release(&a.samples);
	a.out_dir = "d\xff";
	sc_argv_push(&a.samples, "d\xff/s.jsonl");
	ck_assert_str_eq(problem(&a, &th), "cannot use output directory: No such file or directory (d\xff)");
	sc_argv_release(&a.samples);

	a = good;
	a.out_dir = "/nonexistent/sc-unit";
	ck_assert_str_eq(problem(&a, &th), "cannot use output directory: No such file or directory "
	                                   "(/nonexistent/sc-unit)");
	a.out_dir = "/dev/null";
	ck_assert_str_eq(problem(&a, &th), "output directory is not a directory (/dev/null)");
	/* The first problem in a fixed order: thresholds before the folder. */
	a.ratio = "x";
	ck_assert_str_eq(problem(&a, &th),
	                 "--threshold-ratio wants a decimal number with at most 3 decimals (x)");
}
END_TEST

START_TEST(environment_block)
{
	struct sc_report_args a = good;
	a.lean_version = "Lean (version 4.34.0)";
	a.sandbox_user = "65534:65534";
	struct sc_report_env env;
	struct strbuf err = STRBUF_INIT;
	ck_assert_int_eq(sc_report_env_init(&env, &a, &err), 0);
	ck_assert_ptr_nonnull(strchr(env.platform, ' ')); /* "sysname release" */
	ck_assert_uint_gt(strlen(env.machine), 0);
	ck_assert_str_eq(env.lean_version, a.lean_version);
	ck_assert_str_eq(env.sandbox_user, "65534:65534");
	ck_assert_ptr_null(env.lean_sha256);
	sc_report_env_release(&env);
	ck_assert_ptr_null(env.platform);
	sb_release(&err);
}
END_TEST

START_TEST(source_names)
{
	ck_assert_str_eq(sc_sample_file_source_name("-", "ws"), "stdin");
	ck_assert_str_eq(sc_sample_file_source_name("ws/samples.jsonl", "ws"), "samples.jsonl");
	ck_assert_str_eq(sc_sample_file_source_name("/r/ws/samples.jsonl", "/r/ws//"), "samples.jsonl");
	ck_assert_str_eq(sc_sample_file_source_name("/r/ws/a/b.jsonl", "/r/ws"), "a/b.jsonl");
	/* Only inside the folder: a sibling with the same prefix keeps its path. */
	ck_assert_str_eq(sc_sample_file_source_name("/r/wsx/s.jsonl", "/r/ws"), "/r/wsx/s.jsonl");
	ck_assert_str_eq(sc_sample_file_source_name("/r/ws/", "/r/ws"), "/r/ws/");
	ck_assert_str_eq(sc_sample_file_source_name("/s.jsonl", "/"), "/s.jsonl"); /* "/" is no prefix */
	ck_assert_str_eq(sc_sample_file_source_name("elsewhere.jsonl", "ws"), "elsewhere.jsonl");
}
END_TEST

static void sample_line(struct strbuf *out, const char *sample)
{
	struct sc_sample s = {RUN, HEX64, "4444444444444444444444444444444444444444", (char *)sample,
	                      1, 1.25, 0.5, 1.75, 2.0, 12345, 0, SC_SAMPLE_OK, NULL, 0, 0, 0, 0};
	sc_sample_to_json(&s, out);
}

START_TEST(samples_one_per_line)
{
	struct strbuf buf = STRBUF_INIT, err = STRBUF_INIT;
	sample_line(&buf, "head:A");
	sb_adds(&buf, "\n\n");
	sample_line(&buf, "head:B");
	buf.len--; /* no newline at the end */
	struct sc_sample_set set = {0};
	ck_assert_int_eq(sc_sample_file_parse("s.jsonl", buf.buf, buf.len, &set, &err), 0);
	ck_assert_uint_eq(set.n, 2);
	ck_assert_str_eq(set.v[0].source, "s.jsonl:1");
	ck_assert_str_eq(set.v[1].source, "s.jsonl:4");
	ck_assert_str_eq(set.v[1].s.sample, "head:B");

	/* A second file adds to the set; its bad line is named by file:line. */
	sb_reset(&buf);
	sample_line(&buf, "base:C");
	sb_adds(&buf, "{\"schema\": \"sphereceti.sample/1\"}\n");
	ck_assert_int_eq(sc_sample_file_parse("stdin", buf.buf, buf.len, &set, &err), -1);
	ck_assert_uint_eq(set.n, 3);
	ck_assert_str_eq(err.buf, "invalid sample: field \"run_id\" missing or not a string (stdin:2)");
	sc_sample_set_free(&set);
	ck_assert_uint_eq(set.n, 0);
	sb_release(&buf);
	sb_release(&err);
}
END_TEST

START_TEST(samples_read_whole)
{
	struct strbuf want = STRBUF_INIT, got = STRBUF_INIT;
	for (int i = 0; i < 2000; i++) /* more than one read's worth */
		sample_line(&want, "head:A");
	char *path = sc_path_join(dir, "report.json"); /* removed by teardown */
	ck_assert_int_eq(sc_write_file_atomic(path, want.buf, want.len, 0644), 0);
	sc_sample_file_read_or_die(path, &got);
	ck_assert_uint_eq(got.len, want.len);
	ck_assert_int_eq(memcmp(got.buf, want.buf, want.len), 0);
	struct sc_sample_set set = {0};
	const char *paths[] = {path, path};
	sc_sample_set_load_or_die(&set, paths, 2, dir);
	ck_assert_uint_eq(set.n, 4000);
	ck_assert_str_eq(set.v[3999].source, "report.json:2000");
	sc_sample_set_free(&set);
	free(path);
	sb_release(&want);
	sb_release(&got);
}
END_TEST

START_TEST(samples_missing_is_bad_input)
{
	struct strbuf sb = STRBUF_INIT;
	sc_sample_file_read_or_die("/nonexistent/samples.jsonl", &sb);
}
END_TEST

START_TEST(samples_directory_is_bad_input)
{
	struct strbuf sb = STRBUF_INIT;
	sc_sample_file_read_or_die(dir, &sb);
}
END_TEST

START_TEST(samples_bad_line_is_bad_input)
{
	char *path = sc_path_join(dir, "report.md");
	ck_assert_int_eq(sc_write_file_atomic(path, "{}\n", 3, 0644), 0);
	struct sc_sample_set set = {0};
	const char *paths[] = {path};
	sc_sample_set_load_or_die(&set, paths, 1, dir);
}
END_TEST

/* A plan of one library file, Lib/A.lean, up to its change. */
#define ONE_FILE_PLAN_START \
	"{\"schema\": \"sphereceti.plan/1\", \"profiler_version\": \"0.1.0\", " \
	"\"object_format\": \"sha1\", \"revisions\": {\"tooling\": \"1111111111111111111111111111111111111111\", " \
	"\"base_tip\": \"2222222222222222222222222222222222222222\", " \
	"\"merge_base\": \"3333333333333333333333333333333333333333\", " \
	"\"head\": \"4444444444444444444444444444444444444444\"}, " \
	"\"config\": {\"library\": [\"Lib\"], \"roadmap\": [], \"github\": null, " \
	"\"tooling_path\": null, \"bwrap_pins\": []}, " \
	"\"lake\": {\"lakefile.toml\": null, \"lakefile.lean\": null, \"lake-manifest.json\": null, " \
	"\"lean-toolchain\": null}, \"lean_toolchain\": null, \"status\": \"changes\", " \
	"\"files\": [{\"id\": \"Lib.A\", \"path\": \"Lib/A.lean\", \"module\": \"Lib.A\", " \
	

/* A report of a one-file plan with no samples (status error). */
static void make_report(struct sc_plan *p, struct sc_report *r, struct sc_report_env *env)
{
	static const char plan[] =
		ONE_FILE_PLAN_START
		"\"role\": \"library\", \"change\": \"added\", \"base_blob\": null, "
		"\"head_blob\": \"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\"}]}";
	struct strbuf err = STRBUF_INIT;
	ck_assert_msg(sc_plan_from_json(plan, sizeof plan - 1, p, &err) == 0, "%s", err.buf);
	ck_assert_int_eq(sc_report_env_init(env, &good, &err), 0);
	struct sc_thresholds th;
	sc_thresholds_default(&th);
	sc_report_init(r, p, HEX64, RUN, &th, env);
	sc_report_bind(r, NULL, 0);
	sb_release(&err);
}

START_TEST(two_files_written)
{
	struct sc_plan p;
	struct sc_report r;
	struct sc_report_env env;
	make_report(&p, &r, &env);
	char *json = sc_path_join(dir, "report.json");
	char *md = sc_path_join(dir, "report.md");
	ck_assert_int_eq(sc_write_file_atomic(json, "stale", 5, 0644), 0);
	sc_report_write_files(&r, dir);
	struct strbuf got = STRBUF_INIT, want = STRBUF_INIT;
	ck_assert_int_eq(sc_read_file(json, &got, 1 << 20), 0);
	sc_report_to_json(&r, &want);
	ck_assert_str_eq(got.buf, want.buf);
	sb_reset(&got);
	sb_reset(&want);
	ck_assert_int_eq(sc_read_file(md, &got, 1 << 20), 0);
	sc_report_to_md(&r, &want);
	ck_assert_str_eq(got.buf, want.buf);
	ck_assert_str_eq(r.problems[0].kind, "missing");

	char *p1 = sc_path_join("ws", "report.md"), *p2 = sc_path_join("ws/", "x");
	ck_assert_str_eq(p1, "ws/report.md");
	ck_assert_str_eq(p2, "ws/x");
	free(p1);
	free(p2);
	free(json);
	free(md);
	sb_release(&got);
	sb_release(&want);
	sc_report_free(&r);
	sc_report_env_release(&env);
	sc_plan_free(&p);
}
END_TEST

/* Documentation/measurement.txt "Confirmation": a side's figure is the
 * median of its ok samples (the lower middle of an even count), a failed
 * repeat counts apart, and the first samples' verdict is kept beside the
 * median's. */
static struct sc_sample_in in_at(const char *sample, const char *rev, double cpu, unsigned repeat)
{
	struct sc_sample_in in = {{RUN, HEX64, (char *)rev, (char *)sample, 1, cpu, 0, cpu, cpu,
	                           1000, 0, SC_SAMPLE_OK, NULL, 0, 0, repeat, 0}, "t"};
	return in;
}

/* One modified library file, Lib.A, measured at M_REV and H_REV: its
 * plan, an environment and the default thresholds. */
#define M_REV "3333333333333333333333333333333333333333"
#define H_REV "4444444444444444444444444444444444444444"
static void modified_file(struct sc_plan *p, struct sc_report_env *env, struct sc_thresholds *th)
{
	static const char plan[] =
		ONE_FILE_PLAN_START
		"\"role\": \"library\", \"change\": \"modified\", "
		"\"base_blob\": \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\", "
		"\"head_blob\": \"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\"}]}";
	struct strbuf err = STRBUF_INIT;
	ck_assert_msg(sc_plan_from_json(plan, sizeof plan - 1, p, &err) == 0, "%s", err.buf);
	ck_assert_int_eq(sc_report_env_init(env, &good, &err), 0);
	sc_thresholds_default(th);
	sb_release(&err);
}

/* A first sample that its repeats disagree with far beyond their own
 * spread (a sample that knows it is repeated: 3.55 s first, 0.55 s
 * after) overturns nothing: the first samples judge the file, and the
 * report says so; the same file with repeats near their first stays the
 * median's. */
START_TEST(repeats_far_from_their_first_overturn_nothing)
{
	const char *M = M_REV, *H = H_REV;
	struct sc_plan p;
	struct sc_report r;
	struct sc_report_env env;
	struct strbuf md = STRBUF_INIT;
	struct sc_thresholds th;
	modified_file(&p, &env, &th);
	th.delta_ms = 1000;
	struct sc_sample_in in[] = {
		in_at("base:Lib.A", M, 0.5, 0), in_at("head:Lib.A", H, 3.55, 0),
		in_at("base:Lib.A", M, 0.5, 1), in_at("head:Lib.A", H, 0.55, 1),
		in_at("base:Lib.A", M, 0.51, 2), in_at("head:Lib.A", H, 0.55, 2),
	};
	sc_report_init(&r, &p, HEX64, RUN, &th, &env);
	sc_report_bind(&r, in, sizeof in / sizeof *in);
	const struct sc_report_file *rf = &r.files[0];
	ck_assert(rf->first.flagged);
	ck_assert(rf->disputed);
	ck_assert(rf->first_kept);
	ck_assert(rf->v.flagged);
	ck_assert_int_eq(rf->side[SC_SIDE_HEAD].cpu_ms, 3550); /* the figures are the verdict's */
	ck_assert_uint_eq(r.n_flagged, 1);
	sc_report_to_md(&r, &md);
	ck_assert_msg(strstr(md.buf, "**disputed**: the repeats disagree with the first samples"), "%s", md.buf);
	sc_report_free(&r);
	/* the same first samples, repeats near them: the median decides */
	in[3] = in_at("head:Lib.A", H, 3.4, 1), in[5] = in_at("head:Lib.A", H, 3.5, 2);
	sc_report_init(&r, &p, HEX64, RUN, &th, &env);
	sc_report_bind(&r, in, sizeof in / sizeof *in);
	ck_assert(!r.files[0].disputed);
	ck_assert_int_eq(r.files[0].side[SC_SIDE_HEAD].cpu_ms, 3500);
	sc_report_free(&r);
	sb_release(&md);
	sc_report_env_release(&env);
	sc_plan_free(&p);
}
END_TEST

/* Lib.A on shard 1 and Lib.B on shard 2, both modified. */
static void two_shards(struct sc_plan *p, struct sc_report_env *env, struct sc_thresholds *th)
{
	static const char plan[] =
		ONE_FILE_PLAN_START
		"\"role\": \"library\", \"change\": \"modified\", "
		"\"base_blob\": \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\", "
		"\"head_blob\": \"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\", \"shard\": 1}, "
		"{\"id\": \"Lib.B\", \"path\": \"Lib/B.lean\", \"module\": \"Lib.B\", "
		"\"role\": \"library\", \"change\": \"modified\", "
		"\"base_blob\": \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\", "
		"\"head_blob\": \"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\", \"shard\": 2}], "
		"\"shards\": {\"count\": 2, \"balanced_by\": \"blob_bytes\"}}";
	struct strbuf err = STRBUF_INIT;
	ck_assert_msg(sc_plan_from_json(plan, sizeof plan - 1, p, &err) == 0, "%s", err.buf);
	ck_assert_int_eq(sc_report_env_init(env, &good, &err), 0);
	sc_thresholds_default(th);
	sb_release(&err);
}

static struct sc_sample_in on_shard(const char *sample, const char *run, const char *rev,
                                    unsigned shard)
{
	struct sc_sample_in in = in_at(sample, rev, 1.0, 0);
	in.s.run_id = (char *)run;
	in.s.shard = shard;
	return in;
}

#define RUN2 "fedcba9876543210fedcba9876543210"

/* Documentation/measurement.txt "Shards": a shard's sample belongs to its
 * own shard's report, to its shard's run in a merged one, and only for a
 * file the plan deals to that shard. */
START_TEST(samples_bound_to_their_shard)
{
	const char *M = M_REV, *H = H_REV;
	struct sc_plan p;
	struct sc_report r;
	struct sc_report_env env;
	struct sc_thresholds th;
	two_shards(&p, &env, &th);
	struct sc_sample_in in[] = {
		on_shard("base:Lib.A", RUN, M, 1), on_shard("head:Lib.A", RUN, H, 1),
		on_shard("base:Lib.B", RUN2, M, 2), on_shard("head:Lib.B", RUN2, H, 2),
	};
	/* merged: every sample of its shard's run, nothing wrong */
	sc_report_init(&r, &p, HEX64, NULL, &th, &env);
	sc_report_add_runner(&r, 1, RUN);
	sc_report_add_runner(&r, 2, RUN2);
	sc_report_bind(&r, in, 4);
	ck_assert_uint_eq(r.n_problems, 0);
	ck_assert_uint_eq(r.n_compared, 2);
	ck_assert_uint_eq(r.runners[1].n_files, 1);
	sc_report_free(&r);
	/* shard 2's samples of shard 1's run; then shard 1's file from shard 2 */
	in[2] = on_shard("base:Lib.B", RUN, M, 2);
	in[3] = on_shard("head:Lib.A", RUN2, H, 2);
	sc_report_init(&r, &p, HEX64, NULL, &th, &env);
	sc_report_add_runner(&r, 1, RUN);
	sc_report_add_runner(&r, 2, RUN2);
	sc_report_bind(&r, in, 4);
	ck_assert_str_eq(r.problems[0].kind, "cross_run");
	ck_assert_str_eq(r.problems[1].kind, "wrong_shard");
	ck_assert_str_eq(r.problems[1].detail, "Lib/A.lean is dealt to shard 1, not 2");
	sc_report_free(&r);
	/* an unsharded report takes no shard's sample */
	sc_report_init(&r, &p, HEX64, RUN, &th, &env);
	sc_report_bind(&r, in, 1);
	ck_assert_str_eq(r.problems[0].kind, "wrong_shard");
	ck_assert_str_eq(r.problems[0].detail, "shard 1 is not this report's 0");
	sc_report_free(&r);
	sc_report_env_release(&env);
	sc_plan_free(&p);
}
END_TEST

/* The counter the report states is its compared samples': a prebuild
 * (the layers' sum, porcelain/prebuild.c) that claims no task clock
 * changes nothing. */
START_TEST(cpu_counter_is_the_compared_samples)
{
	const char *M = M_REV, *H = H_REV;
	struct sc_plan p;
	struct sc_report r;
	struct sc_report_env env;
	struct sc_thresholds th;
	modified_file(&p, &env, &th);
	struct sc_sample_in in[] = {
		in_at("base:Lib.A", M, 0.5, 0), in_at("head:Lib.A", H, 0.5, 0), in_at("head:@prebuild", H, 1, 0),
	};
	for (int i = 0; i < 2; i++)
		in[i].s.has_task_clock = 1, in[i].s.task_clock_s = 0.5;
	sc_report_init(&r, &p, HEX64, RUN, &th, &env);
	sc_report_bind(&r, in, 3);
	ck_assert_uint_eq(r.n_problems, 0);
	ck_assert_int_eq(sc_report_task_clock(&r), 1);
	sc_report_free(&r);
	in[1].s.has_task_clock = 0;
	sc_report_init(&r, &p, HEX64, RUN, &th, &env);
	sc_report_bind(&r, in, 3);
	ck_assert_int_eq(sc_report_task_clock(&r), 0);
	sc_report_free(&r);
	sc_report_env_release(&env);
	sc_plan_free(&p);
}
END_TEST

START_TEST(repeats_make_the_median)
{
	const char *M = M_REV, *H = H_REV;
	struct sc_plan p;
	struct sc_report r;
	struct sc_report_env env;
	struct sc_thresholds th;
	modified_file(&p, &env, &th);
	/* the first samples flag it (40 -> 80 s); the repeats do not (median 60) */
	struct sc_sample_in in[] = {
		in_at("base:Lib.A", M, 40, 0), in_at("head:Lib.A", H, 80, 0),
		in_at("base:Lib.A", M, 41, 1), in_at("head:Lib.A", H, 60, 1),
		in_at("base:Lib.A", M, 39, 2), in_at("head:Lib.A", H, 55, 2),
		in_at("base:Lib.A", M, 40, 3), in_at("head:Lib.A", H, 65, 3),
	};
	in[7].s.ok = 0; /* a failed repeat: counted apart */
	in[7].s.error = SC_ERR_TIMEOUT;
	sc_report_init(&r, &p, HEX64, RUN, &th, &env);
	sc_report_bind(&r, in, sizeof in / sizeof *in);
	const struct sc_report_file *rf = &r.files[0];
	ck_assert_int_eq(r.n_problems, 0);
	ck_assert(rf->confirmed);
	ck_assert_uint_eq(rf->side[SC_SIDE_BASE].n_samples, 4);
	ck_assert_int_eq(rf->side[SC_SIDE_BASE].cpu_ms, 40000); /* 39 40 40 41: lower middle */
	ck_assert_uint_eq(rf->side[SC_SIDE_HEAD].n_samples, 3);
	ck_assert_uint_eq(rf->side[SC_SIDE_HEAD].n_rep_failed, 1);
	ck_assert_int_eq(rf->side[SC_SIDE_HEAD].cpu_ms, 60000); /* 55 60 80 */
	ck_assert_int_eq(rf->side[SC_SIDE_HEAD].first_ms, 80000);
	ck_assert(rf->first.flagged);
	ck_assert(!rf->v.flagged);
	ck_assert(!rf->disputed); /* 80 against 55-60: noise, and the median decides */
	sc_report_free(&r);
	sc_report_env_release(&env);
	sc_plan_free(&p);
}
END_TEST

/* A folder that is gone by the time the reports are written: the machine
 * failed, not the input (exit 3). */
START_TEST(unwritable_is_system_failure)
{
	struct sc_plan p;
	struct sc_report r;
	struct sc_report_env env;
	make_report(&p, &r, &env);
	sc_report_write_files(&r, "/nonexistent/sc-unit-report");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("report");
	tcase_add_unchecked_fixture(tc, setup, teardown);
	tcase_add_test(tc, uid_gid);
	tcase_add_test(tc, args_checked_after_parsing);
	tcase_add_test(tc, args_samples_and_out_dir);
	tcase_add_test(tc, environment_block);
	tcase_add_test(tc, source_names);
	tcase_add_test(tc, samples_one_per_line);
	tcase_add_test(tc, samples_read_whole);
	tcase_add_test(tc, two_files_written);
	tcase_add_test(tc, repeats_make_the_median);
	tcase_add_test(tc, repeats_far_from_their_first_overturn_nothing);
	tcase_add_test(tc, samples_bound_to_their_shard);
	tcase_add_test(tc, cpu_counter_is_the_compared_samples);
	/* An exit test ends the process it runs in: only in a forked child
	 * (CK_FORK=no is how make check-valgrind runs the units). */
	const char *fork = getenv("CK_FORK");
	if (!fork || strcmp(fork, "no") != 0) {
		tcase_add_exit_test(tc, samples_missing_is_bad_input, SC_EXIT_USAGE);
		tcase_add_exit_test(tc, samples_directory_is_bad_input, SC_EXIT_USAGE);
		tcase_add_exit_test(tc, samples_bad_line_is_bad_input, SC_EXIT_USAGE);
		tcase_add_exit_test(tc, unwritable_is_system_failure, SC_EXIT_SYSTEM);
	}
	suite_add_tcase(s, tc);
	return sc_unit_run(s);
}
