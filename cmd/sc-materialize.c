/* sc-materialize: write one commit's tree into a new directory from raw
 * blobs, as the measured source tree of one side: its option table and one
 * call, sc_materialize (plan/materialize.h).  See sc-materialize(1). */
#include "plan/materialize.h"
#include "util/closeout.h"
#include "util/die.h"
#include "util/options.h"

static const char *const usage[] = {
	"usage: sc-materialize --repo DIR --commit C --dest NEWDIR [--plan FILE]",
	"Write the tree of commit C into the new directory NEWDIR from raw blobs;",
	"print a summary (JSON).",
	NULL,
};

int main(int argc, char **argv)
{
	static struct sc_materialize_request rq;
	static const struct sc_option opts[] = {
		SC_OPT_REQUIRED_STRING(0, "repo", &rq.repo, "DIR", "the Git repository"),
		SC_OPT_REQUIRED_STRING(0, "commit", &rq.commit, "C", "the commit to write (a full object ID)"),
		SC_OPT_REQUIRED_STRING(0, "dest", &rq.dest, "NEWDIR", "the directory to create"),
		SC_OPT_STRING(0, "plan", &rq.plan, "FILE", "a plan: C is its merge_base or head"),
		SC_OPT_END(),
	};
	static const struct sc_command cmd = {usage, NULL};
	sc_set_progname("sc-materialize");
	sc_check_stdout_at_exit();
	sc_parse_options(argc, argv, opts, &cmd, SC_PARSE_NO_ARGS);
	sc_materialize(&rq);
	return 0;
}
