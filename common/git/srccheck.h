#ifndef SC_SRCCHECK_H
#define SC_SRCCHECK_H
/* The measured source is the plan's blob: right before a timed sample the
 * host checks the selected file in the side's tree, which candidate code
 * could have rewritten during the prebuild.  The file is opened beneath
 * the tree without following any link (a planted link cannot redirect
 * us), non-blocking (a planted FIFO cannot stall us), regular files only,
 * size bounded, and hashed as git hashes a blob. */
#include <stddef.h>
#include "util/strbuf.h"

#define SC_SRCCHECK_MAX (64u << 20)

/* 1 when TREE/PATH is the blob OID (40 hex: SHA-1, 64 hex: SHA-256),
 * 0 when it is not, with why it is not in why ("content differs", "not a
 * regular file", ...). */
int sc_source_is_blob(const char *tree, const char *path, const char *oid, struct strbuf *why);

/* 1 when DATA (LEN bytes) hashes as Git hashes a blob to OID (40 hex:
 * SHA-1, 64: SHA-256), else 0. */
int sc_data_is_blob(const void *data, size_t len, const char *oid);

#endif
