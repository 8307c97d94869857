#ifndef SC_TIMEFILE_H
#define SC_TIMEFILE_H
/* The raw counter file GNU time writes for sc-sandbox-exec, and its parser.
 * GNU time is run with -o FILE -f SC_TIME_FORMAT.  It may put one line of
 * its own before the format ("Command exited with non-zero status N",
 * "Command terminated by signal N", "Command stopped by signal N"); the
 * format itself is keyed lines in a fixed order, so a truncated, reordered
 * or padded file never parses as numbers. */
#include <stddef.h>
#include "contract/sample.h"
#include "util/strbuf.h"

#define SC_TIME_FORMAT "sc-time/1\nuser %U\nsys %S\nmaxrss_kib %M\nexit %x\nelapsed %e"

/* Sanity bounds: anything beyond is not a measurement of one Lean file. */
#define SC_TIME_MAX_SECONDS 1e6
#define SC_TIME_MAX_RSS_KIB (1LL << 32) /* 4 TiB */

struct sc_timefile {
	double user_s, sys_s, elapsed_s;
	long long max_rss_kib;
	int exit_code; /* %x: the wrapped command's exit status */
	int signal;    /* from "Command terminated by signal N", else 0 */
	int stopped;   /* "Command stopped by signal N" */
};

/* Parse buf[0..len).  Returns 0, or -1 with a one-line reason in err.
 * Rejects NUL bytes, unknown or repeated lines, signs, exponents, NaN,
 * infinities, values out of bounds, and an exit code that contradicts the
 * leading line. */
int sc_timefile_parse(const char *buf, size_t len, struct sc_timefile *tf, struct strbuf *err);

/* GNU time's elapsed lies inside the host's wall window; allow for its
 * wall-clock source stepping a little. */
#define SC_TIME_ELAPSED_SLACK_S 2.0

/* Does a parsed time file agree with the status line sc-sandbox-exec
 * printed for the same run (EXIT_CODE -1 when SIGNAL ended the command,
 * WALL_S its wall time), and did the command succeed?  SC_SAMPLE_OK when
 * both hold; else the error sample's reason (status_mismatch, failed) with
 * its detail in why.  bwrap and GNU time hand the command's status on
 * (exit N, or 128+N for signal N); the wrapper itself is never signalled
 * unless it timed out, which the status line would say. */
enum sc_sample_error sc_timefile_check_status(const struct sc_timefile *tf, int exit_code, int signal,
                                     double wall_s, struct strbuf *why);

#endif
