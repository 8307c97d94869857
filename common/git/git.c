#include "git/git.h"
#include "util/die.h"
#include "util/oid.h"
#include "util/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Variables that would make git read other objects or write anything. */
static int is_dropped_var(const char *kv)
{
	return strncmp(kv, "GIT_", 4) == 0 || strncmp(kv, "LC_", 3) == 0 ||
	       strncmp(kv, "LANG=", 5) == 0 || strncmp(kv, "LANGUAGE=", 9) == 0;
}

const char *const *sc_git_env(void)
{
	static const char **env;
	if (env)
		return env;
	static const char *const fixed[] = {
		"GIT_NO_REPLACE_OBJECTS=1", "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0",
		"GIT_GRAFT_FILE=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "GIT_NO_LAZY_FETCH=1",
		"LC_ALL=C", NULL,
	};
	size_t n = 0, nfixed = sizeof fixed / sizeof *fixed - 1;
	for (char **e = environ; *e; e++)
		n++;
	env = xcalloc(n + nfixed + 1, sizeof *env);
	size_t k = 0;
	for (char **e = environ; *e; e++)
		if (!is_dropped_var(*e))
			env[k++] = *e;
	for (size_t i = 0; i < nfixed; i++)
		env[k++] = fixed[i];
	env[k] = NULL;
	return env;
}

const char **sc_git_argv(const char *program, const char *opt, const char *val,
                         const char *const *args)
{
	size_t n = 0;
	while (args[n])
		n++;
	const char **argv = xcalloc(n + 6, sizeof *argv);
	size_t k = 0;
	argv[k++] = program;
	if (opt)
		argv[k++] = opt;
	if (val)
		argv[k++] = val;
	argv[k++] = "-c";
	argv[k++] = "core.fsmonitor=false";
	for (size_t i = 0; i < n; i++)
		argv[k++] = args[i];
	argv[k] = NULL;
	return argv;
}

int sc_git_runv(const struct sc_git *g, struct strbuf *out, int keep_stderr,
                const char *const *args)
{
	char *dirarg = g ? xasprintf("--git-dir=%s", g->git_dir) : NULL;
	const char **argv = sc_git_argv("git", dirarg, NULL, args);
	int st = sc_spawn_capture(argv, sc_git_env(), NULL, keep_stderr ? 0 : SC_NULL_ERR, out);
	int saved = errno;
	free(argv);
	free(dirarg);
	if (st < 0) {
		errno = saved;
		sc_die_sys_errno("cannot run git (PATH)");
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int sc_git_run(const struct sc_git *g, struct strbuf *out, int keep_stderr, ...)
{
	size_t n = 0;
	va_list ap, count;
	va_start(ap, keep_stderr);
	va_copy(count, ap);
	while (va_arg(count, const char *))
		n++;
	va_end(count);
	const char **args = xcalloc(n + 1, sizeof *args);
	for (size_t i = 0; i < n; i++)
		args[i] = va_arg(ap, const char *);
	va_end(ap);
	int rc = sc_git_runv(g, out, keep_stderr, args);
	free(args);
	return rc;
}

static void start(struct sc_gitjob *j, const char *opt, const char *val,
                  const char *const *args)
{
	const char **argv = sc_git_argv("git", opt, val, args);
	/* Not sc_spawn: it waits for each exec to succeed, which would line
	 * the start-ups up one after another again. */
	if (sc_spawn_nowait(&j->proc, argv, sc_git_env()) < 0)
		sc_die_sys_errno("cannot run git (fork)");
	free(argv);
}

void sc_gitjob_start(struct sc_gitjob *j, const struct sc_git *g, const char *const *args)
{
	char *dirarg = xasprintf("--git-dir=%s", g->git_dir);
	start(j, dirarg, NULL, args);
	free(dirarg);
}

void sc_gitjob_start_at(struct sc_gitjob *j, const char *repo, const char *const *args)
{
	start(j, "-C", repo, args);
}

int sc_gitjob_finish(struct sc_gitjob *j, struct strbuf *out)
{
	sb_reset(out);
	int rd = sc_read_all(j->proc.out_fd, out);
	close(j->proc.out_fd);
	int st = sc_wait(j->proc.pid);
	if (rd < 0 || st < 0 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

int sc_git_run_at(const char *repo, const char *const *args, struct strbuf *out)
{
	struct sc_gitjob j;
	sc_gitjob_start_at(&j, repo, args);
	return sc_gitjob_finish(&j, out);
}

void sc_git_open_start(struct sc_gitjob *j, const char *repo)
{
	static const char *const args[] = {"rev-parse", "--absolute-git-dir",
	                                   "--show-object-format", NULL};
	sc_gitjob_start_at(j, repo, args);
}

/* Why git takes REPO for no repository: its ownership check names the
 * real cause, which "not a git repository" would hide. */
static void not_a_repository(const char *repo, struct strbuf *why)
{
	static const char *const args[] = {"rev-parse", "--git-dir", NULL};
	const char **argv = sc_git_argv("git", "-C", repo, args);
	struct strbuf out = STRBUF_INIT;
	(void)sc_spawn_capture(argv, sc_git_env(), NULL, SC_NULL_IN | SC_PIPE_OUT | SC_ERR_TO_OUT, &out);
	free(argv);
	if (strstr(out.buf, "dubious ownership"))
		sb_addf(why, "Git refuses the repository: another user owns it (Git's safe.directory "
		             "check); run as its owner, or mark it safe for this user with "
		             "git config --global --add safe.directory %s", repo);
	else
		sb_adds(why, "not a git repository");
	sb_release(&out);
}

int sc_git_open_finish(struct sc_gitjob *j, const char *repo, struct sc_git *g, struct strbuf *why)
{
	struct strbuf out = STRBUF_INIT;
	int rc = sc_gitjob_finish(j, &out);
	memset(g, 0, sizeof *g);
	/* "<absolute git dir>\n<object format>\n" */
	char *nl = out.len ? memchr(out.buf, '\n', out.len) : NULL;
	const char *fmt = nl ? nl + 1 : NULL;
	if (access(repo, F_OK) < 0 && errno != ENOENT && errno != ENOTDIR) {
		sb_addf(why, "cannot reach the repository: %s (give this user search permission on "
		             "the folders above it)", strerror(errno));
	} else if (access(repo, F_OK) < 0) {
		sb_adds(why, "repository does not exist");
	} else if (rc == 127) {
		sc_die_sys("cannot run git (PATH)");
	} else if (rc != 0 || !nl || nl == out.buf || out.buf[out.len - 1] != '\n' || out.buf[0] != '/') {
		not_a_repository(repo, why);
	} else {
		out.buf[--out.len] = '\0';
		g->hexsz = sc_hexsz_of_format(fmt);
		if (!g->hexsz)
			sb_addf(why, "unsupported object format '%s'", fmt);
	}
	if (why->len) {
		sb_release(&out);
		return -1;
	}
	g->object_format = g->hexsz == 40 ? "sha1" : "sha256";
	g->rawsz = g->hexsz / 2;
	g->git_dir = xstrndup(out.buf, (size_t)(nl - out.buf));
	sb_release(&out);
	return 0;
}

/* One rev-parse for the git dir and the object format. */
int sc_git_open(struct sc_git *g, const char *repo, struct strbuf *why)
{
	struct sc_gitjob j;
	sc_git_open_start(&j, repo);
	return sc_git_open_finish(&j, repo, g, why);
}

void sc_git_close(struct sc_git *g)
{
	free(g->git_dir);
	g->git_dir = NULL;
}

struct sc_catfile {
	struct sc_proc proc;
	FILE *in;   /* object names to git */
	FILE *out;  /* headers and contents from git */
	size_t pending; /* content bytes (plus the trailing LF) not yet consumed */
	int has_pending;
	size_t queued;  /* names sent whose header has not been read yet */
	size_t flushed; /* of those, the ones a "flush" has asked git to answer */
	size_t window;  /* bytes of commands that may wait in the pipe to git */
	int check;      /* --batch-check: headers, not contents */
};

/* Every queued name is counted at its maximum length, as its command
 * ("contents NAME\n"), with room for the "flush\n" that may follow it. */
#define QUEUED_NAME_BYTES (sizeof "contents " + SC_MAX_HEXSZ + sizeof "flush\n")

static struct sc_catfile *open_batch(const struct sc_git *g, int check)
{
	struct sc_catfile *c = xcalloc(1, sizeof *c);
	c->check = check;
	char *dirarg = xasprintf("--git-dir=%s", g->git_dir);
	/* Contents: commands with git's own output buffered, flushed when we
	 * are about to wait for an answer: one write a burst of objects on
	 * each side, not one an object (git flushes --batch after every
	 * object).  Headers alone are short: --batch-check as it is. */
	const char *const args[] = {"cat-file", check ? "--batch-check" : "--batch-command",
	                            check ? NULL : "--buffer", NULL};
	const char **argv = sc_git_argv("git", dirarg, NULL, args);
	if (sc_spawn(&c->proc, argv, sc_git_env(), NULL, SC_PIPE_IN | SC_PIPE_OUT | SC_PIPE_ERR) < 0)
		sc_die_sys_errno("cannot run git cat-file (PATH)");
	free(argv);
	free(dirarg);
	c->in = fdopen(c->proc.in_fd, "w");
	c->out = fdopen(c->proc.out_fd, "r");
	if (!c->in || !c->out)
		sc_die_sys_errno("cannot set up git cat-file pipes");
	/* Large reads, and room for git to run ahead of a slow consumer (fewer
	 * wake-ups on both sides); a pipe that cannot grow is fine too. */
	setvbuf(c->out, NULL, _IOFBF, 1 << 16);
	(void)fcntl(c->proc.out_fd, F_SETPIPE_SZ, 1 << 20);
	/* Half the pipe: git's own read buffering never matters then. A pipe is
	 * at least one page even when the system is short of pipe memory. */
	int cap = fcntl(c->proc.in_fd, F_GETPIPE_SZ);
	c->window = (cap > 0 ? (size_t)cap : 4096) / 2;
	return c;
}

struct sc_catfile *sc_catfile_open(const struct sc_git *g) { return open_batch(g, 0); }
struct sc_catfile *sc_catfile_open_check(const struct sc_git *g) { return open_batch(g, 1); }

/* What git said before it stopped, as one line in WHY: its last "fatal:"
 * or "error:" line, else its first line; empty when it said nothing we
 * could read. */
static void git_last_word(int fd, struct strbuf *why)
{
	char buf[4096];
	ssize_t n;
	do
		n = read(fd, buf, sizeof buf - 1);
	while (n < 0 && errno == EINTR);
	if (n <= 0)
		return;
	buf[n] = '\0';
	const char *pick = NULL;
	for (char *line = buf; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (!pick && *line)
			pick = line;
		if (!strncmp(line, "fatal: ", 7) || !strncmp(line, "error: ", 7))
			pick = line + 7;
		line = nl ? nl + 1 : NULL;
	}
	if (!pick)
		return;
	/* at most 200 bytes of it; the error line quotes what it holds */
	sb_adds(why, ": ");
	sb_add(why, pick, strnlen(pick, 200));
}

/* Git's own words go into our one error line, never beside it. */
static _Noreturn void batch_broken(struct sc_catfile *c)
{
	struct strbuf why = STRBUF_INIT;
	git_last_word(c->proc.err_fd, &why);
	sc_die_sys("git cat-file --batch stopped unexpectedly%s (object reader)", why.buf);
}

size_t sc_catfile_queue_room(const struct sc_catfile *c)
{
	size_t used = c->queued * QUEUED_NAME_BYTES;
	return used >= c->window ? 0 : (c->window - used) / QUEUED_NAME_BYTES;
}

static void send_name(struct sc_catfile *c, const char *hex)
{
	/* A name with whitespace would be split by git; callers pass plain hex. */
	for (const char *p = hex; *p; p++)
		if (*p == '\n' || *p == ' ' || *p == '\t')
			sc_die("object name contains whitespace (%s)", hex);
	if ((!c->check && fputs("contents ", c->in) == EOF) || fputs(hex, c->in) == EOF ||
	    putc('\n', c->in) == EOF)
		batch_broken(c);
	c->queued++;
}

void sc_catfile_queue(struct sc_catfile *c, const char *hex)
{
	if (!sc_catfile_queue_room(c))
		sc_die_sys("internal: cat-file queue full");
	if (strlen(hex) + 1 > QUEUED_NAME_BYTES)
		sc_die("object name too long (%s)", hex);
	send_name(c, hex);
}

int sc_catfile_header(struct sc_catfile *c, const char *hex, char type[16], size_t *size)
{
	if (c->queued)
		sc_die_sys("internal: cat-file lookup while names are queued");
	/* Alone in the pipe, a name of any length (e.g. "rev:path") is safe. */
	send_name(c, hex);
	return sc_catfile_next(c, type, size);
}

int sc_catfile_next(struct sc_catfile *c, char type[16], size_t *size)
{
	if (c->has_pending)
		sc_die_sys("internal: cat-file content not consumed");
	if (!c->queued)
		sc_die_sys("internal: cat-file answer read with nothing queued");
	/* git holds its answers until asked: ask for every name queued when
	 * half of what it was asked for is read, so that it works ahead while
	 * we read (and at once when nothing asked for is left) */
	if (c->check) {
		if (fflush(c->in) != 0)
			batch_broken(c);
	} else if (c->flushed <= c->queued / 2 && c->flushed < c->queued) {
		if (fputs("flush\n", c->in) == EOF || fflush(c->in) != 0)
			batch_broken(c);
		c->flushed = c->queued;
	}
	c->flushed -= !c->check;
	c->queued--;
	char line[256];
	if (!fgets(line, sizeof line, c->out))
		batch_broken(c);
	size_t n = strlen(line);
	if (!n || line[n - 1] != '\n')
		batch_broken(c);
	line[n - 1] = '\0';
	if (n > 8 && strcmp(line + n - 1 - 8, " missing") == 0)
		return -1;
	if (n > 10 && strcmp(line + n - 1 - 10, " ambiguous") == 0)
		return -1;
	/* "<oid> <type> <size>" */
	char *sp1 = strchr(line, ' ');
	char *sp2 = sp1 ? strchr(sp1 + 1, ' ') : NULL;
	if (!sp1 || !sp2 || (size_t)(sp2 - sp1 - 1) >= 16)
		batch_broken(c);
	memcpy(type, sp1 + 1, (size_t)(sp2 - sp1 - 1));
	type[sp2 - sp1 - 1] = '\0';
	char *end;
	errno = 0;
	unsigned long long sz = strtoull(sp2 + 1, &end, 10);
	if (errno || *end || end == sp2 + 1)
		batch_broken(c);
	*size = (size_t)sz;
	c->pending = c->check ? 0 : (size_t)sz;
	c->has_pending = !c->check;
	return 0;
}

static void finish_object(struct sc_catfile *c)
{
	if (fgetc(c->out) != '\n')
		batch_broken(c);
	c->has_pending = 0;
	c->pending = 0;
}

void sc_catfile_content(struct sc_catfile *c, struct strbuf *sb)
{
	sb_reset(sb);
	sb_grow(sb, c->pending);
	if (c->pending && fread(sb->buf, 1, c->pending, c->out) != c->pending)
		batch_broken(c);
	sb->len = c->pending;
	sb->buf[sb->len] = '\0';
	finish_object(c);
}

void sc_catfile_prefix(struct sc_catfile *c, struct strbuf *sb, size_t max)
{
	size_t keep = c->pending < max ? c->pending : max;
	sb_reset(sb);
	sb_grow(sb, keep);
	if (keep && fread(sb->buf, 1, keep, c->out) != keep)
		batch_broken(c);
	sb->len = keep;
	sb->buf[keep] = '\0';
	c->pending -= keep;
	char skip[1 << 16];
	while (c->pending) {
		size_t want = c->pending < sizeof skip ? c->pending : sizeof skip;
		size_t got = fread(skip, 1, want, c->out);
		if (got == 0)
			batch_broken(c);
		c->pending -= got;
	}
	finish_object(c);
}

int sc_catfile_stream(struct sc_catfile *c, int fd)
{
	char buf[1 << 16];
	int err = 0;
	while (c->pending) {
		size_t want = c->pending < sizeof buf ? c->pending : sizeof buf;
		size_t got = fread(buf, 1, want, c->out);
		if (got == 0)
			batch_broken(c);
		if (!err && sc_write_all(fd, buf, got) < 0)
			err = errno;
		c->pending -= got;
	}
	finish_object(c);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

int sc_catfile_read(struct sc_catfile *c, const char *hex, char type[16], struct strbuf *sb)
{
	size_t size;
	if (sc_catfile_header(c, hex, type, &size) < 0)
		return -1;
	sc_catfile_content(c, sb);
	return 0;
}

void sc_catfile_close(struct sc_catfile *c)
{
	if (!c)
		return;
	fclose(c->in);
	fclose(c->out);
	close(c->proc.err_fd);
	sc_wait(c->proc.pid);
	free(c);
}

int sc_is_regular_mode(unsigned mode) { return (mode & 0170000u) == 0100000u; }

int sc_tree_next(const char *buf, size_t len, size_t *pos, int rawsz, struct sc_tree_entry *e)
{
	static const char hexdig[] = "0123456789abcdef";
	size_t p = *pos;
	if (p >= len)
		return 0;
	unsigned mode = 0;
	size_t start = p;
	while (p < len && buf[p] >= '0' && buf[p] <= '7') {
		mode = mode * 8 + (unsigned)(buf[p] - '0');
		if (mode > 0777777)
			return -1;
		p++;
	}
	if (p == start || p >= len || buf[p] != ' ')
		return -1;
	p++;
	const char *nul = memchr(buf + p, '\0', len - p);
	if (!nul || nul == buf + p)
		return -1;
	e->name = buf + p;
	e->namelen = (size_t)(nul - (buf + p));
	p = (size_t)(nul - buf) + 1;
	if (len - p < (size_t)rawsz)
		return -1;
	for (int i = 0; i < rawsz; i++) {
		unsigned char b = (unsigned char)buf[p + (size_t)i];
		e->hex[2 * i] = hexdig[b >> 4];
		e->hex[2 * i + 1] = hexdig[b & 15];
	}
	e->hex[2 * rawsz] = '\0';
	e->mode = mode;
	*pos = p + (size_t)rawsz;
	return 1;
}
