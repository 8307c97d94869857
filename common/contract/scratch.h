#ifndef SC_CONTRACT_SCRATCH_H
#define SC_CONTRACT_SCRATCH_H
/* Where the host step (cmd/sc-confine.c) mounts the sandbox's bounded
 * /tmp and /dev/shm, in the chain's own mount namespace, for bwrap to bind
 * (sandbox/sandbox_args.c): over the host's /sys, which bwrap never reads
 * and no input can live under.  Header-only: sc-confine is static and
 * links no library, yet mounts where the host half binds from.
 * Documentation/threat-model.txt "The sandbox holds against hostile code". */
#define SC_SANDBOX_SCRATCH "/sys"
#define SC_SANDBOX_SCRATCH_TMP SC_SANDBOX_SCRATCH "/tmp"
#define SC_SANDBOX_SCRATCH_SHM SC_SANDBOX_SCRATCH "/shm"

#endif
