# Waiting without racing: a test orders events by a readiness signal (a line
# in a log, a file that appears, a state in /proc), never by sleeping.  The
# bounds are generous: they only end a wait that would otherwise hang, so a
# loaded machine makes a test slower, never red.

# wait_for SECONDS CMD...: until CMD succeeds; fail, naming CMD, after SECONDS.
wait_for() {
	local limit=$1 start=$SECONDS
	shift
	until "$@"; do
		if [ $((SECONDS - start)) -ge "$limit" ]; then
			echo "waited ${limit}s in vain for: $*" >&2
			return 1
		fi
		sleep 0.05 # lint-allow: sleep the poll interval of a bounded wait
	done
}

# gone PID: the process has ended (a zombie counts as ended).
gone() { [ ! -e "/proc/$1" ] || [ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" = Z ]; }

# ignores PID SIG: the process's disposition of SIG (a number) is "ignore".
ignores() {
	local mask
	mask=$(awk '/^SigIgn:/ { print $2 }' "/proc/$1/status")
	[ $(((16#$mask >> ($2 - 1)) & 1)) -eq 1 ]
}

# survives PID SIG: send SIG and prove PID outlives it.  A signal whose
# default action kills marks the process as exiting before kill(2) returns,
# and an exiting process drops a later SIGSTOP; so stopping (state T) after
# SIG proves SIG was ignored, with no sleep.  Then it goes on (SIGCONT).
survives() {
	kill -s "$2" "$1"
	kill -s STOP "$1"
	wait_for 30 stopped_or_gone "$1"
	if gone "$1"; then
		echo "$1 did not survive SIG$2" >&2
		return 1
	fi
	kill -s CONT "$1"
}
stopped_or_gone() { gone "$1" || [ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" = T ]; }
