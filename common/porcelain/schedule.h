#ifndef SC_SCHEDULE_H
#define SC_SCHEDULE_H
/* The profile run's schedule (Documentation/measurement.txt "Measurement"): sides one at a
 * time, one step per selected file per side plus one per prebuild layer of
 * a side that has files (one when no layer could be read); the phase budget covers the timed samples of both sides (never
 * the prebuilds) and caps each sample's timeout. */
#include "contract/plan.h"

#include <stddef.h>

/* A sample is not started with this little budget left (seconds). */
#define SC_PHASE_MIN_LEFT 0.5

/* Selected files per side (on_side[SC_SIDE_BASE], [SC_SIDE_HEAD]). */
void sc_schedule_sides(const struct sc_plan *p, size_t on_side[2]);
/* The number of progress steps, each counted once: the files on each side,
 * and each side's prebuild layers (N_LAYERS per side). */
int sc_schedule_steps(const size_t on_side[2], const int n_layers[2]);

/* Budget left at NOW for a phase that started at PHASE_START. */
double sc_phase_left(double budget, double phase_start, double now);
/* 1 when a sample may start with LEFT seconds of budget, else 0. */
int sc_phase_can_start(double left);
/* The timeout of a sample: the sample timeout, capped by the budget left. */
double sc_sample_timeout(double left, double sample_timeout);
/* Where the next side's phase starts at NOW when USED seconds of the budget
 * went to earlier sides: the clock of the phase runs on across sides. */
double sc_phase_resume(double used, double now);

#endif
