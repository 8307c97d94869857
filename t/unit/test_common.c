/* Unit tests for common/: hashing, JSON strictness, lean paths, plan and
 * sample models. */
#include "unit_main.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "contract/leanpath.h"
#include "contract/manifest.h"
#include "util/oid.h"
#include "contract/plan.h"
#include "contract/sample.h"
#include "contract/status.h"
#include "util/sha256.h"

START_TEST(sha256_known_vectors)
{
	char hex[65];
	sc_sha256_hex("", 0, hex);
	ck_assert_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	sc_sha256_hex("abc", 3, hex);
	ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	sc_sha256_hex(m, strlen(m), hex);
	ck_assert_str_eq(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	/* A million 'a', fed in odd-sized pieces to cross block boundaries. */
	struct sc_sha256 c;
	unsigned char raw[32];
	char buf[997];
	memset(buf, 'a', sizeof buf);
	sc_sha256_init(&c);
	size_t left = 1000000;
	while (left) {
		size_t n = left < sizeof buf ? left : sizeof buf;
		sc_sha256_update(&c, buf, n);
		left -= n;
	}
	sc_sha256_final(&c, raw);
	sc_hex(raw, 32, hex);
	ck_assert_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}
END_TEST

static int parses(const char *text)
{
	struct strbuf err = STRBUF_INIT;
	yajl_val v = sc_json_parse(text, strlen(text), &err);
	int ok = v != NULL;
	if (v)
		yajl_tree_free(v);
	else
		ck_assert_uint_gt(err.len, 0);
	sb_release(&err);
	return ok;
}

START_TEST(json_is_strict)
{
	ck_assert(parses("{\"a\": [1, 2.5, null, true]}"));
	ck_assert(!parses("{\"a\": 1} /* comment */"));
	ck_assert(!parses("{\"a\": 1, \"a\": 2}"));
	ck_assert(!parses("{\"a\": 1} {\"b\": 2}"));
	ck_assert(!parses("{\"a\": \"\xff\"}"));
	ck_assert(!parses("{\"a\": \"x\\u0000y\"}"));
	ck_assert(!parses(""));
	char deep[200];
	memset(deep, '[', 100);
	memset(deep + 100, ']', 99);
	deep[199] = '\0';
	ck_assert(!parses(deep));
	struct strbuf err = STRBUF_INIT;
	ck_assert_ptr_null(sc_json_parse("{\"a\":1}\0x", 9, &err));
	sb_release(&err);
}
END_TEST

START_TEST(lean_module_names)
{
	struct strbuf m = STRBUF_INIT;
	ck_assert_int_eq(sc_lean_module_of("A/B_c/D9.lean", &m), 0);
	ck_assert_str_eq(m.buf, "A.B_c.D9");
	ck_assert_int_eq(sc_lean_module_of("_x.lean", &m), 0);
	ck_assert_int_eq(sc_lean_module_of("A/9B.lean", &m), -1);
	ck_assert_int_eq(sc_lean_module_of("A/B-c.lean", &m), -1);
	ck_assert_int_eq(sc_lean_module_of("A//B.lean", &m), -1);
	ck_assert_int_eq(sc_lean_module_of("A/../B.lean", &m), -1);
	ck_assert_int_eq(sc_lean_module_of("/A.lean", &m), -1);
	ck_assert_int_eq(sc_lean_module_of("A/B.lean.lean", &m), -1);
	ck_assert_int_eq(sc_lean_module_of("A/Bé.lean", &m), -1);
	ck_assert_int_eq(sc_lean_module_of(".lean", &m), -1);
	ck_assert_int_eq(sc_lean_module_of("A/B.olean", &m), -1);
	sb_release(&m);
}
END_TEST

START_TEST(root_coverage)
{
	ck_assert(sc_root_covers("Mathlib", "Mathlib.lean"));
	ck_assert(sc_root_covers("Mathlib", "Mathlib/A/B.lean"));
	ck_assert(sc_root_covers("Mathlib", "Mathlib/a-b.lean"));
	ck_assert(!sc_root_covers("Mathlib", "MathlibX.lean"));
	ck_assert(!sc_root_covers("Mathlib", "MathlibX/A.lean"));
	ck_assert(!sc_root_covers("Mathlib", "Mathlib/README.md"));
	ck_assert(!sc_root_covers("Mathlib", "Other/Mathlib.lean"));
	ck_assert(sc_is_valid_root("A/B"));
	ck_assert(!sc_is_valid_root("A/"));
	ck_assert(!sc_is_valid_root(""));
	ck_assert(!sc_is_valid_root("../A"));
}
END_TEST

static void fill_plan(struct sc_plan *p, char *lib[], char *road[])
{
	static char fmt[] = "sha1", ver[] = "0.1.0";
	static char oid_t[] = "1111111111111111111111111111111111111111";
	static char oid_b[] = "2222222222222222222222222222222222222222";
	static char oid_m[] = "3333333333333333333333333333333333333333";
	static char oid_h[] = "4444444444444444444444444444444444444444";
	memset(p, 0, sizeof *p);
	p->profiler_version = ver;
	p->object_format = fmt;
	p->tooling = oid_t;
	p->base_tip = oid_b;
	p->merge_base = oid_m;
	p->head = oid_h;
	p->library = lib;
	p->n_library = 1;
	p->roadmap = road;
	p->n_roadmap = 1;
}

START_TEST(plan_round_trip_and_classify)
{
	char *lib[] = {"SphereCeti"};
	char *road[] = {"SphereCeti/Roadmap"};
	struct sc_plan p;
	fill_plan(&p, lib, road);
	static struct sc_plan_file files[2] = {
		{"SphereCeti.A", "SphereCeti/A.lean", "SphereCeti.A", SC_ROLE_LIBRARY,
		 SC_CHANGE_MODIFIED, "5555555555555555555555555555555555555555",
		 "6666666666666666666666666666666666666666", NULL, 0, 0},
		{"SphereCeti.Roadmap.B", "SphereCeti/Roadmap/B.lean", "SphereCeti.Roadmap.B",
		 SC_ROLE_ROADMAP, SC_CHANGE_ADDED, NULL, "7777777777777777777777777777777777777777", NULL, 0, 0},
	};
	p.files = files;
	p.n_files = 2;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, err = STRBUF_INIT;
	sc_plan_to_json(&p, &a);
	struct sc_plan q;
	ck_assert_msg(sc_plan_from_json(a.buf, a.len, &q, &err) == 0, "%s", err.buf);
	sc_plan_to_json(&q, &b);
	ck_assert_str_eq(a.buf, b.buf);
	ck_assert_int_eq(q.n_files, 2);
	ck_assert_int_eq(q.files[1].change, SC_CHANGE_ADDED);
	ck_assert_ptr_null(q.files[1].base_blob);

	enum sc_role role;
	ck_assert(sc_plan_classify(&q, "SphereCeti/X.lean", &role));
	ck_assert_int_eq(role, SC_ROLE_LIBRARY);
	ck_assert(sc_plan_classify(&q, "SphereCeti/Roadmap/Y/Z.lean", &role));
	ck_assert_int_eq(role, SC_ROLE_ROADMAP);
	ck_assert(!sc_plan_classify(&q, "Other/X.lean", &role));
	sc_plan_free(&q);

	/* Tampering is caught: an added file with a base blob. */
	char *bad = strstr(a.buf, "\"base_blob\": null");
	ck_assert_ptr_nonnull(bad);
	memcpy(bad, "\"base_blob\": 1   ", 17);
	sb_reset(&err);
	ck_assert_int_eq(sc_plan_from_json(a.buf, a.len, &q, &err), -1);
	sb_release(&a);
	sb_release(&b);
	sb_release(&err);
}
END_TEST

/* One ok sample, the start of the round trip and of every refusal. */
static struct sc_sample ok_sample(void)
{
	struct sc_sample s = {
		"0123456789abcdef0123456789abcdef",
		"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"4444444444444444444444444444444444444444", "head:SphereCeti.A", 1, 1.25, 0.5, 1.75,
		2.0, 12345, 0, SC_SAMPLE_OK, NULL, 0, 0, 0, 0,
	};
	return s;
}

START_TEST(sample_round_trip)
{
	struct sc_sample s = ok_sample();
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, err = STRBUF_INIT;
	sc_sample_to_json(&s, &a);
	struct sc_sample t;
	ck_assert_msg(sc_sample_from_json(a.buf, a.len, &t, &err) == 0, "%s", err.buf);
	sc_sample_to_json(&t, &b);
	ck_assert_str_eq(a.buf, b.buf);
	sc_sample_free(&t);

	s.ok = 0;
	s.error = SC_ERR_TIMEOUT;
	sb_reset(&a);
	sc_sample_to_json(&s, &a);
	ck_assert_ptr_null(strstr(a.buf, "1.750"));
	ck_assert_int_eq(sc_sample_from_json(a.buf, a.len, &t, &err), 0);
	ck_assert_int_eq(t.error, SC_ERR_TIMEOUT);
	sc_sample_free(&t);

	const char *forged = "{\"schema\":\"sphereceti.sample/1\",\"run_id\":\"0123456789abcdef0123456789abcdef\","
	                     "\"plan_digest\":\"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\","
	                     "\"revision\":\"4444444444444444444444444444444444444444\",\"sample\":\"head:A\",\"ok\":false,"
	                     "\"cpu_user_s\":1,\"cpu_sys_s\":null,\"cpu_s\":null,\"wall_s\":null,\"max_rss_kib\":null,"
	                     "\"exit_status\":null,\"error\":\"timeout\",\"detail\":null}";
	ck_assert_int_eq(sc_sample_from_json(forged, strlen(forged), &t, &err), -1);

	int side;
	const char *id;
	ck_assert_int_eq(sc_sample_id_split("base:A.B", &side, &id), 0);
	ck_assert_int_eq(side, SC_SIDE_BASE);
	ck_assert_str_eq(id, "A.B");
	ck_assert_int_eq(sc_sample_id_split("side:A", &side, &id), -1);
	ck_assert_int_eq(sc_sample_id_split("head:A..B", &side, &id), -1);
	ck_assert_int_eq(sc_sample_id_split("head:../x", &side, &id), -1);
	sb_release(&a);
	sb_release(&b);
	sb_release(&err);
}
END_TEST

/* out = text with its one "from" replaced by "to". */
static void splice(struct strbuf *out, const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	ck_assert_msg(at != NULL, "%s not in %s", from, text);
	sb_reset(out);
	sb_add(out, text, (size_t)(at - text));
	sb_adds(out, to);
	sb_adds(out, at + strlen(from));
}

#define X16 "xxxxxxxxxxxxxxxx"
#define X256 X16 X16 X16 X16 X16 X16 X16 X16 X16 X16 X16 X16 X16 X16 X16 X16
#define LONG_DETAIL X256 X256 X256 X256 "x"

/* Each rule of the sample schema, broken alone, with its message. */
START_TEST(sample_rejections)
{
	static const struct { const char *from, *to, *why; } cases[] = {
		{"\"schema\":\"sphereceti.sample/1\"", "\"schema\":\"x/1\"", "unsupported sample schema \"x/1\""},
		{"\"detail\":null", "\"detail\":null,\"extra\":1", "unexpected field \"extra\" in the sample"},
		{"0123456789abcdef0123456789abcdef", "0123456789abcdef", "field \"run_id\" is not a run ID"},
		{"e3b0c442", "E3B0C442", "field \"plan_digest\" is not a SHA-256 digest"},
		{"4444444444444444444444444444444444444444", "4444", "field \"revision\" is not a full object ID"},
		{"head:SphereCeti.A", "head:a..b", "field \"sample\" is not <base|head>:<module> or <base|head>:@prebuild"},
		{"\"error\":null", "\"error\":\"timeout\"", "an ok sample carries an error"},
		{"\"wall_s\":2.000", "\"wall_s\":\"2\"", "field \"wall_s\" missing or not a number"},
		{"\"max_rss_kib\":12345", "\"max_rss_kib\":1.5", "field \"max_rss_kib\" missing or not an integer"},
		{"\"exit_status\":0", "\"exit_status\":1", "an ok sample has a negative counter or a nonzero exit status"},
		{"\"wall_s\":2.000", "\"wall_s\":1e10", "an ok sample has a counter above 1e9 seconds"},
		{"\"wall_s\":2.000", "\"wall_s\":2.0005", "field \"wall_s\" is not a whole number of milliseconds"},
		{"\"cpu_s\":1.750", "\"cpu_s\":1.751", "cpu_s is not cpu_user_s + cpu_sys_s"},
		{"\"ok\":true", "\"ok\":false", "an error sample has no known error reason"},
		{"\"task_clock_s\":null", "\"task_clock_s\":1.8005",
		 "field \"task_clock_s\" is not a whole number of milliseconds"},
		{"\"task_clock_s\":null", "\"task_clock_s\":1.900",
		 "an ok sample's task_clock_s disagrees with its cpu_s (that is cpu_hidden)"},
		{"\"detail\":null", "\"detail\":\"" LONG_DETAIL "\"",
		 "field \"detail\" is longer than 1024 bytes"},
	};
	struct sc_sample s = ok_sample();
	struct strbuf good = STRBUF_INIT, bad = STRBUF_INIT, err = STRBUF_INIT;
	sc_sample_to_json(&s, &good);
	struct sc_sample t;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		splice(&bad, good.buf, cases[i].from, cases[i].to);
		sb_reset(&err);
		ck_assert_int_eq(sc_sample_from_json(bad.buf, bad.len, &t, &err), -1);
		ck_assert_str_eq(err.buf, cases[i].why);
		ck_assert_ptr_null(t.run_id); /* nothing half-read is left */
	}
	/* An error sample carrying a counter. */
	s.ok = 0;
	s.error = SC_ERR_FAILED;
	sb_reset(&good);
	sc_sample_to_json(&s, &good);
	splice(&bad, good.buf, "\"max_rss_kib\":null", "\"max_rss_kib\":1");
	sb_reset(&err);
	ck_assert_int_eq(sc_sample_from_json(bad.buf, bad.len, &t, &err), -1);
	ck_assert_str_eq(err.buf, "an error sample carries \"max_rss_kib\"");
	sb_release(&good);
	sb_release(&bad);
	sb_release(&err);
}
END_TEST

/* The task clock beside rusage: kept when they agree (50 ms + 5 % of
 * the larger), in the sample and the status line; a detail of any length
 * is written cut at a UTF-8 boundary and read back. */
START_TEST(task_clock_and_detail)
{
	ck_assert(sc_cpu_agrees(1000, 1100));
	ck_assert(!sc_cpu_agrees(1000, 1111));
	ck_assert(sc_cpu_agrees(1100, 1000));
	ck_assert(!sc_cpu_agrees(1111, 1000));
	ck_assert(sc_cpu_agrees(0, 50));
	ck_assert(!sc_cpu_agrees(0, 53));
	ck_assert(sc_cpu_agrees(100000, 105000));
	ck_assert(!sc_cpu_agrees(100000, 105400));
	ck_assert_int_eq(sc_sample_error_of("cpu_hidden"), SC_ERR_CPU_HIDDEN);
	ck_assert_str_eq(sc_sample_error_name(SC_ERR_CPU_HIDDEN), "cpu_hidden");
	ck_assert_int_eq(sc_sample_error_of("no_such_reason"), SC_SAMPLE_OK);

	struct sc_sample s = ok_sample(), t;
	struct strbuf a = STRBUF_INIT, err = STRBUF_INIT;
	s.has_task_clock = 1;
	s.task_clock_s = 1.8;
	sc_sample_to_json(&s, &a);
	ck_assert_ptr_nonnull(strstr(a.buf, "\"task_clock_s\":1.800"));
	ck_assert_msg(sc_sample_from_json(a.buf, a.len, &t, &err) == 0, "%s", err.buf);
	ck_assert_int_eq(t.has_task_clock, 1);
	ck_assert_double_eq_tol(t.task_clock_s, 1.8, 1e-9);
	sc_sample_free(&t);

	/* 700 two-byte characters: cut below 1024 bytes, never in a character */
	struct strbuf d = STRBUF_INIT;
	for (int i = 0; i < 700; i++)
		sb_adds(&d, "\xc3\xa9");
	s.ok = 0;
	s.error = SC_ERR_SOURCE_CHANGED;
	s.detail = d.buf;
	sb_reset(&a);
	sc_sample_to_json(&s, &a);
	ck_assert_msg(sc_sample_from_json(a.buf, a.len, &t, &err) == 0, "%s", err.buf);
	size_t n = strlen(t.detail);
	ck_assert_uint_le(n, SC_SAMPLE_DETAIL_MAX);
	ck_assert_uint_ge(n, SC_SAMPLE_DETAIL_MAX - 8);
	ck_assert_str_eq(t.detail + n - strlen("\xc3\xa9" SC_SAMPLE_DETAIL_CUT), "\xc3\xa9" SC_SAMPLE_DETAIL_CUT);
	ck_assert_int_eq(t.has_task_clock, 0);
	sc_sample_free(&t);

	struct sc_status st = {0, 0, 0, 1.5, 1, 0.25}, st2;
	sb_reset(&a);
	sc_status_to_json(&st, &a);
	ck_assert_msg(sc_status_from_json(a.buf, a.len, &st2, &err) == 0, "%s", err.buf);
	ck_assert_int_eq(st2.has_task_clock, 1);
	ck_assert_double_eq_tol(st2.task_clock_s, 0.25, 1e-9);
	st.has_task_clock = 0;
	sb_reset(&a);
	sc_status_to_json(&st, &a);
	ck_assert_ptr_nonnull(strstr(a.buf, "\"task_clock_s\":null"));
	ck_assert_int_eq(sc_status_from_json(a.buf, a.len, &st2, &err), 0);
	ck_assert_int_eq(st2.has_task_clock, 0);
	sb_release(&d);
	sb_release(&a);
	sb_release(&err);
}
END_TEST

START_TEST(oid_normalization)
{
	char out[65];
	ck_assert_int_eq(sc_oid_normalize("ABCDEF0123456789abcdef0123456789ABCDEF01", 40, out), 0);
	ck_assert_str_eq(out, "abcdef0123456789abcdef0123456789abcdef01");
	ck_assert_int_eq(sc_oid_normalize("abcdef0", 40, out), -1);
	ck_assert_int_eq(sc_oid_normalize("gbcdef0123456789abcdef0123456789abcdef01", 40, out), -1);
	ck_assert_int_eq(sc_oid_normalize("HEAD", 40, out), -1);
}
END_TEST

static int manifest_ok(const char *text)
{
	struct sc_manifest m;
	struct strbuf err = STRBUF_INIT;
	int rc = sc_manifest_parse(text, strlen(text), &m, &err);
	if (rc == 0)
		sc_manifest_free(&m);
	else
		ck_assert_uint_gt(err.len, 0);
	sb_release(&err);
	return rc == 0;
}

START_TEST(lake_manifest_rules)
{
	const char *rev = "0123456789abcdef0123456789abcdef01234567";
	char buf[512];
	snprintf(buf, sizeof buf,
	         "{\"version\": \"1.1.0\", \"packagesDir\": \".lake/packages\", \"packages\": [{\"type\": \"git\", "
	         "\"name\": \"mathlib\", \"rev\": \"%s\", \"url\": \"x\"}]}", rev);
	ck_assert(manifest_ok(buf));
	ck_assert(manifest_ok("{\"version\": 7, \"packages\": []}"));
	ck_assert(!manifest_ok("{\"packages\": []}")); /* no version: Lake refuses it too */
	snprintf(buf, sizeof buf, "{\"version\": 7, \"packagesDir\": \"vendor\", \"packages\": []}");
	ck_assert(!manifest_ok(buf));
	snprintf(buf, sizeof buf,
	         "{\"version\": 7, \"packages\": [{\"type\": \"path\", \"name\": \"a\", \"rev\": \"%s\"}]}", rev);
	ck_assert(!manifest_ok(buf));
	snprintf(buf, sizeof buf,
	         "{\"version\": 7, \"packages\": [{\"type\": \"git\", \"name\": \"../a\", \"rev\": \"%s\"}]}", rev);
	ck_assert(!manifest_ok(buf));
	ck_assert(!manifest_ok("{\"version\": 7, \"packages\": [{\"type\": \"git\", \"name\": \"a\", \"rev\": \"main\"}]}"));
	snprintf(buf, sizeof buf,
	         "{\"version\": 7, \"packages\": [{\"type\": \"git\", \"name\": \"a\", \"rev\": \"%s\"}, "
	         "{\"type\": \"git\", \"name\": \"a\", \"rev\": \"%s\"}]}", rev, rev);
	ck_assert(!manifest_ok(buf));
}
END_TEST

/* What Lake's Load/Manifest.lean reads. */
START_TEST(lake_manifest_versions_escapes_subdir)
{
	const char *rev = "0123456789abcdef0123456789abcdef01234567";
	char buf[512];
	/* Load/Manifest.lean getVersion: a number n is 0.n.0 (so 8 reads as
	 * 0.8.0), a string is StdVer ("x.y.z[-suffix]", suffix ignored); from
	 * 0.5.0 to any 1.x.y. */
	static const char *const good[] = {"5", "6", "7", "8", "\"1.0.0\"", "\"1.2.0\"", "\"1.3.0\"",
	                                   "\"1.3.0-rc1\"", "\"1.99.7\"", "\"0.7.0\"", "\"0.5.0-x-y\""};
	static const char *const bad[] = {"4", "-1", "7.0", "\"2.0.0\"", "\"0.4.9\"", "\"1.3\"",
	                                  "\"1.3.0-\"", "\"v1.0.0\"", "\"1.3.0.1\"", "\"1..0\"", "\"1.x.0\"",
	                                  "\"\"", "\"7\"", "null", "true", "[1]"};
	for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
		snprintf(buf, sizeof buf, "{\"version\": %s, \"packages\": []}", good[i]);
		ck_assert_msg(manifest_ok(buf), "%s", good[i]);
		snprintf(buf, sizeof buf, "{\"schemaVersion\": %s, \"packages\": []}", good[i]);
		ck_assert_msg(manifest_ok(buf), "schemaVersion %s", good[i]);
	}
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		snprintf(buf, sizeof buf, "{\"version\": %s, \"packages\": []}", bad[i]);
		ck_assert_msg(!manifest_ok(buf), "%s", bad[i]);
		snprintf(buf, sizeof buf, "{\"schemaVersion\": %s, \"packages\": []}", bad[i]);
		ck_assert_msg(!manifest_ok(buf), "schemaVersion %s", bad[i]);
	}
	/* "version" wins over "schemaVersion", as Lake's `<|>` reads them. */
	ck_assert(!manifest_ok("{\"version\": 4, \"schemaVersion\": \"1.1.0\", \"packages\": []}"));
	ck_assert(manifest_ok("{\"version\": \"1.1.0\", \"schemaVersion\": 4, \"packages\": []}"));
	/* 1.x.y and 0.7.0 entries have the 0.7 shape, 0.6.0 the {"git": ...} one. */
	snprintf(buf, sizeof buf, "{\"schemaVersion\": \"1.3.0-x\", \"packages\": [{\"type\": \"git\", "
	         "\"name\": \"a\", \"rev\": \"%s\"}]}", rev);
	ck_assert(manifest_ok(buf));
	snprintf(buf, sizeof buf, "{\"version\": \"0.6.0\", \"packages\": [{\"type\": \"git\", "
	         "\"name\": \"a\", \"rev\": \"%s\"}]}", rev);
	ck_assert(!manifest_ok(buf));
	/* V6 entries: {"git": {...}} with "subDir?" */
	snprintf(buf, sizeof buf, "{\"version\": 6, \"packages\": [{\"git\": {\"name\": \"a\", \"rev\": \"%s\", "
	         "\"url\": \"u\", \"subDir?\": \"inner\"}}]}", rev);
	struct sc_manifest m;
	struct strbuf err = STRBUF_INIT;
	ck_assert_int_eq(sc_manifest_parse(buf, strlen(buf), &m, &err), 0);
	ck_assert_str_eq(m.pkgs[0].subdir, "inner");
	sc_manifest_free(&m);
	snprintf(buf, sizeof buf, "{\"version\": \"1.1.0\", \"packages\": [{\"type\": \"git\", "
	         "\"name\": \"\xc2\xab" "doc-gen4\xc2\xbb\", \"rev\": \"%s\", \"subDir\": null}]}", rev);
	ck_assert_int_eq(sc_manifest_parse(buf, strlen(buf), &m, &err), 0);
	ck_assert_str_eq(m.pkgs[0].name, "doc-gen4");
	ck_assert_ptr_null(m.pkgs[0].subdir);
	sc_manifest_free(&m);
	sb_release(&err);
	snprintf(buf, sizeof buf, "{\"version\": 7, \"packages\": [{\"type\": \"git\", \"name\": \"a\", "
	         "\"rev\": \"%s\", \"subDir\": \"../x\"}]}", rev);
	ck_assert(!manifest_ok(buf));
	snprintf(buf, sizeof buf, "{\"version\": 7, \"packages\": [{\"type\": \"git\", \"name\": \"\xc2\xab" "a\xc2\xbb\", "
	         "\"rev\": \"%s\"}, {\"type\": \"git\", \"name\": \"a\", \"rev\": \"%s\"}]}", rev, rev);
	ck_assert(!manifest_ok(buf)); /* one folder twice */
	snprintf(buf, sizeof buf, "{\"version\": 7, \"packages\": [{\"type\": \"git\", \"name\": \"\xc2\xab" "a b\xc2\xbb\", "
	         "\"rev\": \"%s\"}]}", rev);
	ck_assert(!manifest_ok(buf));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("common");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, sha256_known_vectors);
	tcase_add_test(tc, json_is_strict);
	tcase_add_test(tc, lean_module_names);
	tcase_add_test(tc, root_coverage);
	tcase_add_test(tc, plan_round_trip_and_classify);
	tcase_add_test(tc, sample_round_trip);
	tcase_add_test(tc, sample_rejections);
	tcase_add_test(tc, task_clock_and_detail);
	tcase_add_test(tc, oid_normalization);
	tcase_add_test(tc, lake_manifest_rules);
	tcase_add_test(tc, lake_manifest_versions_escapes_subdir);
	suite_add_tcase(s, tc);
	return sc_unit_run(s);
}
