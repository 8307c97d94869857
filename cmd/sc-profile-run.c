/* sc-profile-run (run as "sphereceti profile-run"): the whole measurement.
 * plan -> plan.json -> preconditions -> materialize base/ and head/ ->
 * per side: sandboxed prebuild, then one timed sample per selected file ->
 * parse each raw time file -> report.  Every step is a sibling stage run
 * with an argv; this file only sequences them and keeps the workspace. */
#include "util/closeout.h"
#include "util/badopt.h"
#include "util/die.h"
#include "util/execdir.h"
#include "git/git.h"
#include "sandbox/gnutime.h"
#include "plan/manifest.h"
#include "util/pathcheck.h"
#include "plan/plan.h"
#include "sandbox/precond.h"
#include "report/report.h"
#include "util/run.h"
#include "util/safefile.h"
#include "report/sample.h"
#include "sandbox/sandbox_args.h"
#include "git/srccheck.h"
#include "run/schedule.h"
#include "run/stage.h"
#include "run/workspace.h"
#include "util/sha256.h"

#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

struct opts {
	const char *repo, *tooling, *base, *head, *workspace, *toolchain, *deps, *bwrap;
	const char *tmp_size;
	char *sandbox_user; /* "UID:GID", resolved */
	double prebuild_timeout, sample_timeout, phase_timeout;
	const char *thr_ratio, *thr_delta, *thr_added;
	int quiet;
	int keep_logs; /* --keep-logs: candidate output into WS/logs/, bounded */
};

struct run {
	struct opts o;
	char *dir;      /* exec dir: where the stages live */
	char *ws;       /* absolute workspace path */
	struct sc_plan plan;
	struct strbuf plan_json; /* sc-plan's bytes, written once the workspace exists */
	char digest[65];
	char run_id[SC_RUN_ID_HEXSZ + 1];
	struct sc_toolchain_info tc;
	struct strbuf samples;
	int step, steps;
	int measurement_failed;
};

static const char usage[] =
	"usage: sphereceti profile-run --repo DIR --tooling T --base B --head H\n"
	"         --workspace NEWDIR --toolchain DIR --dependencies DIR\n"
	"         [--prebuild-timeout S] [--sample-timeout S] [--phase-timeout S]\n"
	"         [--sandbox-user USER|UID:GID] [--tmp-size BYTES] [--bwrap PATH] [--keep-logs] [--quiet]\n"
	"         [--threshold-ratio R] [--threshold-delta S] [--threshold-added S]\n"
	"Thresholds (defaults 1.5, 30 s, 150 s) are for scaled-down demonstrations;\n"
	"the report states them.  See sphereceti help profile-run.\n";

static double parse_seconds(const char *s, const char *flag)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v <= 0 || v > 86400)
		sc_die("%s wants seconds between 0 and 86400 (%s %s)", flag, flag, s);
	return v;
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	enum { O_PREBUILD = 256, O_SAMPLE, O_PHASE, O_BWRAP, O_RATIO, O_DELTA, O_ADDED, O_USER, O_TMP };
	static const struct option longopts[] = {
		{"repo", required_argument, NULL, 'r'},
		{"tooling", required_argument, NULL, 't'},
		{"base", required_argument, NULL, 'b'},
		{"head", required_argument, NULL, 'h'},
		{"workspace", required_argument, NULL, 'w'},
		{"toolchain", required_argument, NULL, 'c'},
		{"dependencies", required_argument, NULL, 'd'},
		{"prebuild-timeout", required_argument, NULL, O_PREBUILD},
		{"sample-timeout", required_argument, NULL, O_SAMPLE},
		{"phase-timeout", required_argument, NULL, O_PHASE},
		{"bwrap", required_argument, NULL, O_BWRAP},
		{"threshold-ratio", required_argument, NULL, O_RATIO},
		{"threshold-delta", required_argument, NULL, O_DELTA},
		{"threshold-added", required_argument, NULL, O_ADDED},
		{"sandbox-user", required_argument, NULL, O_USER},
		{"tmp-size", required_argument, NULL, O_TMP},
		{"quiet", no_argument, NULL, 'q'},
		{"keep-logs", no_argument, NULL, 'k'},
		{"help", no_argument, NULL, 'H'},
		{NULL, 0, NULL, 0},
	};
	memset(o, 0, sizeof *o);
	o->prebuild_timeout = SC_LIMIT_PREBUILD_S;
	o->sample_timeout = SC_LIMIT_SAMPLE_S;
	o->phase_timeout = SC_LIMIT_PHASE_S;
	opterr = 0;
	int c;
	const char *user = NULL;
	while ((c = getopt_long(argc, argv, "+q", longopts, NULL)) != -1) {
		switch (c) {
		case 'r': o->repo = optarg; break;
		case 't': o->tooling = optarg; break;
		case 'b': o->base = optarg; break;
		case 'h': o->head = optarg; break;
		case 'w': o->workspace = optarg; break;
		case 'c': o->toolchain = optarg; break;
		case 'd': o->deps = optarg; break;
		case 'q': o->quiet = 1; break;
		case 'k': o->keep_logs = 1; break;
		case O_PREBUILD: o->prebuild_timeout = parse_seconds(optarg, "--prebuild-timeout"); break;
		case O_SAMPLE: o->sample_timeout = parse_seconds(optarg, "--sample-timeout"); break;
		case O_PHASE: o->phase_timeout = parse_seconds(optarg, "--phase-timeout"); break;
		case O_BWRAP: o->bwrap = optarg; break;
		case O_RATIO: o->thr_ratio = optarg; break;
		case O_DELTA: o->thr_delta = optarg; break;
		case O_ADDED: o->thr_added = optarg; break;
		case O_USER: user = optarg; break;
		case O_TMP: o->tmp_size = optarg; break;
		case 'H': fputs(usage, stdout); exit(0);
		default:
			sc_die_bad_option(longopts, argv[optind - 1]);
		}
	}
	if (optind < argc)
		sc_die("unexpected argument (%s)", argv[optind]);
	unsigned uid, gid;
	unsigned long long bytes;
	struct strbuf err = STRBUF_INIT;
	if (sc_sandbox_user(user, &uid, &gid, &err) < 0)
		sc_die("%s", err.buf);
	o->sandbox_user = xasprintf("%u:%u", uid, gid);
	if (o->tmp_size && sc_sandbox_tmp_size(o->tmp_size, &bytes) < 0)
		sc_die("--tmp-size wants bytes (K, M, G suffixes allowed), at least 1M (--tmp-size %s)",
		       o->tmp_size);
	const struct { const char *v, *flag; } required[] = {
		{o->repo, "--repo"}, {o->tooling, "--tooling"}, {o->base, "--base"},
		{o->head, "--head"}, {o->workspace, "--workspace"}, {o->toolchain, "--toolchain"},
		{o->deps, "--dependencies"},
	};
	for (size_t i = 0; i < sizeof required / sizeof *required; i++)
		if (!required[i].v || !*required[i].v)
			sc_die("missing required option (%s)", required[i].flag);
}

static void progress(struct run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void progress(struct run *r, const char *fmt, ...)
{
	if (r->o.quiet)
		return;
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "[%d/%d] ", r->step, r->steps);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	fflush(stderr);
	va_end(ap);
}

static void stop_if_interrupted(struct run *r)
{
	int sig = sc_stage_interrupted();
	if (sig)
		sc_die_code(128 + sig, "interrupted by signal %d; the workspace is incomplete (%s)", sig,
		            r->ws ? r->ws : r->o.workspace);
}

static void check_gnu_time(void)
{
	if (sc_gnu_time_check_version() < 0)
		sc_die("GNU time is required: %s (%s; apt-get install time)",
		       errno == ENOEXEC ? "its --version does not say GNU Time" : strerror(errno),
		       SC_GNU_TIME_PATH);
}

/* 1. What needs neither the plan nor the workspace: a failure here leaves
 * nothing behind.  The workspace must not exist yet (mkdir claims it only
 * after every precondition held) and, resolved through its parent, must
 * not lie in or around the toolchain or the dependencies. */
static void check_host(struct run *r)
{
	struct utsname u;
	if (uname(&u) < 0 || strcmp(u.sysname, "Linux") != 0)
		sc_die("profile-run needs Linux namespaces (uname: %s)", u.sysname);
	check_gnu_time();
	struct stat st;
	if (stat(r->o.toolchain, &st) < 0 || !S_ISDIR(st.st_mode))
		sc_die("toolchain folder is missing (--toolchain %s)", r->o.toolchain);
	if (stat(r->o.deps, &st) < 0 || !S_ISDIR(st.st_mode))
		sc_die("dependencies folder is missing (--dependencies %s)", r->o.deps);
	if (sc_paths_overlap(r->o.deps, r->o.toolchain))
		sc_die("dependencies and toolchain overlap (--dependencies %s)", r->o.deps);
	const char *ws = r->o.workspace;
	if (lstat(ws, &st) == 0)
		sc_die("workspace already exists; runs are never resumed or overwritten (%s)", ws);
	char *pdir = sc_workspace_parent(ws);
	char parent[PATH_MAX], tc[PATH_MAX], deps[PATH_MAX];
	if (realpath(pdir, parent) && realpath(r->o.toolchain, tc) && realpath(r->o.deps, deps)) {
		char *future = xasprintf("%s/%s", parent, strrchr(ws, '/') ? strrchr(ws, '/') + 1 : ws);
		if (sc_path_within(future, tc) || sc_path_within(tc, future))
			sc_die("toolchain and workspace overlap (--toolchain %s)", r->o.toolchain);
		if (sc_path_within(future, deps) || sc_path_within(deps, future))
			sc_die("dependencies and workspace overlap (--dependencies %s)", r->o.deps);
		free(future);
	}
	free(pdir);
}

/* 4. A fresh workspace, claimed with mkdir so two runs can never share it;
 * from here on an error line says that the folder must be removed. */
static void claim_workspace(struct run *r)
{
	r->ws = sc_workspace_claim(r->o.workspace, r->plan_json.buf, r->plan_json.len);
}

/* 2. The plan, kept byte for byte: its digest binds every sample. */
static void make_plan(struct run *r)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	const char *args[] = {"--repo", r->o.repo, "--tooling", r->o.tooling, "--base", r->o.base,
	                      "--head", r->o.head, NULL};
	int rc = sc_stage_run(r->dir, "plan", args, &out);
	stop_if_interrupted(r);
	if (rc != 0)
		exit(SC_EXIT_USAGE); /* sc-plan said why */
	sc_plan_digest(out.buf, out.len, r->digest);
	if (sc_plan_from_json(out.buf, out.len, &r->plan, &err) < 0)
		sc_die_code(SC_EXIT_FAIL, "sc-plan wrote an invalid plan: %s", err.buf);
	r->plan_json = out;
	sb_release(&err);

	unsigned char raw[SC_RUN_ID_HEXSZ / 2];
	if (getrandom(raw, sizeof raw, 0) != (ssize_t)sizeof raw)
		sc_die_errno("cannot draw a run ID (getrandom)");
	sc_hex(raw, sizeof raw, r->run_id);
}

static void read_manifest(struct run *r, struct sc_manifest *m)
{
	memset(m, 0, sizeof *m);
	const char *blob = r->plan.lake_blobs[SC_LAKE_MANIFEST];
	if (!blob)
		return;
	struct sc_git g;
	sc_git_open(&g, r->o.repo);
	struct sc_catfile *c = sc_catfile_open(&g);
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	char type[16];
	if (sc_catfile_read(c, blob, type, &text) < 0 || strcmp(type, "blob") != 0)
		sc_die("cannot read lake-manifest.json blob %s (--repo %s)", blob, r->o.repo);
	sc_catfile_close(c);
	sc_git_close(&g);
	if (sc_manifest_parse(text.buf, text.len, m, &err) < 0)
		sc_die("%s (lake-manifest.json at %.12s)", err.buf, r->plan.tooling);
	sb_release(&text);
	sb_release(&err);
}

/* The operator's bubblewrap, when named, for every sandbox-exec call; the
 * sandbox user and /tmp size for every call that starts a sandbox. */
static void push_bwrap(const struct run *r, struct sc_argv *a, int sandbox)
{
	if (r->o.bwrap) {
		sc_argv_push(a, "--bwrap");
		sc_argv_push(a, r->o.bwrap);
	}
	if (!sandbox)
		return;
	sc_argv_push(a, "--sandbox-user");
	sc_argv_push(a, r->o.sandbox_user);
	if (r->o.tmp_size) {
		sc_argv_push(a, "--tmp-size");
		sc_argv_push(a, r->o.tmp_size);
	}
}

static void sandbox_check_start(struct run *r, const char *const *args, struct sc_stage *s,
                                int sandbox)
{
	struct sc_argv a = SC_ARGV_INIT;
	for (const char *const *p = args; *p; p++)
		sc_argv_push(&a, *p);
	push_bwrap(r, &a, sandbox);
	sc_stage_start(s, r->dir, "sandbox-exec", a.v, SC_STAGE_ALL_OUTPUT);
	sc_argv_release(&a);
}

/* A failed check's own error line is the diagnostic; its success report is
 * not repeated here. */
static void sandbox_check_finish(struct run *r, struct sc_stage *s)
{
	struct strbuf out = STRBUF_INIT;
	int rc = sc_stage_finish(s, &out);
	stop_if_interrupted(r);
	if (rc != 0 && r->ws) {
		/* One line still, ours, saying the workspace stays. */
		static const char prefix[] = "sc-sandbox-exec: error: ";
		const char *line = out.buf;
		if (strncmp(line, prefix, sizeof prefix - 1) == 0)
			line += sizeof prefix - 1;
		sc_die("the sandbox self-test failed: %.*s", (int)strcspn(line, "\n"), line);
	}
	if (rc != 0) {
		fwrite(out.buf, 1, out.len, stderr);
		exit(SC_EXIT_USAGE);
	}
	sb_release(&out);
}

/* Run as root, the sandbox runs as another user, which must reach what
 * bwrap mounts: the toolchain, the dependencies and (through the folder
 * that will hold it) the workspace, which does not exist yet. */
static void check_reachable(struct run *r)
{
	unsigned uid, gid;
	if (geteuid() != 0 || sscanf(r->o.sandbox_user, "%u:%u", &uid, &gid) != 2)
		return;
	char *ws_parent = sc_workspace_parent(r->o.workspace);
	const char *paths[] = {ws_parent, r->o.toolchain, r->o.deps};
	const char *flags[] = {"--workspace", "--toolchain", "--dependencies"};
	struct strbuf err = STRBUF_INIT;
	for (int i = 0; i < 3; i++)
		if (sc_sandbox_can_reach(paths[i], uid, gid, &err) < 0)
			sc_die("%s: give it search permission (%s)", err.buf, flags[i]);
	sb_release(&err);
	free(ws_parent);
}

/* 3. Everything that must hold before candidate code runs, still before
 * the workspace exists.  The pin comes first: the self-test runs bwrap.
 * The self-test then burns CPU for a while, so it is left running
 * (self_test) beside the other checks and the materializing; it is waited
 * for before anything else happens. */
static void check_preconditions(struct run *r, struct sc_stage *self_test)
{
	struct strbuf err = STRBUF_INIT;
	check_reachable(r);
	if (!r->plan.bwrap_sha256 || !r->plan.bwrap_version)
		sc_die("no bubblewrap pin: set sandbox.bwrapSha256 and sandbox.bwrapVersion "
		       "(.sphereceti at %.12s)", r->plan.tooling);
	struct sc_stage check;
	const char *pin[] = {"--check-bwrap", r->plan.bwrap_sha256, r->plan.bwrap_version, NULL};
	sandbox_check_start(r, pin, &check, 0);
	sandbox_check_finish(r, &check);
	const char *self_test_args[] = {"--self-test", NULL};
	sandbox_check_start(r, self_test_args, self_test, 1);

	if (sc_check_toolchain(r->o.toolchain, r->plan.lean_toolchain, &r->tc, &err) < 0)
		sc_die("%s", err.buf);
	struct sc_manifest m;
	read_manifest(r, &m);
	if (sc_check_dependencies(r->o.deps, &m, &err) < 0)
		sc_die("%s", err.buf);
	sc_manifest_free(&m);
	sb_release(&err);
	stop_if_interrupted(r);
}

/* 4. Both trees from blobs, written side by side; kept in the workspace for
 * inspection.  A failed self-test is reported before a failed tree. */
static void materialize(struct run *r, struct sc_stage *self_test)
{
	char *plan_path = xasprintf("%s/plan.json", r->ws);
	struct sc_stage job[2];
	char *dest[2];
	for (int side = SC_SIDE_BASE; side <= SC_SIDE_HEAD; side++) {
		dest[side] = xasprintf("%s/%s", r->ws, sc_side_name(side));
		const char *args[] = {"--repo", r->o.repo, "--commit", sc_plan_side_rev(&r->plan, side),
		                      "--dest", dest[side], "--plan", plan_path, NULL};
		sc_stage_start(&job[side], r->dir, "materialize", args, SC_STAGE_ALL_OUTPUT);
	}
	sandbox_check_finish(r, self_test);
	for (int side = SC_SIDE_BASE; side <= SC_SIDE_HEAD; side++) {
		/* Its stdout is the summary, only written on success; on failure
		 * the output is its error line. */
		struct strbuf out = STRBUF_INIT;
		int rc = sc_stage_finish(&job[side], &out);
		stop_if_interrupted(r);
		if (rc != 0) {
			fwrite(out.buf, 1, out.len, stderr);
			sc_die_code(SC_EXIT_FAIL, "could not materialize the %s tree (%s)",
			            sc_side_name(side), dest[side]);
		}
		sb_release(&out);
		free(dest[side]);
	}
	free(plan_path);
	char *raw = xasprintf("%s/raw", r->ws);
	if (mkdir(raw, 0755) < 0)
		sc_die_errno("cannot create raw counter folder (%s)", raw);
	free(raw);
	/* Untrusted text lives apart from raw/, which is parsed. */
	char *logs = xasprintf("%s/logs", r->ws);
	if (r->o.keep_logs && mkdir(logs, 0755) < 0)
		sc_die_errno("cannot create the log folder (%s)", logs);
	free(logs);
}

static char *fmt_seconds(double s)
{
	return xasprintf("%.*f", s < 10 ? 2 : 1, s);
}

/* Record one sample line produced by sc-parse-time; returns it parsed. */
static int add_sample(struct run *r, const struct strbuf *line, struct sc_sample *s)
{
	struct strbuf err = STRBUF_INIT;
	if (sc_sample_from_json(line->buf, line->len, s, &err) < 0)
		sc_die_code(SC_EXIT_FAIL, "sc-parse-time wrote an invalid sample: %s", err.buf);
	sb_release(&err);
	sb_add(&r->samples, line->buf, line->len);
	if (!s->ok)
		r->measurement_failed = 1;
	return s->ok;
}

static void unmeasured(struct run *r, int side, const struct sc_plan_file *f, const char *reason,
                       const char *detail)
{
	char *sample = xasprintf("%s:%s", sc_side_name(side), f->id);
	const char *args[] = {"--unmeasured", reason, "--detail", detail, "--run-id", r->run_id,
	                      "--plan-digest", r->digest, "--revision",
	                      sc_plan_side_rev(&r->plan, side), "--sample", sample, NULL};
	struct strbuf out = STRBUF_INIT;
	int rc = sc_stage_run(r->dir, "parse-time", args, &out);
	if (rc != 0 && rc != 1)
		sc_die_code(SC_EXIT_FAIL, "sc-parse-time failed for %s", sample);
	struct sc_sample s;
	add_sample(r, &out, &s);
	sc_sample_free(&s);
	sb_release(&out);
	free(sample);
}

/* Where --keep-logs keeps one sandboxed invocation's output (malloc'd). */
static char *log_path(const struct run *r, int side, const char *name)
{
	return xasprintf("%s/logs/%s-%s.log", r->ws, sc_side_name(side), name);
}

/* What a failure line says about Lake's output (malloc'd). */
static char *output_hint(const struct run *r, int side, const char *name)
{
	if (!r->o.keep_logs)
		return xstrdup("rerun with --keep-logs to keep Lake's output");
	return xasprintf("Lake's output: logs/%s-%s.log", sc_side_name(side), name);
}

/* sc-parse-time on one raw time file and its status line, bound to this
 * run; the sample line is recorded and returned parsed. */
static int parse_raw(struct run *r, int side, const char *sample, const char *time_file,
                     const char *status_file, struct sc_sample *s)
{
	const char *args[] = {"--time-file", time_file, "--status", status_file, "--run-id",
	                      r->run_id, "--plan-digest", r->digest, "--revision",
	                      sc_plan_side_rev(&r->plan, side), "--sample", sample, NULL};
	struct strbuf out = STRBUF_INIT;
	int prc = sc_stage_run(r->dir, "parse-time", args, &out);
	stop_if_interrupted(r);
	if (prc != 0 && prc != 1)
		sc_die_code(SC_EXIT_FAIL, "sc-parse-time failed for %s (%s)", sample, time_file);
	int ok = add_sample(r, &out, s);
	sb_release(&out);
	return ok;
}

/* The prebuild's own counters go into the report as "<side>:@prebuild"
 * (rc: sc-sandbox-exec's; 0 and 1 left a status line and a time file). */
static void prebuild_sample(struct run *r, int side, int rc, const char *time_file,
                            const char *status_file)
{
	char *sample = xasprintf("%s:" SC_PREBUILD_ID, sc_side_name(side));
	struct sc_sample s;
	if (rc == 0 || rc == 1) {
		parse_raw(r, side, sample, time_file, status_file, &s);
	} else {
		const char *args[] = {"--unmeasured", "sandbox_failed", "--detail",
		                      "sc-sandbox-exec could not run the prebuild", "--run-id",
		                      r->run_id, "--plan-digest", r->digest, "--revision",
		                      sc_plan_side_rev(&r->plan, side), "--sample", sample, NULL};
		struct strbuf out = STRBUF_INIT;
		if (sc_stage_run(r->dir, "parse-time", args, &out) != 1)
			sc_die_code(SC_EXIT_FAIL, "sc-parse-time failed for %s", sample);
		add_sample(r, &out, &s);
		sb_release(&out);
	}
	sc_sample_free(&s);
	free(sample);
}

/* Run one command in the side's sandbox; the status line is kept beside the
 * raw counters.  Returns sc-sandbox-exec's exit code (2: did not run). */
static int sandboxed(struct run *r, int side, const char *name, double timeout,
                     const char *const *cmd, char **time_file, char **status_file)
{
	char *tree = xasprintf("%s/%s", r->ws, sc_side_name(side));
	*time_file = sc_workspace_raw(r->ws, sc_side_name(side), name, "time");
	*status_file = sc_workspace_raw(r->ws, sc_side_name(side), name, "status");
	char *timeout_s = xasprintf("%.3f", timeout);
	struct sc_argv a = SC_ARGV_INIT;
	const char *fixed[] = {"--tree", tree, "--toolchain", r->o.toolchain, "--dependencies",
	                       r->o.deps, "--time-file", *time_file, "--timeout", timeout_s, NULL};
	for (const char *const *p = fixed; *p; p++)
		sc_argv_push(&a, *p);
	if (r->o.keep_logs) {
		sc_argv_push(&a, "--log");
		sc_argv_push_owned(&a, log_path(r, side, name));
	}
	push_bwrap(r, &a, 1);
	sc_argv_push(&a, "--");
	for (const char *const *p = cmd; *p; p++)
		sc_argv_push(&a, *p);
	struct strbuf status = STRBUF_INIT;
	int rc = sc_stage_run(r->dir, "sandbox-exec", a.v, &status);
	if (status.len)
		sc_write_file_atomic_or_die(*status_file, status.buf, status.len, "status line");
	sb_release(&status);
	sc_argv_release(&a);
	free(tree);
	free(timeout_s);
	return rc;
}

/* The side's tree becomes the sandbox user's, links themselves and not
 * what they point at, right before candidate code first runs in it; the
 * workspace, raw/, the plan and the other side stay ours. */
static unsigned hand_uid, hand_gid;
static int hand_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return lchown(path, hand_uid, hand_gid) < 0 ? -1 : 0;
}

static void hand_over_tree(struct run *r, int side)
{
	if (geteuid() != 0)
		return;
	if (sscanf(r->o.sandbox_user, "%u:%u", &hand_uid, &hand_gid) != 2)
		sc_die("bad sandbox user (%s)", r->o.sandbox_user);
	char *tree = xasprintf("%s/%s", r->ws, sc_side_name(side));
	if (nftw(tree, hand_one, 64, FTW_PHYS) != 0)
		sc_die_errno("cannot hand the %s tree to the sandbox user %s (%s)", sc_side_name(side),
		             r->o.sandbox_user, tree);
	free(tree);
}

/* Candidate code ran in the tree (the prebuild, earlier samples): the file
 * about to be measured must still be the plan's blob.  1 if it is; else
 * the sample is the error source_changed. */
static int source_unchanged(struct run *r, int side, const struct sc_plan_file *f)
{
	char *tree = xasprintf("%s/%s", r->ws, sc_side_name(side));
	struct strbuf why = STRBUF_INIT;
	const char *blob = side == SC_SIDE_BASE ? f->base_blob : f->head_blob;
	int same = sc_source_is_blob(tree, f->path, blob, &why);
	if (!same) {
		char *detail = xasprintf("%s is not the plan's blob %.12s before its sample: %s", f->path,
		                         blob, why.buf);
		unmeasured(r, side, f, "source_changed", detail);
		progress(r, "%s %s: not run (source changed: %s)", sc_side_name(side), f->path, why.buf);
		free(detail);
	}
	sb_release(&why);
	free(tree);
	return same;
}

/* 1 when the status line says the command ran out of time. */
static int timed_out(const char *status_file)
{
	struct strbuf buf = STRBUF_INIT, err = STRBUF_INIT;
	struct sc_status st = {0};
	int t = sc_read_file(status_file, &buf, 4096) == 0 &&
	        sc_status_from_json(buf.buf, buf.len, &st, &err) == 0 && st.timed_out;
	sb_release(&buf);
	sb_release(&err);
	return t;
}

/* Lake loads the workspace read-only before anything is built (DESIGN.md
 * "Real Lake": git in every dependency, the lakefile.lean config cache). */
static void preflight(struct run *r, int side)
{
	const char *cmd[] = {"lake", "env", "true", NULL};
	char *time_file, *status_file;
	int rc = sandboxed(r, side, "preflight", r->o.prebuild_timeout, cmd, &time_file, &status_file);
	stop_if_interrupted(r);
	if (rc != 0) {
		char *hint = output_hint(r, side, "preflight");
		sc_die_code(SC_EXIT_USAGE,
		            "Lake could not load the %s workspace in the sandbox: likely a dependency not "
		            "prepared in a checkout of T with this toolchain (HEAD not at its manifest rev, a "
		            "missing lakefile.lean config cache) or git refusing its owner; prepare --dependencies "
		            "with `lake build` in a trusted checkout of T; %s (%s)",
		            sc_side_name(side), hint, r->o.deps);
	}
	free(time_file);
	free(status_file);
}

/* 1 built, 0 failed, -1 ran out of time.  `+Mod:deps` builds each selected
 * module's import cone but not the module (Build/Facets.lean), so the
 * module is elaborated once per side, in its sample. */
static int prebuild(struct run *r, int side)
{
	struct sc_argv cmd = SC_ARGV_INIT;
	size_t nmod = 0;
	sc_argv_push(&cmd, "lake");
	sc_argv_push(&cmd, "build");
	for (size_t i = 0; i < r->plan.n_files; i++) {
		const struct sc_plan_file *f = &r->plan.files[i];
		if (sc_change_on_side(f->change, side)) {
			sc_argv_push_owned(&cmd, xasprintf("+%s:deps", f->module));
			nmod++;
		}
	}
	char *time_file, *status_file;
	double t0 = sc_monotonic_now();
	int rc = sandboxed(r, side, "prebuild", r->o.prebuild_timeout, cmd.v, &time_file, &status_file);
	double wall = sc_monotonic_now() - t0;
	stop_if_interrupted(r);
	prebuild_sample(r, side, rc, time_file, status_file);
	r->step++;
	int late = rc == 1 && timed_out(status_file);
	char *hint = output_hint(r, side, "prebuild");
	if (rc == 0)
		progress(r, "%s prebuild (%zu module%s): %.1f s wall", sc_side_name(side), nmod,
		         nmod == 1 ? "" : "s", wall);
	else
		progress(r, "%s prebuild (%zu module%s): FAILED (%s; %s)", sc_side_name(side), nmod,
		         nmod == 1 ? "" : "s", rc == 2 ? "sandbox did not run" : late ? "prebuild_timeout" :
		         "lake build failed", hint);
	free(hint);
	sc_argv_release(&cmd);
	free(time_file);
	free(status_file);
	return rc == 0 ? 1 : late ? -1 : 0;
}

static void sample_file(struct run *r, int side, const struct sc_plan_file *f, double phase_start)
{
	double left = sc_phase_left(r->o.phase_timeout, phase_start, sc_monotonic_now());
	r->step++;
	if (!sc_phase_can_start(left)) {
		unmeasured(r, side, f, "deadline_exceeded", "the timed phase budget was spent");
		progress(r, "%s %s: not run (phase budget spent)", sc_side_name(side), f->path);
		return;
	}
	if (!source_unchanged(r, side, f))
		return;
	double timeout = sc_sample_timeout(left, r->o.sample_timeout);
	/* `lake lean` passes the package's leanOptions (CLI/Help.lean helpLean);
	 * `lake env lean` would drop them. */
	const char *cmd[] = {"lake", "lean", f->path, "--", "-j1", NULL};
	char *time_file, *status_file;
	int rc = sandboxed(r, side, f->id, timeout, cmd, &time_file, &status_file);
	stop_if_interrupted(r);
	/* 2: it did not run; 128+N: sc-sandbox-exec itself was killed (its
	 * sandbox ends with it) and left no status line. */
	if (rc != 0 && rc != 1) {
		unmeasured(r, side, f, "sandbox_failed", "sc-sandbox-exec could not run the sample");
		progress(r, "%s %s: sandbox did not run", sc_side_name(side), f->path);
		free(time_file);
		free(status_file);
		return;
	}
	char *sample = xasprintf("%s:%s", sc_side_name(side), f->id);
	struct sc_sample s;
	if (parse_raw(r, side, sample, time_file, status_file, &s)) {
		char *cpu = fmt_seconds(s.cpu_s), *wall = fmt_seconds(s.wall_s);
		progress(r, "%s %s: %s s CPU, %s s wall", sc_side_name(side), f->path, cpu, wall);
		free(cpu);
		free(wall);
	} else {
		char *hint = r->o.keep_logs ? output_hint(r, side, f->id) : xstrdup("");
		progress(r, "%s %s: FAILED (%s%s%s)", sc_side_name(side), f->path, s.error, *hint ? "; " : "",
		         hint);
		free(hint);
	}
	sc_sample_free(&s);
	free(sample);
	free(time_file);
	free(status_file);
}

/* 5. Sides one at a time, samples one at a time. */
static void measure(struct run *r)
{
	size_t on_side[2];
	r->steps = sc_schedule_steps(&r->plan, on_side);

	/* The phase budget covers timed samples only, never the prebuilds. */
	double phase_used = 0;
	for (int side = SC_SIDE_BASE; side <= SC_SIDE_HEAD; side++) {
		if (!on_side[side])
			continue;
		hand_over_tree(r, side);
		preflight(r, side);
		int built = prebuild(r, side);
		double phase_start = sc_phase_resume(phase_used, sc_monotonic_now());
		for (size_t i = 0; i < r->plan.n_files; i++) {
			const struct sc_plan_file *f = &r->plan.files[i];
			if (!sc_change_on_side(f->change, side))
				continue;
			if (built != 1) {
				r->step++;
				char *hint = output_hint(r, side, "prebuild");
				char *detail = xasprintf("lake build of this side's selected modules %s (%s)",
				                         built ? "ran out of time" : "failed", hint);
				unmeasured(r, side, f, built ? "prebuild_timeout" : "prebuild_failed", detail);
				free(detail);
				free(hint);
				progress(r, "%s %s: not run (%s)", sc_side_name(side), f->path,
				         built ? "prebuild_timeout" : "prebuild failed");
				continue;
			}
			sample_file(r, side, f, phase_start);
		}
		phase_used = sc_monotonic_now() - phase_start;
	}
}

/* 6. The report; its exit code is ours. */
static int report(struct run *r)
{
	char *samples = xasprintf("%s/samples.jsonl", r->ws);
	sc_write_file_atomic_or_die(samples, r->samples.buf, r->samples.len,
	                            "samples");
	struct sc_argv a = SC_ARGV_INIT;
	char *plan = xasprintf("%s/plan.json", r->ws);
	const char *fixed[] = {"--plan", plan, "--samples", samples, "--out-dir", r->ws,
	                       "--run-id", r->run_id, "--sandbox-user", r->o.sandbox_user, NULL};
	for (const char *const *p = fixed; *p; p++)
		sc_argv_push(&a, *p);
	if (r->tc.version_line) {
		sc_argv_push(&a, "--lean-version");
		sc_argv_push(&a, r->tc.version_line);
		sc_argv_push(&a, "--lean-sha256");
		sc_argv_push(&a, r->tc.lean_sha256);
		sc_argv_push(&a, "--lake-sha256");
		sc_argv_push(&a, r->tc.lake_sha256);
	}
	const struct { const char *v, *flag; } knobs[] = {
		{r->o.thr_ratio, "--threshold-ratio"},
		{r->o.thr_delta, "--threshold-delta"},
		{r->o.thr_added, "--threshold-added"},
	};
	for (size_t i = 0; i < 3; i++)
		if (knobs[i].v) {
			sc_argv_push(&a, knobs[i].flag);
			sc_argv_push(&a, knobs[i].v);
		}
	int rc = sc_stage_run(r->dir, "report", a.v, NULL);
	stop_if_interrupted(r);
	sc_argv_release(&a);
	free(plan);
	free(samples);
	if (rc != 0 && rc != 1)
		sc_die_code(SC_EXIT_FAIL, "sc-report failed (exit %d); no report was written (%s)", rc,
		            r->ws);
	/* Exit 1 is also how sc-report says it could not write (a full disk):
	 * report.json, written last, is what makes the report whole. */
	char *json = xasprintf("%s/report.json", r->ws);
	struct stat st;
	if (stat(json, &st) < 0)
		sc_die_code(SC_EXIT_FAIL, "sc-report wrote no report.json; the workspace is incomplete (%s)",
		            r->ws);

	sc_workspace_complete(r->ws);

	/* The report's headline, plain text, where the person looks. */
	char *md = xasprintf("%s/report.md", r->ws);
	struct strbuf text = STRBUF_INIT;
	if (sc_report_read_headline(json, &text) == 0)
		printf("%s\n", text.buf);
	printf("report: %s\n", md);
	printf("report: %s/report.json\n", r->ws);
	fflush(stdout);
	sb_release(&text);
	free(md);
	free(json);
	return rc == 0 && !r->measurement_failed ? 0 : SC_EXIT_FAIL;
}

int main(int argc, char **argv)
{
	sc_set_progname("sc-profile-run");
	sc_check_stdout_at_exit();
	struct run r;
	memset(&r, 0, sizeof r);
	sb_init(&r.plan_json);
	sb_init(&r.samples);
	parse_args(argc, argv, &r.o);
	r.dir = sc_exec_dir();
	sc_stage_init_signals();

	check_host(&r);
	make_plan(&r);
	struct sc_stage self_test;
	check_preconditions(&r, &self_test);
	claim_workspace(&r);
	if (!r.plan.no_changes) {
		materialize(&r, &self_test);
		measure(&r);
	} else {
		sandbox_check_finish(&r, &self_test);
		if (!r.o.quiet)
			fprintf(stderr, "no changed library or roadmap Lean files: nothing to measure\n");
	}
	int rc = report(&r);
	sc_plan_free(&r.plan);
	sc_toolchain_info_free(&r.tc);
	sb_release(&r.samples);
	sb_release(&r.plan_json);
	free(r.ws);
	free(r.o.sandbox_user);
	free(r.dir);
	return rc;
}
