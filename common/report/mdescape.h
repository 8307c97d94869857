#ifndef SC_MDESCAPE_H
#define SC_MDESCAPE_H
/* Untrusted text into GitHub-flavoured markdown, in the middle of a line
 * (a table cell, after a list marker): never at the start of a line.  The
 * output is pure ASCII.  Letters, digits, space and  / - , ; = + ( ) ' " ?
 * pass through (inert mid-line), so do '.' (except right after "www", where
 * it would make an autolink) and '_' between two letters or digits (which
 * cannot delimit emphasis): "Lib/Foo_bar.lean" stays as it is.  Every other
 * character becomes a numeric character reference ("&#124;" for '|').  So
 * nothing can end a table cell, open a code span, emphasis, strikethrough,
 * math, link, image, HTML tag or entity, an emoji ":name:", or an autolink
 * ("www." and "http:" / "mailto:" and "a@b" need a literal '.', ':', '@').
 * Control characters and invalid UTF-8 become U+FFFD, so a line break
 * cannot survive.  GitHub's mention and issue links ("@x", "#1") are
 * applied after rendering; only sc_md_code() keeps them off. */
#include "util/strbuf.h"

void sc_md_escape(const char *s, struct strbuf *out);
/* The same inside <code>...</code>: GitHub does not turn "@name" or "#12"
 * inside code into mentions or issue links. */
void sc_md_code(const char *s, struct strbuf *out);
/* A path as sc_md_code(), with "<wbr>" after each '/': a long path can
 * wrap at its separators in a narrow table cell instead of pushing the
 * other columns off-screen. */
void sc_md_code_path(const char *path, struct strbuf *out);
/* 1 when s is valid UTF-8 without control characters: text that may be
 * recorded as one line (e.g. an operator-supplied version string). */
int sc_is_printable_utf8(const char *s);

#endif
