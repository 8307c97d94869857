#ifndef SC_PLANNING_HEADER_H
#define SC_PLANNING_HEADER_H
/* The imports of a Lean file, read from its header
 * (Documentation/measurement.txt "Import order"; the table test cites the
 * Lean sources of each rule).
 *
 * Two readers of the same bytes decide what a header imports, and both
 * are followed here exactly:
 *   Lake's    Lean/Elab/ParseImportsFast.lean parseImports': what Lake
 *             builds before a module (a prebuild's cones, `lake lean`'s
 *             imports);
 *   Lean's    Lean/Parser/Module.lean header over the tokens of
 *             Lean/Parser/Basic.lean (whitespace, identFn, keywords):
 *             what the elaborator imports.
 * Grammar: optional `module`, optional `prelude`, then `[public] [meta]
 * import [all] Name` commands; `--` line and nested `/- -/` block
 * comments between (`/--` and `/-!` are tokens, not comments); a Name is
 * dotted parts, each isIdFirst isIdRest* (letters of Init/Meta/Defs.lean
 * isLetterLike, subscripts, _ ' ! ?) or «escaped».  The header ends at the
 * first token that continues none of it.
 *
 * The two differ on some inputs (a keyword glued to a name, `importX`,
 * is an import to Lake and a name to Lean; `--/` closes a block comment
 * for Lean and not for Lake; a modifier without `module`).  A header the
 * two do not read alike, or that either cannot read, is refused, never
 * guessed, as is one that needs what this reader will not take: a tab or
 * a carriage return (Lean refuses a lone CR, Lake takes any), a letter of
 * Latin-1 or Latin Extended-A in a name (isLetterLike took them only from
 * a 2025 Lean), a part that cannot be a file name ("", ".", "..", one
 * holding '.', '/' or NUL) or holds a control character (a name is
 * printed: threat-model.txt "The fourth round"), more than
 * SC_HEADER_MAX_IMPORTS imports, a
 * header longer than SC_HEADER_MAX_BYTES, bytes that are not UTF-8. */
#include <stddef.h>
#include "util/argv.h"
#include "util/strbuf.h"

#define SC_HEADER_MAX_BYTES (1u << 20)
#define SC_HEADER_MAX_IMPORTS 16384

enum { SC_HEADER_REFUSED = -1, SC_HEADER_READ = 0, SC_HEADER_MORE = 1 };

/* BUF: the first LEN bytes of a file, all of it when WHOLE.  Appends each
 * imported module's name (its parts joined by '.', unescaped) to MODS, in
 * order, repeats kept, and returns SC_HEADER_READ; or SC_HEADER_MORE when
 * the header may go on past LEN bytes (never when WHOLE, never at
 * SC_HEADER_MAX_BYTES: that is refused); or SC_HEADER_REFUSED with why in
 * WHY (one line, its line number, candidate bytes quoted). */
int sc_lean_header(const char *buf, size_t len, int whole, struct sc_argv *mods, struct strbuf *why);

#endif
