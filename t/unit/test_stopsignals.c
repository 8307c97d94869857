/* Unit tests for common/util/stopsignals: the one list of stop signals, and
 * that a stop signal ignored at start stays out of the set we take over. */
#include "unit_main.h"
#include "util/stopsignals.h"

#include <signal.h>

START_TEST(the_four_stop_signals)
{
	ck_assert_uint_eq(sc_stop_signals_n, 4);
	const int want[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
	for (size_t i = 0; i < 4; i++) {
		int found = 0;
		for (size_t j = 0; j < sc_stop_signals_n; j++)
			found |= sc_stop_signals[j] == want[i];
		ck_assert_msg(found, "signal %d is not a stop signal", want[i]);
	}
}
END_TEST

START_TEST(an_ignored_stop_signal_stays_out)
{
	/* every disposition the test relies on is set here: whoever started
	 * the suite (nohup, a script's background job) may have ignored some */
	signal(SIGQUIT, SIG_IGN);
	signal(SIGINT, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	sigset_t set;
	sc_stop_signal_set(&set);
	ck_assert(sc_signal_ignored(SIGQUIT));
	ck_assert(!sigismember(&set, SIGQUIT));
	ck_assert(sigismember(&set, SIGINT));
	ck_assert(sigismember(&set, SIGHUP));
	ck_assert(sigismember(&set, SIGTERM));
	ck_assert(!sigismember(&set, SIGPIPE));
	signal(SIGQUIT, SIG_DFL);
	sc_stop_signal_set(&set);
	ck_assert(sigismember(&set, SIGQUIT));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("stopsignals");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, the_four_stop_signals);
	tcase_add_test(tc, an_ignored_stop_signal_stays_out);
	suite_add_tcase(s, tc);
	return sc_unit_run(s);
}
