#ifndef SC_PATHCHECK_H
#define SC_PATHCHECK_H
/* Canonical paths and containment, for keeping sandbox mounts and host
 * outputs apart.  Compare only canonical (realpath) strings. */

/* realpath of an existing directory (malloc'd); NULL with errno
 * (ENOTDIR when it is not a directory). */
char *sc_canonical_dir(const char *path);

/* For a file that must not exist yet: canonical parent + "/" + basename
 * (malloc'd).  NULL with errno: parent missing, basename empty, "." or
 * "..", or EEXIST when the file (or a dangling symlink) already exists. */
char *sc_canonical_new_file(const char *path);

/* 1 when canonical path inner is outer or lies below it. */
/* DIR/NAME, with one '/' between (allocated). */
char *sc_path_join(const char *dir, const char *name);
int sc_path_within(const char *inner, const char *outer);
/* 1 when path (after symlinks) is a regular file we may execute; 0 with
 * errno from stat/access otherwise. */
int sc_is_executable_file(const char *path);
/* (Overlap of two existing paths: sc_paths_overlap in inputs.h.) */

#endif
