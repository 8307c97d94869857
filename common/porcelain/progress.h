#ifndef SC_PORCELAIN_PROGRESS_H
#define SC_PORCELAIN_PROGRESS_H
/* The progress lines of a profile run on stderr, "[step/steps] what", as
 * sphereceti(1) shows them: one step per sample the schedule counts
 * (porcelain/schedule.h), silent with --quiet. */

/* A step still running says so this often by default (seconds). */
#define SC_PROGRESS_EVERY_S 30

struct sc_progress {
	int step, steps;
	int quiet;
};

/* The next step begins. */
void sc_progress_next(struct sc_progress *p);
/* "[step/steps] " and FMT on stderr, unless quiet. */
void sc_progress_say(const struct sc_progress *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
