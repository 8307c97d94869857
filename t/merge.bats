#!/usr/bin/env bats
# Shards measured by runners of their own and merged (Documentation/
# measurement.txt "Shards"): profile-run --shard K/N and sphereceti merge,
# end to end on the fixture toolchain, with real git, bwrap and GNU time.

bats_require_minimum_version 1.5.0
load helpers
load lib/project

# The project once, and one cheap change measured by three runners once:
# the tests that read or forge shards' workspaces copy them (shared).
setup_file() {
	project_template
	BATS_TEST_TMPDIR=$BATS_FILE_TMPDIR/shared
	mkdir -p "$BATS_TEST_TMPDIR"
	project_base
	cheap_change
	three_shards >"$BATS_FILE_TMPDIR/shared.log" || { cat "$BATS_FILE_TMPDIR/shared.log" >&3; return 1; }
}
setup() { project_base; }

# shared: this test's copies of the three shards' workspaces (ws1..ws3).
shared() { cp -a "$BATS_FILE_TMPDIR"/shared/ws{1,2,3} "$BATS_TEST_TMPDIR/"; }

# cheap_change: 6 changed files of little CPU, one importing another.
cheap_change() {
	candidate
	ex_lean "$R" Demo/Basic.lean '-- reworded' '-- fixture: cpu=0.06'
	ex_lean "$R" Demo/Ring.lean '-- reworded' '-- fixture: cpu=0.06'
	ex_lean "$R" Demo/Field.lean 'import Demo.Ring' '-- new' '-- fixture: cpu=0.06'
	ex_lean "$R" Demo/Big.lean '-- new' '-- fixture: cpu=0.06'
	rm "$R/Demo/Legacy.lean"
	ex_lean "$R" Roadmap/Goals.lean '-- more' '-- fixture: cpu=0.06'
	head_commit
}

# spread_change: 24 changed files, two of them flagged at the test
# thresholds, one importing another (so they share a shard).
spread_change() {
	candidate
	ex_lean "$R" Demo/Basic.lean '-- reworded' '-- fixture: cpu=0.06'
	ex_lean "$R" Demo/Ring.lean '-- heavy' '-- fixture: cpu=1.20'
	ex_lean "$R" Demo/Field.lean 'import Demo.Ring' '-- new' '-- fixture: cpu=0.10'
	ex_lean "$R" Demo/Big.lean '-- new, heavy' '-- fixture: cpu=2.50'
	rm "$R/Demo/Legacy.lean"
	ex_lean "$R" Roadmap/Goals.lean '-- more' '-- fixture: cpu=0.06'
	local i
	for i in $(seq 18); do ex_lean "$R" "Demo/More$i.lean" "-- new $i" '-- fixture: cpu=0.02'; done
	head_commit
}

# shard K N [flags...]: profile-run --shard K/N into $BATS_TEST_TMPDIR/wsK.
shard() {
	local k=$1 n=$2
	shift 2
	WS=$BATS_TEST_TMPDIR/ws$k profile --shard "$k/$n" --threshold-delta 1 --threshold-added 2 "$@"
}

# merged [WORKSPACE...]: sphereceti merge into $BATS_TEST_TMPDIR/merged.
merged() {
	run --separate-stderr "$SC_BIN/sphereceti" merge --out-dir "$BATS_TEST_TMPDIR/merged" "$@"
}

# verdicts JSON: "path verdict reason" per file of a report.
verdicts() { jq -r '.files[] | "\(.path) \(.verdict) \(.reason)"' "$1"; }

# three_shards: the change measured by three runners, one after the other.
three_shards() {
	local k
	for k in 1 2 3; do
		shard "$k" 3
		[ "$status" -eq 0 ] || { echo "shard $k of 3: $stderr"; return 1; }
	done
}

@test "a 24-file change: three runners flag what one runner flags, with the same verdict lines" {
	spread_change
	profile --threshold-delta 1 --threshold-added 2
	[ "$status" -eq 0 ]
	three_shards
	merged "$BATS_TEST_TMPDIR"/ws{1,2,3}
	[ "$status" -eq 0 ]
	[ "$(verdicts "$BATS_TEST_TMPDIR/merged/report.json")" = "$(verdicts "$WS/report.json")" ]
	# the headlines' figures are each run's own CPU; their words agree
	one=$(jq -r .headline "$WS/report.json") three=$(jq -r .headline "$BATS_TEST_TMPDIR/merged/report.json")
	[ "${three%%:*}" = "${one%%:*}" ]
	[ "$(jq '.runners | length' "$BATS_TEST_TMPDIR/merged/report.json")" -eq 3 ]
	[ "$(jq -r .run_id "$BATS_TEST_TMPDIR/merged/report.json")" = null ]
	grep -q '^## Runners' "$BATS_TEST_TMPDIR/merged/report.md"
	grep -q 'every comparison above is between two samples of one runner' "$BATS_TEST_TMPDIR/merged/report.md"
	[[ "${lines[0]}" == "2 of 24 files got slower beyond the thresholds"* ]]
}

@test "a shard measures its own files alone, says which shard it is, and binds its samples" {
	shared
	mine=$(jq -r '[.files[] | select(.shard == 2) | .id] | sort | join(" ")' "$BATS_TEST_TMPDIR/ws2/plan.json")
	[ "$(jq -r '[.files[].id] | sort | join(" ")' "$BATS_TEST_TMPDIR/ws2/report.json")" = "$mine" ]
	[ "$(jq -c .shard "$BATS_TEST_TMPDIR/ws2/report.json")" = '{"index":2,"count":3}' ]
	[ "$(jq -r '.environment.bwrap_sha256' "$BATS_TEST_TMPDIR/ws2/report.json")" = "$(sha256sum "$(command -v bwrap)" | cut -d' ' -f1)" ]
	[ "$(jq -r '.shard' "$BATS_TEST_TMPDIR/ws2/samples.jsonl" | sort -u)" = 2 ]
	grep -q '^This is shard 2 of 3' "$BATS_TEST_TMPDIR/ws2/report.md"
}

@test "--shard 1/1 is the run as it always was: no shard in the plan, samples or report" {
	cheap_change
	shard 1 1
	[ "$status" -eq 0 ]
	ws=$BATS_TEST_TMPDIR/ws1
	[ "$(jq -c 'has("shards")' "$ws/plan.json")" = false ]
	[ "$(jq -c 'has("shard")' "$ws/samples.jsonl" | sort -u)" = false ]
	[ "$(jq -c 'has("shard"), has("runners"), (.environment | has("bwrap_sha256"))' "$ws/report.json" | tr '\n' ' ')" = "false false false " ]
}

@test "--shard wants K/N; a plan of fewer groups than N runners is refused" {
	cheap_change
	for bad in 0/3 4/3 3 1/0 x/2 1/257 /3; do
		profile --shard "$bad"
		assert_error_line sc-profile-run
		[ "$stderr" = "sc-profile-run: error: --shard wants K/N, 1 <= K <= N <= 256 (--shard $bad)" ]
		[ "$status" -eq 2 ]
	done
	shard 1 6
	assert_error_line sc-plan
	[ "$stderr" = "sc-plan: error: the files form 5 groups that do not import each other: at most 5 shards (--shards 6)" ]
	[ "$status" -eq 2 ]
	[ ! -e "$BATS_TEST_TMPDIR/ws1" ]
}

# ------------------------------------------------------ what merge refuses

@test "merge refuses a missing shard and a shard given twice, naming it" {
	shared
	merged "$BATS_TEST_TMPDIR"/ws{1,2}
	assert_error_line sc-merge
	[ "$stderr" = "sc-merge: error: shard 3 of 3 is missing: no workspace given is its ($BATS_TEST_TMPDIR/ws1)" ]
	[ "$status" -eq 2 ]
	[ ! -e "$BATS_TEST_TMPDIR/merged" ]
	merged "$BATS_TEST_TMPDIR"/ws{1,2,3,2}
	assert_error_line sc-merge
	[ "$stderr" = "sc-merge: error: shard 2 is given twice ($BATS_TEST_TMPDIR/ws2 and $BATS_TEST_TMPDIR/ws2)" ]
}

@test "merge refuses a shard of another plan" {
	shared
	# shard 2 of a plan one byte longer, its report bound to it
	echo >>"$BATS_TEST_TMPDIR/ws2/plan.json"
	digest=$(sha256sum "$BATS_TEST_TMPDIR/ws2/plan.json" | cut -d' ' -f1)
	jq --arg d "$digest" '.plan_digest = $d' "$BATS_FILE_TMPDIR/shared/ws2/report.json" >"$BATS_TEST_TMPDIR/ws2/report.json"
	merged "$BATS_TEST_TMPDIR"/ws{1,2,3}
	assert_error_line sc-merge
	[ "$stderr" = "sc-merge: error: shard 2 was measured with another plan (digest) than shard 1 ($BATS_TEST_TMPDIR/ws2)" ]
	# a report that is not of its own plan.json
	cp "$BATS_FILE_TMPDIR/shared/ws2/report.json" "$BATS_TEST_TMPDIR/ws2/report.json"
	merged "$BATS_TEST_TMPDIR"/ws{1,2,3}
	[ "$stderr" = "sc-merge: error: not a finished shard's workspace: its report is not of its plan.json (plan digest) ($BATS_TEST_TMPDIR/ws2)" ]
}

@test "merge refuses shards measured with another Lean, bubblewrap or profiler commit" {
	shared
	for key in "lean_sha256 Lean (bin/lean SHA-256)" "lake_sha256 Lake (bin/lake SHA-256)" \
		"bwrap_sha256 bubblewrap (SHA-256)"; do
		cp -a "$BATS_TEST_TMPDIR/ws3" "$BATS_TEST_TMPDIR/forged"
		jq --arg k "${key%% *}" '.environment[$k] = ("0" * 64)' "$BATS_TEST_TMPDIR/ws3/report.json" >"$BATS_TEST_TMPDIR/forged/report.json"
		merged "$BATS_TEST_TMPDIR"/ws{1,2} "$BATS_TEST_TMPDIR/forged"
		assert_error_line sc-merge
		[ "$stderr" = "sc-merge: error: shard 3 was measured with another ${key#* } than shard 1 ($BATS_TEST_TMPDIR/forged)" ]
		rm -rf "$BATS_TEST_TMPDIR/forged"
	done
	cp -a "$BATS_TEST_TMPDIR/ws3" "$BATS_TEST_TMPDIR/forged"
	jq '.revisions.profiler = ("1" * 40)' "$BATS_TEST_TMPDIR/ws3/report.json" >"$BATS_TEST_TMPDIR/forged/report.json"
	merged "$BATS_TEST_TMPDIR"/ws{1,2} "$BATS_TEST_TMPDIR/forged"
	[ "$stderr" = "sc-merge: error: shard 3 was measured with another profiler commit than shard 1 ($BATS_TEST_TMPDIR/forged)" ]
}

@test "merge refuses a sample of a file another shard is dealt, and a file measured on two shards" {
	shared
	# shard 1's sample lines of one of its files, rebound to shard 2's run
	id=$(jq -r '[.files[] | select(.shard == 1) | .id][0]' "$BATS_TEST_TMPDIR/ws1/plan.json")
	path=$(jq -r --arg id "$id" '.files[] | select(.id == $id) | .path' "$BATS_TEST_TMPDIR/ws1/plan.json")
	run2=$(jq -r .run_id "$BATS_TEST_TMPDIR/ws2/report.json")
	jq -c --arg id "$id" --arg r "$run2" 'select(.sample | endswith(":" + $id)) | .run_id = $r | .shard = 2' \
		"$BATS_TEST_TMPDIR/ws1/samples.jsonl" >"$BATS_TEST_TMPDIR/moved"
	cat "$BATS_TEST_TMPDIR/moved" >>"$BATS_TEST_TMPDIR/ws2/samples.jsonl"
	merged "$BATS_TEST_TMPDIR"/ws{1,2,3}
	assert_error_line sc-merge
	[[ "$stderr" == "sc-merge: error: $path is measured on shards 1 and 2 ($BATS_TEST_TMPDIR/ws2/samples.jsonl:"* ]]
	jq -c --arg id "$id" 'select(.sample | endswith(":" + $id) | not)' "$BATS_TEST_TMPDIR/ws1/samples.jsonl" >"$BATS_TEST_TMPDIR/kept"
	cp "$BATS_TEST_TMPDIR/kept" "$BATS_TEST_TMPDIR/ws1/samples.jsonl"
	merged "$BATS_TEST_TMPDIR"/ws{1,2,3}
	assert_error_line sc-merge
	[[ "$stderr" == "sc-merge: error: shard 2 measured $path, which is dealt to shard 1 ($BATS_TEST_TMPDIR/ws2/samples.jsonl:"* ]]
}

@test "merge refuses an unfinished workspace and a sample of another run" {
	shared
	touch "$BATS_TEST_TMPDIR/ws2/INCOMPLETE"
	merged "$BATS_TEST_TMPDIR"/ws{1,2,3}
	assert_error_line sc-merge
	[ "$stderr" = "sc-merge: error: not a finished shard's workspace: an unfinished run: it holds INCOMPLETE ($BATS_TEST_TMPDIR/ws2)" ]
	rm "$BATS_TEST_TMPDIR/ws2/INCOMPLETE"
	# shard 3's own sample line, of shard 1's run
	head -1 "$BATS_TEST_TMPDIR/ws3/samples.jsonl" | jq -c --arg r "$(jq -r .run_id "$BATS_TEST_TMPDIR/ws1/report.json")" '.run_id = $r' >>"$BATS_TEST_TMPDIR/ws3/samples.jsonl"
	merged "$BATS_TEST_TMPDIR"/ws{1,2,3}
	assert_error_line sc-merge
	[[ "$stderr" == "sc-merge: error: a sample of another run or shard than shard 3's ($BATS_TEST_TMPDIR/ws3/samples.jsonl:"* ]]
}

@test "sc-report binds each sample to its shard and each shard to its run" {
	shared
	ws=$BATS_TEST_TMPDIR
	r1=$(jq -r .run_id "$ws/ws1/report.json") r2=$(jq -r .run_id "$ws/ws2/report.json") r3=$(jq -r .run_id "$ws/ws3/report.json")
	mkdir "$ws/out"
	# a shard's samples in an unsharded report, and in another shard's
	run --separate-stderr sc-report --plan "$ws/ws2/plan.json" --samples "$ws/ws2/samples.jsonl" --out-dir "$ws/out"
	[ "$status" -eq 1 ]
	[ "$(jq -r '[.errors[] | select(.problem == "wrong_shard")] | length' "$ws/out/report.json")" -eq "$(wc -l <"$ws/ws2/samples.jsonl")" ]
	run --separate-stderr sc-report --plan "$ws/ws2/plan.json" --samples "$ws/ws2/samples.jsonl" --out-dir "$ws/out" --shard 1/3
	[ "$status" -eq 1 ]
	[ "$(jq -r '.errors[0].detail' "$ws/out/report.json")" = "shard 2 is not this report's 1" ]
	# every shard, each with its run: the merged report
	run --separate-stderr sc-report --plan "$ws/ws2/plan.json" --out-dir "$ws/out" \
		--samples "$ws/ws1/samples.jsonl" "$ws/ws2/samples.jsonl" "$ws/ws3/samples.jsonl" \
		--shard-run "1:$r1" --shard-run "2:$r2" --shard-run "3:$r3"
	[ "$status" -eq 0 ]
	# shard 3's samples claimed by shard 1's run: another run's
	run --separate-stderr sc-report --plan "$ws/ws2/plan.json" --out-dir "$ws/out" \
		--samples "$ws/ws1/samples.jsonl" "$ws/ws2/samples.jsonl" "$ws/ws3/samples.jsonl" \
		--shard-run "1:$r1" --shard-run "2:$r2" --shard-run "3:$r1"
	[ "$status" -eq 1 ]
	[ "$(jq -r '[.errors[].problem] | unique | join(" ")' "$ws/out/report.json")" = "cross_run missing" ]
	# a forged line: shard 2's run, a file dealt to shard 1
	id=$(jq -r '[.files[] | select(.shard == 1) | .id][0]' "$ws/ws1/plan.json")
	jq -c --arg id "$id" --arg r "$r2" 'select(.sample | endswith(":" + $id)) | .run_id = $r | .shard = 2' \
		"$ws/ws1/samples.jsonl" >"$ws/forged.jsonl"
	run --separate-stderr sc-report --plan "$ws/ws2/plan.json" --out-dir "$ws/out" \
		--samples "$ws/ws1/samples.jsonl" "$ws/ws2/samples.jsonl" "$ws/ws3/samples.jsonl" "$ws/forged.jsonl" \
		--shard-run "1:$r1" --shard-run "2:$r2" --shard-run "3:$r3"
	[ "$status" -eq 1 ]
	[[ "$(jq -r '[.errors[] | select(.problem == "wrong_shard")][0].detail' "$ws/out/report.json")" == *" is dealt to shard 1, not 2" ]]
	# the runners named: each once, all of them, never with --run-id
	refused() {
		run --separate-stderr sc-report --plan "$ws/ws2/plan.json" --out-dir "$ws/out" --samples "$ws/ws1/samples.jsonl" "$@"
		assert_error_line sc-report
		[ "$status" -eq 2 ]
	}
	refused --shard-run "2:$r2"
	[ "$stderr" = "sc-report: error: the plan has 3 shards, not 1 (--shard-run)" ]
	refused --shard-run "1:$r1" --shard-run "1:$r1" --shard-run "3:$r3"
	[ "$stderr" = "sc-report: error: shard 1 is named twice (--shard-run 1:$r1)" ]
	refused --shard-run "1:$r1" --shard-run 2:x --shard-run "3:$r3"
	[ "$stderr" = "sc-report: error: --shard-run wants K:ID, K 1 to 3 and a run ID (--shard-run 2:x)" ]
	refused --shard-run "1:$r1" --shard-run "2:$r2" --shard-run "3:$r3" --run-id "$r1"
	[ "$stderr" = "sc-report: error: --run-id is one runner's: with --shard-run each shard names its own (--run-id $r1)" ]
	refused --shard 1/3 --shard-run "1:$r1"
	[ "$stderr" = "sc-report: error: --shard is one runner's report, --shard-run merges them: not both (--shard 1/3)" ]
}

@test "each shard's attribution runs join the merged report, each its own runner's" {
	candidate
	ex_lean "$R" Demo/Ring.lean '-- fixture: decl=Ring.big:0.05'
	ex_lean "$R" Demo/Field.lean '-- fixture: decl=Field.big:0.05'
	head_commit
	B=$H T=$H M=$H
	ex_lean "$R" Demo/Ring.lean '-- fixture: decl=Ring.big:1.2'
	ex_lean "$R" Demo/Field.lean '-- fixture: decl=Field.big:1.2'
	head_commit
	for k in 1 2; do
		shard "$k" 2 --attribute
		[ "$status" -eq 0 ]
		[ -f "$BATS_TEST_TMPDIR/ws$k/attribution.json" ]
	done
	merged "$BATS_TEST_TMPDIR"/ws{1,2}
	[ "$status" -eq 0 ]
	m=$BATS_TEST_TMPDIR/merged/report.json
	[ "$(jq -r '[.attribution.files[].path] | sort | join(" ")' "$m")" = "Demo/Field.lean Demo/Ring.lean" ]
	[ "$(jq -r '.attribution.files[] | select(.path == "Demo/Ring.lean") | .declarations[0].name' "$m")" = Ring.big ]
	# one shard's attribution list given as the other's: refused, naming it
	mkdir "$BATS_TEST_TMPDIR/out"
	r1=$(jq -r .run_id "$BATS_TEST_TMPDIR/ws1/report.json") r2=$(jq -r .run_id "$BATS_TEST_TMPDIR/ws2/report.json")
	jq --arg r "$r2" '.run_id = $r' "$BATS_TEST_TMPDIR/ws1/attribution.json" >"$BATS_TEST_TMPDIR/ws1/swapped.json"
	run --separate-stderr sc-report --plan "$BATS_TEST_TMPDIR/ws1/plan.json" --out-dir "$BATS_TEST_TMPDIR/out" \
		--samples "$BATS_TEST_TMPDIR/ws1/samples.jsonl" "$BATS_TEST_TMPDIR/ws2/samples.jsonl" \
		--shard-run "1:$r1" --shard-run "2:$r2" --attribution "$BATS_TEST_TMPDIR/ws1/swapped.json"
	[ "$status" -eq 2 ]
	assert_error_line sc-report
	[[ "$stderr" == "sc-report: error: an attribution run of "*" by shard 2's runner, not shard 1's ("*"/ws1/swapped.json)" ]]
}
