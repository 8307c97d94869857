#ifndef SC_SAFEPATH_H
#define SC_SAFEPATH_H
/* Names that come from Git trees are untrusted: before one becomes a file
 * name it must be a single harmless path component, and before one goes
 * into a message it must be made printable. */
#include <stddef.h>
#include "util/strbuf.h"

/* 1 if name can be created as one component inside a directory we own:
 * not empty, not "." or "..", not ".git" in any letter case (it would turn
 * the tree into a repository for the next git command run inside it), and
 * without '/' or NUL. */
int sc_safe_component(const char *name, size_t len);

/* Append s to sb for an error message: control bytes, DEL, backslash and
 * bytes >= 0x80 become \xNN, so the message stays one unambiguous line. */
void sc_quote_path(struct strbuf *sb, const char *s, size_t len);

/* 1 if s is well-formed UTF-8 (no overlongs, surrogates or > U+10FFFF). */
int sc_is_utf8(const char *s, size_t len);

#endif
