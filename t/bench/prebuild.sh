#!/usr/bin/env bash
# The prebuild no longer elaborates the selected modules: one
# changed file that costs COST s to build (fixture build-cpu) and COST s to
# elaborate (cpu).  Measured in this run: profile-run's head prebuild
# (`lake build +Mod:deps` in the sandbox), and on a fresh copy of the head
# tree the old `lake build +Mod` against `lake build +Mod:deps`.
# Goal: the old prebuild costs about COST s more (saving / COST >= 0.9).
# Env: SC_BIN, SC_FIXTURE (make bench); COST (default 2; 20 s in the issue,
# scaled down).
set -euo pipefail
COST=${COST:-2}
# shellcheck source=example-env.bash
. "$(dirname "$0")/example-env.bash"
ex_lean "$R" Demo/Helper.lean '-- fixture: build-cpu=0.1'
ex_lean "$R" Demo/Slow.lean 'import Demo.Helper' '-- fixture: cpu=0.1'
M=$(ex_commit "$R" base)
ex_lean "$R" Demo/Slow.lean 'import Demo.Helper' "-- fixture: build-cpu=$COST cpu=$COST"
H=$(ex_commit "$R" head)

"$SC_BIN/sphereceti" profile-run --repo "$R" --tooling "$M" --base "$M" --head "$H" \
	--workspace "$W/run" --toolchain "$TC" --dependencies "$W/deps" --quiet >/dev/null
in_run=$(jq .wall_s "$W/run/raw/head-prebuild.status")

# cpu_of DIR TARGET: user+system seconds of `lake build TARGET` in a fresh copy of the head tree.
cpu_of() {
	rm -rf "$W/t" && "$SC_BIN/sc-materialize" --repo "$R" --commit "$H" --dest "$W/t" >/dev/null
	mkdir -p "$W/t/.lake" && ln -s "$W/deps" "$W/t/.lake/packages"
	(cd "$W/t" && /usr/bin/time -f '%U %S' -o "$W/cpu" "$TC/bin/lake" build "$1" >/dev/null)
	awk '{ printf "%.2f", $1 + $2 }' "$W/cpu"
}
old=$(cpu_of +Demo.Slow)
new=$(cpu_of +Demo.Slow:deps)
awk -v old="$old" -v new="$new" -v c="$COST" -v run="$in_run" 'BEGIN {
	printf "prebuild of 1 changed file costing %.1f s: +Mod %.2f s CPU, +Mod:deps %.2f s CPU, saving %.2f s = %.2f x COST (goal >= 0.9); head prebuild in profile-run %.2f s wall\n",
		c, old, new, old - new, (old - new) / c, run
}'
