/* sc-parse-time: turn one raw GNU time file and its sandbox status line into
 * one sample bound to its run, plan, revision and file.  Anything doubtful
 * becomes an error sample, never a number: its option table and one call,
 * sc_parse_time (contract/rawsample.h).  See man/sc-parse-time.1. */
#include "contract/rawsample.h"
#include "util/closeout.h"
#include "util/die.h"
#include "util/options.h"

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

int main(int argc, char **argv)
{
	static struct sc_parse_time_request rq;
	static const struct sc_option opts[] = {
		SC_OPT_STRING(0, "time-file", &rq.time_file, "FILE", "the raw counters GNU time wrote"),
		SC_OPT_STRING(0, "status", &rq.status, "FILE|-", "sc-sandbox-exec's status line"),
		SC_OPT_REQUIRED_STRING(0, "run-id", &rq.run_id, "ID", "32 lowercase hex digits"),
		SC_OPT_REQUIRED_STRING(0, "plan-digest", &rq.digest, "HEX", "the plan's SHA-256"),
		SC_OPT_REQUIRED_STRING(0, "revision", &rq.rev, "SHA", "the side's commit (a full object ID)"),
		SC_OPT_REQUIRED_STRING(0, "sample", &rq.sample, "SIDE:ID",
		                       "base:MODULE, head:MODULE or SIDE:@prebuild"),
		SC_OPT_STRING(0, "unmeasured", &rq.unmeasured, "REASON",
		              "an error sample for a sample that never ran"),
		SC_OPT_STRING(0, "detail", &rq.detail, "TEXT", "with --unmeasured: the sample's detail"),
		SC_OPT_END(),
	};
	static const struct sc_command cmd = {usage, NULL};
	sc_set_progname(argv[0]);
	sc_check_stdout_at_exit();
	sc_parse_options(argc, argv, opts, &cmd, SC_PARSE_NO_ARGS);
	return sc_parse_time(&rq);
}
