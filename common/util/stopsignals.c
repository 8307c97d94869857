#include "util/stopsignals.h"

const int sc_stop_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
const size_t sc_stop_signals_n = sizeof sc_stop_signals / sizeof *sc_stop_signals;

int sc_signal_ignored(int sig)
{
	struct sigaction sa;
	return sigaction(sig, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN;
}

void sc_stop_signal_set(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < sc_stop_signals_n; i++)
		if (!sc_signal_ignored(sc_stop_signals[i]))
			sigaddset(set, sc_stop_signals[i]);
}
