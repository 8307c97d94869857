#!/usr/bin/env bash
# Shards (Documentation/measurement.txt "Shards"), two figures.
# 1. A 24-file change (PER_FILE s of fixture CPU a sample) measured by one
#    runner, then by three (one after the other here, as a job matrix runs
#    them at once): the longest shard's sample phase (the sum of its
#    samples' walls, both sides) against the single run's.  Goal: <= 0.45x.
# 2. sphereceti merge of three shards of a 1,000-file plan (each file's
#    samples written by sc-parse-time, each shard's report by sc-report
#    --shard), against sc-report alone on the same samples as one run's,
#    the same process tree, REPS rounds of each.  Goal: merge < 1 s.
# Env: SC_BIN, SC_FIXTURE (make bench); PER_FILE (0.3), REPS (5).
set -euo pipefail
PER_FILE=${PER_FILE:-0.3} REPS=${REPS:-5}
# shellcheck source=example-env.bash
. "$(dirname "$0")/example-env.bash"
# shellcheck source=timing.bash
. "$(dirname "$0")/timing.bash"

for i in $(seq 24); do ex_lean "$R" "Demo/F$i.lean" "-- fixture: cpu=$PER_FILE"; done
M=$(ex_commit "$R" base)
for i in $(seq 24); do ex_lean "$R" "Demo/F$i.lean" '-- changed' "-- fixture: cpu=$PER_FILE"; done
H=$(ex_commit "$R" head)
run() { # WORKSPACE [profile-run flags...]
	local ws=$1
	shift
	"$SC_BIN/sphereceti" profile-run --repo "$R" --tooling "$M" --base "$M" --head "$H" \
		--workspace "$ws" --toolchain "$TC" --dependencies "$W/deps" --quiet "$@" >/dev/null
}
# the walls of a workspace's file samples (not its prebuilds)
sample_wall() { jq -s '[.[] | select(.sample | test(":@prebuild$") | not) | .wall_s] | add' "$1/samples.jsonl"; }
run "$W/one"
one=$(sample_wall "$W/one")
longest=0
for k in 1 2 3; do
	run "$W/shard$k" --shard "$k/3"
	longest=$(awk -v a="$longest" -v b="$(sample_wall "$W/shard$k")" 'BEGIN {print (b > a ? b : a)}')
done
"$SC_BIN/sphereceti" merge --out-dir "$W/merged" "$W"/shard{1,2,3} >/dev/null
[ "$(jq -r '[.files[].verdict] | sort | join(" ")' "$W/merged/report.json")" = \
	"$(jq -r '[.files[].verdict] | sort | join(" ")' "$W/one/report.json")" ] ||
	{ echo "bench: the merged verdicts are not the single run's" >&2; exit 1; }
awk -v one="$one" -v longest="$longest" -v per="$PER_FILE" 'BEGIN {
	printf "24 files, 48 samples of %s s: one runner'"'"'s sample phase %.2f s, the longest of three shards %.2f s: %.2fx (goal <= 0.45x)\n",
		per, one, longest, longest / one
}'

# 2. merge over 1,000 files: a plan of 1,000 added files in three shards
big=$W/big
git init -q "$big"
cp "$R/lean-toolchain" "$R/lakefile.toml" "$R/lake-manifest.json" "$R/.sphereceti" "$big/"
git -C "$big" config -f "$big/.sphereceti" profile.maxFiles 2000
git -C "$big" add -A
git -C "$big" commit -q -m base
B=$(git -C "$big" rev-parse HEAD)
mkdir -p "$big/Demo/Many"
for i in $(seq 1000); do printf 'def m%d := %d\n' "$i" "$i" >"$big/Demo/Many/M$i.lean"; done
git -C "$big" add -A
git -C "$big" commit -q -m many
BH=$(git -C "$big" rev-parse HEAD)
"$SC_BIN/sc-plan" --repo "$big" --tooling "$B" --base "$B" --head "$BH" --shards 3 >"$W/plan.json"
digest=$(sha256sum "$W/plan.json" | cut -d' ' -f1)
printf 'sc-time/1\nuser 1.00\nsys 0.10\nmaxrss_kib 1000\nexit 0\nelapsed 1.20\n' >"$W/t.time"
printf '{"schema":"sphereceti.status/1","exit_code":0,"signal":0,"timed_out":false,"wall_s":1.20}\n' >"$W/t.status"
for k in 1 2 3; do
	ws=$W/m$k
	mkdir -p "$ws"
	cp "$W/plan.json" "$ws/"
	run_id=$(printf '%032x' "$k")
	echo "$run_id" >"$ws/run-id"
	jq -r --argjson k "$k" '.files[] | select(.shard == $k) | .id' "$W/plan.json" | while read -r id; do
		"$SC_BIN/sc-parse-time" --time-file "$W/t.time" --status "$W/t.status" --run-id "$run_id" \
			--plan-digest "$digest" --revision "$BH" --sample "head:$id" --shard "$k"
	done >"$ws/samples.jsonl"
	"$SC_BIN/sc-report" --plan "$ws/plan.json" --samples "$ws/samples.jsonl" --out-dir "$ws" \
		--run-id "$run_id" --shard "$k/3" --bwrap-sha256 "$(printf '%064d' 0)" >/dev/null
done
cat "$W"/m{1,2,3}/samples.jsonl >"$W/all.jsonl"
merge_once() {
	rm -rf "$W/out"
	"$SC_BIN/sphereceti" merge --out-dir "$W/out" "$W"/m{1,2,3}
}
report_once() {
	rm -rf "$W/rep" && mkdir "$W/rep"
	"$SC_BIN/sc-report" --plan "$W/plan.json" --samples "$W"/m{1,2,3}/samples.jsonl --out-dir "$W/rep" \
		--shard-run "1:$(cat "$W/m1/run-id")" --shard-run "2:$(cat "$W/m2/run-id")" \
		--shard-run "3:$(cat "$W/m3/run-id")"
}
LOOPS=1
read -r rm mm <<<"$(paired_medians report_once merge_once)"
[ "$(jq '.summary.files' "$W/out/report.json")" = 1000 ] || { echo "bench: the merged report lacks files" >&2; exit 1; }
awk -v m="$mm" -v r="$rm" 'BEGIN {
	printf "merge of 3 shards of 1,000 files: %.0f ms   sc-report alone on their samples: %.0f ms   ratio %.2fx (goal: merge < 1 s)\n",
		m / 1000, r / 1000, m / r
}'

# 3. a plan of 2,000 changed files (the ceiling), dealt by .sphereceti,
#    against the plumbing it cannot do without (merge base, the diff, every
#    Lean blob at the head), paired as above.
for i in $(seq 1001 2000); do printf 'def m%d := %d\n' "$i" "$i" >"$big/Demo/Many/M$i.lean"; done
git -C "$big" add -A
git -C "$big" commit -q -m more
BH=$(git -C "$big" rev-parse HEAD)
git -C "$big" ls-tree -r "$BH" -- Demo | awk '{print $3}' >"$W/blobs"
plan2k() { "$SC_BIN/sc-plan" --repo "$big" --tooling "$B" --base "$B" --head "$BH" --shards auto; }
plumbing2k() {
	git -C "$big" merge-base --all "$B" "$BH"
	git -C "$big" diff-tree -r --no-renames -z "$B" "$BH"
	git -C "$big" cat-file --batch <"$W/blobs"
}
[ "$(plan2k | jq '.files | length')" = 2000 ] || { echo "bench: the plan lacks files" >&2; exit 1; }
LOOPS=3
read -r bm pm <<<"$(paired_medians plumbing2k plan2k)"
awk -v p="$pm" -v b="$bm" 'BEGIN {
	printf "sc-plan of 2,000 changed files, --shards auto: %.1f ms   plumbing: %.1f ms   ratio %.2fx (goal <= 1.5x, as sc-plan'"'"'s own)\n",
		p / 1000, b / 1000, p / b
}'
