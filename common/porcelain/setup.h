#ifndef SC_PORCELAIN_SETUP_H
#define SC_PORCELAIN_SETUP_H
/* What `sphereceti init` writes into a Lean project's checkout
 * (Documentation/ci.txt "From nothing"): .sphereceti made from the
 * project's own lakefile, its origin remote and this host's bubblewrap,
 * and the CI recipe's two workflows, pinned.  Typed values in, text out;
 * cmd/sc-setup.c owns the options and the order of the steps. */
#include <stddef.h>
#include "util/strbuf.h"

struct sc_setup {
	char **library, **roadmap;
	size_t n_library, n_roadmap;
	char *source_dir; /* the lean_libs' srcDir, NULL for the package root */
	char *github;     /* owner/name of the origin remote on GitHub, or NULL */
	char *pin_line;   /* "bwrapPin = VERSION SHA256" */
	char *lakefile;   /* which lakefile the roots came from */
};

/* The roots of the lean_libs of the lakefile in DIR (lakefile.lean when
 * there is one, as Lake takes it, else lakefile.toml): a library's roots
 * (its name when it names none) are library roots, a library whose name
 * says Roadmap gives roadmap roots.  0, or -1 with WHY (no lakefile, no
 * lean_lib, one that cannot be read, libraries in different srcDirs). */
int sc_setup_roots(const char *dir, struct sc_setup *s, struct strbuf *why);

/* owner/name of a GitHub remote URL (https://github.com/O/N[.git],
 * git@github.com:O/N[.git], ssh://git@github.com/O/N[.git]) into SLUG:
 * 0, or -1 for any other URL. */
int sc_github_slug(const char *url, struct strbuf *slug);

/* .sphereceti's text for S. */
void sc_setup_config(const struct sc_setup *s, struct strbuf *out);

/* TEXT with its one line that starts with PREFIX replaced by LINE (no
 * newline), into OUT: 0, or -1 when no line or more than one starts so. */
int sc_template_line(const char *text, const char *prefix, const char *line, struct strbuf *out);

void sc_setup_free(struct sc_setup *s);

/* What init writes, relative to the work tree, in this order. */
enum { SC_SETUP_CONFIG, SC_SETUP_PROFILE, SC_SETUP_DEPS, SC_SETUP_NFILES };
extern const char *const sc_setup_files[SC_SETUP_NFILES];

/* The work tree holding REPO (allocated), or NULL with what is wrong in
 * WHY. */
char *sc_setup_work_tree(const char *repo, struct strbuf *why);
/* owner/name of TOP's origin remote when it is on GitHub, else NULL. */
char *sc_setup_origin_slug(const char *top);
/* Dies naming the first of the files that is there already. */
void sc_setup_refuse_existing(const char *top);
/* GIVEN, else origin's default branch (never the branch checked out in
 * TOP, which may be a feature branch) (allocated); NULL with what is
 * wrong in WHY when none is, or when the name is one a workflow's
 * `branches` cannot hold plainly. */
char *sc_setup_base_branch(const char *top, const char *given, struct strbuf *why);
/* The three texts into TOP, all or none; .sphereceti is read back by git
 * and sc-plan's reader before anything is written. */
void sc_setup_write_all(const char *top, struct strbuf text[SC_SETUP_NFILES]);
/* What is left to a person, on stdout. */
void sc_setup_next_steps(const char *branch, const struct sc_setup *s, const char *commit);

#endif
