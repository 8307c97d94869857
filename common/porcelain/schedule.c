#include "porcelain/schedule.h"

void sc_schedule_sides(const struct sc_plan *p, size_t on_side[2])
{
	on_side[0] = on_side[1] = 0;
	for (size_t i = 0; i < p->n_files; i++)
		for (int side = 0; side < 2; side++)
			on_side[side] += (size_t)sc_change_on_side(p->files[i].change, side);
}

int sc_schedule_steps(const size_t on_side[2], const int n_layers[2])
{
	int steps = 0;
	for (int side = 0; side < 2; side++)
		if (on_side[side])
			steps += (int)on_side[side] + (n_layers[side] > 1 ? n_layers[side] : 1);
	return steps;
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
