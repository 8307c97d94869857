#!/bin/bash
# make-example.sh OUT TOOLCHAIN: the bundled example for `make demo`.
# Creates OUT/repo (a Git repository with a base branch and a candidate
# head), OUT/deps (prepared dependency checkouts) and OUT/revs (T, B, H).
# The candidate modifies two library files (one of them much slower),
# adds one, removes one and touches a roadmap file.
set -euo pipefail
out=$1 tc=$2
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=example.bash
. "$here/example.bash"
export GIT_AUTHOR_NAME=Demo GIT_AUTHOR_EMAIL=demo@example.invalid
export GIT_COMMITTER_NAME=Demo GIT_COMMITTER_EMAIL=demo@example.invalid
export GIT_AUTHOR_DATE='2026-11-01T12:00:00Z' GIT_COMMITTER_DATE='2026-11-01T12:00:00Z'

mkdir -p "$out/deps"
rev=$(ex_dependency "$out/deps" "$tc")
r=$out/repo
ex_project "$r" "$rev"
ex_lean "$r" Demo.lean 'import Demo.Basic' '-- fixture: cpu=0.05'
ex_lean "$r" Demo/Basic.lean '-- Basic facts.' '-- fixture: cpu=0.30'
ex_lean "$r" Demo/Ring.lean '-- Ring lemmas.' '-- fixture: cpu=0.40'
ex_lean "$r" Demo/Legacy.lean '-- To be removed.' '-- fixture: cpu=0.20'
ex_lean "$r" Roadmap/Goals.lean '-- Roadmap statements.' '-- fixture: cpu=0.10'
base=$(ex_commit "$r" "Demo: initial library")

# The base branch moves on with an unrelated change (B differs from M).
printf '# Demo\n' >"$r/README.md"
tip=$(ex_commit "$r" "README")

ex_git -C "$r" checkout -q -b candidate "$base"
ex_lean "$r" Demo/Basic.lean '-- Basic facts, reworded.' '-- fixture: cpu=0.32'
ex_lean "$r" Demo/Ring.lean '-- Ring lemmas, now with a heavy simp set.' '-- fixture: cpu=2.40'
ex_lean "$r" Demo/Field.lean '-- New: field lemmas.' '-- fixture: cpu=0.60'
rm "$r/Demo/Legacy.lean"
ex_lean "$r" Roadmap/Goals.lean '-- Roadmap statements, one more goal.' '-- fixture: cpu=0.12'
head=$(ex_commit "$r" "Demo: candidate change")
ex_git -C "$r" checkout -q main

printf 'T=%s\nB=%s\nH=%s\n' "$tip" "$tip" "$head" >"$out/revs"
