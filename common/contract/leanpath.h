#ifndef SC_LEANPATH_H
#define SC_LEANPATH_H
#include <stddef.h>
#include "util/strbuf.h"

/* [A-Za-z_][A-Za-z0-9_]* : the only module-name components we support. */
int sc_is_lean_ident(const char *s, size_t n);
/* "A/B/C.lean" -> "A.B.C". Returns 0, or -1 if any component is not a
 * plain identifier or the path does not end in ".lean". */
int sc_lean_module_of(const char *path, struct strbuf *module);
/* A root R (an identifier path like "Mathlib" or "A/B") covers R.lean and
 * every R/.../X.lean.  Returns 1 if path is under root. */
int sc_root_covers(const char *root, const char *path);
/* A configured root must itself be a '/'-separated identifier path. */
int sc_is_valid_root(const char *root);
/* 1 if s is "." or a relative '/'-separated path without empty, "." or
 * ".." components and without control bytes. */
int sc_is_tree_path(const char *s);

#endif
