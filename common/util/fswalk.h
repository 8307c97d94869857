#ifndef SC_FSWALK_H
#define SC_FSWALK_H
/* A walk of a folder that candidate code wrote (Documentation/measurement.txt "Sealed
 * measurement": nothing of the candidate outlives the run).  Never follows
 * a link: every entry is looked at with fstatat(AT_SYMLINK_NOFOLLOW) and
 * changed through an O_PATH|O_NOFOLLOW descriptor of its own, each folder
 * opened with O_NOFOLLOW beneath its parent; depth is bounded, so a
 * candidate's 10,000-deep chain costs no stack and no descriptor limit. */
#include <sys/stat.h>

/* Folders below the root that are walked; a folder at this depth is not
 * entered but closed (see sc_fswalk_seal). */
#define SC_FSWALK_MAX_DEPTH 64

/* Clear the setuid and setgid bits of every entry below DIR (links
 * themselves never carry them); with UID/GID other than -1, also give
 * every entry, links included (lchown semantics), to UID:GID.  A folder
 * at the depth bound is closed instead of entered: mode 000, given to
 * UID:GID (or left to its owner), so nobody but root reaches what lies
 * below it.  A folder the candidate closed is entered all the same (its
 * owner, or root, gives the owner rwx first), and the walk carries on past
 * an entry it cannot change.  Returns 0, or -1 with the first error's
 * errno and path in *where (allocated). */
int sc_fswalk_seal(const char *dir, long uid, long gid, char **where);

/* Remove DIR and everything below it, as the seal walks it: no link
 * followed, closed folders entered, past an error to the end; a chain
 * deeper than the bound is moved up into DIR piece by piece, so no depth
 * stops it.  A DIR that does not exist is removed already.  Returns 0, or
 * -1 with the first error's errno and path in *where (allocated). */
int sc_fswalk_remove(const char *dir, char **where);

/* The same walk, changing nothing: VISIT is called for every entry below
 * DIR (what a folder holds before the folder, in directory order) with its
 * path relative to DIR and its lstat; a folder at the depth bound is
 * visited, not entered.  VISIT returns 0 to go on, or -1 with errno to end
 * the walk.  Returns 0, or -1 with errno and the failing path in *where
 * (allocated) when a folder could not be read or VISIT ended the walk. */
int sc_fswalk_list(const char *dir, int (*visit)(const char *rel, const struct stat *st, void *ctx),
                   void *ctx, char **where);

#endif
