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
	RO=
}

teardown() {
	if [ -n "$RO" ] && mountpoint -q "$RO"; then
		umount "$RO" || umount -l "$RO"
	fi
	if [ -n "$RO" ]; then chmod -R u+w "$RO"; fi
}

# unwritable DIR: nothing can be added to DIR or removed from it, for root
# too (a tmpfs with DIR's files, remounted read-only).
unwritable() {
	RO=$1
	if [ "$(id -u)" -ne 0 ]; then
		chmod a-w "$1"
		return
	fi
	cp -a "$1" "$BATS_TEST_TMPDIR/keep"
	mount -t tmpfs tmpfs "$1"
	cp -a "$BATS_TEST_TMPDIR/keep/." "$1/"
	mount -o remount,ro "$1"
}

# entry($p; $r; $c) in jq: one plan file entry (module and id from the path)
ENTRY_JQ='def entry($p; $r; $c):
		($p | rtrimstr(".lean") | gsub("/"; ".")) as $m
		| {id: $m, path: $p, module: $m, role: $r, change: $c,
		   base_blob: (if $c == "added" then null else "a" * 40 end),
		   head_blob: (if $c == "removed" then null else "b" * 40 end)};'
# entry PATH ROLE CHANGE -> one plan file entry
entry() {
	jq -nc --arg p "$1" --arg r "$2" --arg c "$3" "$ENTRY_JQ"' entry($p; $r; $c)'
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
		          tooling_path: null, bwrap_pins: []},
		 lake: {"lakefile.toml": ("c" * 40), "lakefile.lean": null,
		        "lake-manifest.json": ("d" * 40), "lean-toolchain": ("e" * 40)},
		 lean_toolchain: "leanprover/lean4:v4.34.0",
		 status: (if length == 0 then "no_changes" else "changes" end),
		 files: .}' >"$out"
}

digest() { sha256sum "$1" | cut -d' ' -f1; }

# ok_sample(...) in jq: one ok sample.  CPU splits into user + 0.25 s system
# (less when CPU is smaller); with CPU null, user and system are given and
# CPU is their sum (as sc-parse-time).
OK_JQ='def ok_sample($run; $d; $rev; $s; $cpu; $user; $sys; $w; $clock):
		(if $cpu == null then $sys else ([0.25, $cpu] | min) end) as $sys
		| (if $cpu == null then $user else $cpu - $sys end) as $user
		| {schema: "sphereceti.sample/1", run_id: $run, plan_digest: $d, revision: $rev,
		   sample: $s, ok: true, cpu_user_s: $user, cpu_sys_s: $sys, cpu_s: ($user + $sys),
		   wall_s: $w, max_rss_kib: 524288, exit_status: 0, error: null, detail: null}
		| if $clock then . + {task_clock_s: .cpu_s} else . end;'
# ok SIDE MODULE CPU WALL [RUN] [DIGEST] [REV] -> one ok sample line; a CPU
# of "U+S" gives user and system as they are.
ok() {
	local side=$1 mod=$2 cpu=$3 wall=$4 run=${5:-$RUN} d=${6:-$(digest plan.json)} rev=$7
	if [ -z "$rev" ]; then
		if [ "$side" = base ]; then rev=$M; else rev=$H; fi
	fi
	local user=null sys=null
	if [[ "$cpu" == *+* ]]; then
		user=${cpu%+*} sys=${cpu#*+} cpu=null
	fi
	jq -nc --arg run "$run" --arg d "$d" --arg rev "$rev" --arg s "$side:$mod" \
		--argjson cpu "$cpu" --argjson user "$user" --argjson sys "$sys" --argjson w "$wall" \
		--argjson clock "${TASK_CLOCK:-false}" \
		"$OK_JQ"' ok_sample($run; $d; $rev; $s; $cpu; $user; $sys; $w; $clock)'
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

# report.md's headline: the line after the title and its blank line.
headline_md() { sed -n 3p out/report.md; }

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
		cp out/report.txt "$GOLDEN/$1.txt"
	fi
	diff -u "$GOLDEN/$1.json" got.json
	diff -u "$GOLDEN/$1.md" got.md
	diff -u "$GOLDEN/$1.txt" out/report.txt
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
	headline_md | grep -q '^\*\*Measurement incomplete\*\*'
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
	# The first line names what got slower, by how much; a terminal gets it
	# as plain text.
	headline_md | grep -qxF '**2 of 4 files got slower beyond the thresholds:** <code>Lib/New.lean</code> new, 150.00 s CPU; <code>Lib/A.lean</code> 60.00 → 90.00 s CPU (1.50×, +30.00 s). Flags are advisory.'
	[ "$(jq -r .headline out/report.json)" = '2 of 4 files got slower beyond the thresholds: Lib/New.lean new, 150.00 s CPU; Lib/A.lean 60.00 → 90.00 s CPU (1.50×, +30.00 s). Flags are advisory.' ]
	grep -q "\[\`4444444\`\](https://github.com/owner/repo/commit/$H)" out/report.md
	# Library and roadmap files each get their own section, in that order.
	[ "$(grep -n '^## ' out/report.md | cut -d: -f2- | head -2 | tr '\n' ,)" = "## Library files,## Roadmap files," ]
	golden report-full
}

@test "the rebuild the plan counted: in report.json as the plan has it, and in report.md's and report.txt's opening lines" {
	four_plan
	jq '.rebuild = {modules: 1234, of: 2000, unreadable: 3}' plan.json >p.json
	mv p.json plan.json
	four_samples >samples.jsonl
	report --samples samples.jsonl --run-id $RUN
	[ "$status" -eq 0 ]
	[ "$(jq -c .rebuild out/report.json)" = '{"modules":1234,"of":2000,"unreadable":3}' ]
	sed -n 5p out/report.md | grep -qxF 'This change makes **1,234 of 2,000** modules under the roots rebuild: the changed ones and every module importing one, directly or not, at the head (3 modules whose imports could not be read not counted).'
	sed -n 3p out/report.txt | grep -qxF 'This change makes 1,234 of 2,000 modules under the roots rebuild: the changed ones and every module importing one, directly or not, at the head (3 modules whose imports could not be read not counted).'
	# a count the plan cannot have is refused
	jq '.rebuild.modules = 2001' plan.json >p.json
	mv p.json plan.json
	report --samples samples.jsonl --run-id $RUN
	[ "$status" -eq 2 ]
	[[ "$stderr" == *'"rebuild": modules and unreadable must lie between 0 and of'* ]]
}

@test "no changes: status no_changes, distinct from missing data, exit 0" {
	mkplan plan.json ""
	: >samples.jsonl
	report --samples samples.jsonl
	[ "$status" -eq 0 ]
	[ "$(jq -r .status out/report.json)" = no_changes ]
	[ "$(jq -r .run_id out/report.json)" = null ]
	headline_md | grep -q '^No changed Lean files'
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
	grep -qF "| [<code>Lib/A.lean</code>](https://github.com/owner/repo/blob/$H/Lib/A.lean) | modified | error: timeout | 90.00 | — | — | — | **not compared** (see Problems) |" out/report.md
	# The problem comes first on the first line, then what got slower.
	headline_md | grep -qxF '**Measurement incomplete** — 1 problem with the samples (listed under Problems below); 3 of 4 files compared, no verdict for the rest. Of those compared, 1 of 3 files got slower beyond the thresholds: <code>Roadmap/B.lean</code> 100.00 → 200.00 s CPU (2.00×, +100.00 s). Flags are advisory.' 
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
	# report.json holds only UTF-8, so must a samples file's name.
	cp samples.jsonl $'\xff.jsonl'
	run --separate-stderr sc-report --plan plan.json --samples $'\xff.jsonl' --out-dir out
	[ "$status" -eq 2 ]
	assert_error_line sc-report
	[ -z "$(ls out)" ]
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
	grep -qF '<code>Lib/Z.lean</code> | modified | 0.00 | 30.00 | ∞ | +30.00 | — |' out/report.md
	grep -qF '<code>Lib/Y.lean</code> | modified | 0.00 | 0.00 | — | +0.00 | — |' out/report.md
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
	[ "$(ls out | tr '\n' ' ')" = "report.json report.md report.txt " ]
}

@test "reports that cannot be written are a system failure: exit 3, one line, no new report.json" {
	four_plan
	four_samples >samples.jsonl
	# An unwritable folder (a read-only one refuses even to remove a
	# report.json that is not there; a full disk: faults.bats).
	unwritable out
	report --samples samples.jsonl
	[ "$status" -eq 3 ]
	assert_error_line sc-report
	[[ "$stderr" =~ ^sc-report:\ error:\ cannot\ (write\ report\.md|replace\ report\.json): ]]
	[ -z "$(ls out)" ]
	teardown
	# An old report.json that cannot be removed stays as it was, unreplaced.
	rm -rf out keep
	mkdir out
	echo old >out/report.json
	unwritable out
	report --samples samples.jsonl
	[ "$status" -eq 3 ]
	assert_error_line sc-report
	[[ "$stderr" == "sc-report: error: cannot replace report.json: "* ]]
	[ "$(cat out/report.json)" = old ]
	[ "$(ls out)" = report.json ]
}

@test "one option table: --help, --version, unique prefixes, repeats, stdout that cannot be written" {
	four_plan
	four_samples >samples.jsonl
	run --separate-stderr sc-report --help
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ "${lines[0]}" == "usage: sc-report --plan FILE --samples FILE... --out-dir DIR"* ]]
	local o
	for o in plan samples out-dir run-id lean-version lean-sha256 lake-sha256 sandbox-user \
		threshold-ratio threshold-delta threshold-added help version; do
		grep -qE -- "^ +(-h, )?--$o( |$)" <<<"$output" || { echo "--help lacks --$o"; false; }
	done
	run --separate-stderr sc-report --version
	[ "$status" -eq 0 ]
	[[ "$output" == "sc-report "[0-9]* ]]
	# A unique prefix is the option; an ambiguous one names the candidates.
	run --separate-stderr sc-report --pl plan.json --sam samples.jsonl --out out --threshold-r 1.2
	[ "$status" -eq 0 ]
	[ "$(jq -r .thresholds.ratio out/report.json)" = 1.2 ]
	rm out/*
	report --samples samples.jsonl --th 1
	[ "$status" -eq 2 ]
	assert_error_line sc-report
	[[ "$stderr" == *"could be --threshold-ratio, --threshold-delta, --threshold-added"* ]]
	# One value per option; --samples collects (every file, repeats too).
	report --samples samples.jsonl --run-id $RUN --run-id $RUN
	[ "$status" -eq 2 ]
	[ "$stderr" = "sc-report: error: option given twice (--run-id)" ]
	four_samples | head -3 >a.jsonl
	four_samples | tail -n +4 >b.jsonl
	report --samples a.jsonl --samples=b.jsonl
	[ "$status" -eq 0 ]
	[ "$(jq -r .summary.compared out/report.json)" = 4 ]
	# Every missing required option is named at once.
	run --separate-stderr sc-report --run-id $RUN
	[ "$status" -eq 2 ]
	[ "$stderr" = "sc-report: error: missing required options (--plan, --samples, --out-dir)" ]
	# Output that cannot be written is the machine's failure.
	run --separate-stderr bash -c 'sc-report --help >/dev/full'
	[ "$status" -eq 3 ]
	assert_error_line sc-report
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
# against the exact rule's verdict (>= 1.5x and >= +30 s; added >= 150 s).
@test "anchor: the exact rule, row by row, through sc-report" {
	local rows=() n=0 change base head tauceti want
	while IFS=$'\t' read -r change base head tauceti want; do
		if [[ -z "$change" || "$change" == \#* || "$change" == change ]]; then continue; fi
		n=$((n + 1))
		rows+=("$change $base $head $want")
	done <"$ANCHOR"
	[ "$n" -ge 30 ]
	# A plan holds at most 32 files: the table goes through in chunks.
	local start
	for ((start = 0; start < n; start += 30)); do
		anchor_chunk "${rows[@]:start:30}"
	done
}

# anchor_chunk "CHANGE BASE HEAD WANT"...: one plan, one report, every
# verdict.  Row i is Lib/Row<i>.lean; its entries and samples are entry and
# ok's (ok base/head Lib.Row<i> CPU 1), one jq for all rows, not one a row.
anchor_chunk() {
	local entries=() i=0 r change base head want d
	local -A got=()
	mapfile -t entries < <(printf '%s\n' "$@" | jq -Rnc "$ENTRY_JQ"'
		[inputs | split(" ")] | to_entries[]
		| entry("Lib/Row\(.key + 1).lean"; "library"; .value[0])')
	[ ${#entries[@]} -eq $# ]
	mkplan plan.json "" "${entries[@]}"
	d=$(digest plan.json)
	printf '%s\n' "$@" | jq -Rnc --arg run "$RUN" --arg d "$d" --arg M $M --arg H $H "$OK_JQ"'
		def cpu: if test("[+]") then split("+") | map(fromjson) | {cpu: null, user: .[0], sys: .[1]}
			else {cpu: fromjson, user: null, sys: null} end;
		def side($rev; $s; $cell): ($cell | cpu) as $c
			| ok_sample($run; $d; $rev; $s; $c.cpu; $c.user; $c.sys; 1; false);
		[inputs | split(" ")] | to_entries[] | (.key + 1) as $i | .value as [$change, $base, $head]
		| (if $change == "added" then empty else side($M; "base:Lib.Row\($i)"; $base) end),
		  (if $change == "removed" then empty else side($H; "head:Lib.Row\($i)"; $head) end)' >samples.jsonl
	report --samples samples.jsonl
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	while read -r r want; do
		got[$r]+="${got[$r]:+ }$want"
	done < <(jq -r '.files[] | "\(.id) \(.verdict)"' out/report.json)
	[ ${#got[@]} -eq $# ]
	i=0
	for r in "$@"; do
		read -r change base head want <<<"$r"
		i=$((i + 1))
		[ "${got[Lib.Row$i]-}" = "$want" ] || { echo "row ($r): got ${got[Lib.Row$i]-}"; return 1; }
	done
}

# TauCeti's own float comparison, recomputed for every row, so the labels
# cannot drift; where it says "pass" and the exact rule flags, the row is an
# exact boundary that doubles miss.
@test "anchor: TauCeti's float verdicts recomputed with python3 match the labels" {
	run /usr/bin/python3 "$BATS_TEST_DIRNAME/anchor/tauceti-float.py" "$ANCHOR"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	# The boundary rows where the two rules part are there and labelled so.
	local split
	split=$(awk -F'\t' '$4 == "pass" && $5 == "flagged" {print $2 "/" $3}' "$ANCHOR" | tr '\n' ' ')
	[ "$split" = "60.128/90.192 2.001/32.001 60.14/90.21 2.05/32.05 9.10+8.64/45.37+2.37 " ]
	# No row where TauCeti fails a file the exact rule passes.
	[ -z "$(awk -F'\t' '$4 == "fail" && $5 != "flagged"' "$ANCHOR")" ]
	# The check can fail: one flipped label is caught.
	sed 's/^\(modified\t60.14\t90.21\t\)pass/\1fail/' "$ANCHOR" >flipped.tsv
	run ! /usr/bin/python3 "$BATS_TEST_DIRNAME/anchor/tauceti-float.py" flipped.tsv
	[[ "$output" == *"60.14 -> 90.21: TauCeti says pass, table says fail"* ]]
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

# Rounding a finer counter could put the shown figure or the verdict on the
# wrong side of a threshold (149.9995 s flagged as >= 150 s; 60.0005 ->
# 90.0008 shown as 1.500x beside "below 1.5x"): such input is refused.
@test "counters finer than a millisecond are bad input, never rounded" {
	mkplan plan.json "" "$(entry Lib/New.lean library added)" "$(entry Lib/A.lean library modified)"
	{ ok head Lib.New 149.9995 150; ok base Lib.A 60 61; ok head Lib.A 90 91; } >samples.jsonl
	report --samples samples.jsonl
	[ "$status" -eq 2 ]
	assert_error_line sc-report
	[[ "$stderr" == *'"cpu_user_s" is not a whole number of milliseconds (samples.jsonl:1)' ]]
	[ -z "$(ls out)" ]
	{ ok head Lib.New 1 1; ok base Lib.A 60.0005 61; ok head Lib.A 90.0008 91; } >samples.jsonl
	report --samples samples.jsonl
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"(samples.jsonl:2)" ]]
	[ -z "$(ls out)" ]
	# A wall time finer than a millisecond too.
	{ ok head Lib.New 1 1.0001; ok base Lib.A 60 61; ok head Lib.A 90 91; } >samples.jsonl
	report --samples samples.jsonl
	[ "$status" -eq 2 ]
	[[ "$stderr" == *'"wall_s" is not a whole number of milliseconds (samples.jsonl:1)' ]]
	# Whole milliseconds, even as a double sum like 9.10 + 8.64, are fine.
	{ ok head Lib.New 9.10+8.64 20; ok base Lib.A 60 61; ok head Lib.A 90 91; } >samples.jsonl
	report --samples samples.jsonl
	[ "$status" -eq 0 ]
	[ "$(jq -r '.files[0].head.cpu_s' out/report.json)" = 17.74 ]
}

# render: report.md as GitHub renders it (cmark-gfm with the table
# extension; raw HTML kept, as GitHub keeps <code> and <wbr>) -> tables.tsv,
# one line per table row, cells tab-separated (t/lib/mdtables.py).
render() {
	cmark-gfm --unsafe -e table out/report.md >report.html
	/usr/bin/python3 "$BATS_TEST_DIRNAME/lib/mdtables.py" <report.html >tables.tsv
	run ! grep -q '^BAD' tables.tsv
}

# cells TABLE FIRST-CELL: that row's cells after the table number, tab-joined
cells() { awk -F'\t' -v t="$1" -v c="$2" '$1 == t && $2 == c' tables.tsv | cut -f2-; }

LONG=Lib/Algebra/Category/ModuleCat/Monoidal/Symmetric/Braided/Coherence/HexagonLema.lean

@test "report.md at GitHub's width: flagged first, then by CPU delta, totals, one figure per cell" {
	[ "${#LONG}" -eq 84 ]
	local long=${LONG%.lean}
	long=${long//\//.}
	mkplan plan.json owner/repo "$(entry Lib/A.lean library modified)" "$(entry $LONG library modified)" \
		"$(entry Lib/New.lean library added)" "$(entry Lib/Small.lean library modified)" \
		"$(entry Lib/Err.lean library modified)" "$(entry Roadmap/Old.lean roadmap removed)"
	{
		ok base Lib.A 60 61.5; ok head Lib.A 90 91.25
		ok base "$long" 12.5 13.1; ok head "$long" 14.4 15.2
		ok head Lib.New 21 21.1
		ok base Lib.Small 1 1.1; ok head Lib.Small 6 6.2
		bad base Lib.Err timeout "sample exceeded 300 s"; ok head Lib.Err 3 3
		ok base Roadmap.Old 12.5 13
	} >samples.jsonl
	report --samples samples.jsonl
	[ "$status" -eq 1 ]
	render
	# Table 1 is the revisions; 2 library, 3 roadmap, 4 wall and memory, 5 prebuild.
	[ "$(cells 2 file)" = $'file\tchange\tbase CPU (s)\thead CPU (s)\tratio\tΔ CPU (s)\tΔ %\tverdict' ]
	[ -z "$(awk -F'\t' '($1 == 2 || $1 == 3) && NF != 9' tables.tsv)" ]
	[ -z "$(awk -F'\t' '$1 == 4 && NF != 6' tables.tsv)" ]
	[ -z "$(awk -F'\t' '$1 == 5 && NF != 5' tables.tsv)" ]
	# Flagged first, then by delta (+21, +5, +1.9), then the file without a
	# comparison, then the totals.
	[ "$(awk -F'\t' '$1 == 2 {print $2}' tables.tsv | tr '\n' ,)" = "file,Lib/A.lean,Lib/New.lean,Lib/Small.lean,$LONG,Lib/Err.lean,total," ]
	[ "$(cells 2 Lib/A.lean)" = $'Lib/A.lean\tmodified\t60.00\t90.00\t1.50×\t+30.00\t+50.0%\tflagged: head ≥ 1.5× base and ≥ +30~s' ]
	# The long path is one cell, whole; its figures are in theirs.
	[ "$(cells 2 $LONG)" = "$LONG"$'\tmodified\t12.50\t14.40\t1.15×\t+1.90\t+15.2%\tnot flagged: below 1.5× base and below +30~s' ]
	grep -qF '<code>Lib/<wbr>Algebra/<wbr>Category/<wbr>' out/report.md
	# A short path stays whole.
	grep -qF "| [<code>Lib/A.lean</code>](https://github.com/owner/repo/blob/$H/Lib/A.lean) | modified |" out/report.md
	# One noisy sample gets two decimals, not "6.000x".
	[ "$(cells 2 Lib/Small.lean | cut -f5)" = 6.00× ]
	[ "$(cells 2 Lib/New.lean)" = $'Lib/New.lean\tadded\t—\t21.00\t—\t+21.00\t—\tnot flagged: new file below 150~s' ]
	[ "$(cells 2 Lib/Err.lean)" = $'Lib/Err.lean\tmodified\terror: timeout\t3.00\t—\t—\t—\tnot compared (see Problems)' ]
	[ "$(cells 2 total)" = $'total\t4 compared\t73.50\t131.40\t—\t+57.90\t+78.7%\t1 flagged, 1 not compared' ]
	[ "$(cells 3 total)" = $'total\t1 compared\t12.50\t0.00\t—\t-12.50\t-100.0%\t0 flagged' ]
	# Figures are numbers; units live in the headers, never a space away
	# from a number in a cell.
	[ -z "$(awk -F'\t' '($1 == 2 || $1 == 3) && $2 != "file" {for (i = 4; i <= 8; i++) if ($i !~ /^([+-]?[0-9]+\.[0-9]+(×|%)?|—|∞|error: [a-z_]+)$/) print}' tables.tsv)" ]
	[ -z "$(grep -E '[0-9] (s|MiB)([^a-z]|$)' tables.tsv)" ]
	# Wall time and peak memory per sample, in their own table.
	[ "$(cells 4 $LONG)" = "$LONG"$'\t13.1\t15.2\t512\t512' ]
	[ "$(cells 4 Lib/Err.lean)" = $'Lib/Err.lean\t—\t3.0\t—\t512' ]
}

# 60.001 -> 90.001 is 1.49998x: shown rounded it would read "1.500x" beside
# "below 1.5x base".  Truncated figures stay on the verdict's side.
@test "shown figures never contradict the verdict" {
	mkplan plan.json "" "$(entry Lib/R.lean library modified)" "$(entry Lib/D.lean library modified)" \
		"$(entry Lib/N.lean library added)" "$(entry Lib/F.lean library modified)"
	{
		ok base Lib.R 60.001 61; ok head Lib.R 90.001 91
		ok base Lib.D 20 21; ok head Lib.D 49.999 51
		ok head Lib.N 149.999 150
		ok base Lib.F 60.01 61; ok head Lib.F 90.015 91
	} >samples.jsonl
	report --samples samples.jsonl
	[ "$status" -eq 0 ]
	render
	[ "$(cells 2 Lib/R.lean | cut -f5,8)" = $'1.49×\tnot flagged: below 1.5× base' ]
	[ "$(cells 2 Lib/D.lean | cut -f6,8)" = $'+29.99\tnot flagged: below +30~s' ]
	[ "$(cells 2 Lib/N.lean | cut -f4,8)" = $'149.99\tnot flagged: new file below 150~s' ]
	[ "$(cells 2 Lib/F.lean | cut -f5,8)" = $'1.50×\tflagged: head ≥ 1.5× base and ≥ +30~s' ]
	# One notation throughout: no ASCII ">=" or "1.5x" anywhere.
	run ! grep -qE '>=|[0-9]x( |$)' out/report.md
	run ! grep -qE '>=|[0-9]x( |$)' out/report.json
}

@test "each side's prebuild: CPU, wall and peak memory, bound like any sample" {
	four_plan
	prebuild() {
		local side=$1 rev=$M
		[ "$side" = base ] || rev=$H
		jq -nc --arg run "${3:-$RUN}" --arg d "$(digest plan.json)" --arg rev "${4:-$rev}" \
			--arg s "$side:@prebuild" --argjson cpu "$2" '
			{schema: "sphereceti.sample/1", run_id: $run, plan_digest: $d, revision: $rev,
			 sample: $s, ok: true, cpu_user_s: ($cpu - 1), cpu_sys_s: 1, cpu_s: $cpu,
			 wall_s: ($cpu + 2.5), max_rss_kib: 2097152, exit_status: 0, error: null, detail: null}'
	}
	{ four_samples; prebuild base 120.5; prebuild head 130.25; } >samples.jsonl
	report --samples samples.jsonl
	[ "$status" -eq 0 ]
	jq -e '.prebuild.base | .status == "ok" and .cpu_s == 120.5 and .wall_s == 123 and .max_rss_kib == 2097152' out/report.json
	jq -e '.prebuild.head | .cpu_s == 130.25 and .cpu_user_s == 129.25 and .cpu_sys_s == 1' out/report.json
	render
	[ "$(cells 5 side)" = $'side\tCPU (s)\twall (s)\tmax RSS (MiB)' ]
	[ "$(cells 5 base)" = $'base\t120.50\t123.0\t2048' ]
	[ "$(cells 5 head)" = $'head\t130.25\t132.8\t2048' ]
	# Not given: optional, said so, no problem.
	four_samples >samples.jsonl
	report --samples samples.jsonl
	[ "$status" -eq 0 ]
	jq -e '.prebuild.base.status == "missing"' out/report.json
	render
	[ "$(cells 5 base | cut -f2)" = "not recorded" ]
	# Duplicate, other run, other revision: rejected like file samples.
	{ four_samples; prebuild base 1; prebuild base 2; prebuild head 3 $OTHER_RUN; } >samples.jsonl
	report --samples samples.jsonl
	assert_error_report
	problem base:@prebuild duplicate
	problem head:@prebuild cross_run
	{ four_samples; prebuild head 3 $RUN $M; } >samples.jsonl
	report --samples samples.jsonl
	assert_error_report
	problem head:@prebuild wrong_revision
	# A side that measures no file has no prebuild.
	mkplan plan.json "" "$(entry Lib/New.lean library added)"
	{ ok head Lib.New 1 1; prebuild base 1; } >samples.jsonl
	report --samples samples.jsonl
	assert_error_report
	problem base:@prebuild unexpected
	# A failed prebuild is an error sample: named, no numbers.
	{ ok head Lib.New 1 1; bad head @prebuild prebuild_timeout "lake build ran out of time"; } >samples.jsonl
	report --samples samples.jsonl
	assert_error_report
	problem head:@prebuild sample_error
	jq -e '.prebuild.head | .status == "error" and .error == "prebuild_timeout"' out/report.json
}

@test "the sandbox user is recorded; without the task clock the limits state what rusage misses" {
	four_plan
	four_samples >samples.jsonl
	report --samples samples.jsonl --sandbox-user 65534:65534
	[ "$status" -eq 0 ]
	[ "$(jq -r .environment.sandbox_user out/report.json)" = 65534:65534 ]
	grep -qxF -- '- Sandbox user: `65534:65534` (uid:gid)' out/report.md
	[ "$(jq -r .environment.cpu_counter out/report.json)" = rusage_only ]
	grep -qF -- "- CPU counter: GNU time's rusage only (this host gave no perf task clock" out/report.md
	jq -e '.limits.text | contains("ignores SIGCHLD") and contains("understate its own cost")' out/report.json
	grep -q 'ignores SIGCHLD, so a deliberately hostile candidate can understate its own cost' out/report.md
	for u in 65534 nobody 1:x :1 1: 01:1 4294967296:1 -1:1; do
		report --samples samples.jsonl --sandbox-user "$u"
		[ "$status" -eq 2 ] || { echo "$u: $status"; return 1; }
		assert_error_line sc-report
	done
}

@test "every sample on the host's task clock: the environment says so and the autoreap limit goes" {
	four_plan
	TASK_CLOCK=true four_samples >samples.jsonl
	report --samples samples.jsonl
	[ "$status" -eq 0 ]
	[ "$(jq -r .environment.cpu_counter out/report.json)" = task_clock_and_rusage ]
	grep -qxF -- "- CPU counter: GNU time's rusage, checked against the host's perf task clock (the larger of the two is compared)" out/report.md
	jq -e '.limits.text | contains("cpu_hidden") and (contains("ignores SIGCHLD") | not)' out/report.json
	run ! grep -q 'ignores SIGCHLD' out/report.md
	# one sample without it (a host without perf): the limit is stated again
	ok base Lib.A 60 61.5 >one.jsonl
	TASK_CLOCK=true ok head Lib.A 90 91.25 >>one.jsonl
	report --samples one.jsonl
	[ "$(jq -r .environment.cpu_counter out/report.json)" = rusage_only ]
	grep -q 'ignores SIGCHLD' out/report.md
}

@test "a head side made for the run: the merge of the pull request head is named, never linked; the pull request head is linked" {
	local P=9999999999999999999999999999999999999999
	M=$B
	mkplan plan.json owner/repo "$(entry Lib/A.lean library modified)"
	jq --arg p "$P" --arg b "$B" '.revisions.merge_base = $b | .revisions.merge_of = $p' plan.json >p.json
	mv p.json plan.json
	{
		ok base Lib.A 1 1.5
		ok head Lib.A 1 1.5
	} >samples.jsonl
	report --samples samples.jsonl
	[ "$status" -eq 0 ]
	[ "$(head -n 1 out/report.md)" = "# sphereceti profile: [\`${B:0:7}…${P:0:7}\`](https://github.com/owner/repo/compare/$B...$P) (base tip … the merge of the pull request's head into it)" ]
	run ! grep -q "/commit/$H" out/report.md
	run ! grep -q "/blob/$H/" out/report.md
	grep -qxF "| pull request head | [\`${P:0:7}\`](https://github.com/owner/repo/commit/$P) | \`$P\` |" out/report.md
	grep -qxF "| head (merge of the pull request head into the base tip, made for this run) | \`${H:0:7}\` | \`$H\` |" out/report.md
	grep -qF "[<code>Lib/A.lean</code>](https://github.com/owner/repo/blob/$P/Lib/A.lean)" out/report.md
	[ "$(jq -r .revisions.merge_of out/report.json)" = "$P" ]
	# a plan whose merge base is not its base tip cannot claim a merge
	jq --arg m "$T" '.revisions.merge_base = $m' plan.json >p.json
	mv p.json plan.json
	report --samples samples.jsonl
	[ "$status" -eq 2 ]
	[[ "$stderr" == *'merge_of is set but merge_base is not base_tip'* ]]
}

@test "no CPU to hide in the tolerance: the larger of rusage and the task clock is compared (87.5 s in rusage, 92 s on the clock: flagged)" {
	mkplan plan.json owner/repo "$(entry Lib/A.lean library modified)"
	{
		TASK_CLOCK=true ok base Lib.A 60 61
		# a helper autoreaped just inside the cross-check's tolerance
		ok head Lib.A 87.5 93 | jq -c '. + {task_clock_s: 92.0}'
	} >samples.jsonl
	report --samples samples.jsonl
	[ "$status" -eq 0 ]
	[ "$(jq '.files[0].head.cpu_s == 92' out/report.json)" = true ]
	[ "$(jq -r '.files[0].flagged' out/report.json)" = true ]
	[ "$(jq '.files[0].delta_s == 32' out/report.json)" = true ]
}

@test "a cpu_hidden sample: no number of it enters a comparison" {
	four_plan
	{
		four_samples | grep -v '"head:Lib.A"'
		bad head Lib.A cpu_hidden "the host's task clock counted 3.100 s of CPU, GNU time's rusage 0.080 s"
	} >samples.jsonl
	report --samples samples.jsonl
	[ "$status" -eq 1 ]
	jq -e '.files[] | select(.path == "Lib/A.lean") | .verdict == "not_compared" and .ratio == null and .head.status == "error"' out/report.json
	jq -e '.files[] | select(.path == "Lib/A.lean") | .head.error == "cpu_hidden" and (.head | has("cpu_s") | not)' out/report.json
	grep 'cpu_hidden' out/report.md
}

@test "problems name sample files relative to the output folder, never by absolute path" {
	four_plan
	{ four_samples; ok head Lib.A 90 91; } >out/samples.jsonl
	run --separate-stderr sc-report --plan "$PWD/plan.json" --samples "$PWD/out/samples.jsonl" \
		--out-dir "$PWD/out/"
	[ "$status" -eq 1 ]
	jq -e '.errors[0] | .source == "samples.jsonl:7" and (.detail | contains("samples.jsonl:2"))' out/report.json
	grep -qF -- '- `head:Lib.A` (samples.jsonl&#58;7) — duplicate' out/report.md
	run ! grep -qF "$PWD" out/report.md
	# Outside the output folder a file keeps the name it was given.
	run --separate-stderr sc-report --plan plan.json --samples "$PWD/out/samples.jsonl" --out-dir out
	[ "$(jq -r '.errors[0].source' out/report.json)" = "$PWD/out/samples.jsonl:7" ]
}

@test "report.md: a title with the compare link M...H, each file linked at the revision measured on its side" {
	four_plan
	four_samples >samples.jsonl
	report --samples samples.jsonl --run-id $RUN
	[ "$status" -eq 0 ]
	[ "$(head -1 out/report.md)" = "# sphereceti profile: [\`3333333…4444444\`](https://github.com/owner/repo/compare/$M...$H) (merge base … head)" ]
	[ -z "$(sed -n 2p out/report.md)" ]
	# modified: the path at the head, the base figure at the merge base
	grep -qF "| [<code>Lib/A.lean</code>](https://github.com/owner/repo/blob/$H/Lib/A.lean) | modified | [60.00](https://github.com/owner/repo/blob/$M/Lib/A.lean) | 90.00 |" out/report.md
	# added: at the head; removed: at the merge base
	grep -qF "| [<code>Lib/New.lean</code>](https://github.com/owner/repo/blob/$H/Lib/New.lean) | added | — |" out/report.md
	grep -qF "| [<code>Roadmap/Old.lean</code>](https://github.com/owner/repo/blob/$M/Roadmap/Old.lean) | removed | 12.50 |" out/report.md
}

@test "report.md: run ID and plan digest are in the environment block, not before the tables" {
	four_plan
	four_samples >samples.jsonl
	report --samples samples.jsonl --run-id $RUN
	[ "$status" -eq 0 ]
	local env_at first_table
	env_at=$(grep -n '^## Environment' out/report.md | cut -d: -f1)
	first_table=$(grep -n '^## Library files' out/report.md | cut -d: -f1)
	[ "$(grep -n "$RUN" out/report.md | cut -d: -f1)" -gt "$env_at" ]
	[ "$(grep -n "$(digest plan.json)" out/report.md | cut -d: -f1)" -gt "$env_at" ]
	run grep -c "$RUN" <(head -n "$first_table" out/report.md)
	[ "$output" = 0 ]
	grep -qx -- "- Run ID: \`$RUN\`" out/report.md
	grep -qx -- "- Plan digest (SHA-256 of plan.json): \`$(digest plan.json)\`" out/report.md
	grep -qx -- '- CI run: not recorded' out/report.md
}

@test "report.md: --server-url is where every link points (GitHub Enterprise); the CI run is linked there" {
	four_plan
	four_samples >samples.jsonl
	report --samples samples.jsonl --run-id $RUN --server-url https://ghe.example.com \
		--ci-repository owner/repo --ci-run-id 123456789
	[ "$status" -eq 0 ]
	run grep -c 'github\.com' out/report.md
	[ "$output" = 0 ]
	grep -qF "(https://ghe.example.com/owner/repo/compare/$M...$H)" out/report.md
	grep -qF "(https://ghe.example.com/owner/repo/commit/$H)" out/report.md
	grep -qF "(https://ghe.example.com/owner/repo/blob/$H/Lib/A.lean)" out/report.md
	grep -qx -- '- CI run: \[owner/repo run 123456789\](https://ghe.example.com/owner/repo/actions/runs/123456789)' out/report.md
	[ "$(jq -r .environment.server_url out/report.json)" = https://ghe.example.com ]
	[ "$(jq -r .environment.ci_run_id out/report.json)" = 123456789 ]
	[ "$(jq -r .environment.ci_repository out/report.json)" = owner/repo ]
}

@test "report.md: without profile.github nothing is linked, and the title names the revisions plainly" {
	mkplan plan.json "" "$(entry Lib/A.lean library modified)"
	{ ok base Lib.A 1 1; ok head Lib.A 1 1; } >samples.jsonl
	report --samples samples.jsonl --ci-repository owner/repo --ci-run-id 7
	[ "$status" -eq 0 ]
	[ "$(head -1 out/report.md)" = '# sphereceti profile: `3333333…4444444` (merge base … head)' ]
	run grep -c '](https://github.com/owner/repo/\(blob\|commit\|compare\)' out/report.md
	[ "$output" = 0 ]
	# the CI run is a fact of the run, not of the configuration
	grep -qF '(https://github.com/owner/repo/actions/runs/7)' out/report.md
}

@test "the link facts are validated: a bad server URL, repository or run ID is one error line, exit 2, nothing written" {
	four_plan
	four_samples >samples.jsonl
	for bad in 'javascript:alert(1)' 'https://ghe.example.com/' 'https://x.example/a?b=c' \
		'https://x.example/a)[y](z' 'ftp://x.example' 'https://' 'https://a//b'; do
		report --samples samples.jsonl --server-url "$bad"
		[ "$status" -eq 2 ]
		assert_error_line sc-report
		[[ "$stderr" == *"--server-url is not an http(s) URL"* ]]
	done
	report --samples samples.jsonl --ci-repository 'owner/repo)[x](y' --ci-run-id 1
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--ci-repository is not OWNER/NAME"* ]]
	report --samples samples.jsonl --ci-repository owner/repo --ci-run-id 012
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--ci-run-id is not a run ID in decimal (012)"* ]]
	report --samples samples.jsonl --ci-run-id 12
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--ci-repository and --ci-run-id go together (--ci-run-id)"* ]]
	[ ! -e out/report.md ]
	[ ! -e out/report.json ]
}
