#include "sandbox/initreport.h"
#include "contract/initproto.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static void parse_line(const char *line, struct sc_init_report *ir)
{
	int v;
	if (strcmp(line, SC_INIT_READY " " SC_INIT_NO_ARG) == 0)
		ir->ready = 1;
	else if (strcmp(line, SC_INIT_SELF_TEST_OK " " SC_INIT_NO_ARG) == 0)
		ir->self_test_ok = 1;
	else if (sscanf(line, SC_INIT_EXEC_FAILED " %d", &v) == 1)
		ir->exec_errno = v > 0 ? v : EINVAL;
	else if (sscanf(line, SC_INIT_EXIT " %d", &v) == 1)
		ir->has_status = 1, ir->exit_code = v;
	else if (sscanf(line, SC_INIT_SIGNAL " %d", &v) == 1)
		ir->has_status = 1, ir->exit_code = -1, ir->signal = v;
	else if (strncmp(line, SC_INIT_FAILED " ", sizeof SC_INIT_FAILED) == 0 ||
	         strncmp(line, SC_INIT_SELF_TEST_FAILED " ", sizeof SC_INIT_SELF_TEST_FAILED) == 0)
		snprintf(ir->failure, sizeof ir->failure, "%s", strchr(line, ' ') + 1);
}

void sc_init_report_parse(const char *text, struct sc_init_report *ir)
{
	memset(ir, 0, sizeof *ir);
	const char *p = text;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char line[SC_INIT_LINE_MAX + 1];
		snprintf(line, sizeof line, "%.*s", (int)(n < SC_INIT_LINE_MAX ? n : SC_INIT_LINE_MAX), p);
		parse_line(line, ir);
		if (!nl)
			break;
		p = nl + 1;
	}
}
