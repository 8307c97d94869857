#!/usr/bin/env bash
# The host's own cost on a run shaped like TauCeti: a project of 2,000
# modules in 100 import chains of 20, a prepared dependency of 7,000
# modules, a pull request changing 5 chain tops, Lake's artifact cache
# filled by a trusted build of the base (--cache).  Own cost = the run's
# wall minus the walls report.json gives (both prebuilds, every sample):
# what sphereceti spends planning, materializing, hashing, checking and
# reporting.  Goal: under 1 s.
# Env: SC_BIN, SC_FIXTURE (make bench); CHAINS (100), LENGTH (20), DEP (7000).
set -euo pipefail
CHAINS=${CHAINS:-100} LENGTH=${LENGTH:-20} DEP=${DEP:-7000}
# shellcheck source=example-env.bash
. "$(dirname "$0")/example-env.bash"

# the dependency: DEP modules in one library, prebuilt as an operator would
big=$W/deps/biglib
mkdir -p "$big/Big"
ex_git init -q "$big"
printf 'leanprover/lean4:v%s\n' "$EX_LEAN_VERSION" >"$big/lean-toolchain"
printf 'name = "biglib"\n[[lean_lib]]\nname = "Big"\n' >"$big/lakefile.toml"
printf '/.lake\n' >"$big/.gitignore"
for i in $(seq 0 $((DEP - 1))); do
	printf 'def big%d : Nat := %d\n' "$i" "$i" >"$big/Big/M$i.lean"
done
bigrev=$(ex_commit "$big" biglib)
mapfile -t bigmods < <(seq 0 $((DEP - 1)) | sed 's/^/+Big.M/')
(cd "$big" && "$TC/bin/lake" build "${bigmods[@]}" >/dev/null)
python3 - "$R/lake-manifest.json" "$bigrev" <<'PY'
import json, sys
path, rev = sys.argv[1], sys.argv[2]
m = json.load(open(path))
m["packages"].append(dict(m["packages"][0], url="https://example.invalid/biglib", rev=rev, name="biglib"))
json.dump(m, open(path, "w"), indent=1)
PY
printf '\n[[require]]\nname = "biglib"\n' >>"$R/lakefile.toml"

# the project: CHAINS chains of LENGTH modules, each importing the one before
for c in $(seq 0 $((CHAINS - 1))); do
	for j in $(seq 0 $((LENGTH - 1))); do
		if [ "$j" -eq 0 ]; then
			ex_lean "$R" "Demo/C$c/M$j.lean" "-- fixture: build-cpu=0.001"
		else
			ex_lean "$R" "Demo/C$c/M$j.lean" "import Demo.C$c.M$((j - 1))" "-- fixture: build-cpu=0.001"
		fi
	done
done
M=$(ex_commit "$R" base)
top=$((LENGTH - 1))
for c in 0 1 2 3 4; do
	ex_lean "$R" "Demo/C$c/M$top.lean" "import Demo.C$c.M$((top - 1))" '-- changed' "-- fixture: build-cpu=0.001 cpu=0.05"
done
H=$(ex_commit "$R" head)
EX_TOOLCHAIN=$TC ex_trusted_build "$R" "$M" "$W/deps" "$W/trusted" "$W/cache"
chmod -R o+rX "$W/cache" "$W/deps"

t0=$EPOCHREALTIME
"$SC_BIN/sphereceti" profile-run --repo "$R" --tooling "$M" --base "$M" --head "$H" \
	--workspace "$W/run" --toolchain "$TC" --dependencies "$W/deps" --cache "$W/cache" --quiet >/dev/null
t1=$EPOCHREALTIME
inner=$(jq '[.prebuild[].wall_s, (.files[] | .base.wall_s, .head.wall_s)] | map(select(. != null)) | add' "$W/run/report.json")
awk -v t0="$t0" -v t1="$t1" -v inner="$inner" -v n="$((CHAINS * LENGTH))" -v dep="$DEP" 'BEGIN {
	run = t1 - t0
	printf "profile-run, %d modules in chains, a dependency of %d, 5 chain tops changed, --cache: run wall %.2f s, prebuild+sample walls %.2f s, own cost %.2f s (goal < 1 s)\n",
		n, dep, run, inner, run - inner
}'
