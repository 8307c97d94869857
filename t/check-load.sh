#!/bin/bash
# make check-load: `make check` three times in a row with two CPU-bound
# processes beside it, so that on a 2-core machine every core is contended
# and each timing-sensitive assertion is shown to hold under load.  Fails if
# any of the three fails (all three run, to show every flake).  The burners
# are stopped however this ends: a failed run, an error, a signal.
# make check runs the suites side by side (bats --jobs), so each run is also
# every test beside other tests and the burners.  LOAD_RUNS (default 3) sets
# the count; LOAD_TARGET (default check) the make target run each time: CI
# runs check-asan once here, so that its sanitizer pass is also its load
# pass (slower binaries beside the burners: a harder load, in one suite run
# instead of two, which is what keeps CI within its 30 minutes).
# Arguments go to each make (e.g. BUILD=build-x).
set -u
make=${MAKE:-make}
burners=()
stop_burners() {
	local p
	for p in "${burners[@]}"; do kill "$p" 2>/dev/null; done
	wait "${burners[@]}" 2>/dev/null
}
trap stop_burners EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
for _ in 1 2; do
	(while :; do :; done) &
	burners+=($!)
done
echo "== check-load: CPU burners ${burners[*]} on $(nproc) cores"
runs=${LOAD_RUNS:-3}
target=${LOAD_TARGET:-check}
case $target in check | check-asan | check-bats | check-unit) ;; *) echo "check-load: error: LOAD_TARGET wants check, check-asan, check-bats or check-unit (LOAD_TARGET=$target)" >&2; exit 2 ;; esac
case $runs in '' | *[!0-9]* | 0) echo "check-load: error: LOAD_RUNS wants a count of runs (LOAD_RUNS=$runs)" >&2; exit 2 ;; esac
failed=
for ((n = 1; n <= runs; n++)); do
	echo "== check-load: make $target, run $n of $runs"
	start=$SECONDS
	if "$make" "$@" "$target"; then
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
