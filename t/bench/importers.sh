#!/bin/bash
# What --importers costs the plan: reading the import header of every
# library file at the head.  A generated repository of 2,000 Lean files
# (20 x 100), each importing the two before it in its folder, with 8
# changed files on the head; sc-plan with --importers 8 against sc-plan
# without, interleaved, REPS times LOOPS runs each; the medians compared
# (a ratio: the machine is shared).
set -euo pipefail
: "${SC_BIN:?run through make bench}"
REPS=${REPS:-5} LOOPS=${LOOPS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
repo=$work/repo
export GIT_CONFIG_NOSYSTEM=1 HOME=$work
git init -q --bare "$repo"
awk -v when=1767225600 '
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
	for (d = 0; d < 20; d++) for (i = 0; i < 100; i++) blob(f(d, i), src(d, i, ""))
	printf "\nreset refs/heads/fork\nfrom refs/heads/main\n\n"
	commit("refs/heads/fork", "head")
	for (k = 0; k < 8; k++) blob(f(k * 2, 50), src(k * 2, 50, "\n-- changed"))
}' | git -C "$repo" fast-import --quiet
T=$(git -C "$repo" rev-parse main) B=$T H=$(git -C "$repo" rev-parse fork)
plain() { "$SC_BIN/sc-plan" --repo "$repo" --tooling "$T" --base "$B" --head "$H"; }
importers() { "$SC_BIN/sc-plan" --repo "$repo" --tooling "$T" --base "$B" --head "$H" --importers 8; }
n=$(importers | grep -c '"change": "importer"')
[ "$n" -eq 8 ] || { echo "bench: expected 8 importers, got $n" >&2; exit 1; }
# shellcheck source=timing.bash
. "$(dirname "$0")/timing.bash"
read -r am bm <<<"$(paired_medians plain importers)"
awk -v a="$am" -v b="$bm" 'BEGIN {
	printf "sc-plan --importers 8: %.2f ms   without: %.2f ms   ratio %.2fx (2,000 headers read; goal <= 2x)\n", b / 1000, a / 1000, b / a
}'
