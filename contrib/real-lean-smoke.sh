#!/usr/bin/env bash
# contrib/real-lean-smoke.sh TOOLCHAIN_DIR: profile a tiny two-revision Lake
# project with a REAL Lean 4 toolchain given by path (the folder holding
# bin/lean and bin/lake, e.g. an elan toolchain folder), and check the
# report.  The project requires one Git dependency configured by a
# lakefile.lean, prepared as an operator would (a trusted checkout of the
# base, `lake build` there); that build also fills Lake's artifact cache
# (LAKE_ARTIFACT_CACHE=true), and a second run passes it as --cache: the
# report must say so, and both prebuilds restore what the base built.  A
# third run, with the root configured by a lakefile.lean, selects a file no
# lean_lib builds: refused (exit 2, the file named) before any prebuild.
#
# It cannot run on our CI or test machines: Lean cannot be installed there.
# It was written against Lake's sources (lakefile.toml [[lean_lib]],
# lake-manifest.json version "1.1.0", `lake lean FILE -- -j1`) and is
# exercised here only with the fixture toolchain (t/profile-run.bats), which
# ignores the Lean code below.  With a real toolchain, a failure means the
# profiler or this script disagrees with real Lake: keep the workspace it
# prints and read logs/ there (run with --keep-logs if the profiler has it).
#
# Env: SPHERECETI (default: sphereceti next to this checkout's build/, else
# on PATH); KEEP=1 keeps the temporary folder.
set -euo pipefail

die() { printf 'real-lean-smoke: error: %s\n' "$1" >&2; exit 2; }

[ $# -eq 1 ] || die "usage: contrib/real-lean-smoke.sh TOOLCHAIN_DIR"
tc=$1
[ -d "$tc" ] || die "no such toolchain folder ($tc)"
[ -x "$tc/bin/lean" ] && [ -x "$tc/bin/lake" ] || die "no executable bin/lean and bin/lake in the toolchain folder ($tc)"
tc=$(cd "$tc" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
sc=${SPHERECETI:-$here/build/sphereceti}
[ -x "$sc" ] || sc=$(command -v sphereceti) || die "sphereceti not built (make all) and not on PATH"
for t in git jq bwrap sha256sum; do
	command -v "$t" >/dev/null || die "$t is missing"
done

# "Lean (version 4.34.0-rc1, x86_64-..., commit ..., Release)" -> 4.34.0-rc1
version=$(env -i "$tc/bin/lean" --version | sed -n 's/^Lean (version \([^,]*\),.*/\1/p')
[ -n "$version" ] || die "bin/lean --version did not print a Lean version line ($tc)"

work=$(mktemp -d "${TMPDIR:-/tmp}/sc-real-smoke.XXXXXX")
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT
r=$work/repo
g() { git -C "$r" -c user.name=smoke -c user.email=smoke@example.invalid "$@"; }
git init -q -b main "$r"
printf 'leanprover/lean4:v%s\n' "$version" >"$r/lean-toolchain"
# The dependency: its own Git repository, configured by a lakefile.lean.
d=$work/src/smokedep
git init -q -b main "$d"
printf 'leanprover/lean4:v%s\n' "$version" >"$d/lean-toolchain"
cat >"$d/lakefile.lean" <<'LEAN'
import Lake
open Lake DSL

package smokedep
lean_lib SmokeDep
LEAN
mkdir -p "$d/SmokeDep"
printf 'def smokeDepValue : Nat := 7\n' >"$d/SmokeDep/Core.lean"
printf '/.lake\n' >"$d/.gitignore"
git -C "$d" add -A && git -C "$d" -c user.name=smoke -c user.email=smoke@example.invalid commit -q -m dep
dep_rev=$(git -C "$d" rev-parse HEAD)
cat >"$r/lakefile.toml" <<TOML
name = "smoke"
defaultTargets = ["Smoke"]

[[require]]
name = "smokedep"
git = "file://$d"
rev = "main"

[[lean_lib]]
name = "Smoke"
TOML
# What `lake update` writes for this one dependency.
jq -n --arg url "file://$d" --arg rev "$dep_rev" '{version: "1.1.0", packagesDir: ".lake/packages",
	packages: [{url: $url, type: "git", subDir: null, scope: "", rev: $rev, name: "smokedep",
	            manifestFile: "lake-manifest.json", inputRev: "main", inherited: false,
	            configFile: "lakefile.lean"}],
	name: "smoke", lakeDir: ".lake"}' >"$r/lake-manifest.json"
printf '/.lake\n' >"$r/.gitignore"
bwrap_bin=$(command -v bwrap)
cat >"$r/.sphereceti" <<CFG
[profile]
	library = Smoke
[sandbox]
	bwrapSha256 = $(sha256sum "$bwrap_bin" | cut -d' ' -f1)
	bwrapVersion = $("$bwrap_bin" --version | sed -n 's/^bubblewrap //p')
CFG
mkdir -p "$r/Smoke"
cat >"$r/Smoke/Basic.lean" <<'LEAN'
import SmokeDep.Core
def smokeValue : Nat := 42
LEAN
cat >"$r/Smoke.lean" <<'LEAN'
import Smoke.Basic
LEAN
g add -A && g commit -q -m base
base=$(g rev-parse HEAD)
# Head: Basic does real work (so its CPU is visibly above start-up), New is added.
cat >"$r/Smoke/Basic.lean" <<'LEAN'
import SmokeDep.Core
def smokeValue : Nat := 42

def sumTo (n : Nat) : Nat := (List.range n).foldl (· + ·) 0
#eval sumTo 2000000
theorem smoke_small : sumTo 100 = 4950 := by decide
LEAN
cat >"$r/Smoke/New.lean" <<'LEAN'
import Smoke.Basic
theorem new_fact : smokeValue = 42 := rfl
LEAN
g add -A && g commit -q -m head
head=$(g rev-parse HEAD)
# The operator's trusted preparation: a checkout of the base with the
# dependency at its manifest rev, built there with the toolchain; the same
# build writes Lake's artifact cache for --cache.
t=$work/trusted
git clone -q "$r" "$t"
git -C "$t" checkout -q --detach "$base"
mkdir -p "$t/.lake/packages"
git clone -q "$d" "$t/.lake/packages/smokedep"
git -C "$t/.lake/packages/smokedep" checkout -q --detach "$dep_rev"
(cd "$t" && env -u LAKE_CACHE_DIR LAKE_CACHE_DIR="$work/cache" LAKE_ARTIFACT_CACHE=true "$tc/bin/lake" build Smoke) \
	>"$work/prepare" 2>&1 || { cat "$work/prepare" >&2; die "lake build in the trusted checkout failed"; }
chmod -R o+rX "$work"
chmod 755 "$work"

rc=0
"$sc" profile-run --repo "$r" --tooling "$base" --base "$base" --head "$head" \
	--workspace "$work/run" --toolchain "$tc" --dependencies "$t/.lake/packages" >"$work/out" 2>"$work/err" || rc=$?
fail() {
	printf 'real-lean-smoke: FAILED: %s (workspace %s)\n' "$1" "$work/run" >&2
	cat "$work/err" >&2
	trap - EXIT
	exit 1
}
[ "$rc" -eq 0 ] || fail "profile-run exited $rc"
rep=$work/run/report.json
[ "$(jq -r .status "$rep")" = ok ] || fail "report status is not ok"
[ "$(jq -r '[.files[].path] | join(" ")' "$rep")" = "Smoke/Basic.lean Smoke/New.lean" ] || fail "unexpected files"
[ "$(jq -r '.files[] | select(.path == "Smoke/New.lean") | .change' "$rep")" = added ] || fail "New.lean not added"
[ "$(jq -r '[.files[] | .head.status] | unique | join(" ")' "$rep")" = ok ] || fail "a head sample is not ok"
[ "$(jq -r '.files[] | select(.path == "Smoke/Basic.lean") | .base.status' "$rep")" = ok ] || fail "base sample not ok"
jq -e '[.files[].head.cpu_s] | all(. > 0)' "$rep" >/dev/null || fail "a head sample counted no CPU"
jq -e --arg v "$version" '.environment.lean_version | contains($v)' "$rep" >/dev/null || fail "report lacks the Lean version"
[ "$(jq -r .environment.lake_artifact_cache "$rep")" = none ] || fail "the report names a cache that was not given"

# Again with the trusted cache: the report says so, the cache is unchanged.
before=$(cd "$work/cache" && find . -printf '%p %m %s\n' | LC_ALL=C sort)
rc=0
"$sc" profile-run --repo "$r" --tooling "$base" --base "$base" --head "$head" --cache "$work/cache" \
	--workspace "$work/run2" --toolchain "$tc" --dependencies "$t/.lake/packages" --keep-logs \
	>"$work/out" 2>"$work/err" || rc=$?
[ "$rc" -eq 0 ] || fail "profile-run --cache exited $rc"
rep=$work/run2/report.json
[ "$(jq -r .status "$rep")" = ok ] || fail "report status with --cache is not ok"
[ "$(jq -r .environment.lake_artifact_cache "$rep")" = "operator prepared, read-only" ] || fail "the report does not say the cache was used"
[ "$before" = "$(cd "$work/cache" && find . -printf '%p %m %s\n' | LC_ALL=C sort)" ] || fail "the cache changed"

# A lakefile.lean root, whose libraries only Lake can read, and a roadmap
# root no lean_lib builds: Lake names the module ("unknown module") after
# the preflight, exit 2 naming the file, before any prebuild.
g rm -q lakefile.toml
cat >"$r/lakefile.lean" <<LEAN
import Lake
open Lake DSL

package smoke
require smokedep from git "file://$d" @ "main"

@[default_target]
lean_lib Smoke
LEAN
sed -i 's/^\tlibrary = Smoke$/&\n\troadmap = Roadmap/' "$r/.sphereceti"
g add -A && g commit -q -m "lakefile.lean, a roadmap root"
base3=$(g rev-parse HEAD)
mkdir -p "$r/Roadmap"
printf 'theorem plan : True := trivial\n' >"$r/Roadmap/Plan.lean"
g add -A && g commit -q -m "a roadmap file no lean_lib builds"
head3=$(g rev-parse HEAD)
rc=0
"$sc" profile-run --repo "$r" --tooling "$base3" --base "$base3" --head "$head3" \
	--workspace "$work/run3" --toolchain "$tc" --dependencies "$t/.lake/packages" \
	>"$work/out3" 2>"$work/err3" || rc=$?
[ "$rc" -eq 4 ] || { cat "$work/err3" >&2; fail "profile-run with a file no lean_lib of the lakefile.lean builds exited $rc, not 4 (not measured)"; }
grep -qF "builds module Roadmap.Plan, so Roadmap/Plan.lean cannot be measured" "$work/err3" ||
	{ cat "$work/err3" >&2; fail "the refusal does not name Roadmap/Plan.lean"; }
[ ! -e "$work/run3/raw/head-prebuild.time" ] || fail "a prebuild ran before the refusal"
printf 'real-lean-smoke: ok: Lean %s, %s\n' "$version" "$(head -n 1 "$work/out")"
