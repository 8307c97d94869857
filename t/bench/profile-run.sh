#!/usr/bin/env bash
# Orchestration overhead of profile-run: a fixture pair with 8 modified
# files whose fixture CPU is known (PER_FILE s per sample, 16 samples), run
# end to end; overhead = (run wall - sum of prebuild and sample walls from
# the sandbox status lines) / run wall.  Goal: under 2 %.
# Env: SC_BIN, SC_FIXTURE (make bench); PER_FILE (default 2.0).
set -euo pipefail
PER_FILE=${PER_FILE:-2.0}
# shellcheck source=example-env.bash
. "$(dirname "$0")/example-env.bash"
for i in 1 2 3 4 5 6 7 8; do
	ex_lean "$R" "Demo/File$i.lean" "-- fixture: cpu=$PER_FILE"
done
M=$(ex_commit "$R" base)
for i in 1 2 3 4 5 6 7 8; do
	ex_lean "$R" "Demo/File$i.lean" '-- changed' "-- fixture: cpu=$PER_FILE"
done
H=$(ex_commit "$R" head)

t0=$EPOCHREALTIME
"$SC_BIN/sphereceti" profile-run --repo "$R" --tooling "$M" --base "$M" --head "$H" \
	--workspace "$W/run" --toolchain "$TC" --dependencies "$W/deps" --quiet >/dev/null
t1=$EPOCHREALTIME

inner=$(cat "$W"/run/raw/*.status | jq -s 'map(.wall_s) | add')
cpu=$(jq -s 'map(.cpu_s) | add' "$W/run/samples.jsonl")
awk -v t0="$t0" -v t1="$t1" -v inner="$inner" -v cpu="$cpu" -v per="$PER_FILE" 'BEGIN {
	run = t1 - t0
	printf "profile-run, 8 modified files, 16 samples of %.1f s fixture CPU (%.1f s expected, %.2f s counted)\n", per, 16 * per, cpu
	printf "  run wall %.2f s, prebuild+sample walls %.2f s, orchestration %.2f s = %.2f %% (goal < 2 %%)\n",
		run, inner, run - inner, 100 * (run - inner) / run
}'
