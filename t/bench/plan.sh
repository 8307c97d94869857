#!/bin/bash
# sc-plan against the bare plumbing it needs, on a generated repository of
# 20,000 Lean files (40 x 25 directories) with 32 changed files on the head
# branch and 50 commits on the base branch since the fork: the merge base,
# the diff, and every Lean blob under the roots at the head (the rebuild
# count reads every header).  Both sides run
# in the same process tree, interleaved, REPS times LOOPS runs each; the
# medians are compared.  Goal: sc-plan <= 1.5x the plumbing, peak RSS
# < 20 MiB (GNU time %M).
set -euo pipefail
: "${SC_BIN:?run through make bench}"
REPS=${REPS:-7} LOOPS=${LOOPS:-10}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
repo=$work/repo
export GIT_CONFIG_NOSYSTEM=1 HOME=$work

git init -q --bare "$repo"
# One fast-import stream: root commit with every file, 50 base commits,
# one head commit changing 24 files, adding 4 and removing 4.
awk -v when=1767225600 '
function blob(path, text) { printf "M 100644 inline %s\ndata %d\n%s\n", path, length(text) + 1, text }
function commit(ref, msg, parent) {
	printf "commit %s\ncommitter B <b@example.invalid> %d +0000\ndata %d\n%s\n", ref, when++, length(msg), msg
	if (parent != "") printf "from %s\n", parent
}
function f(d, s, i) { return sprintf("Lib/D%02d/S%02d/F%02d.lean", d, s, i) }
BEGIN {
	commit("refs/heads/main", "root", "")
	printf "mark :1\n" > "/dev/null"
	blob(".sphereceti", "[profile]\n\tlibrary = Lib\n\troadmap = Lib/D39")
	blob("lean-toolchain", "leanprover/lean4:v4.34.0-rc1")
	blob("lake-manifest.json", "{\"version\": 7, \"packagesDir\": \".lake/packages\", \"packages\": []}")
	blob("lakefile.toml", "name = \"bench\"\n\n[[lean_lib]]\nname = \"Lib\"")
	for (d = 0; d < 40; d++) for (s = 0; s < 25; s++) for (i = 0; i < 20; i++)
		blob(f(d, s, i), sprintf("theorem t%d_%d_%d : True := trivial", d, s, i))
	printf "\nreset refs/heads/fork\nfrom refs/heads/main\n\n"
	for (k = 0; k < 50; k++) {
		commit("refs/heads/main", "base " k, "")
		blob(f(k % 40, (k * 7) % 25, 19), "-- base edit " k)
	}
	commit("refs/heads/fork", "head", "")
	for (k = 0; k < 24; k++) blob(f(k, (k * 3) % 25, 3), "-- head edit " k)
	for (k = 0; k < 4; k++) blob(sprintf("Lib/D%02d/New%d.lean", k * 9, k), "-- added " k)
	for (k = 0; k < 4; k++) printf "D %s\n", f(30 + k, k, 7)
}' | git -C "$repo" fast-import --quiet
git -C "$repo" gc -q --aggressive --prune=now 2>/dev/null || git -C "$repo" gc -q
T=$(git -C "$repo" rev-parse main) B=$T H=$(git -C "$repo" rev-parse fork)
M=$(git -C "$repo" merge-base --all "$B" "$H")

plan() { "$SC_BIN/sc-plan" --repo "$repo" --tooling "$T" --base "$B" --head "$H"; }
git -C "$repo" ls-tree -r "$H" -- Lib | awk '{print $3}' >"$work/blobs"
plumbing() {
	git -C "$repo" merge-base --all "$B" "$H"
	git -C "$repo" diff-tree -r --no-renames -z "$M" "$H"
	git -C "$repo" cat-file --batch <"$work/blobs"
}
n=$(plan | grep -c '"change"')
[ "$n" -eq 32 ] || { echo "bench: expected 32 planned files, got $n" >&2; exit 1; }

# shellcheck source=timing.bash
. "$(dirname "$0")/timing.bash"

read -r bm pm <<<"$(paired_medians plumbing plan)"
# CPU (user + system, children included) per run: on a loaded host the wall
# ratio tends towards this one, since overlapping start-ups no longer helps.
cpu_ms() {
	/usr/bin/time -f '%U %S' -o "$work/cpu" bash -c "$(declare -f "$1"); $(declare -p repo T B H M SC_BIN work); for ((l = 0; l < $LOOPS; l++)); do $1 >/dev/null; done"
	awk -v n="$LOOPS" '{printf "%.2f", ($1 + $2) * 1000 / n}' "$work/cpu"
}
pc=$(cpu_ms plan) bc=$(cpu_ms plumbing)
rss=$(/usr/bin/time -f %M -o "$work/rss" "$SC_BIN/sc-plan" --repo "$repo" --tooling "$T" \
	--base "$B" --head "$H" >/dev/null && cat "$work/rss")
awk -v p="$pm" -v b="$bm" -v rss="$rss" -v pc="$pc" -v bc="$bc" 'BEGIN {
	printf "sc-plan: %.2f ms   plumbing (merge-base --all + diff-tree -r + cat-file of the Lean blobs at the head): %.2f ms   ratio %.2fx (goal <= 1.5x)\n", p / 1000, b / 1000, p / b
	printf "CPU per run: sc-plan %s ms, plumbing %s ms, ratio %.2fx\n", pc, bc, pc / bc
	printf "sc-plan peak RSS: %.1f MiB (goal < 20 MiB)\n", rss / 1024
}'
