#!/usr/bin/env bash
# A TauCeti-shaped project (hundreds of modules, cones of median
# 4 and one of 150, each module a fixed build cost) and a pull request that
# changes the 150-module cone's top and one module deep inside it.  Printed
# per side: the modules each prebuild elaborated ("Built" lines of its kept
# log) and its CPU, without and with --cache (Lake's artifact cache filled
# by a trusted fixture build of the base, ex_trusted_build).  Goal: with
# the cache, only the changed modules and their importers in the cone (0 on
# base).  Then the CPU of one `lake lean` sample with and without git's
# checkStat/trustctime settings on a dependency of 10,000 tracked files
# owned by another uid than the sandbox's.
# Env: SC_BIN, SC_FIXTURE (make bench); COST per module (default 0.02 s).
set -euo pipefail
COST=${COST:-0.02}
# shellcheck source=example-env.bash
. "$(dirname "$0")/example-env.bash"

# 10 chains of 15 modules under Demo.Top (its cone: 150 modules) ...
imports=()
for c in $(seq 0 9); do
	for j in $(seq 0 14); do
		if [ "$j" -eq 0 ]; then
			ex_lean "$R" "Demo/C$c/M$j.lean" "-- fixture: build-cpu=$COST"
		else
			ex_lean "$R" "Demo/C$c/M$j.lean" "import Demo.C$c.M$((j - 1))" "-- fixture: build-cpu=$COST"
		fi
	done
	imports+=("import Demo.C$c.M14")
done
ex_lean "$R" Demo/Top.lean "${imports[@]}" '-- fixture: cpu=0.1'
# ... and 150 modules in chains of 5 (cones of 0 to 4 modules)
for g in $(seq 0 29); do
	for j in $(seq 0 4); do
		if [ "$j" -eq 0 ]; then
			ex_lean "$R" "Demo/S$g/M$j.lean" "-- fixture: build-cpu=$COST"
		else
			ex_lean "$R" "Demo/S$g/M$j.lean" "import Demo.S$g.M$((j - 1))" "-- fixture: build-cpu=$COST"
		fi
	done
done
M=$(ex_commit "$R" base)
ex_lean "$R" Demo/Top.lean "${imports[@]}" '-- fixture: cpu=0.12'
ex_lean "$R" Demo/C3/M5.lean 'import Demo.C3.M4' '-- changed' "-- fixture: build-cpu=$COST cpu=0.05"
H=$(ex_commit "$R" head)

EX_TOOLCHAIN=$TC ex_trusted_build "$R" "$M" "$W/deps" "$W/trusted" "$W/cache"
chmod -R o+rX "$W/cache" "$W/deps"

# run NAME [FLAGS]: one profile-run; prints per side "N modules, S s CPU".
run() {
	local ws=$W/$1
	shift
	"$SC_BIN/sphereceti" profile-run --repo "$R" --tooling "$M" --base "$M" --head "$H" \
		--workspace "$ws" --toolchain "$TC" --dependencies "$W/deps" --keep-logs --quiet "$@" >/dev/null
	for side in base head; do
		local n cpu
		n=$(grep -c '^Built ' "$ws/logs/$side-prebuild.log" || true)
		cpu=$(awk '$1 == "user" || $1 == "sys" { s += $2 } END { printf "%.2f", s }' "$ws/raw/$side-prebuild.time")
		printf '%s %s ' "$n" "$cpu"
	done
}
read -r nb cb nh ch <<<"$(run nocache)"
read -r nbc cbc nhc chc <<<"$(run withcache --cache "$W/cache")"
printf 'prebuild, 150-module cone, 2 changed modules (%s s each): without --cache base %s modules %s s CPU, head %s modules %s s CPU; with --cache base %s modules %s s CPU, head %s modules %s s CPU (goal: base 0, head 10 = Demo.C3.M5..M14)\n' \
	"$COST" "$nb" "$cb" "$nh" "$ch" "$nbc" "$cbc" "$nhc" "$chc"

# A dependency of 10,000 tracked files owned by another uid.
big=$W/bigdeps/big
mkdir -p "$big/data" "$big/Big"
ex_git init -q "$big"
for i in $(seq 0 99); do
	mkdir -p "$big/data/d$i"
	for j in $(seq 0 99); do echo "$i $j" >"$big/data/d$i/f$j"; done
done
printf 'leanprover/lean4:v%s\n' "$EX_LEAN_VERSION" >"$big/lean-toolchain"
printf 'name = "big"\n[[lean_lib]]\nname = "Big"\n' >"$big/lakefile.toml"
printf '/.lake\n' >"$big/.gitignore"
echo 'def big := 1' >"$big/Big/Core.lean"
rev=$(ex_commit "$big" big)
(cd "$big" && "$TC/bin/lake" build Big.Core >/dev/null)
if [ "$(id -u)" -eq 0 ]; then
	chown -R 12345:12345 "$big" # neither ours nor the sandbox's (changes every ctime too)
fi
chmod -R o+rX "$W/bigdeps"
t=$W/bigtree
mkdir -p "$t"
chmod 0777 "$t"
printf 'leanprover/lean4:v%s\n' "$EX_LEAN_VERSION" >"$t/lean-toolchain"
printf 'name = "p"\n[[lean_lib]]\nname = "A"\n' >"$t/lakefile.toml"
jq -n --arg rev "$rev" '{version: "1.1.0", packagesDir: ".lake/packages", name: "p", lakeDir: ".lake",
	packages: [{type: "git", name: "big", url: "https://example.invalid/big", rev: $rev, subDir: null,
	            inherited: false, inputRev: "main", scope: "", configFile: "lakefile.toml"}]}' >"$t/lake-manifest.json"
printf 'import Big.Core\n' >"$t/A.lean"
sample() { # NAME [ENV...]: CPU of one sandboxed `lake lean A.lean -- -j1`
	local name=$1
	shift
	"$SC_BIN/sc-sandbox-exec" --tree "$t" --toolchain "$TC" --dependencies "$W/bigdeps" \
		--time-file "$W/$name.time" --timeout 300 -- /usr/bin/env "$@" lake lean A.lean -- -j1 >/dev/null
	awk '$1 == "user" || $1 == "sys" { s += $2 } END { printf "%.2f", s }' "$W/$name.time"
}
with=$(sample with)
without=$(sample without GIT_CONFIG_COUNT=1)
echo "lake lean sample, dependency of 10,000 tracked files owned by another uid: $with s CPU with core.checkStat=minimal and core.trustctime=false, $without s CPU without"
