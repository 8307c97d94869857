#ifndef SC_PORCELAIN_DOCTOR_H
#define SC_PORCELAIN_DOCTOR_H
/* sphereceti doctor's checks (sc-doctor(1)): profile-run's preconditions
 * (porcelain/precheck.h, the sandbox's pin check and self-test), each one
 * line on stdout, "ok", "FAIL" with what to do, "warn" or "skip", all of
 * them whatever fails.  cmd/sc-doctor.c owns the options and the order. */
#include "contract/manifest.h"
#include "contract/plan.h"
#include "porcelain/state.h"

/* T's facts, as far as they could be read. */
struct sc_tooling_facts {
	struct sc_plan cfg;     /* its .sphereceti: the pins */
	char *lean_toolchain;   /* its lean-toolchain's first line */
	struct sc_manifest manifest;
	int have_cfg, have_toolchain, have_manifest;
};

/* The lines so far: checks that ran, and how many failed. */
struct sc_doctor {
	const char *dir; /* exec dir: where the stages live */
	int checks, failed;
};

/* One line: STATUS "ok", "FAIL", "warn" or "skip", the check's NAME, WHAT
 * it found or what to do, quoted as every printed line is. */
void sc_doctor_line(struct sc_doctor *t, const char *status, const char *name, const char *what);
/* REPO (Git's ownership check named) at commit REV, and REV's
 * .sphereceti, lean-toolchain and lake-manifest.json into TT. */
void sc_doctor_tooling(struct sc_doctor *t, const char *repo, const char *rev,
                       struct sc_tooling_facts *tt);
void sc_doctor_bwrap(struct sc_doctor *t, const struct sc_run_opts *o, const struct sc_tooling_facts *tt);
void sc_doctor_sandbox(struct sc_doctor *t, const struct sc_run_opts *o);
void sc_doctor_toolchain(struct sc_doctor *t, const struct sc_run_opts *o,
                         const struct sc_tooling_facts *tt);
void sc_doctor_dependencies(struct sc_doctor *t, const struct sc_run_opts *o,
                            const struct sc_tooling_facts *tt);
/* The Lake artifact cache the run would mount. */
void sc_doctor_cache(struct sc_doctor *t, const struct sc_run_opts *o);
/* Where the workspace would go, and what the sandbox's user can reach. */
void sc_doctor_workspace(struct sc_doctor *t, const struct sc_run_opts *o);
void sc_tooling_facts_free(struct sc_tooling_facts *tt);

#endif
