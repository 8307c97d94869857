#!/usr/bin/env bats
# Shards (Documentation/measurement.txt "Shards"): sc-plan deals a pull
# request's files among runners, each runner measures its own, and
# sphereceti merge makes one report of them.
load helpers
bats_require_minimum_version 1.5.0
load lib/plan

setup_file() { plan_template; }
setup() { plan_copy; }

# many N: N added files Lib/F1..N, file i of about 10*i bytes.
many() {
	local i
	for i in $(seq "$1"); do printf 'def f := %s\n%*s\n' "$i" $((i * 10)) x >"$R/Lib/F$i.lean"; done
}

# config KEY VALUE: set KEY of .sphereceti in a new tooling commit T.
config() {
	git -C "$R" config -f "$R/.sphereceti" "$1" "$2"
}

# plan_with ARGS...: sc-plan with extra arguments, stderr apart.
plan_with() {
	run --separate-stderr sc-plan --repo "$R" --tooling "$T" --base "$B" --head "$H" "$@"
}

# shards_of: "id shard" per planned file, from $output.
shards_of() { jq -r '.files[] | "\(.id) \(.shard)"' <<<"$output"; }

# ------------------------------------------------------------------ the cap

@test "256 changed files pass by default, 257 are not measured, naming profile.maxFiles" {
	many 256
	H=$(pcommit 256)
	plan
	[ "$status" -eq 0 ]
	[ "$(jq '.files | length' <<<"$output")" -eq 256 ]
	[ "$(jq -c '.config | has("max_files")' <<<"$output")" = false ]
	echo 'def g := 1' >"$R/Lib/G.lean"
	H=$(pcommit 257)
	plan_not_measured "257 changed Lean files, more than 256 (profile.maxFiles)"
}

@test "profile.maxFiles sets the cap, and the plan carries it" {
	config profile.maxFiles 4
	T=$(pcommit four) B=$T
	many 5
	H=$(pcommit 5)
	plan_not_measured "5 changed Lean files, more than 4 (profile.maxFiles)"
	git -C "$R" rm -q Lib/F5.lean
	H=$(pcommit 4)
	plan
	[ "$status" -eq 0 ]
	[ "$(jq '.files | length' <<<"$output")" -eq 4 ]
	[ "$(jq '.config.max_files' <<<"$output")" -eq 4 ]
}

@test "maxFiles above 2000, filesPerShard 0 or maxShards above 256 are invalid configuration" {
	for kv in "profile.maxFiles 2001" "profile.filesPerShard 0" "profile.maxShards 257" \
		"profile.maxFiles many"; do
		git -C "$R" checkout -q -f head
		# shellcheck disable=SC2086
		config $kv
		T=$(pcommit "bad $kv") B=$T H=$T
		plan_fails "invalid configuration: ${kv%% *} '${kv#* }' is not a count from 1 to"
		git -C "$R" reset -q --hard HEAD~1
	done
}

# ----------------------------------------------------------- the assignment

@test "--shards 3 deals 24 files among 3 shards, none empty, the same bytes each time" {
	many 24
	H=$(pcommit 24)
	plan_with --shards 3
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	first=$output
	[ "$(jq -c .shards <<<"$output")" = '{"count":3,"balanced_by":"blob_bytes"}' ]
	[ "$(jq '[.files[].shard] | unique' -c <<<"$output")" = "[1,2,3]" ]
	plan_with --shards 3
	[ "$output" = "$first" ]
}

@test "files of no bytes still fill every shard" {
	for i in 1 2 3; do : >"$R/Lib/E$i.lean"; done
	H=$(pcommit empty)
	plan_with --shards 3
	[ "$status" -eq 0 ]
	[ "$(jq '[.files[].shard] | unique' -c <<<"$output")" = "[1,2,3]" ]
}

@test "the shards are balanced by the blobs' bytes on both sides" {
	many 24
	H=$(pcommit 24)
	plan_with --shards 3
	[ "$status" -eq 0 ]
	# each shard's bytes, from git: within the largest file of the total's third
	loads=$(jq -r '.files[] | "\(.shard) \(.head_blob)"' <<<"$output" | while read -r k blob; do
		echo "$k $(git -C "$R" cat-file -s "$blob")"
	done | awk '{s[$1] += $2} END {for (k in s) print s[k]}' | sort -n)
	lo=$(head -1 <<<"$loads") hi=$(tail -1 <<<"$loads")
	largest=$(git -C "$R" cat-file -s "$H:Lib/F24.lean")
	[ $((hi - lo)) -le "$largest" ]
}

@test "a modified file costs its bytes on both sides" {
	printf 'def a := 1\n%*s\n' 1000 x >"$R/Lib/A.lean"
	T=$(pcommit big) B=$T
	echo 'def a := 2' >"$R/Lib/A.lean"
	printf 'def b := 1\n%*s\n' 600 x >"$R/Lib/B.lean"
	printf 'def c := 1\n%*s\n' 500 x >"$R/Lib/C.lean"
	H=$(pcommit small)
	plan_with --shards 2
	[ "$status" -eq 0 ]
	[ "$(shards_of)" = "Lib.A 1
Lib.B 2
Lib.C 2" ]
}

@test "a file and the changed modules its import cone holds share a shard" {
	many 12
	printf 'import Lib.F12\ndef f := 1\n' >"$R/Lib/F1.lean"
	printf 'import Lib.F1\nimport Lib.A\ndef f := 5\n' >"$R/Lib/F5.lean"
	echo 'def a := 2' >"$R/Lib/A.lean"
	H=$(pcommit cones)
	plan_with --shards 4
	[ "$status" -eq 0 ]
	[ "$(jq -r '[.files[] | select(.id == "Lib.F1" or .id == "Lib.F12" or .id == "Lib.F5" or .id == "Lib.A") | .shard] | unique | length' <<<"$output")" -eq 1 ]
}

@test "an importer shares the shard of the changed module it imports" {
	printf 'import Lib.A\ndef c := 1\n' >"$R/Lib/C.lean"
	T=$(pcommit importer) B=$T
	many 8
	echo 'def a := 2' >"$R/Lib/A.lean"
	H=$(pcommit change)
	plan_with --shards 3 --importers 1
	[ "$status" -eq 0 ]
	[ "$(jq -r '.files[] | select(.id == "Lib.C") | .change' <<<"$output")" = importer ]
	[ "$(jq -r '[.files[] | select(.id == "Lib.C" or .id == "Lib.A") | .shard] | unique | length' <<<"$output")" -eq 1 ]
}

@test "fewer groups than shards: --shards N refuses, auto takes as many shards as groups" {
	config profile.filesPerShard 1
	T=$(pcommit one) B=$T
	many 3
	printf 'import Lib.F2\ndef f := 1\n' >"$R/Lib/F1.lean"
	H=$(pcommit three)
	plan_with --shards 3
	assert_error_line sc-plan
	[ "$stderr" = "sc-plan: error: the files form 2 groups that do not import each other: at most 2 shards (--shards 3)" ]
	[ "$status" -eq 2 ]
	plan_with --shards auto
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	[ "$(jq .shards.count <<<"$output")" -eq 2 ]
}

@test "one shard is no shard: --shards 1 writes today's plan, byte for byte" {
	many 5
	H=$(pcommit five)
	plan
	[ "$status" -eq 0 ]
	plain=$output
	plan_with --shards 1
	[ "$output" = "$plain" ]
	[ "$(jq -c 'has("shards"), (.files[0] | has("shard"))' <<<"$output" | tr '\n' ' ')" = "false false " ]
}

@test "--shards auto: ceil(files / filesPerShard), at most maxShards" {
	many 17
	H=$(pcommit 17)
	plan_with --shards auto
	[ "$status" -eq 0 ]
	[ "$(jq .shards.count <<<"$output")" -eq 3 ]
	git -C "$R" reset -q --hard base
	config profile.filesPerShard 2
	config profile.maxShards 5
	T=$(pcommit knobs) B=$T
	many 17
	H=$(pcommit again)
	plan_with --shards auto
	[ "$status" -eq 0 ]
	[ "$(jq .shards.count <<<"$output")" -eq 5 ]
	[ "$(jq -c '[.config.files_per_shard, .config.max_shards]' <<<"$output")" = "[2,5]" ]
}

@test "--shards wants 1 to 256 or auto" {
	H=$(pcommit none)
	for bad in 0 257 x -1 ''; do
		plan_with --shards "$bad"
		assert_error_line sc-plan
		[ "$stderr" = "sc-plan: error: --shards wants a count from 1 to 256, or auto (--shards $bad)" ]
		[ "$status" -eq 2 ]
	done
}

@test "--costs balances by an earlier report's CPU, a file it lacks by its bytes at the report's CPU per byte" {
	for i in 1 2 3 4 5; do printf 'def f := %s\n' "$i" >"$R/Lib/F$i.lean"; done
	H=$(pcommit five)
	# an earlier report: F1 costly, F2..F4 cheap, F5 not in it
	jq -n '{schema: "sphereceti.report/1", files: [
		{id: "Lib.F1", base: null, head: {status: "ok", cpu_s: 9.0}},
		{id: "Lib.F2", base: null, head: {status: "ok", cpu_s: 1.0}},
		{id: "Lib.F3", base: null, head: {status: "ok", cpu_s: 1.0}},
		{id: "Lib.F4", base: null, head: {status: "error"}},
		{id: "Lib.Gone", base: null, head: {status: "ok", cpu_s: 50.0}}]}' >"$BATS_TEST_TMPDIR/earlier.json"
	plan_with --shards 2 --costs "$BATS_TEST_TMPDIR/earlier.json"
	[ "$status" -eq 0 ]
	[ "$(jq -r .shards.balanced_by <<<"$output")" = costs ]
	[ "$(shards_of)" = "Lib.F1 1
Lib.F2 2
Lib.F3 2
Lib.F4 2
Lib.F5 2" ]
	plan_with --shards 2
	[ "$(jq -r .shards.balanced_by <<<"$output")" = blob_bytes ]
	[ "$(shards_of | grep -c ' 1$')" -eq 3 ]
	plan_with --costs "$BATS_TEST_TMPDIR/earlier.json"
	assert_error_line sc-plan
	[ "$stderr" = "sc-plan: error: --costs balances shards: give --shards too (--costs $BATS_TEST_TMPDIR/earlier.json)" ]
	echo '{"schema": "sphereceti.plan/1"}' >"$BATS_TEST_TMPDIR/plan.json"
	plan_with --shards 2 --costs "$BATS_TEST_TMPDIR/plan.json"
	[ "$stderr" = "sc-plan: error: the earlier report is not a sphereceti.report/1 with its files ($BATS_TEST_TMPDIR/plan.json)" ]
	[ "$status" -eq 2 ]
}
