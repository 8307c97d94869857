#ifndef SC_REPORT_ARGS_H
#define SC_REPORT_ARGS_H
/* What sc-report is given, as the operator spelled it, and the checks on
 * it (sc-report(1) OPTIONS): the values are checked after the option table
 * has parsed them, each with the message that names its option. */
#include "report/report.h"
#include "util/options.h"
#include "util/strbuf.h"

struct sc_report_args {
	const char *plan, *out_dir, *run_id;
	const char *lean_version, *lean_sha256, *lake_sha256, *sandbox_user;
	const char *ratio, *delta, *added; /* thresholds; NULL: the default */
	/* Where links point (NULL: https://github.com), and the CI run this
	 * report came from (both or neither). */
	const char *server_url, *ci_repository, *ci_run_id;
	int lake_cache; /* --lake-cache: the prebuilds read a trusted Lake artifact cache */
	const char *bwrap_sha256; /* a shard's report: the bubblewrap its runner used */
	struct sc_argv attribution; /* profile-run --attribute's runs (contract/attrlist.h), one a runner */
	struct sc_argv samples;
};

/* What the caller calls each value in a message (its option or its
 * environment variable): the program that owns the option names it. */
struct sc_report_arg_names {
	const char *run_id, *lean_version, *lean_sha256, *lake_sha256, *sandbox_user, *samples;
	const char *bwrap_sha256;
	const char *thresholds[3]; /* ratio, delta, added */
	const char *links[3];      /* server URL, CI repository, CI run ID */
};

/* Checks every value, in a fixed order, and sets th from the thresholds.
 * Returns 0, or -1 with the first problem, "what (where)", in err, the
 * value named as N names it.  All are bad input, the output directory
 * included (the operator named it). */
int sc_report_args_check(const struct sc_report_args *a, const struct sc_report_arg_names *n,
                         struct sc_thresholds *th, struct strbuf *err);

/* The thresholds alone (NULL: the default), as sc-report checks them, so
 * that profile-run refuses a bad one before anything runs; names[3] as in
 * struct sc_report_arg_names. */
int sc_report_thresholds_check(const char *ratio, const char *delta, const char *added,
                               const char *const names[3], struct sc_thresholds *th,
                               struct strbuf *err);

/* The link facts, as sc-report checks them; names[3] spell where each came
 * from in the message ("--server-url" or "GITHUB_SERVER_URL", ...), so that
 * profile-run refuses a bad one from its environment before anything runs.
 * Returns 0, or -1 with "what (where)" in err. */
int sc_report_links_check(const char *server_url, const char *ci_repository,
                          const char *ci_run_id, const char *const names[3],
                          struct strbuf *err);

/* "UID:GID", each a decimal below 2^32 without leading zeros. */
int sc_is_uid_gid(const char *s);

/* The environment block: the operator's facts from a, the host's platform
 * and machine from uname (copies, freed by sc_report_env_release).
 * Returns 0, or -1 with err set when uname fails or reports text that is
 * not one printable line: the machine, not the input, is at fault. */
int sc_report_env_init(struct sc_report_env *env, const struct sc_report_args *a,
                       struct strbuf *err);
void sc_report_env_release(struct sc_report_env *env);

/* One help text for each threshold, in sc-report's table and in the
 * porcelain's that checks it up front and passes it on. */
#define SC_REPORT_HELP_RATIO "a modified file is flagged at R times its base CPU or more (default 1.5)"
#define SC_REPORT_HELP_DELTA "and at S seconds more or more (default 30)"
#define SC_REPORT_HELP_ADDED "an added file is flagged at S seconds or more (default 150)"

#endif
