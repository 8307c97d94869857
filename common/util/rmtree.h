#ifndef SC_RMTREE_H
#define SC_RMTREE_H
/* Removing a folder a tool wrote itself and gave up on (sc-materialize's
 * temporary tree).  No link is followed: every folder is opened with
 * O_NOFOLLOW beneath its parent, so a name inside can never make us remove
 * something outside.  One descriptor per level: DEPTH bounds both. */

/* Remove NAME below DIRFD (a file, or a folder and all in it, up to DEPTH
 * levels below NAME).  A missing NAME is removed already.  Returns 0, or
 * -1 with errno (ELOOP: deeper than DEPTH) with what could not go left. */
int sc_remove_tree_at(int dirfd, const char *name, int depth);

#endif
