#include "gitjob.h"
#include "die.h"
#include "oid.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void start(struct sc_gitjob *j, const char *opt, const char *val,
                  const char *const *args)
{
	size_t n = 0;
	while (args[n])
		n++;
	const char **argv = xcalloc(n + 6, sizeof *argv);
	size_t k = 0;
	argv[k++] = "git";
	argv[k++] = opt;
	if (val)
		argv[k++] = val;
	argv[k++] = "-c";
	argv[k++] = "core.fsmonitor=false";
	for (size_t i = 0; i < n; i++)
		argv[k++] = args[i];
	argv[k] = NULL;
	/* Not sc_spawn: it waits for each exec to succeed, which would line
	 * the start-ups up one after another again.  A failed exec shows as
	 * exit 127. */
	const char *const *env = sc_git_env();
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) < 0)
		sc_die_errno("cannot run git (pipe)");
	pid_t pid = fork();
	if (pid < 0)
		sc_die_errno("cannot run git (fork)");
	if (pid == 0) {
		int nul = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (nul < 0 || dup2(nul, 0) < 0 || dup2(nul, 2) < 0 || dup2(fds[1], 1) < 0)
			_exit(127);
		execvpe(argv[0], (char *const *)argv, (char *const *)env);
		_exit(127);
	}
	close(fds[1]);
	j->proc.pid = pid;
	j->proc.out_fd = fds[0];
	j->proc.in_fd = -1;
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

void sc_git_open_start(struct sc_gitjob *j, const char *repo)
{
	static const char *const args[] = {"rev-parse", "--absolute-git-dir",
	                                   "--show-object-format", NULL};
	sc_gitjob_start_at(j, repo, args);
}

void sc_git_open_finish(struct sc_gitjob *j, const char *repo, struct sc_git *g)
{
	struct strbuf out = STRBUF_INIT;
	int rc = sc_gitjob_finish(j, &out);
	memset(g, 0, sizeof *g);
	if (access(repo, F_OK) < 0)
		sc_die("repository does not exist (--repo %s)", repo);
	/* "<absolute git dir>\n<object format>\n" */
	char *nl = out.len ? memchr(out.buf, '\n', out.len) : NULL;
	if (rc == 127)
		sc_die("cannot run git (PATH)");
	if (rc != 0 || !nl || nl == out.buf || out.buf[out.len - 1] != '\n' || out.buf[0] != '/')
		sc_die("not a git repository (--repo %s)", repo);
	out.buf[--out.len] = '\0';
	const char *fmt = nl + 1;
	g->hexsz = sc_hexsz_of_format(fmt);
	if (!g->hexsz)
		sc_die("unsupported object format '%s' (--repo %s)", fmt, repo);
	g->object_format = g->hexsz == 40 ? "sha1" : "sha256";
	g->rawsz = g->hexsz / 2;
	g->git_dir = xstrndup(out.buf, (size_t)(nl - out.buf));
	sb_release(&out);
}
