#ifndef SC_RAWSAMPLE_H
#define SC_RAWSAMPLE_H
/* From one sandboxed run's raw documents to its sample: the decision
 * sc-parse-time prints (cmd/sc-parse-time.c owns that program's options
 * and binding) and the porcelain makes in-process.  Anything
 * doubtful becomes an error sample, never a number. */
#include <stddef.h>
#include "contract/sample.h"
#include "contract/status.h"

/* The input a status line is read from, at most this many bytes. */
#define SC_RAW_INPUT_MAX 65536

/* Decide S from sc-sandbox-exec's status line (STATUS, LEN bytes as read,
 * one line of JSON) and the GNU time file at TIME_PATH: the counters of an
 * ok sample, or an error sample's reason and detail.  S's binding (run_id,
 * plan_digest, revision, sample) is left as it is; error and detail are
 * heap copies.  Returns S->ok. */
int sc_sample_from_raw(struct sc_sample *s, const char *status, size_t len,
                       const char *time_path);
/* sc_sample_from_raw in its two halves, for a caller that decides on the
 * status before the sample (the porcelain: was it a timeout?) and parses it
 * once.  The status line alone: 0 with ST filled when it is one sane line
 * of JSON that is not a timeout; else -1 and S the error sample it makes
 * (reason "timeout" when it says the command ran out of time). */
int sc_sample_status_check(struct sc_sample *s, const char *status, size_t len,
                           struct sc_status *st);
/* S from a status that passed sc_sample_status_check and the GNU time
 * file at TIME_PATH, as sc_sample_from_raw.  Returns S->ok. */
int sc_sample_from_status(struct sc_sample *s, const struct sc_status *st, const char *time_path);
/* An error sample for a sample that never ran: REASON and DETAIL (NULL:
 * "the sample was not measured"). */
void sc_sample_unmeasured(struct sc_sample *s, enum sc_sample_error reason, const char *detail);

#endif
