#include "gitjob.h"
#include "die.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

void sc_gitjob_start(struct sc_gitjob *j, const struct sc_git *g, const char *const *args)
{
	size_t n = 0;
	while (args[n])
		n++;
	const char **argv = xcalloc(n + 5, sizeof *argv);
	char *dirarg = xasprintf("--git-dir=%s", g->git_dir);
	size_t k = 0;
	argv[k++] = "git";
	argv[k++] = dirarg;
	argv[k++] = "-c";
	argv[k++] = "core.fsmonitor=false";
	for (size_t i = 0; i < n; i++)
		argv[k++] = args[i];
	argv[k] = NULL;
	int rc = sc_spawn(&j->proc, argv, sc_git_env(), NULL, SC_PIPE_OUT | SC_NULL_IN | SC_NULL_ERR);
	int saved = errno;
	free(argv);
	free(dirarg);
	if (rc < 0) {
		errno = saved;
		sc_die_errno("cannot run git (PATH)");
	}
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
