#include "porcelain/schedule.h"

int sc_schedule_steps(const struct sc_plan *p, size_t on_side[2])
{
	on_side[0] = on_side[1] = 0;
	for (size_t i = 0; i < p->n_files; i++)
		for (int side = 0; side < 2; side++)
			on_side[side] += (size_t)sc_change_on_side(p->files[i].change, side);
	return (int)(on_side[0] + on_side[1]) + (on_side[0] > 0) + (on_side[1] > 0);
}

double sc_phase_left(double budget, double phase_start, double now)
{
	return budget - (now - phase_start);
}

int sc_phase_can_start(double left) { return left > SC_PHASE_MIN_LEFT; }

double sc_sample_timeout(double left, double sample_timeout)
{
	return left < sample_timeout ? left : sample_timeout;
}

double sc_phase_resume(double used, double now) { return now - used; }
