#ifndef SC_EXECDIR_H
#define SC_EXECDIR_H
/* The folder holding the running executable (from /proc/self/exe): where
 * sibling stages live, like git's exec path.  Allocated; dies if unknown. */
char *sc_exec_dir(void);
#endif
