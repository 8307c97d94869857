#ifndef SC_RAWSAMPLE_H
#define SC_RAWSAMPLE_H
/* From one sandboxed run's raw documents to its sample: the decision
 * sc-parse-time prints and the porcelain makes in-process.  Anything
 * doubtful becomes an error sample, never a number. */
#include <stddef.h>
#include "contract/sample.h"

/* The input a status line is read from, at most this many bytes. */
#define SC_RAW_INPUT_MAX 65536

/* Decide S from sc-sandbox-exec's status line (STATUS, LEN bytes as read,
 * one line of JSON) and the GNU time file at TIME_PATH: the counters of an
 * ok sample, or an error sample's reason and detail.  S's binding (run_id,
 * plan_digest, revision, sample) is left as it is; error and detail are
 * heap copies.  Returns S->ok. */
int sc_sample_from_raw(struct sc_sample *s, const char *status, size_t len,
                       const char *time_path);
/* An error sample for a sample that never ran: REASON (sc_is_error_reason)
 * and DETAIL (NULL: "the sample was not measured"). */
void sc_sample_unmeasured(struct sc_sample *s, const char *reason, const char *detail);

/* sc-parse-time's arguments, as given. */
struct sc_parse_time_request {
	const char *time_file, *status; /* status: a file or "-" (stdin) */
	const char *run_id, *digest, *rev, *sample; /* the binding */
	const char *unmeasured, *detail;            /* instead of the two files */
};
/* sc-parse-time: the binding checked, the sample decided from the two raw
 * files (or unmeasured) and written on stdout as one line.  Returns the
 * exit code, 0 for an ok sample and 1 for an error sample; dies on bad
 * arguments (2) or when the line cannot be written (3). */
int sc_parse_time(const struct sc_parse_time_request *rq);

#endif
