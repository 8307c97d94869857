/* Inputs the fuzzers (t/fuzz/) once broke the readers with, kept as unit
 * tests so the fixes stay fixed even where nobody runs libFuzzer.  Run
 * these under make check-asan: the bugs were out-of-bounds reads. */
#include "unit_main.h"
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "planning/changes.h"
#include "contract/plan.h"
#include "contract/sample.h"
#include "util/strbuf.h"

static const char plan_head[] =
	"{\"schema\":\"sphereceti.plan/1\",\"profiler_version\":\"0.1.0\",\"object_format\":\"sha1\","
	"\"revisions\":{\"tooling\":\"1111111111111111111111111111111111111111\","
	"\"base_tip\":\"1111111111111111111111111111111111111111\","
	"\"merge_base\":\"3333333333333333333333333333333333333333\","
	"\"head\":\"4444444444444444444444444444444444444444\"},"
	"\"config\":{\"library\":[\"Lib\"],\"roadmap\":[],\"github\":null,\"tooling_path\":null,"
	"\"bwrap_pins\":[]},";
static const char plan_tail[] =
	"\"lean_toolchain\":null,\"status\":\"no_changes\",\"files\":[]}";

static int parse_with_lake(const char *lake, struct strbuf *err)
{
	struct strbuf doc = STRBUF_INIT;
	struct sc_plan p;
	sb_addf(&doc, "%s\"lake\":%s,%s", plan_head, lake, plan_tail);
	int rc = sc_plan_from_json(doc.buf, doc.len, &p, err);
	if (rc == 0)
		sc_plan_free(&p);
	sb_release(&doc);
	return rc;
}

/* fuzz_plan: an unknown key in "lake" made sc_json_only_keys walk off the
 * end of sc_lake_files, which has no NULL terminator. */
START_TEST(plan_unknown_lake_key)
{
	struct strbuf err = STRBUF_INIT;
	ck_assert_int_eq(parse_with_lake("{\"lakefile.toml\":null,\"lakefile.lean\":null,"
	                                 "\"lake-manifest.json\":null,\"lean-toolchain\":null}",
	                                 &err),
	                 0);
	ck_assert_int_eq(parse_with_lake("{\"lakefile.toml\":null,\"lakefile.lean\":null,"
	                                 "\"lake-manifest.json\":null,\"lean-toolchain1\":null}",
	                                 &err),
	                 -1);
	ck_assert_msg(strstr(err.buf, "unexpected field \"lean-toolchain1\"") != NULL, "%s", err.buf);
	sb_reset(&err);
	ck_assert_int_eq(parse_with_lake("{\"x\":null}", &err), -1);
	ck_assert_msg(strstr(err.buf, "unexpected field \"x\"") != NULL, "%s", err.buf);
	sb_release(&err);
}
END_TEST

/* fuzz_sample: an ok sample with cpu_s 1e308 was accepted, and writing it
 * back (sc_sample_to_json) died: the reader now bounds every counter. */
START_TEST(sample_huge_counter)
{
	static const char fmt[] =
		"{\"schema\":\"sphereceti.sample/1\",\"run_id\":\"0123456789abcdef0123456789abcdef\","
		"\"plan_digest\":\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\","
		"\"revision\":\"3333333333333333333333333333333333333333\",\"sample\":\"base:Lib.A\","
		"\"ok\":true,\"cpu_user_s\":%s,\"cpu_sys_s\":0,\"cpu_s\":%s,\"wall_s\":1,"
		"\"max_rss_kib\":1,\"exit_status\":0,\"error\":null,\"detail\":null}";
	struct strbuf doc = STRBUF_INIT, err = STRBUF_INIT, out = STRBUF_INIT;
	struct sc_sample s;
	sb_addf(&doc, fmt, "1e308", "1e308");
	ck_assert_int_eq(sc_sample_from_json(doc.buf, doc.len, &s, &err), -1);
	ck_assert_msg(strstr(err.buf, "above 1e9 seconds") != NULL, "%s", err.buf);
	/* The bound itself is accepted and prints back. */
	sb_reset(&doc);
	sb_addf(&doc, fmt, "1000000000", "1000000000");
	ck_assert_int_eq(sc_sample_from_json(doc.buf, doc.len, &s, &err), 0);
	sc_sample_to_json(&s, &out);
	ck_assert_ptr_nonnull(strstr(out.buf, "\"cpu_s\":1000000000.000"));
	sc_sample_free(&s);
	sb_release(&doc);
	sb_release(&err);
	sb_release(&out);
}
END_TEST

/* fuzz_rawdiff: git reports a path twice when a crafted tree lists one
 * name twice; the plan then held two files with one id. */
START_TEST(changes_duplicate_path)
{
	static const char raw[] =
		":100644 100644 7898192261aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa 587be6b4c3bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb M\0"
		"Lib/A.lean\0"
		":000000 100644 0000000000000000000000000000000000000000 975fbec825cccccccccccccccccccccccccccccc A\0"
		"Lib/A.lean\0";
	struct sc_plan p;
	memset(&p, 0, sizeof p);
	p.library = xcalloc(1, sizeof *p.library);
	p.library[p.n_library++] = xstrdup("Lib");
	struct strbuf err = STRBUF_INIT;
	ck_assert_int_eq(sc_changes_select(&p, raw, sizeof raw - 1, 40, &err), SC_EXIT_POLICY);
	ck_assert_str_eq(err.buf, "a tree lists one path twice: Lib/A.lean");
	sb_release(&err);
	sc_plan_free(&p);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("fuzz_regressions");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, plan_unknown_lake_key);
	tcase_add_test(tc, sample_huge_counter);
	tcase_add_test(tc, changes_duplicate_path);
	suite_add_tcase(s, tc);
	return sc_unit_run(s);
}
