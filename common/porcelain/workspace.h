#ifndef SC_WORKSPACE_H
#define SC_WORKSPACE_H
/* The profile run's workspace (Documentation/measurement.txt "Measurement"): claimed with
 * mkdir, so two runs never share one and none is resumed; INCOMPLETE stays
 * in it until the report is whole; raw/ holds what the host parses,
 * logs/ the untrusted output. */

#include <stddef.h>

#define SC_WORKSPACE_INCOMPLETE "INCOMPLETE"

/* mkdir WS (dies if it exists or cannot be made: exit 2 when the path is
 * at fault, 3 when the machine is), write INCOMPLETE and
 * plan.json (PLAN, LEN bytes), and from here make every error line say
 * that the folder stays.  Returns WS resolved (allocated). */
char *sc_workspace_claim(const char *ws, const char *plan, size_t len);
/* Nobody but the operator searches WS (mode 0700; Documentation/measurement.txt "Sealed
 * measurement"), except, while GID (the sandbox user's group, when it is
 * not the operator's) is given, that group, which bwrap needs to reach
 * the trees: mode 0710.  Dies (exit 3) when WS cannot be changed. */
void sc_workspace_restrict(const char *ws, long gid);
/* A full disk must not cost the report (Documentation/measurement.txt "Sealed measurement"):
 * profile-run starts only with SC_WORKSPACE_MIN_FREE bytes free where the
 * workspace goes (the reserve and the report twice over), keeps
 * SC_WORKSPACE_RESERVE of them allocated beyond the end of WS/INCOMPLETE
 * (no inode of its own), and releases them when a step left the disk
 * full, or before the report is written, so that the status lines,
 * samples and report still fit. */
#define SC_WORKSPACE_MIN_FREE (32ull << 20)
#define SC_WORKSPACE_RESERVE (16ull << 20)
/* Inodes are a resource like bytes: a candidate that takes every inode
 * with empty files leaves the bytes free and the report unwritable.  The
 * same rule holds for them: SC_WORKSPACE_MIN_INODES free to start, and
 * SC_WORKSPACE_RESERVE_INODES held by empty files in WS/.reserve/ until the
 * disk is full or the report is due. */
#define SC_WORKSPACE_MIN_INODES 1024ll
#define SC_WORKSPACE_RESERVE_INODES 64
/* Allocate the reserve, bytes and inodes (dies, exit 3, when it cannot). */
void sc_workspace_reserve(const char *ws);
/* Give the reserve, bytes and inodes, back to the file system (later
 * calls do nothing). */
void sc_workspace_unreserve(const char *ws);
/* The report is whole: INCOMPLETE goes. */
void sc_workspace_complete(const char *ws);
/* The folder that will hold WS, before WS exists: its path up to the last
 * '/' ("/" for "/x", "." for a bare name); allocated. */
char *sc_workspace_parent(const char *ws);
/* <side>-<name>, or for a name too long for a file name, its first bytes
 * and a digest of the whole (allocated). */
char *sc_workspace_stem(const char *side, const char *name);
/* WS/raw/<stem>.<ext> (allocated). */
char *sc_workspace_raw(const char *ws, const char *side, const char *name, const char *ext);

#endif
