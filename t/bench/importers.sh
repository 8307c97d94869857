#!/bin/bash
# What reading every header costs the plan (the rebuild count, and
# --importers): a generated repository of 2,000 Lean files (20 x 100),
# each importing the two before it in its folder, with 8 changed files on
# the head; sc-plan with --importers 8 against the plumbing it cannot do
# without (merge base, diff, and git cat-file of every head blob under the
# root), interleaved, REPS times LOOPS runs each; the medians compared (a
# ratio: the machine is shared).  Then the same on 7,000 files, in
# absolute time: the rebuild count of a Mathlib-sized project.
set -euo pipefail
: "${SC_BIN:?run through make bench}"
REPS=${REPS:-5} LOOPS=${LOOPS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
repo=$work/repo
export GIT_CONFIG_NOSYSTEM=1 HOME=$work
# gen_repo REPO DIRS: DIRS folders of 100 files under Lib, 8 changed on fork.
gen_repo() {
	git init -q --bare "$1"
	awk -v when=1767225600 -v dirs="$2" '
function blob(path, text) { printf "M 100644 inline %s\ndata %d\n%s\n", path, length(text) + 1, text }
function commit(ref, msg) { printf "commit %s\ncommitter B <b@example.invalid> %d +0000\ndata %d\n%s\n", ref, when++, length(msg), msg }
function f(d, i) { return sprintf("Lib/D%02d/F%03d.lean", d, i) }
function m(d, i) { return sprintf("Lib.D%02d.F%03d", d, i) }
function src(d, i, extra,   s) {
	s = "/- generated -/\n"
	if (i > 0) s = s "import " m(d, i - 1) "\n"
	if (i > 1) s = s "import " m(d, i - 2) "\n"
	return s "theorem t : True := trivial" extra
}
BEGIN {
	commit("refs/heads/main", "root")
	blob(".sphereceti", "[profile]\n\tlibrary = Lib")
	blob("lean-toolchain", "leanprover/lean4:v4.34.0-rc1")
	blob("lake-manifest.json", "{\"version\": 7, \"packagesDir\": \".lake/packages\", \"packages\": []}")
	blob("lakefile.toml", "name = \"bench\"\n\n[[lean_lib]]\nname = \"Lib\"")
	for (d = 0; d < dirs; d++) for (i = 0; i < 100; i++) blob(f(d, i), src(d, i, ""))
	printf "\nreset refs/heads/fork\nfrom refs/heads/main\n\n"
	commit("refs/heads/fork", "head")
	for (k = 0; k < 8; k++) blob(f(k * 2, 50), src(k * 2, 50, "\n-- changed"))
	printf "\nreset refs/heads/doc\nfrom refs/heads/main\n\n"
	commit("refs/heads/doc", "no Lean change")
	blob("Lib/README.md", "notes")
}' | git -C "$1" fast-import --quiet
}
gen_repo "$repo" 20
T=$(git -C "$repo" rev-parse main) B=$T H=$(git -C "$repo" rev-parse fork)
git -C "$repo" ls-tree -r "$H" -- Lib | awk '{print $3}' >"$work/blobs"
plain() {
	git -C "$repo" merge-base --all "$B" "$H"
	git -C "$repo" diff-tree -r --no-renames -z "$B" "$H"
	git -C "$repo" cat-file --batch <"$work/blobs"
}
importers() { "$SC_BIN/sc-plan" --repo "$repo" --tooling "$T" --base "$B" --head "$H" --importers 8; }
n=$(importers | grep -c '"change": "importer"')
[ "$n" -eq 8 ] || { echo "bench: expected 8 importers, got $n" >&2; exit 1; }
# shellcheck source=timing.bash
. "$(dirname "$0")/timing.bash"
read -r am bm <<<"$(paired_medians plain importers)"
awk -v a="$am" -v b="$bm" 'BEGIN {
	printf "sc-plan --importers 8: %.2f ms   plumbing (merge-base, diff-tree, cat-file of the 2,000 blobs): %.2f ms   ratio %.2fx (goal <= 2x)\n", b / 1000, a / 1000, b / a
}'
# The plan with the rebuild count (8 Lean files changed: every header
# read) against the plan without it (a head that changes no Lean file
# under the root: the same merge base and diff, no count).
D=$(git -C "$repo" rev-parse doc)
plan() { "$SC_BIN/sc-plan" --repo "$repo" --tooling "$T" --base "$B" --head "$H"; }
plan_nocount() { "$SC_BIN/sc-plan" --repo "$repo" --tooling "$T" --base "$B" --head "$D"; }
[ "$(plan_nocount | jq .rebuild)" = null ] || { echo "bench: the no-change plan counted" >&2; exit 1; }
read -r am bm <<<"$(paired_medians plan_nocount plan)"
awk -v a="$am" -v b="$bm" 'BEGIN {
	printf "sc-plan with the rebuild count: %.2f ms   without it (no Lean change): %.2f ms   ratio %.2fx (goal <= 2x)\n", b / 1000, a / 1000, b / a
}'
# 7,000 files: the absolute time of a plan that reads every header
repo=$work/repo7000
gen_repo "$repo" 70
T=$(git -C "$repo" rev-parse main) B=$T H=$(git -C "$repo" rev-parse fork)
plan() { "$SC_BIN/sc-plan" --repo "$repo" --tooling "$T" --base "$B" --head "$H"; }
count=$(plan | jq -r '.rebuild | "\(.modules) of \(.of)"')
times=()
for ((r = 0; r < REPS; r++)); do times+=("$(per_run_us plan)"); done
us=$(printf '%s\n' "${times[@]}" | median)
awk -v us="$us" -v c="$count" 'BEGIN {
	printf "sc-plan over 7,000 files (every header read, the rebuild %s modules): %.1f ms (goal < 1 s)\n", c, us / 1000
}'
