#!/usr/bin/env bats
# sc-report: sample binding, verdicts, report.json / report.md.
# Plans and samples are built with jq (a real JSON library); the tool reads
# them with yajl.  Goldens live in t/golden/report-*; regenerate them with
# UPDATE_GOLDEN=1 after an intended change, then review the diff.
load helpers
bats_require_minimum_version 1.5.0

T=1111111111111111111111111111111111111111
B=2222222222222222222222222222222222222222
M=3333333333333333333333333333333333333333
H=4444444444444444444444444444444444444444
RUN=0123456789abcdef0123456789abcdef
OTHER_RUN=fedcba9876543210fedcba9876543210
GOLDEN="$BATS_TEST_DIRNAME/golden"
ANCHOR="$BATS_TEST_DIRNAME/anchor/tauceti-thresholds.tsv"

setup() {
	cd "$BATS_TEST_TMPDIR"
	mkdir out
}

# entry PATH ROLE CHANGE -> one plan file entry (module and id from the path)
entry() {
	jq -nc --arg p "$1" --arg r "$2" --arg c "$3" '
		($p | rtrimstr(".lean") | gsub("/"; ".")) as $m
		| {id: $m, path: $p, module: $m, role: $r, change: $c,
		   base_blob: (if $c == "added" then null else "a" * 40 end),
		   head_blob: (if $c == "removed" then null else "b" * 40 end)}'
}

# mkplan OUT GITHUB ENTRY... -> plan file (GITHUB "" for none)
mkplan() {
	local out=$1 gh=$2
	shift 2
	printf '%s\n' "$@" | jq -s --arg T $T --arg B $B --arg M $M --arg H $H --arg gh "$gh" '
		{schema: "sphereceti.plan/1", profiler_version: "0.1.0", object_format: "sha1",
		 revisions: {tooling: $T, base_tip: $B, merge_base: $M, head: $H},
		 config: {library: ["Lib"], roadmap: ["Roadmap"],
		          github: (if $gh == "" then null else $gh end),
		          tooling_path: null, bwrap_sha256: null, bwrap_version: null},
		 lake: {"lakefile.toml": ("c" * 40), "lakefile.lean": null,
		        "lake-manifest.json": ("d" * 40), "lean-toolchain": ("e" * 40)},
		 lean_toolchain: "leanprover/lean4:v4.34.0",
		 status: (if length == 0 then "no_changes" else "changes" end),
		 files: .}' >"$out"
}

digest() { sha256sum "$1" | cut -d' ' -f1; }

# ok SIDE MODULE CPU WALL [RUN] [DIGEST] [REV] -> one ok sample line.
# CPU splits into user + 0.25 s system (less when CPU is smaller).
ok() {
	local side=$1 mod=$2 cpu=$3 wall=$4 run=${5:-$RUN} d=${6:-$(digest plan.json)} rev=$7
	if [ -z "$rev" ]; then
		if [ "$side" = base ]; then rev=$M; else rev=$H; fi
	fi
	jq -nc --arg run "$run" --arg d "$d" --arg rev "$rev" --arg s "$side:$mod" \
		--argjson cpu "$cpu" --argjson w "$wall" '
		([0.25, $cpu] | min) as $sys
		| {schema: "sphereceti.sample/1", run_id: $run, plan_digest: $d, revision: $rev,
		   sample: $s, ok: true, cpu_user_s: ($cpu - $sys), cpu_sys_s: $sys, cpu_s: $cpu,
		   wall_s: $w, max_rss_kib: 524288, exit_status: 0, error: null, detail: null}'
}

# bad SIDE MODULE REASON DETAIL -> one error sample line
bad() {
	local side=$1 rev=$H
	if [ "$side" = base ]; then rev=$M; fi
	jq -nc --arg run "$RUN" --arg d "$(digest plan.json)" --arg rev "$rev" --arg s "$1:$2" \
		--arg e "$3" --arg detail "$4" '
		{schema: "sphereceti.sample/1", run_id: $run, plan_digest: $d, revision: $rev,
		 sample: $s, ok: false, cpu_user_s: null, cpu_sys_s: null, cpu_s: null,
		 wall_s: null, max_rss_kib: null, exit_status: null, error: $e, detail: $detail}'
}

# The four-file plan most tests use: library A (modified), New (added),
# roadmap Old (removed) and B (modified), with a GitHub slug.
four_plan() {
	mkplan plan.json owner/repo \
		"$(entry Lib/A.lean library modified)" "$(entry Lib/New.lean library added)" \
		"$(entry Roadmap/Old.lean roadmap removed)" "$(entry Roadmap/B.lean roadmap modified)"
}
four_samples() {
	ok base Lib.A 60 61.5
	ok head Lib.A 90 91.25
	ok head Lib.New 150 150.5
	ok base Roadmap.Old 12.5 13
	ok base Roadmap.B 100 101
	ok head Roadmap.B 129.999 131
}

report() { run --separate-stderr sc-report --plan plan.json --out-dir out "$@"; }

# golden NAME: compare both outputs byte for byte with t/golden/NAME.{json,md}
# after normalizing host facts (platform, machine), the version and the
# digest of the jq-formatted plan (checked to be the plan's first).
golden() {
	local d
	d=$(digest plan.json)
	[ "$(jq -r .plan_digest out/report.json)" = "$d" ]
	sed -e 's/^\(    "platform": \).*/\1"PLATFORM",/' -e 's/^\(    "machine": \).*/\1"MACHINE",/' \
		-e 's/^\(  "profiler_version": \).*/\1"VERSION",/' -e "s/$d/PLAN_DIGEST/g" \
		out/report.json >got.json
	sed -e 's/^- Platform: .*/- Platform: PLATFORM/' -e "s/$d/PLAN_DIGEST/g" out/report.md >got.md
	if [ -n "${UPDATE_GOLDEN:-}" ]; then
		cp got.json "$GOLDEN/$1.json"
		cp got.md "$GOLDEN/$1.md"
	fi
	diff -u "$GOLDEN/$1.json" got.json
	diff -u "$GOLDEN/$1.md" got.md
}

# problem SAMPLE KIND: report.json lists that problem for that sample
problem() {
	jq -e --arg s "$1" --arg k "$2" 'any(.errors[]; .sample == $s and .problem == $k)' \
		out/report.json >/dev/null || { jq .errors out/report.json; return 1; }
}

assert_error_report() {
	[ "$status" -eq 1 ] || { echo "status $status: $stderr"; return 1; }
	assert_error_line sc-report
	[[ "$stderr" == *"measurement incomplete"* ]]
	[ "$(jq -r .status out/report.json)" = error ]
	head -1 out/report.md | grep -q '^\*\*Measurement incomplete\*\*'
}

@test "modified, added and removed files, library and roadmap: golden report" {
	four_plan
	four_samples >samples.jsonl
	report --samples samples.jsonl --run-id $RUN --lean-version 'Lean (version 4.34.0, x86_64-unknown-linux-gnu, Release)' \
		--lean-sha256 "$(printf 'f%.0s' {1..64})" --lake-sha256 "$(printf '9%.0s' {1..64})"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "$(jq -r .status out/report.json)" = ok ]
	# Exactly 1.5x and exactly +30 s is flagged; +29.999 s is not.
	[ "$(jq -r '.files[] | select(.id == "Lib.A") | .verdict' out/report.json)" = flagged ]
	[ "$(jq -r '.files[] | select(.id == "Roadmap.B") | .verdict' out/report.json)" = not_flagged ]
	[ "$(jq -r '.files[] | select(.id == "Lib.New") | .flagged' out/report.json)" = true ]
	[ "$(jq -r '.files[] | select(.id == "Roadmap.Old") | .flagged' out/report.json)" = false ]
	head -1 out/report.md | grep -qx '\*\*2 of 4 files flagged\*\* (advisory: flags do not change the exit status).'
	grep -q "\[\`4444444\`\](https://github.com/owner/repo/commit/$H)" out/report.md
	# Library and roadmap files each get their own section, in that order.
	[ "$(grep -n '^## ' out/report.md | cut -d: -f2- | head -2 | tr '\n' ,)" = "## Library files,## Roadmap files," ]
	golden report-full
}

@test "no changes: status no_changes, distinct from missing data, exit 0" {
	mkplan plan.json ""
	: >samples.jsonl
	report --samples samples.jsonl
	[ "$status" -eq 0 ]
	[ "$(jq -r .status out/report.json)" = no_changes ]
	[ "$(jq -r .run_id out/report.json)" = null ]
	head -1 out/report.md | grep -q '^No changed Lean files'
	# Without a slug, revision labels are plain code spans.
	run ! grep -q 'https://' out/report.md
	grep -q '| head | `4444444` |' out/report.md
	golden report-no-changes
}

@test "a sample for a no_changes plan is unexpected" {
	mkplan plan.json ""
	ok head Lib.A 1 1 >samples.jsonl
	report --samples samples.jsonl
	assert_error_report
	problem head:Lib.A unexpected
}

@test "an error sample: the file shows no comparison, status error, exit 1, golden" {
	four_plan
	{
		bad base Lib.A timeout "sample exceeded 300 s"
		ok head Lib.A 90 91
		ok head Lib.New 10 10.5
		ok base Roadmap.Old 12.5 13
		ok base Roadmap.B 100 101
		ok head Roadmap.B 200 201
	} >samples.jsonl
	report --samples samples.jsonl
	assert_error_report
	[[ "$stderr" == *"base:Lib.A sample_error"* ]]
	problem base:Lib.A sample_error
	# Head is ok, base errored: no ratio, delta, flag or verdict from half the data.
	jq -e '.files[] | select(.id == "Lib.A")
		| .verdict == "not_compared" and .flagged == null and .ratio == null
		  and .delta_s == null and .base.status == "error" and .base.error == "timeout"' \
		out/report.json
	grep -q '| <code>Lib/A.lean</code> | modified | error: timeout | 90.000 s | — | — |' out/report.md
	# Other complete files still get their verdicts.
	[ "$(jq -r '.files[] | select(.id == "Roadmap.B") | .verdict' out/report.json)" = flagged ]
	[ "$(jq -c .summary out/report.json)" = '{"files":4,"compared":3,"flagged":1,"errors":1}' ]
	golden report-error-sample
}

@test "duplicate samples are rejected and the slot gives no comparison" {
	four_plan
	{ four_samples; ok head Lib.A 90 91; } >samples.jsonl
	report --samples samples.jsonl
	assert_error_report
	problem head:Lib.A duplicate
	jq -e '.errors[] | select(.problem == "duplicate") | .source == "samples.jsonl:7"
		and (.detail | contains("samples.jsonl:2"))' out/report.json
	jq -e '.files[] | select(.id == "Lib.A") | .verdict == "not_compared" and .head.status == "rejected"' out/report.json
}

@test "duplicates across two sample files are rejected too" {
	four_plan
	four_samples >a.jsonl
	ok base Roadmap.Old 12.5 13 >b.jsonl
	report --samples a.jsonl b.jsonl
	assert_error_report
	problem base:Roadmap.Old duplicate
}

@test "cross-run samples are rejected (against --run-id, and among themselves)" {
	four_plan
	{ four_samples | sed 1d; ok base Lib.A 60 61 $OTHER_RUN; } >samples.jsonl
	report --samples samples.jsonl --run-id $RUN
	assert_error_report
	problem base:Lib.A cross_run
	problem base:Lib.A missing
	# Without --run-id the first sample sets the run: a later foreign one is cross-run.
	rm out/*
	report --samples samples.jsonl
	assert_error_report
	problem base:Lib.A cross_run
	[ "$(jq -r .run_id out/report.json)" = $RUN ]
	# Every sample from another run than --run-id: all rejected, all missing.
	rm out/*
	four_samples >samples.jsonl
	report --samples samples.jsonl --run-id $OTHER_RUN
	assert_error_report
	[ "$(jq '[.errors[] | select(.problem == "cross_run")] | length' out/report.json)" -eq 6 ]
	[ "$(jq '[.errors[] | select(.problem == "missing")] | length' out/report.json)" -eq 6 ]
	[ "$(jq .summary.compared out/report.json)" -eq 0 ]
}

@test "a sample of the wrong revision is rejected and its slot is missing" {
	four_plan
	{ four_samples | sed 2d; ok head Lib.A 90 91 $RUN "" $B; } >samples.jsonl
	report --samples samples.jsonl
	assert_error_report
	problem head:Lib.A wrong_revision
	problem head:Lib.A missing
	jq -e '.errors[] | select(.problem == "wrong_revision") | .detail | contains("'$B'")' out/report.json
	# The base side measured at the head commit is just as wrong.
	rm out/*
	{ four_samples | sed 1d; ok base Lib.A 60 61 $RUN "" $H; } >samples.jsonl
	report --samples samples.jsonl
	assert_error_report
	problem base:Lib.A wrong_revision
}

@test "a sample bound to another plan digest is rejected" {
	four_plan
	{ four_samples | sed 3d; ok head Lib.New 1 1 $RUN "$(printf '0%.0s' {1..64})"; } >samples.jsonl
	report --samples samples.jsonl
	assert_error_report
	problem head:Lib.New wrong_plan_digest
	problem head:Lib.New missing
	# One changed byte in the plan changes its digest: every sample is foreign.
	rm out/*
	four_samples >samples.jsonl
	printf ' ' >>plan.json
	report --samples samples.jsonl
	assert_error_report
	[ "$(jq '[.errors[] | select(.problem == "wrong_plan_digest")] | length' out/report.json)" -eq 6 ]
}

@test "unexpected samples: unknown file, or a side the change does not measure" {
	four_plan
	{ four_samples; ok head Lib.Nope 1 1; ok base Lib.New 1 1; ok head Roadmap.Old 1 1; } >samples.jsonl
	report --samples samples.jsonl
	assert_error_report
	problem head:Lib.Nope unexpected
	problem base:Lib.New unexpected
	problem head:Roadmap.Old unexpected
	# The expected samples are all there: every file is still compared.
	[ "$(jq .summary.compared out/report.json)" -eq 4 ]
	[ "$(jq .summary.errors out/report.json)" -eq 3 ]
}

@test "each missing sample is named" {
	four_plan
	four_samples | sed -e 2d -e 4d >samples.jsonl
	report --samples samples.jsonl
	assert_error_report
	problem head:Lib.A missing
	problem base:Roadmap.Old missing
	[ "$(jq '.errors | length' out/report.json)" -eq 2 ]
	grep -q '^- `head:Lib.A` — missing: no sample for Lib/A.lean at 4444' out/report.md
	jq -e '.files[] | select(.id == "Roadmap.Old") | .verdict == "not_compared" and .base.status == "missing"' out/report.json
}

@test "samples from stdin and several files combine" {
	four_plan
	four_samples >all.jsonl
	head -3 all.jsonl >a.jsonl
	tail -3 all.jsonl >b.jsonl
	run --separate-stderr sc-report --plan plan.json --samples a.jsonl - --out-dir out <b.jsonl
	[ "$status" -eq 0 ]
	[ "$(jq -r .status out/report.json)" = ok ]
	[ "$(jq -r '.files[] | select(.id == "Roadmap.B") | .head.source' out/report.json)" = stdin:3 ]
}

@test "an unparseable sample line is bad input: exit 2, file:line named, nothing written" {
	four_plan
	{ four_samples | head -2; echo '{"schema": "sphereceti.sample/1"'; } >samples.jsonl
	report --samples samples.jsonl
	[ "$status" -eq 2 ]
	assert_error_line sc-report
	[[ "$stderr" == *"(samples.jsonl:3)" ]]
	[ -z "$(ls out)" ]
	# A well-formed line that breaks the sample schema is bad input too.
	four_samples | jq -c '.cpu_s = -1' | head -1 >neg.jsonl
	report --samples neg.jsonl
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"(neg.jsonl:1)" ]]
	[ -z "$(ls out)" ]
}

@test "usage errors exit 2 and write nothing" {
	four_plan
	four_samples >samples.jsonl
	for args in "--samples samples.jsonl" \
		"--samples samples.jsonl --out-dir missing-dir" \
		"--samples samples.jsonl --out-dir plan.json" \
		"--samples --out-dir out" \
		"--samples samples.jsonl --out-dir out --run-id XYZ" \
		"--samples samples.jsonl --out-dir out --threshold-ratio 1.5x" \
		"--samples samples.jsonl --out-dir out --threshold-delta -1" \
		"--samples samples.jsonl --out-dir out --threshold-added 1.0001" \
		"--samples samples.jsonl --out-dir out --lean-sha256 abc" \
		"--samples - - --out-dir out" \
		"--samples nope.jsonl --out-dir out" \
		"--samples samples.jsonl --out-dir out --frobnicate"; do
		run --separate-stderr sc-report --plan plan.json $args
		[ "$status" -eq 2 ] || { echo "$args: $status"; return 1; }
		assert_error_line sc-report
		[ -z "$(ls out)" ]
	done
	run --separate-stderr sc-report --plan nope.json --samples samples.jsonl --out-dir out
	[ "$status" -eq 2 ]
	assert_error_line sc-report
	echo '{}' >bad-plan.json
	run --separate-stderr sc-report --plan bad-plan.json --samples samples.jsonl --out-dir out
	[ "$status" -eq 2 ]
	[[ "$stderr" == "sc-report: error: invalid plan: "* ]]
	[ -z "$(ls out)" ]
}

@test "threshold knobs are recorded and stated when non-default" {
	four_plan
	four_samples >samples.jsonl
	report --samples samples.jsonl --threshold-ratio 1.2 --threshold-delta 29.999 --threshold-added 150.001
	[ "$status" -eq 0 ]
	jq -e '.thresholds == {"ratio": 1.2, "delta_s": 29.999, "added_s": 150.001, "default": false}' out/report.json
	grep -q '^Rule: .*≥ 1.2× base \*\*and\*\* ≥ +29.999 s.*≥ 150.001 s.*\*\*Non-default thresholds\*\*' out/report.md
	[ "$(jq -r '.files[] | select(.id == "Roadmap.B") | .verdict' out/report.json)" = flagged ]
	[ "$(jq -r '.files[] | select(.id == "Lib.New") | .verdict' out/report.json)" = not_flagged ]
	# Defaults say so and the markdown makes no such remark.
	rm out/*
	report --samples samples.jsonl
	jq -e '.thresholds == {"ratio": 1.5, "delta_s": 30, "added_s": 150, "default": true}' out/report.json
	grep -q '^    "ratio": 1.500,$' out/report.json
	run ! grep -q 'Non-default' out/report.md
}

@test "base CPU 0: ratio absent, the delta decides, markdown shows infinity" {
	mkplan plan.json "" "$(entry Lib/Z.lean library modified)" "$(entry Lib/Y.lean library modified)"
	{ ok base Lib.Z 0 0.1; ok head Lib.Z 30 31; ok base Lib.Y 0 0.1; ok head Lib.Y 0 0.1; } >samples.jsonl
	report --samples samples.jsonl
	[ "$status" -eq 0 ]
	jq -e '.files[0] | .ratio == null and .flagged == true and .delta_s == 30' out/report.json
	jq -e '.files[1] | .ratio == null and .flagged == false' out/report.json
	grep -q '<code>Lib/Z.lean</code> | modified | 0.000 s | 30.000 s | ∞ | +30.000 s |' out/report.md
	grep -q '<code>Lib/Y.lean</code> | modified | 0.000 s | 0.000 s | — | +0.000 s |' out/report.md
}

@test "an existing report is replaced whole; no temporary files remain" {
	four_plan
	four_samples >samples.jsonl
	echo stale >out/report.json
	echo stale >out/report.md
	report --samples samples.jsonl
	[ "$status" -eq 0 ]
	[ "$(jq -r .status out/report.json)" = ok ]
	run ! grep -q stale out/report.md
	[ "$(ls out | tr '\n' ' ')" = "report.json report.md " ]
	# An unwritable directory: exit 1, and no report.json claims completeness.
	if [ "$(id -u)" -ne 0 ]; then
		chmod a-w out
		report --samples samples.jsonl
		chmod u+w out
		[ "$status" -eq 1 ]
		assert_error_line sc-report
	fi
}

@test "a GitHub slug that is not owner/name is not linked" {
	mkplan plan.json 'evil/x)[y](javascript:alert(1)' "$(entry Lib/A.lean library removed)"
	ok base Lib.A 1 1 >samples.jsonl
	report --samples samples.jsonl
	[ "$status" -eq 0 ]
	run ! grep -q 'https://' out/report.md
	run ! grep -q javascript out/report.md
	[ "$(jq -r .github out/report.json)" = 'evil/x)[y](javascript:alert(1)' ]
}

# The anchor table: the same base/head CPU numbers through the real tool,
# against the verdict TauCeti's rule gives (>= 1.5x and >= +30 s; added >= 150 s).
@test "anchor: TauCeti's thresholds, row by row, through sc-report" {
	local rows=() n=0 change base head want
	while IFS=$'\t' read -r change base head want; do
		if [[ -z "$change" || "$change" == \#* || "$change" == change ]]; then continue; fi
		n=$((n + 1))
		rows+=("$change $base $head $want")
	done <"$ANCHOR"
	[ "$n" -ge 20 ]
	local entries=() i=0
	for r in "${rows[@]}"; do
		read -r change base head want <<<"$r"
		i=$((i + 1))
		entries+=("$(entry "Lib/Row$i.lean" library "$change")")
	done
	mkplan plan.json "" "${entries[@]}"
	i=0
	for r in "${rows[@]}"; do
		read -r change base head want <<<"$r"
		i=$((i + 1))
		[ "$change" = added ] || ok base "Lib.Row$i" "$base" 1
		[ "$change" = removed ] || ok head "Lib.Row$i" "$head" 1
	done >samples.jsonl
	report --samples samples.jsonl
	[ "$status" -eq 0 ]
	i=0
	for r in "${rows[@]}"; do
		read -r change base head want <<<"$r"
		i=$((i + 1))
		got=$(jq -r --arg id "Lib.Row$i" '.files[] | select(.id == $id) | .verdict' out/report.json)
		[ "$got" = "$want" ] || { echo "row $i ($r): got $got"; return 1; }
	done
}

@test "a plan path with markup never reaches the report: the plan is invalid input" {
	mkplan plan.json "" "$(entry 'Lib/A|b`<x>.lean' library modified)"
	: >samples.jsonl
	report --samples samples.jsonl
	[ "$status" -eq 2 ]
	assert_error_line sc-report
	[[ "$stderr" == "sc-report: error: invalid plan: "* ]]
	[ -z "$(ls out)" ]
}
