#!/usr/bin/env bash
# sc-materialize vs `git archive C | tar -x -C DIR` on a generated tree of
# 20,000 files (400 directories, 8 levels deep at most, sizes 0..16 KiB, some
# executable), both timed in this run: several repetitions, medians, ratio.
# Goal: ratio <= 1.0.
set -euo pipefail
: "${SC_BIN:?set SC_BIN to the build folder}"
FILES=${BENCH_FILES:-20000}
REPS=${BENCH_REPS:-7}

work=$(mktemp -d "${TMPDIR:-/tmp}/sc-bench-mat.XXXXXX")
trap 'rm -rf "$work"' EXIT
repo=$work/repo
git init -q --bare "$repo"

# fast-import stream: inline blobs of deterministic pseudo-random content.
awk -v files="$FILES" 'BEGIN {
	srand(42)
	print "commit refs/heads/main"
	print "committer Bench <bench@example.invalid> 1767225600 +0000"
	print "data 5"; print "bench"
	for (i = 0; i < files; i++) {
		d = i % 400
		path = sprintf("Lib/D%d", d % 20)
		if (d >= 20) path = path sprintf("/S%d", d % 7)
		if (d >= 140) path = path sprintf("/T%d/U%d/V%d", d % 3, d % 5, d % 11)
		path = path sprintf("/File%d.lean", i)
		size = int(rand() * rand() * 16384)
		line = sprintf("-- file %d of the benchmark tree, some text to fill it up\n", i)
		body = ""
		while (length(body) < size) body = body line
		body = substr(body, 1, size)
		mode = (i % 50 == 0) ? "100755" : "100644"
		printf "M %s inline %s\n", mode, path
		printf "data %d\n%s\n", length(body), body
	}
}' | git -C "$repo" fast-import --quiet
commit=$(git -C "$repo" rev-parse refs/heads/main)

now() { date +%s%N; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

mat=() arc=()
for r in $(seq "$REPS"); do
	# Alternate the order so neither always runs on a warmer cache.
	for which in mat arc; do
		[ $((r % 2)) -eq 0 ] && which=$([ "$which" = mat ] && echo arc || echo mat)
		dest=$work/out-$which-$r
		t0=$(now)
		if [ "$which" = mat ]; then
			"$SC_BIN/sc-materialize" --repo "$repo" --commit "$commit" --dest "$dest" >/dev/null
			mat+=($(( $(now) - t0 )))
		else
			mkdir "$dest"
			git -C "$repo" archive "$commit" | tar -x -C "$dest"
			arc+=($(( $(now) - t0 )))
		fi
	done
	diff -r "$work/out-mat-$r" "$work/out-arc-$r" >/dev/null || { echo "trees differ" >&2; exit 1; }
	rm -rf "$work/out-mat-$r" "$work/out-arc-$r"
done
m=$(printf '%s\n' "${mat[@]}" | median)
a=$(printf '%s\n' "${arc[@]}" | median)
awk -v m="$m" -v a="$a" -v f="$FILES" -v r="$REPS" 'BEGIN {
	printf "materialize %d files, median of %d: sc-materialize %.3f s, git archive | tar -x %.3f s, ratio %.2f (goal <= 1.00)\n",
	       f, r, m / 1e9, a / 1e9, m / a
}'
