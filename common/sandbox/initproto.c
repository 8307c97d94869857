#include "sandbox/initproto.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static void parse_line(const char *line, struct sc_init_report *ir)
{
	int v;
	if (strcmp(line, "ready -") == 0)
		ir->ready = 1;
	else if (strcmp(line, "self-test-ok -") == 0)
		ir->self_test_ok = 1;
	else if (sscanf(line, "exec-failed %d", &v) == 1)
		ir->exec_errno = v > 0 ? v : EINVAL;
	else if (sscanf(line, "exit %d", &v) == 1)
		ir->has_status = 1, ir->exit_code = v;
	else if (sscanf(line, "signal %d", &v) == 1)
		ir->has_status = 1, ir->exit_code = -1, ir->signal = v;
	else if (strncmp(line, "init-failed ", 12) == 0 || strncmp(line, "self-test-failed ", 17) == 0)
		snprintf(ir->failure, sizeof ir->failure, "%s", strchr(line, ' ') + 1);
}

void sc_init_report_parse(const char *text, struct sc_init_report *ir)
{
	memset(ir, 0, sizeof *ir);
	const char *p = text;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char line[300];
		snprintf(line, sizeof line, "%.*s", (int)(n < 299 ? n : 299), p);
		parse_line(line, ir);
		if (!nl)
			break;
		p = nl + 1;
	}
}
