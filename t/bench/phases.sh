#!/usr/bin/env bash
# Where one sc-sandbox-exec call's time goes: every fork, exec
# and exit of the chain from the kernel's sched tracepoints (perf record
# -a), the median ms from each event to the next over N calls, as
# profile-run calls it (--sandbox-user), beside bare bwrap with the same
# mounts.  Needs perf (Debian: linux-perf) and root, which may trace the
# whole machine; without them it says so and measures nothing.
# Env: SC_BIN, SC_FIXTURE (make bench); N (default 30).
set -euo pipefail
N=${N:-30}
if ! command -v perf > /dev/null || [ "$(id -u)" != 0 ]; then
	echo "phases: skipped (needs perf, Debian's linux-perf, and root)"
	exit 0
fi
# shellcheck source=sandbox-env.bash
. "$(dirname "$0")/sandbox-env.bash"

sbx() {
	"$SC_BIN/sc-sandbox-exec" --sandbox-user 65534:65534 --tree "$W/tree" --toolchain "$TC" \
		--dependencies "$W/deps" --time-file "$W/raw/$RANDOM$RANDOM$RANDOM.time" --timeout 30 -- true
}
# trace NAME CMD...: N calls of CMD under perf, the phases printed
trace() {
	local name=$1
	shift
	perf record -q -o "$W/$name.data" -a \
		-e sched:sched_process_fork,sched:sched_process_exec,sched:sched_process_exit -- \
		bash -c 'for ((i = 0; i < N; i++)); do "$@" > /dev/null; done' -- "$@" 2> /dev/null
	echo "== $name ($N calls)"
	perf script -i "$W/$name.data" 2> /dev/null | /usr/bin/python3 "$(dirname "$0")/phases.py"
}
export N
export -f sbx
export W TC SC_BIN
trace sc-sandbox-exec sbx
trace "bare bwrap" "${bare_bwrap[@]}"
