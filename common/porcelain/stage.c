#include "porcelain/stage.h"
#include "util/die.h"
#include "util/spawn.h"
#include "util/stopsignals.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t interrupted;
/* Stages running now, for the handler to pass a signal on to. */
static volatile sig_atomic_t running[SC_STAGE_MAX];

static void on_signal(int sig)
{
	int saved = errno; /* kill may set it under the code we interrupted */
	if (!interrupted)
		interrupted = sig;
	for (int i = 0; i < SC_STAGE_MAX; i++) {
		pid_t child = running[i];
		if (child > 0)
			kill(child, SIGTERM);
	}
	errno = saved;
}

void sc_stage_init_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sc_stop_signals_n; i++)
		if (!sc_signal_ignored(sc_stop_signals[i]) && sigaction(sc_stop_signals[i], &sa, NULL) < 0)
			sc_die_sys_errno("cannot take over signal %d (sigaction)", sc_stop_signals[i]);
}

int sc_stage_interrupted(void) { return interrupted; }

void sc_stage_stop_if_interrupted(const char *workspace)
{
	int sig = interrupted;
	/* 128+N is the shell's code for death by signal N: no named die
	 * function fits it. */
	if (sig)
		sc_die_code(128 + sig, "interrupted by signal %d; the workspace is incomplete (%s)", sig,
		            workspace);
}

void sc_stage_start(struct sc_stage *s, const char *dir, const char *stage,
                    const char *const *args, int output)
{
	struct sc_argv argv = SC_ARGV_INIT;
	sc_argv_push_owned(&argv, xasprintf("%s/sc-%s", dir, stage));
	for (const char *const *a = args; *a; a++)
		sc_argv_push(&argv, *a);

	/* Block the forwarded signals while the child is being started so a
	 * signal arriving in between is not lost: the handler then sees the pid. */
	sigset_t block, old;
	sc_stop_signal_set(&block);
	sigprocmask(SIG_BLOCK, &block, &old);
	int slot = 0;
	while (slot < SC_STAGE_MAX && running[slot] > 0)
		slot++;
	if (slot == SC_STAGE_MAX)
		sc_die_sys("internal: more than %d stages at once (sc-%s)", SC_STAGE_MAX, stage);
	unsigned flags = SC_NULL_IN | SC_PARENT_DEATH_TERM;
	if (output != SC_STAGE_INHERIT)
		flags |= SC_PIPE_OUT;
	if (output == SC_STAGE_ALL_OUTPUT)
		flags |= SC_ERR_TO_OUT;
	struct sc_proc p;
	/* A stage gets SIGTERM when we die, even by SIGKILL: sc-sandbox-exec
	 * then takes its sandbox down, the others just stop. */
	int rc = sc_spawn(&p, argv.v, NULL, NULL, flags);
	int err = errno;
	if (rc == 0) {
		running[slot] = p.pid;
		if (interrupted)
			kill(p.pid, SIGTERM);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (rc < 0) {
		errno = err;
		sc_die_path_errno("cannot run stage sc-%s (%s)", stage, argv.v[0]);
	}
	s->pid = p.pid;
	s->out_fd = output != SC_STAGE_INHERIT ? p.out_fd : -1;
	s->path = xstrdup(argv.v[0]);
	sc_argv_release(&argv);
}

/* Wait for pid to end, left unreaped (a zombie keeps its PID: the handler
 * may still signal it harmlessly), then, with the stop signals held, take
 * it out of running[] and reap it: the handler never sees a PID that the
 * system could have given to another process. */
static int reap(pid_t pid)
{
	siginfo_t si;
	while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) < 0)
		if (errno != EINTR)
			return -1;
	sigset_t block, old;
	sc_stop_signal_set(&block);
	sigprocmask(SIG_BLOCK, &block, &old);
	for (int i = 0; i < SC_STAGE_MAX; i++)
		if (running[i] == pid)
			running[i] = 0;
	int st = sc_wait(pid);
	int e = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return st;
}

int sc_stage_finish(struct sc_stage *s, struct strbuf *out)
{
	if (s->out_fd >= 0) {
		struct strbuf discard = STRBUF_INIT;
		if (sc_read_all(s->out_fd, out ? out : &discard) < 0)
			sc_die_sys_errno("cannot read output of %s", s->path);
		sb_release(&discard);
		close(s->out_fd);
	}
	int st = reap(s->pid);
	if (st < 0)
		sc_die_sys_errno("cannot wait for %s", s->path);
	free(s->path);
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return 128 + WTERMSIG(st);
}

/* Its output into OUT until EOF, TICK called on time meanwhile. */
static void read_ticking(struct sc_stage *s, struct strbuf *out, const struct sc_stage_tick *tick)
{
	double start = sc_monotonic_now(), next = start + tick->every;
	char buf[4096];
	for (;;) {
		double now = sc_monotonic_now();
		if (now >= next) {
			tick->fn(tick->arg, now - start);
			while (next <= now)
				next += tick->every;
		}
		struct pollfd p = {.fd = s->out_fd, .events = POLLIN};
		int r = poll(&p, 1, (int)((next - now) * 1000) + 1);
		if (r < 0 && errno != EINTR)
			sc_die_sys_errno("cannot wait for output of %s", s->path);
		if (r <= 0)
			continue;
		ssize_t k = read(s->out_fd, buf, sizeof buf);
		if (k < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (k < 0)
			sc_die_sys_errno("cannot read output of %s", s->path);
		if (k == 0)
			break;
		sb_add(out, buf, (size_t)k);
	}
	close(s->out_fd);
	s->out_fd = -1;
}

int sc_stage_run_ticking(const char *dir, const char *stage, const char *const *args,
                         struct strbuf *out, const struct sc_stage_tick *tick)
{
	struct sc_stage s;
	sc_stage_start(&s, dir, stage, args, SC_STAGE_STDOUT);
	read_ticking(&s, out, tick);
	return sc_stage_finish(&s, NULL);
}

int sc_stage_run(const char *dir, const char *stage, const char *const *args,
                 struct strbuf *out)
{
	struct sc_stage s;
	sc_stage_start(&s, dir, stage, args, out ? SC_STAGE_STDOUT : SC_STAGE_INHERIT);
	return sc_stage_finish(&s, out);
}

int sc_stage_system_failure(int rc) { return rc == SC_EXIT_SYSTEM || rc >= 128; }

int sc_stage_exit_code(int rc, int failed)
{
	return sc_stage_system_failure(rc) ? SC_EXIT_SYSTEM : failed;
}

void sc_stage_die(int rc, int failed, const char *fmt, ...)
{
	char what[4096]; /* as long as an error line gets */
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	sc_die_code(sc_stage_exit_code(rc, failed), "%s", what);
}
