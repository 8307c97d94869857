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
# paired_medians BASELINE SUBJECT: "BASELINE_US SUBJECT_US", the medians of
# $REPS rounds, each timing one then the other, so that load on a shared
# host falls on both alike.
paired_medians() {
	local r a=() b=()
	for ((r = 0; r < REPS; r++)); do
		a+=("$(per_run_us "$1")")
		b+=("$(per_run_us "$2")")
	done
	echo "$(printf '%s\n' "${a[@]}" | median) $(printf '%s\n' "${b[@]}" | median)"
}
