#include "util/sigign.h"

#include <signal.h>
#include <stddef.h>

int sc_signal_ignored(int sig)
{
	struct sigaction sa;
	return sigaction(sig, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN;
}
