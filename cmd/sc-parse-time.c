/* sc-parse-time: turn one raw GNU time file and its sandbox status line into
 * one sample bound to its run, plan, revision and file.  Anything doubtful
 * becomes an error sample, never a number.  This file owns the program: its
 * options, its two modes (the two raw files, or --unmeasured) and their
 * rules, the binding's checks and their messages; the decision itself is
 * contract/rawsample's, the one the porcelain makes in-process.  See
 * man/sc-parse-time.1. */
#include "contract/rawsample.h"
#include "util/decimal.h"
#include "util/closeout.h"
#include "util/die.h"
#include "util/oid.h"
#include "util/options.h"
#include "util/safefile.h"
#include "util/spawn.h"
#include "util/strbuf.h"

#include <stdlib.h>
#include <string.h>

static const char *const usage[] = {
	"usage: sc-parse-time --time-file FILE --status FILE|- BINDING",
	"   or: sc-parse-time --unmeasured REASON [--detail TEXT] BINDING",
	"BINDING: --run-id ID --plan-digest HEX --revision SHA",
	"         --sample base:MOD|head:MOD|base:@prebuild|head:@prebuild [--repeat K] [--shard K]",
	"",
	"Prints one sphereceti.sample/1 line: the counters, or an error sample.",
	"See man sc-parse-time.",
	NULL,
};

/* What the options named, as given. */
static const char *time_file, *status; /* status: a file or "-" (stdin) */
static const char *run_id, *digest_opt, *rev_opt, *sample_id, *repeat, *shard; /* the binding */
static const char *unmeasured, *detail;                     /* instead of the two files */

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

/* The binding every sample carries, checked and named by its flag. */
static void bind(struct sc_sample *s, char digest[65], char rev[65])
{
	if (!sc_is_lower_hex(run_id, SC_RUN_ID_HEXSZ))
		sc_die("--run-id is not 32 lowercase hex digits (%s)", run_id);
	if (sc_oid_normalize(digest_opt, 64, digest) < 0)
		sc_die("--plan-digest is not a SHA-256 hex digest (%s)", digest_opt);
	if (sc_oid_normalize(rev_opt, 40, rev) < 0 && sc_oid_normalize(rev_opt, 64, rev) < 0)
		sc_die("--revision is not a full object ID (%s)", rev_opt);
	if (sc_sample_side(sample_id) < 0)
		sc_die("--sample is not base:MODULE, head:MODULE, base:@prebuild or head:@prebuild (%s)",
		       sample_id);
	if (repeat && (sc_decimal_uint(repeat, 1, SC_MAX_REPEATS, &s->repeat) < 0 ||
	               sc_sample_prebuild_side(sample_id) >= 0))
		sc_die("--repeat wants a file's sample's repeat, 1 to %d (--repeat %s)", SC_MAX_REPEATS,
		       repeat);
	if (shard && sc_decimal_uint(shard, 1, SC_MAX_SHARDS, &s->shard) < 0)
		sc_die("--shard wants the plan's shard the run measures, 1 to %d (--shard %s)",
		       SC_MAX_SHARDS, shard);
	s->run_id = (char *)run_id;
	s->plan_digest = digest;
	s->revision = rev;
	s->sample = (char *)sample_id;
}

int main(int argc, char **argv)
{
	static const struct sc_option opts[] = {
		SC_OPT_STRING(0, "time-file", &time_file, "FILE", "the raw counters GNU time wrote"),
		SC_OPT_STRING(0, "status", &status, "FILE|-", "sc-sandbox-exec's status line"),
		SC_OPT_REQUIRED_STRING(0, "run-id", &run_id, "ID", "32 lowercase hex digits"),
		SC_OPT_REQUIRED_STRING(0, "plan-digest", &digest_opt, "HEX", "the plan's SHA-256"),
		SC_OPT_REQUIRED_STRING(0, "revision", &rev_opt, "SHA", "the side's commit (a full object ID)"),
		SC_OPT_REQUIRED_STRING(0, "sample", &sample_id, "SIDE:ID",
		                       "base:MODULE, head:MODULE or SIDE:@prebuild"),
		SC_OPT_STRING(0, "repeat", &repeat, "K", "the K-th repeat of the file's sample (1-4)"),
		SC_OPT_STRING(0, "shard", &shard, "K", "the plan's shard the run measures (1-256)"),
		SC_OPT_STRING(0, "unmeasured", &unmeasured, "REASON",
		              "an error sample for a sample that never ran"),
		SC_OPT_STRING(0, "detail", &detail, "TEXT", "with --unmeasured: the sample's detail"),
		SC_OPT_END(),
	};
	static const struct sc_command cmd = {usage, NULL};
	sc_set_progname(argv[0]);
	sc_check_stdout_at_exit();
	sc_parse_options(argc, argv, opts, &cmd, SC_PARSE_NO_ARGS);

	struct sc_sample s = {0};
	char digest[65], rev[65];
	bind(&s, digest, rev);
	if (unmeasured) {
		if (time_file || status)
			sc_die("--unmeasured excludes --time-file and --status (see %s --help)", sc_progname());
		enum sc_sample_error reason = sc_sample_error_of(unmeasured);
		if (!reason)
			sc_die("--unmeasured needs a known error reason (%s)", unmeasured);
		sc_sample_unmeasured(&s, reason, detail);
	} else {
		if (detail)
			sc_die("--detail goes with --unmeasured (see %s --help)", sc_progname());
		if (!time_file || !status)
			sc_die("--time-file and --status are required (see %s --help)", sc_progname());
		struct strbuf sb = STRBUF_INIT;
		read_status(status, &sb);
		sc_sample_from_raw(&s, sb.buf, sb.len, time_file);
		sb_release(&sb);
	}
	struct strbuf out = STRBUF_INIT;
	sc_sample_to_json(&s, &out);
	if (sc_write_all(1, out.buf, out.len) < 0)
		sc_die_sys_errno("cannot write the sample (stdout)");
	sb_release(&out);
	int code = s.ok ? SC_EXIT_OK : SC_EXIT_FAIL;
	free(s.detail);
	return code;
}
