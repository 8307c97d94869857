/* sc-parse-time: turn one raw GNU time file and its sandbox status line into
 * one sample bound to its run, plan, revision and file.  Anything doubtful
 * becomes an error sample, never a number.  See man/sc-parse-time.1. */
#include "contract/rawsample.h"
#include "contract/sample.h"
#include "util/closeout.h"
#include "util/die.h"
#include "util/oid.h"
#include "util/options.h"
#include "util/spawn.h"
#include "util/safefile.h"
#include "util/strbuf.h"

#include <stdlib.h>
#include <string.h>

static const char *const usage[] = {
	"usage: sc-parse-time --time-file FILE --status FILE|- BINDING",
	"   or: sc-parse-time --unmeasured REASON [--detail TEXT] BINDING",
	"BINDING: --run-id ID --plan-digest HEX --revision SHA",
	"         --sample base:MOD|head:MOD|base:@prebuild|head:@prebuild",
	"",
	"Prints one sphereceti.sample/1 line: the counters, or an error sample.",
	"See man sc-parse-time.",
	NULL,
};

static struct {
	const char *time_file, *status, *run_id, *digest, *rev, *sample, *unmeasured, *detail;
} o;

static const struct sc_option opts[] = {
	SC_OPT_STRING(0, "time-file", &o.time_file, "FILE", "the raw counters GNU time wrote"),
	SC_OPT_STRING(0, "status", &o.status, "FILE|-", "sc-sandbox-exec's status line"),
	SC_OPT_REQUIRED_STRING(0, "run-id", &o.run_id, "ID", "32 lowercase hex digits"),
	SC_OPT_REQUIRED_STRING(0, "plan-digest", &o.digest, "HEX", "the plan's SHA-256"),
	SC_OPT_REQUIRED_STRING(0, "revision", &o.rev, "SHA", "the side's commit (a full object ID)"),
	SC_OPT_REQUIRED_STRING(0, "sample", &o.sample, "SIDE:ID", "base:MODULE, head:MODULE or SIDE:@prebuild"),
	SC_OPT_STRING(0, "unmeasured", &o.unmeasured, "REASON", "an error sample for a sample that never ran"),
	SC_OPT_STRING(0, "detail", &o.detail, "TEXT", "with --unmeasured: the sample's detail"),
	SC_OPT_END(),
};

static const struct sc_command cmd = {usage, NULL};

static struct sc_sample sample;

static _Noreturn void emit(void)
{
	struct strbuf out = STRBUF_INIT;
	sc_sample_to_json(&sample, &out);
	if (sc_write_all(1, out.buf, out.len) < 0)
		sc_die_sys_errno("cannot write the sample (stdout)");
	sb_release(&out);
	exit(sample.ok ? SC_EXIT_OK : SC_EXIT_FAIL);
}

static void read_status(const char *path, struct strbuf *sb)
{
	if (strcmp(path, "-") == 0) {
		if (sc_read_all(0, sb) < 0)
			sc_die_sys_errno("cannot read the status line (stdin)");
		if (sb->len > SC_RAW_INPUT_MAX)
			sc_die("the status input is too large (stdin)");
	} else if (sc_read_file(path, sb, SC_RAW_INPUT_MAX) < 0) {
		sc_die_path_errno("cannot read the status line (%s)", path);
	}
}

static _Noreturn void measured(const char *time_path, const char *status_path)
{
	struct strbuf sb = STRBUF_INIT;
	read_status(status_path, &sb);
	sc_sample_from_raw(&sample, sb.buf, sb.len, time_path);
	sb_release(&sb);
	emit();
}

/* The binding every sample carries, checked. */
static void bind(char digest[65], char rev[65])
{
	if (!sc_is_lower_hex(o.run_id, SC_RUN_ID_HEXSZ))
		sc_die("--run-id is not 32 lowercase hex digits (%s)", o.run_id);
	if (sc_oid_normalize(o.digest, 64, digest) < 0)
		sc_die("--plan-digest is not a SHA-256 hex digest (%s)", o.digest);
	if (sc_oid_normalize(o.rev, 40, rev) < 0 && sc_oid_normalize(o.rev, 64, rev) < 0)
		sc_die("--revision is not a full object ID (%s)", o.rev);
	if (sc_sample_side(o.sample) < 0)
		sc_die("--sample is not base:MODULE, head:MODULE, base:@prebuild or head:@prebuild (%s)",
		       o.sample);
	sample.run_id = (char *)o.run_id;
	sample.plan_digest = digest;
	sample.revision = rev;
	sample.sample = (char *)o.sample;
}

static _Noreturn void unmeasured(void)
{
	if (o.time_file || o.status)
		sc_die("--unmeasured excludes --time-file and --status (see %s --help)", sc_progname());
	if (!sc_is_error_reason(o.unmeasured))
		sc_die("--unmeasured needs a known error reason (%s)", o.unmeasured);
	sc_sample_unmeasured(&sample, o.unmeasured, o.detail);
	emit();
}

int main(int argc, char **argv)
{
	sc_set_progname(argv[0]);
	sc_check_stdout_at_exit();
	sc_parse_options(argc, argv, opts, &cmd, SC_PARSE_NO_ARGS);
	char digest[65], rev[65];
	bind(digest, rev);
	if (o.unmeasured)
		unmeasured();
	if (o.detail)
		sc_die("--detail goes with --unmeasured (see %s --help)", sc_progname());
	if (!o.time_file || !o.status)
		sc_die("--time-file and --status are required (see %s --help)", sc_progname());
	measured(o.time_file, o.status);
}
