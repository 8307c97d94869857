/* Unit tests for porcelain/merge: what sphereceti merge refuses of the
 * shards' workspaces (Documentation/measurement.txt "Shards"), each rule
 * on two workspaces written here as profile-run --shard K/2 leaves them. */
#include "unit_main.h"
#include "unit_tmp.h"
#include "contract/plan.h"
#include "contract/sample.h"
#include "porcelain/merge.h"
#include "util/die.h"
#include "util/safefile.h"
#include "util/strbuf.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define H40 "4444444444444444444444444444444444444444"
#define M40 "3333333333333333333333333333333333333333"
#define RUN1 "0123456789abcdef0123456789abcdef"
#define RUN2 "fedcba9876543210fedcba9876543210"
#define HASH "1111111111111111111111111111111111111111111111111111111111111111"
#define HASH2 "2222222222222222222222222222222222222222222222222222222222222222"

/* Lib.A dealt to shard 1, Lib.B to shard 2. */
static const char plan[] =
	"{\"schema\": \"sphereceti.plan/1\", \"profiler_version\": \"0.1.0\", "
	"\"object_format\": \"sha1\", \"revisions\": {\"tooling\": \"" M40 "\", "
	"\"base_tip\": \"" M40 "\", \"merge_base\": \"" M40 "\", \"head\": \"" H40 "\"}, "
	"\"config\": {\"library\": [\"Lib\"], \"roadmap\": [], \"github\": null, "
	"\"tooling_path\": null, \"bwrap_pins\": []}, "
	"\"lake\": {\"lakefile.toml\": null, \"lakefile.lean\": null, \"lake-manifest.json\": null, "
	"\"lean-toolchain\": null}, \"lean_toolchain\": null, \"status\": \"changes\", \"files\": ["
	"{\"id\": \"Lib.A\", \"path\": \"Lib/A.lean\", \"module\": \"Lib.A\", \"role\": \"library\", "
	"\"change\": \"added\", \"base_blob\": null, \"head_blob\": \"" H40 "\", \"shard\": 1}, "
	"{\"id\": \"Lib.B\", \"path\": \"Lib/B.lean\", \"module\": \"Lib.B\", \"role\": \"library\", "
	"\"change\": \"added\", \"base_blob\": null, \"head_blob\": \"" H40 "\", \"shard\": 2}], "
	"\"shards\": {\"count\": 2, \"balanced_by\": \"blob_bytes\"}}\n";

/* What a workspace's files say; the tests change one thing each. */
struct ws {
	unsigned index;
	const char *run, *lean, *bwrap, *profiler, *extra_plan;
	const char *samples[3]; /* "FILE-ID@SHARD@RUN", NULL-ended */
	const char *raw;        /* a line as is, after them */
};

static char *sample_line(const char *spec)
{
	char id[32], run[40];
	unsigned shard;
	ck_assert_int_eq(sscanf(spec, "%31[^@]@%u@%39s", id, &shard, run), 3);
	struct sc_sample s = {0};
	char sample[48];
	snprintf(sample, sizeof sample, "head:%s", id);
	s.run_id = run, s.plan_digest = HASH, s.revision = H40, s.sample = sample;
	s.ok = 1, s.cpu_s = 1, s.cpu_user_s = 1, s.wall_s = 1, s.shard = shard;
	struct strbuf out = STRBUF_INIT;
	sc_sample_to_json(&s, &out);
	return sb_detach(&out, NULL);
}

static char *write_ws(const char *root, const char *name, const struct ws *w)
{
	char *dir = xasprintf("%s/%s", root, name);
	ck_assert_int_eq(mkdir(dir, 0755), 0);
	struct strbuf p = STRBUF_INIT, r = STRBUF_INIT, smp = STRBUF_INIT;
	sb_adds(&p, plan);
	if (w->extra_plan)
		sb_adds(&p, w->extra_plan);
	char digest[65];
	sc_plan_digest(p.buf, p.len, digest);
	sb_addf(&r, "{\"run_id\": \"%s\", \"plan_digest\": \"%s\", "
	            "\"revisions\": {\"head\": \"" H40 "\"%s%s%s}, "
	            "\"shard\": {\"index\": %u, \"count\": 2}, "
	            "\"environment\": {\"lean_sha256\": \"%s\", \"lake_sha256\": \"" HASH "\", "
	            "\"bwrap_sha256\": \"%s\", \"lake_artifact_cache\": \"none\"}, "
	            "\"thresholds\": {\"ratio\": 1.500, \"delta_s\": 30.000, \"added_s\": 150.000}}",
	        w->run, digest, w->profiler ? ", \"profiler\": \"" : "", w->profiler ? w->profiler : "",
	        w->profiler ? "\"" : "", w->index, w->lean ? w->lean : HASH,
	        w->bwrap ? w->bwrap : HASH);
	for (const char *const *s = w->samples; *s; s++) {
		char *line = sample_line(*s);
		sb_adds(&smp, line);
		free(line);
	}
	if (w->raw)
		sb_adds(&smp, w->raw);
	const char *names[] = {"plan.json", "report.json", "samples.jsonl"};
	const struct strbuf *docs[] = {&p, &r, &smp};
	for (int i = 0; i < 3; i++) {
		char *path = xasprintf("%s/%s", dir, names[i]);
		sc_write_file_atomic_or_die(path, docs[i]->buf, docs[i]->len, "a test file");
		free(path);
	}
	sb_release(&p);
	sb_release(&r);
	sb_release(&smp);
	return dir;
}

static const struct ws one = {1, RUN1, NULL, NULL, NULL, NULL, {"Lib.A@1@" RUN1, NULL}, NULL};
static const struct ws two = {2, RUN2, NULL, NULL, NULL, NULL, {"Lib.B@2@" RUN2, NULL}, NULL};

/* The refusal of merging the workspaces A and B (B NULL: A alone), or ""
 * when they merge; paths in it are cut to their last component. */
static const char *refusal(const struct ws *a, const struct ws *b)
{
	static char why[512];
	const char *root = sc_unit_tmp_make("merge");
	struct sc_shard_ws w[2];
	char *dirs[2] = {write_ws(root, "ws1", a), b ? write_ws(root, "ws2", b) : NULL};
	size_t n = b ? 2 : 1;
	struct strbuf err = STRBUF_INIT;
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = sc_shard_ws_read(dirs[i], &w[i], &err);
	if (rc == 0)
		rc = sc_shard_ws_check(w, n, &err);
	for (size_t i = 0; i < n; i++)
		sc_shard_ws_free(&w[i]);
	/* the workspace's own name stands for its path */
	size_t o = 0;
	for (const char *p = err.buf; *p && o + 1 < sizeof why;) {
		if (strncmp(p, root, strlen(root)) == 0 && p[strlen(root)] == '/') {
			p += strlen(root) + 1;
			continue;
		}
		why[o++] = *p++;
	}
	why[o] = '\0';
	(void)rc;
	sb_release(&err);
	free(dirs[0]);
	free(dirs[1]);
	sc_unit_tmp_remove();
	return why;
}

START_TEST(every_shard_once)
{
	ck_assert_str_eq(refusal(&one, &two), "");
	ck_assert_str_eq(refusal(&one, NULL), "shard 2 of 2 is missing: no workspace given is its (ws1)");
	struct ws again = one;
	ck_assert_str_eq(refusal(&one, &again), "shard 1 is given twice (ws1 and ws2)");
}
END_TEST

START_TEST(measured_alike)
{
	struct ws b = two;
	b.extra_plan = " ";
	ck_assert_str_eq(refusal(&one, &b), "shard 2 was measured with another plan (digest) than shard 1 (ws2)");
	b = two, b.lean = HASH2;
	ck_assert_str_eq(refusal(&one, &b),
	                 "shard 2 was measured with another Lean (bin/lean SHA-256) than shard 1 (ws2)");
	b = two, b.bwrap = HASH2;
	ck_assert_str_eq(refusal(&one, &b),
	                 "shard 2 was measured with another bubblewrap (SHA-256) than shard 1 (ws2)");
	b = two, b.profiler = "5555555555555555555555555555555555555555";
	ck_assert_str_eq(refusal(&one, &b), "shard 2 was measured with another profiler commit than shard 1 (ws2)");
}
END_TEST

START_TEST(each_file_on_its_shard)
{
	struct ws a = one, b = two;
	b.samples[1] = "Lib.A@2@" RUN2;
	b.samples[2] = NULL;
	ck_assert_str_eq(refusal(&a, &b), "Lib/A.lean is measured on shards 1 and 2 (ws2/samples.jsonl:2)");
	a.samples[0] = NULL;
	ck_assert_str_eq(refusal(&a, &b), "shard 2 measured Lib/A.lean, which is dealt to shard 1 (ws2/samples.jsonl:2)");
	b = two;
	b.samples[1] = "Lib.B@2@" RUN1;
	ck_assert_str_eq(refusal(&one, &b), "a sample of another run or shard than shard 2's (ws2/samples.jsonl:2)");
	b = two;
	b.raw = "{\"schema\": \"other\"}\n";
	ck_assert_str_eq(refusal(&one, &b), "shard 2 has an invalid sample: unsupported sample schema \"other\" "
	                                    "(ws2/samples.jsonl:2)");
}
END_TEST

START_TEST(finished_workspaces_only)
{
	const char *root = sc_unit_tmp_make("merge");
	char *dir = write_ws(root, "ws1", &one);
	char *marker = xasprintf("%s/INCOMPLETE", dir);
	sc_write_file_atomic_or_die(marker, "", 0, "the marker");
	struct sc_shard_ws w;
	struct strbuf err = STRBUF_INIT;
	ck_assert_int_eq(sc_shard_ws_read(dir, &w, &err), -1);
	ck_assert_str_eq(err.buf, "an unfinished run: it holds INCOMPLETE");
	sc_shard_ws_free(&w);
	sb_release(&err);
	free(marker);
	free(dir);
	sc_unit_tmp_remove();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("merge");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, every_shard_once);
	tcase_add_test(tc, measured_alike);
	tcase_add_test(tc, each_file_on_its_shard);
	tcase_add_test(tc, finished_workspaces_only);
	suite_add_tcase(s, tc);
	return sc_unit_run(s);
}
