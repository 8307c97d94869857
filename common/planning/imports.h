#ifndef SC_PLAN_IMPORTS_H
#define SC_PLAN_IMPORTS_H
/* The imports of a Lean file, read from its header as Lean reads it
 * (Lean's Parser/Module.lean: an optional `module`, an optional
 * `prelude`, then `[public] [meta] [private] import [all] Name` commands;
 * `--` and nested `/- -/` comments anywhere between).  The header ends at
 * the first other token.  A name is dotted identifiers, each plain (letters
 * of any script, digits, _ ' ! ?) or «escaped»; names are returned
 * unescaped ("A.«B c»" is "A.B c").
 *
 * What cannot be read as such a header (an `import` with no name, an
 * unterminated «, a NUL byte before the header ends) is refused, never
 * guessed: Documentation/measurement.txt "Import order". */
#include <stddef.h>
#include "util/argv.h"
#include "util/strbuf.h"

/* BUF holds LEN bytes and a NUL after them.  Appends each imported
 * module's name to MODS (in order, repeats kept); returns 0, or -1 with
 * why the header cannot be read in WHY. */
int sc_lean_imports(const char *buf, size_t len, struct sc_argv *mods, struct strbuf *why);

#endif
