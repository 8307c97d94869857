/* sc-report: plan + samples -> report.json and report.md.  See sc-report(1).
 * Bad flags or unreadable/unparseable input exit 2 before anything is
 * written; a complete report exits 0 whatever it flags; a report with any
 * missing, rejected or error sample is still written, then exits 1. */
#include "util/closeout.h"
#include "util/die.h"
#include "report/mdescape.h"
#include "util/oid.h"
#include "plan/plan.h"
#include "report/report.h"
#include "util/run.h"
#include "util/safefile.h"
#include "report/sample.h"
#include "util/strbuf.h"
#include "report/verdict.h"
#include "version.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#define MAX_SAMPLES_BYTES (64u << 20)

static const char usage[] =
	"usage: sc-report --plan FILE --samples FILE... --out-dir DIR [--run-id ID]\n"
	"                 [--lean-version STR] [--lean-sha256 HEX] [--lake-sha256 HEX]\n"
	"                 [--sandbox-user UID:GID]\n"
	"                 [--threshold-ratio R] [--threshold-delta S] [--threshold-added S]\n";

struct opts {
	const char *plan, *out_dir, *run_id;
	const char *lean_version, *lean_sha256, *lake_sha256, *sandbox_user;
	const char **samples;
	size_t n_samples;
	struct sc_thresholds th;
};

/* "--name VALUE" or "--name=VALUE"; returns the value or NULL if argv[*i]
 * is not this option. */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);
	if (strncmp(argv[*i], name, n) != 0)
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n] != '\0')
		return NULL;
	if (*i + 1 >= argc)
		sc_die("option %s needs a value (argv)", name);
	return argv[++*i];
}

static void set_once(const char **slot, const char *v, const char *name)
{
	if (*slot)
		sc_die("option %s given twice (argv)", name);
	*slot = v;
}

static void threshold(const char *v, long long *out, int *seen, const char *name)
{
	if (*seen)
		sc_die("option %s given twice (argv)", name);
	*seen = 1;
	if (sc_parse_milli(v, out) < 0)
		sc_die("%s wants a decimal number with at most 3 decimals (%s)", name, v);
	if (strcmp(name, "--threshold-ratio") == 0 && *out > 1000000)
		sc_die("--threshold-ratio must be at most 1000 (%s)", v);
}

/* "UID:GID", each a decimal below 2^32 without leading zeros. */
static int is_uid_gid(const char *s)
{
	for (int part = 0; part < 2; part++) {
		const char *start = s;
		unsigned long long v = 0;
		for (; *s >= '0' && *s <= '9'; s++)
			if ((v = v * 10 + (unsigned)(*s - '0')) > 0xffffffffULL)
				return 0;
		if (s == start || (*start == '0' && s - start > 1))
			return 0;
		if (*s != (part ? '\0' : ':'))
			return 0;
		s++;
	}
	return 1;
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	memset(o, 0, sizeof *o);
	sc_thresholds_default(&o->th);
	o->samples = xcalloc((size_t)argc, sizeof *o->samples);
	int seen_ratio = 0, seen_delta = 0, seen_added = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			fputs(usage, stdout);
			exit(0);
		} else if (strcmp(a, "--version") == 0) {
			printf("sc-report %s\n", SC_VERSION);
			exit(0);
		} else if (strcmp(a, "--samples") == 0) {
			/* One or more files: everything up to the next option. */
			int start = i;
			while (i + 1 < argc && (strncmp(argv[i + 1], "--", 2) != 0))
				o->samples[o->n_samples++] = argv[++i];
			if (i == start)
				sc_die("option --samples needs at least one file (argv)");
		} else if (strncmp(a, "--samples=", 10) == 0) {
			o->samples[o->n_samples++] = a + 10;
		} else if ((v = opt_value(argc, argv, &i, "--plan"))) {
			set_once(&o->plan, v, "--plan");
		} else if ((v = opt_value(argc, argv, &i, "--out-dir"))) {
			set_once(&o->out_dir, v, "--out-dir");
		} else if ((v = opt_value(argc, argv, &i, "--run-id"))) {
			set_once(&o->run_id, v, "--run-id");
		} else if ((v = opt_value(argc, argv, &i, "--lean-version"))) {
			set_once(&o->lean_version, v, "--lean-version");
		} else if ((v = opt_value(argc, argv, &i, "--lean-sha256"))) {
			set_once(&o->lean_sha256, v, "--lean-sha256");
		} else if ((v = opt_value(argc, argv, &i, "--lake-sha256"))) {
			set_once(&o->lake_sha256, v, "--lake-sha256");
		} else if ((v = opt_value(argc, argv, &i, "--sandbox-user"))) {
			set_once(&o->sandbox_user, v, "--sandbox-user");
		} else if ((v = opt_value(argc, argv, &i, "--threshold-ratio"))) {
			threshold(v, &o->th.ratio_milli, &seen_ratio, "--threshold-ratio");
		} else if ((v = opt_value(argc, argv, &i, "--threshold-delta"))) {
			threshold(v, &o->th.delta_ms, &seen_delta, "--threshold-delta");
		} else if ((v = opt_value(argc, argv, &i, "--threshold-added"))) {
			threshold(v, &o->th.added_ms, &seen_added, "--threshold-added");
		} else {
			sc_die("unexpected argument '%s'; see sc-report --help (argv)", a);
		}
	}
	if (!o->plan || !o->out_dir || !o->n_samples)
		sc_die("--plan, --samples and --out-dir are required (argv)");
	if (o->run_id && !sc_is_lower_hex(o->run_id, SC_RUN_ID_HEXSZ))
		sc_die("--run-id is not a run ID of %d lowercase hex digits (%s)", SC_RUN_ID_HEXSZ,
		       o->run_id);
	if (o->lean_sha256 && !sc_is_lower_hex(o->lean_sha256, 64))
		sc_die("--lean-sha256 is not a SHA-256 hex digest (%s)", o->lean_sha256);
	if (o->lake_sha256 && !sc_is_lower_hex(o->lake_sha256, 64))
		sc_die("--lake-sha256 is not a SHA-256 hex digest (%s)", o->lake_sha256);
	if (o->lean_version && (!*o->lean_version || strlen(o->lean_version) > 512 ||
	                        !sc_is_printable_utf8(o->lean_version)))
		sc_die("--lean-version must be one printable UTF-8 line (argv)");
	if (o->sandbox_user && !is_uid_gid(o->sandbox_user))
		sc_die("--sandbox-user is not UID:GID in decimal (%s)", o->sandbox_user);
	size_t stdin_uses = 0;
	for (size_t i = 0; i < o->n_samples; i++)
		stdin_uses += strcmp(o->samples[i], "-") == 0;
	if (stdin_uses > 1)
		sc_die("--samples names stdin ('-') more than once (argv)");
	struct stat st;
	if (stat(o->out_dir, &st) < 0)
		sc_die_errno("cannot use output directory (%s)", o->out_dir);
	if (!S_ISDIR(st.st_mode))
		sc_die("output directory is not a directory (%s)", o->out_dir);
}

/* A bounded read of any readable file (regular, pipe, /dev/stdin). */
static void read_samples_file(const char *path, struct strbuf *sb)
{
	int fd = strcmp(path, "-") == 0 ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		sc_die_errno("cannot read samples (%s)", path);
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode))
		sc_die("cannot read samples: is a directory (%s)", path);
	for (;;) {
		sb_grow(sb, 65536);
		ssize_t n = read(fd, sb->buf + sb->len, 65536);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			sc_die_errno("cannot read samples (%s)", path);
		if (n == 0)
			break;
		sb->len += (size_t)n;
		sb->buf[sb->len] = '\0';
		if (sb->len > MAX_SAMPLES_BYTES)
			sc_die("samples file larger than %u MiB (%s)", MAX_SAMPLES_BYTES >> 20, path);
	}
	if (fd != STDIN_FILENO)
		close(fd);
}

/* A samples file inside the output folder is named relative to it (the
 * workspace, under profile-run): no runner's absolute path in the report. */
static const char *source_name(const char *path, const char *out_dir)
{
	if (strcmp(path, "-") == 0)
		return "stdin";
	size_t n = strlen(out_dir);
	while (n > 1 && out_dir[n - 1] == '/')
		n--;
	if (strncmp(path, out_dir, n) == 0 && path[n] == '/' && path[n + 1])
		return path + n + 1;
	return path;
}

/* Every non-empty line must be one sample; a bad line is bad input. */
static void parse_samples(const char *path, const char *out_dir, const struct strbuf *sb, struct sc_sample_in **in,
                          size_t *n, size_t *alloc)
{
	const char *name = source_name(path, out_dir);
	size_t lineno = 0;
	struct strbuf err = STRBUF_INIT;
	for (const char *p = sb->buf, *end = sb->buf + sb->len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		lineno++;
		if (len) {
			if (*n == *alloc) {
				*alloc = *alloc ? 2 * *alloc : 16;
				*in = xrealloc(*in, *alloc * sizeof **in);
			}
			struct sc_sample_in *s = &(*in)[*n];
			if (sc_sample_from_json(p, len, &s->s, &err) < 0)
				sc_die("invalid sample: %s (%s:%zu)", err.buf, name, lineno);
			s->source = xasprintf("%s:%zu", name, lineno);
			(*n)++;
		}
		p += len + 1;
	}
	sb_release(&err);
}

static char *out_path(const char *dir, const char *name)
{
	size_t n = strlen(dir);
	return xasprintf("%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name);
}

int main(int argc, char **argv)
{
	sc_set_progname("sc-report");
	sc_check_stdout_at_exit();
	struct opts o;
	parse_args(argc, argv, &o);

	struct sc_plan plan;
	struct strbuf raw = STRBUF_INIT;
	sc_plan_load_or_die(o.plan, &plan, &raw);
	char digest[65];
	sc_plan_digest(raw.buf, raw.len, digest);
	sb_release(&raw);

	struct sc_sample_in *in = NULL;
	size_t n_in = 0, alloc_in = 0;
	for (size_t i = 0; i < o.n_samples; i++) {
		struct strbuf sb = STRBUF_INIT;
		read_samples_file(o.samples[i], &sb);
		parse_samples(o.samples[i], o.out_dir, &sb, &in, &n_in, &alloc_in);
		sb_release(&sb);
	}

	struct utsname un;
	if (uname(&un) < 0)
		sc_die_errno("cannot read the platform (uname)");
	char *platform = xasprintf("%s %s", un.sysname, un.release);
	struct sc_report_env env = {platform, un.machine, o.sandbox_user, o.lean_version,
	                            o.lean_sha256, o.lake_sha256};
	if (!sc_is_printable_utf8(platform) || !sc_is_printable_utf8(un.machine))
		sc_die("uname reports unprintable text (uname)");

	struct sc_report r;
	sc_report_init(&r, &plan, digest, o.run_id, &o.th, &env);
	sc_report_bind(&r, in, n_in);

	struct strbuf json = STRBUF_INIT, md = STRBUF_INIT;
	sc_report_to_json(&r, &json);
	sc_report_to_md(&r, &md);

	/* report.json is the commit record: it goes away first and comes back
	 * last, so a crash in between leaves no report.json beside a report.md
	 * of another run, and a report.json is never without its report.md. */
	char *json_path = out_path(o.out_dir, "report.json");
	char *md_path = out_path(o.out_dir, "report.md");
	if (unlink(json_path) < 0 && errno != ENOENT)
		sc_die_code(SC_EXIT_FAIL, "cannot replace report.json: %s (%s)", strerror(errno),
		            json_path);
	sc_write_file_atomic_or_die(md_path, md.buf, md.len, "report.md");
	sc_write_file_atomic_or_die(json_path, json.buf, json.len, "report.json");

	int rc = SC_EXIT_OK;
	if (r.n_problems) {
		const struct sc_problem *p = &r.problems[0];
		sc_error("measurement incomplete: %zu problem%s, first: %s %s (%s)", r.n_problems,
		         r.n_problems == 1 ? "" : "s", p->sample, p->kind, json_path);
		rc = SC_EXIT_FAIL;
	}
	sb_release(&json);
	sb_release(&md);
	free(json_path);
	free(md_path);
	sc_report_free(&r);
	for (size_t i = 0; i < n_in; i++) {
		sc_sample_free(&in[i].s);
		free(in[i].source);
	}
	free(in);
	free(platform);
	free(o.samples);
	sc_plan_free(&plan);
	return rc;
}
