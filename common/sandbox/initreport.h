#ifndef SC_INITREPORT_H
#define SC_INITREPORT_H
/* The host half of sc-pid1's report protocol: the words and the lines
 * are contract/initproto.h's, which sc-pid1 writes with. */
#include <stddef.h>

struct sc_init_report {
	int ready;
	int exec_errno; /* 0 unless the command could not be started */
	int has_status, exit_code, signal;
	int self_test_ok;
	char failure[256]; /* init-failed / self-test-failed text */
};

/* Parse what sc-pid1 wrote (TEXT, NUL-terminated). */
void sc_init_report_parse(const char *text, struct sc_init_report *ir);

#endif
