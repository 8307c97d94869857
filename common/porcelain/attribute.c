#include "porcelain/attribute.h"
#include "porcelain/schedule.h"
#include "porcelain/step.h"
#include "porcelain/workspace.h"
#include "report/attribution.h"
#include "util/die.h"
#include "util/sha256.h"
#include "util/safefile.h"
#include "util/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

/* Is F flagged by the statistic over all its samples, as the report will
 * judge it (Documentation/measurement.txt "Confirmation")? */
static int flagged(const struct sc_samples *samples, const struct sc_thresholds *th,
                   const struct sc_plan_file *f)
{
	const struct sc_file_cpu *c = sc_samples_cpu(samples, f);
	int base = sc_change_on_side(f->change, SC_SIDE_BASE);
	if (!sc_change_on_side(f->change, SC_SIDE_HEAD) || !c->ok[SC_SIDE_HEAD] ||
	    (base && !c->ok[SC_SIDE_BASE]))
		return 0;
	long long b = base ? sc_sample_median_ms(c->all[SC_SIDE_BASE], c->n[SC_SIDE_BASE]) : 0;
	long long h = sc_sample_median_ms(c->all[SC_SIDE_HEAD], c->n[SC_SIDE_HEAD]);
	struct sc_verdict v;
	sc_verdict_compute(f->change, b, h, th, &v);
	return v.flagged;
}

/* Where Lean is asked to write, relative to the tree (its cwd): .lake is
 * the one place a sample may write; a name no earlier candidate code can
 * have guessed and planted a link or a FIFO at. */
static char *profile_rel(void)
{
	unsigned char raw[8];
	if (getrandom(raw, sizeof raw, 0) != (ssize_t)sizeof raw)
		sc_die_sys_errno("cannot draw a random name (getrandom)");
	char hex[2 * sizeof raw + 1];
	sc_hex(raw, sizeof raw, hex);
	return xasprintf(".lake/sphereceti-profile-%s.json", hex);
}

/* Is anything at REL beneath the side's tree?  A link counts. */
static int present(const char *tree, const char *rel)
{
	int tfd = open(tree, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (tfd < 0)
		return 1;
	int fd = sc_open_beneath(tfd, rel);
	int e = errno;
	close(tfd);
	if (fd >= 0)
		close(fd);
	return fd >= 0 || (e != ENOENT && e != ENOTDIR);
}

/* Lean's profile at REL beneath the side's tree copied to the workspace:
 * a regular file, no link on its way, SC_ATTR_MAX_BYTES at most.  The
 * copy's path relative to the workspace, or NULL with why not in NOTE. */
static char *keep_profile(const struct sc_steps *steps, int side, const struct sc_plan_file *f,
                          const char *rel, struct strbuf *note)
{
	int tfd = open(steps->tree[side], O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int fd = tfd < 0 ? -1 : sc_open_beneath(tfd, rel);
	int e = errno;
	if (tfd >= 0)
		close(tfd);
	struct stat st;
	struct strbuf data = STRBUF_INIT;
	char *kept = NULL;
	if (fd < 0)
		sb_addf(note, "Lean wrote no profile (%s)", e == ENOENT ? "none there" : sc_errno_text(e));
	else if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		sb_adds(note, "Lean's profile is not a regular file");
	else if (st.st_size > (off_t)SC_ATTR_MAX_BYTES)
		sb_addf(note, "Lean's profile is larger than %u MiB", SC_ATTR_MAX_BYTES >> 20);
	else if (sc_read_fd_bounded(fd, (size_t)st.st_size, &data) < 0)
		sb_adds(note, "Lean's profile could not be read whole");
	else
		kept = xasprintf(SC_ATTRLIST_DIR "/%s-%s.json", sc_side_name(side), f->id);
	if (fd >= 0)
		close(fd);
	if (kept) {
		char *dir = xasprintf("%s/" SC_ATTRLIST_DIR, steps->ws);
		char *path = xasprintf("%s/%s", steps->ws, kept);
		if (mkdir(dir, 0755) < 0 && errno != EEXIST)
			sc_die_sys_errno("cannot create the attribution folder (%s)", dir);
		sc_write_file_atomic_or_die(path, data.buf, data.len, "Lean's profile");
		free(dir);
		free(path);
	}
	sb_release(&data);
	return kept;
}

/* The figures of the run, when it ran to its end; else why not. */
static void run_figures(const struct sc_samples *samples, int side, const struct sc_plan_file *f,
                        const struct sc_step *st, struct sc_attr_run *a, struct strbuf *note)
{
	struct sc_sample s;
	sc_samples_bind(samples, side, f->id, 0, &s); /* bound like a sample, never recorded */
	sc_step_fill(st, &s);
	if (s.ok && sc_sample_compared_ms(&s, &a->cpu_ms) == 0 && sc_seconds_to_ms(s.wall_s, &a->wall_ms) == 0)
		a->has_figures = 1;
	else if (!s.ok)
		sb_addf(note, "the run ended in %s%s%s%s; ", sc_sample_error_name(s.error), s.detail ? " (" : "",
		        s.detail ? s.detail : "", s.detail ? ")" : "");
	sc_sample_free(&s);
}

/* One attribution run of F on SIDE; its record added to OUT. */
static void attribute_side(const struct sc_measure *m, int side, const struct sc_plan_file *f,
                           double left, struct sc_attr_list *out)
{
	struct sc_attr_run a = {.id = f->id, .side = side};
	struct strbuf note = STRBUF_INIT;
	char *rel = profile_rel();
	sc_progress_next(m->rec->progress);
	if (m->steps->disk_full) {
		sb_adds(&note, "not run: a step left the disk full");
	} else if (!sc_phase_can_start(left)) {
		sb_adds(&note, "not run: the timed phase budget was spent");
	} else if (present(m->steps->tree[side], rel)) {
		sb_addf(&note, "not run: something was at %s before Lean ran", rel);
	} else {
		char *trace_out = xasprintf("-Dtrace.profiler.output=%s", rel);
		const char *cmd[] = {"lake", "lean", f->path, "--", "-j1", "-Dtrace.profiler=true", trace_out,
		                     "-Dtrace.profiler.output.pp=true", NULL};
		char *name = xasprintf("%s@attribution", f->id), *what = xasprintf("%s, attribution", f->path);
		struct sc_step st;
		int rc = sc_steps_run(m->steps, side, &st, name, what,
		                      sc_sample_timeout(left, m->o->sample_timeout), cmd, NULL, 0);
		enum sc_step_outcome how = sc_step_outcome_of(rc);
		if (m->steps->disk_full)
			sb_adds(&note, "a step left the disk full");
		else if (how == SC_STEP_NOT_RUN)
			sb_adds(&note, "sc-sandbox-exec could not run it");
		else
			run_figures(m->rec->samples, side, f, &st, &a, &note);
		if (!m->steps->disk_full && rc >= 0 && how != SC_STEP_NOT_RUN) {
			struct strbuf why = STRBUF_INIT;
			a.profile = keep_profile(m->steps, side, f, rel, &why);
			sb_add(&note, why.buf, why.len);
			sb_release(&why);
		}
		sc_step_release(&st);
		free(name);
		free(what);
		free(trace_out);
	}
	while (note.len >= 2 && strcmp(note.buf + note.len - 2, "; ") == 0)
		note.buf[note.len -= 2] = '\0';
	a.note = note.len ? note.buf : NULL;
	if (a.has_figures)
		sc_progress_say(m->rec->progress, "%s %s, attribution: %.2f s CPU (Lean's profiler on; not a sample)%s%s",
		                sc_side_name(side), f->path, (double)a.cpu_ms / 1000, a.note ? ": " : "",
		                a.note ? a.note : "");
	else
		sc_progress_say(m->rec->progress, "%s %s, attribution: %s", sc_side_name(side), f->path,
		                a.note ? a.note : "no figures");
	sc_attr_list_add(out, &a);
	free(a.profile);
	free(rel);
	sb_release(&note);
}

double sc_attribute_flagged(const struct sc_measure *m, const int open[2], double phase_used,
                            struct sc_attr_list *out)
{
	const struct sc_plan *plan = m->plan;
	char *chosen = xcalloc(plan->n_files + 1, 1);
	for (size_t i = 0; i < plan->n_files; i++) /* every step counted before the first */
		if ((chosen[i] = (char)flagged(m->rec->samples, &m->o->th, &plan->files[i])))
			for (int side = SC_SIDE_BASE; side <= SC_SIDE_HEAD; side++)
				m->rec->progress->steps += sc_change_on_side(plan->files[i].change, side) && open[side];
	double phase_start = sc_phase_resume(phase_used, sc_monotonic_now());
	for (size_t i = 0; i < plan->n_files; i++)
		for (int side = SC_SIDE_BASE; chosen[i] && side <= SC_SIDE_HEAD; side++)
			if (sc_change_on_side(plan->files[i].change, side) && open[side])
				attribute_side(m, side, &plan->files[i],
				               sc_phase_left(m->o->phase_timeout, phase_start, sc_monotonic_now()),
				               out);
	free(chosen);
	return sc_monotonic_now() - phase_start;
}
