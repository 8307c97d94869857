#ifndef SC_HOSTFILE_H
#define SC_HOSTFILE_H
/* What sc-sandbox-exec writes on the host (Documentation/threat-model.txt "The sandbox holds
 * against hostile code"): the time file and the log lie outside every
 * mount, and the time file appears only whole, from a complete run. */
#include "sandbox/supervise.h"

/* A new file IN (canonical, allocated) outside the mounted folders DIRS
 * (NULL-terminated, named NAMES in errors); dies when it exists or lies
 * inside one. */
char *sc_host_file(const char *in, const char *what, const char *const *dirs, const char *const *names);

/* The time file's temporary (allocated, mode 0644) beside TIME_FILE. */
char *sc_time_file_begin(const char *time_file);
/* fsync the temporary and rename it to TIME_FILE, never replacing a file;
 * frees TMP's name only when it dies. */
void sc_time_file_commit(char *tmp, const char *time_file);
/* Remove the unfinished temporary and free its name. */
void sc_time_file_abandon(char *tmp);

/* --log: the run's output (untrusted, bounded), written whole. */
void sc_sandbox_write_log(const char *log, const struct sc_sandbox_result *r);

#endif
