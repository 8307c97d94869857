#ifndef SC_UNIT_MAIN_H
#define SC_UNIT_MAIN_H
/* The runner every check program shares: run one suite, exit nonzero on
 * any failure. */
#include <check.h>
#include <stdlib.h>

static inline int sc_unit_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
