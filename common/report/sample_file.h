#ifndef SC_SAMPLE_FILE_H
#define SC_SAMPLE_FILE_H
/* Samples files (sc-report --samples): one sample per non-empty line, read
 * whole from a file, a pipe or standard input ("-"), each sample named by
 * where it came from ("FILE:LINE") for the report's messages. */
#include <stddef.h>
#include "report/report.h"
#include "util/strbuf.h"

#define SC_SAMPLES_MAX_BYTES (64u << 20)

/* The samples offered to a report, in the order read. */
struct sc_sample_set {
	struct sc_sample_in *v;
	size_t n, alloc;
};

/* A bounded read of path ("-": standard input).  Dies with exit 2 when the
 * operator's path does not open, is a directory or holds more than
 * SC_SAMPLES_MAX_BYTES; with exit 3 when reading an open file fails. */
void sc_sample_file_read_or_die(const char *path, struct strbuf *sb);

/* The name a samples file has in the report: "stdin" for "-"; a path
 * inside out_dir relative to it (under profile-run, the workspace), so no
 * runner's absolute path reaches the report; any other path as given.
 * Points into path or at a constant. */
const char *sc_sample_file_source_name(const char *path, const char *out_dir);

/* Every non-empty line of buf is one sample, added to set with the source
 * "NAME:LINE".  Returns 0, or -1 at the first line that is not a sample,
 * with "invalid sample: why (NAME:LINE)" in err (the lines before it stay
 * in set). */
int sc_sample_file_parse(const char *name, const char *buf, size_t len, struct sc_sample_set *set,
                     struct strbuf *err);

/* Reads and parses each file in turn; any bad one is bad input (exit 2). */
void sc_sample_set_load_or_die(struct sc_sample_set *set, const char *const *paths, size_t n,
                               const char *out_dir);
void sc_sample_set_free(struct sc_sample_set *set);

#endif
