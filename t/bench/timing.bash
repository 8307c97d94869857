# The benches' timing helpers, sourced (t/bench/*.sh).
# per_run_us FUNCTION: microseconds per run of FUNCTION, averaged over
# $LOOPS runs (its output discarded).
per_run_us() {
	local t0 t1 l
	t0=$(date +%s%N)
	for ((l = 0; l < LOOPS; l++)); do "$1" >/dev/null; done
	t1=$(date +%s%N)
	echo $(((t1 - t0) / LOOPS / 1000))
}
# median: the median of the numbers on stdin, one a line.
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
