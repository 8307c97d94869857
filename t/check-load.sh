#!/bin/bash
# make check-load: `make check` three times in a row under load, so that on a
# 2-core machine every core is contended and each timing-sensitive assertion
# is shown to hold under load.  Fails if any of the runs fails (all run, to
# show every flake).  Each run has the tests of a file side by side too
# (BATS_WITHIN_FILE=1: BATS_JOBS files and as many tests of each at once,
# twice as many tests as cores on 2 cores), which make check does not do:
# that is what shows every file stays safe beside itself.  Beside them,
# LOAD_BURNERS CPU-bound processes (default 2), stopped however this ends: a
# failed run, an error, a signal.  LOAD_RUNS (default 3) sets the count;
# LOAD_TARGET (default check) the make target run each time.  CI runs
# check-asan once with LOAD_BURNERS=0: its sanitizer pass is its load pass,
# the load being the suite's own tests, four at once on two cores (burners
# beside them only stretched the pass: CI has 30 minutes).
# Arguments go to each make (e.g. BUILD=build-x).
set -u
make=${MAKE:-make}
burners=()
stop_burners() {
	local p
	[ ${#burners[@]} -gt 0 ] || return 0
	for p in "${burners[@]}"; do kill "$p" 2>/dev/null; done
	wait "${burners[@]}" 2>/dev/null
}
trap stop_burners EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
nburners=${LOAD_BURNERS:-2}
case $nburners in '' | *[!0-9]*) echo "check-load: error: LOAD_BURNERS wants a count of processes (LOAD_BURNERS=$nburners)" >&2; exit 2 ;; esac
for ((n = 0; n < nburners; n++)); do
	(while :; do :; done) &
	burners+=($!)
done
echo "== check-load: ${#burners[@]} CPU burners (${burners[*]}) on $(nproc) cores, tests of each file side by side"
runs=${LOAD_RUNS:-3}
target=${LOAD_TARGET:-check}
case $target in check | check-asan | check-bats | check-unit) ;; *) echo "check-load: error: LOAD_TARGET wants check, check-asan, check-bats or check-unit (LOAD_TARGET=$target)" >&2; exit 2 ;; esac
case $runs in '' | *[!0-9]* | 0) echo "check-load: error: LOAD_RUNS wants a count of runs (LOAD_RUNS=$runs)" >&2; exit 2 ;; esac
failed=
for ((n = 1; n <= runs; n++)); do
	echo "== check-load: make $target, run $n of $runs"
	start=$SECONDS
	if "$make" BATS_WITHIN_FILE=1 "$@" "$target"; then
		echo "== check-load: run $n passed in $((SECONDS - start)) s"
	else
		echo "== check-load: run $n FAILED after $((SECONDS - start)) s"
		failed="$failed $n"
	fi
done
if [ -n "$failed" ]; then
	echo "== check-load: failed runs:$failed"
	exit 1
fi
echo "== check-load: all $runs runs passed under load"
