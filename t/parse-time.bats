#!/usr/bin/env bats
# sc-parse-time: raw counters + status line -> one bound sample.
load helpers
bats_require_minimum_version 1.5.0

RUN=0123456789abcdef0123456789abcdef
DIGEST=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
REV=1111111111111111111111111111111111111111

setup() {
	W="$BATS_TEST_TMPDIR"
}

# timefile USER SYS RSS EXIT ELAPSED [LEADING-LINE]
timefile() {
	{
		[ -z "${6:-}" ] || echo "$6"
		printf 'sc-time/1\nuser %s\nsys %s\nmaxrss_kib %s\nexit %s\nelapsed %s\n' "$1" "$2" "$3" "$4" "$5"
	} > "$W/t.time"
}

# statusline EXIT SIGNAL TIMED_OUT WALL
statusline() {
	printf '{"schema":"sphereceti.status/1","exit_code":%s,"signal":%s,"timed_out":%s,"wall_s":%s}\n' \
		"$1" "$2" "$3" "$4" > "$W/t.status"
}

# statusclock EXIT SIGNAL TIMED_OUT WALL TASK_CLOCK: with the host's task clock
statusclock() {
	printf '{"schema":"sphereceti.status/1","exit_code":%s,"signal":%s,"timed_out":%s,"wall_s":%s,"task_clock_s":%s}\n' \
		"$1" "$2" "$3" "$4" "$5" > "$W/t.status"
}

parse() {
	run --separate-stderr sc-parse-time --time-file "$W/t.time" --status "$W/t.status" \
		--run-id "$RUN" --plan-digest "$DIGEST" --revision "$REV" --sample head:Foo.Bar "$@"
}

# error_sample REASON: exit 1, one sample line, ok false, no numbers.  One
# jq for all of it (a loop of cases calls this): it prints what is wrong.
error_sample() {
	[ "$status" -eq 1 ] || { echo "status $status: $output $stderr"; return 1; }
	[ -z "$stderr" ]
	[[ $output != *$'\n'* ]] || { echo "more than one line: $output"; return 1; }
	local wrong
	wrong=$(jq -rs --arg r "$1" 'if length != 1 or (.[0] | type) != "object" then "not one JSON document"
		else .[0] | [if .ok != false then "ok is \(.ok)" else empty end,
			if .error != $r then "error \(.error), wanted \($r)" else empty end,
			(("cpu_user_s", "cpu_sys_s", "cpu_s", "wall_s", "max_rss_kib", "exit_status") as $k
				| select((has($k) | not) or .[$k] != null) | "\($k) is not null"),
			if .detail == null then "no detail" else empty end] | join("; ") end' <<<"$output")
	[ -z "$wrong" ] || { echo "$wrong"; return 1; }
}

@test "an ok sample carries the binding and the numbers; cpu_s = user + sys" {
	timefile 12.34 0.56 204800 0 13.00
	statusline 0 0 false 13.250
	parse
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "$(field schema)" = sphereceti.sample/1 ]
	[ "$(field run_id)" = "$RUN" ]
	[ "$(field plan_digest)" = "$DIGEST" ]
	[ "$(field revision)" = "$REV" ]
	[ "$(field sample)" = head:Foo.Bar ]
	[ "$(field ok)" = true ]
	[ "$(field cpu_user_s)" = 12.34 ]
	[ "$(field cpu_sys_s)" = 0.56 ]
	[ "$(field cpu_s)" = 12.9 ]
	[ "$(field wall_s)" = 13.25 ]
	[ "$(field max_rss_kib)" = 204800 ]
	[ "$(field exit_status)" = 0 ]
	[ "$(field error)" = null ]
	[ "$(field detail)" = null ]
}

@test "the status line can come on stdin; uppercase revisions are normalized" {
	timefile 1.00 0.00 1 0 1.00
	statusline 0 0 false 1.5
	run --separate-stderr sc-parse-time --time-file "$W/t.time" --status - --run-id "$RUN" \
		--plan-digest "$DIGEST" --revision "${REV//1/A}" --sample base:A < "$W/t.status"
	[ "$status" -eq 0 ]
	[ "$(field revision)" = "${REV//1/a}" ]
	[ "$(field sample)" = base:A ]
}

@test "a missing time file is missing_counters" {
	statusline 0 0 false 1.0
	parse
	error_sample missing_counters
}

@test "truncated, garbled, negative, NaN, infinite and absurd counters are invalid_counters" {
	statusline 0 0 false 1.0
	for bad in "-1.00 0.00 1 0 1.00" "nan 0.00 1 0 1.00" "inf 0.00 1 0 1.00" "1e3 0.00 1 0 1.00" \
		"2000000.00 0.00 1 0 1.00" "1.00 0.00 99999999999999 0 1.00" "1.00 0.00 1 0 Infinity" \
		"1.00 x 1 0 1.00"; do
		# shellcheck disable=SC2086
		timefile $bad
		parse
		error_sample invalid_counters
	done
	printf 'sc-time/1\nuser 1.00\nsys 0.00\n' > "$W/t.time"
	parse
	error_sample invalid_counters
	: > "$W/t.time"
	parse
	error_sample invalid_counters
	printf '0.01user 0.00system 0:00.01elapsed 0%%CPU\nuser=0.01 sys=0.00\n' > "$W/t.time"
	parse
	error_sample invalid_counters
}

@test "a timeout is an error sample whatever the time file says" {
	timefile 1.00 0.00 1 0 1.00
	statusline -1 15 true 300.002
	parse
	error_sample timeout
	rm "$W/t.time"
	parse
	error_sample timeout
}

@test "a nonzero exit or a signal is failed" {
	timefile 1.00 0.00 1 3 1.00 'Command exited with non-zero status 3'
	statusline 3 0 false 1.5
	parse
	error_sample failed
	[[ "$(field detail)" == *"status 3"* ]]
	timefile 1.00 0.00 1 137 1.00 'Command exited with non-zero status 137'
	statusline -1 9 false 1.5
	parse
	error_sample failed
	[[ "$(field detail)" == *"signal 9"* ]]
}

@test "status line and time file that disagree are status_mismatch" {
	timefile 1.00 0.00 1 0 1.00
	statusline 1 0 false 1.5
	parse
	error_sample status_mismatch
	timefile 1.00 0.00 1 2 1.00 'Command exited with non-zero status 2'
	statusline 0 0 false 1.5
	parse
	error_sample status_mismatch
	timefile 1.00 0.00 1 0 1.00 'Command terminated by signal 9'
	statusline 0 0 false 1.5
	parse
	error_sample status_mismatch
	timefile 1.00 0.00 1 0 50.00
	statusline 0 0 false 1.5
	parse
	error_sample status_mismatch
	timefile 1.00 0.00 1 0 1.00
	statusline -1 0 false 1.5
	parse
	error_sample status_mismatch
}

@test "an empty or invalid status line is sandbox_failed" {
	timefile 1.00 0.00 1 0 1.00
	: > "$W/t.status"
	parse
	error_sample sandbox_failed
	echo '{"schema":"sphereceti.status/1"}' > "$W/t.status"
	parse
	error_sample sandbox_failed
	printf '%s\n%s\n' '{"schema":"sphereceti.status/1","exit_code":0,"signal":0,"timed_out":false,"wall_s":1}' \
		'{"schema":"sphereceti.status/1","exit_code":0,"signal":0,"timed_out":false,"wall_s":1}' > "$W/t.status"
	parse
	error_sample sandbox_failed
}

@test "counters finer than a millisecond are invalid_counters, never rounded" {
	statusline 0 0 false 200.0
	# 149.999999999 would round to a flagged 150.000; 100.0005 + 0.0005 to a
	# sample whose cpu_s is not user + sys, which sc-report refuses
	for bad in "149.999999999 0.00 1 0 150.00" "100.0005 0.0005 1 0 101.00" "1.00 0.00 1 0 1.0001"; do
		# shellcheck disable=SC2086
		timefile $bad
		parse
		error_sample invalid_counters
	done
	timefile 1.500000 0.25 1 0 2.00
	parse
	[ "$status" -eq 0 ]
	[ "$(field cpu_s)" = 1.75 ]
}

@test "the host's task clock is kept beside rusage; a disagreement beyond the tolerance is cpu_hidden" {
	# 50 ms + 5 % of the larger: rusage 1.000 s against a clock of 1.100 s
	# is within (100 ms <= 105 ms), 1.110 s is not (110 ms > 105.5 ms)
	timefile 0.80 0.20 1 0 1.20
	statusclock 0 0 false 1.5 1.100
	parse
	[ "$status" -eq 0 ]
	[ "$(field task_clock_s)" = 1.1 ]
	# jq prints the number 1.000 as 1 or 1.000, as its version likes
	awk -v x="$(field cpu_s)" 'BEGIN { exit !(x == 1) }'
	statusclock 0 0 false 1.5 1.110
	parse
	error_sample cpu_hidden
	[ "$(field task_clock_s)" = null ]
	[[ "$(field detail)" == *"task clock counted 1.110 s"*"rusage 1.000 s"* ]]
	# and the other way: rusage above the clock
	statusclock 0 0 false 1.5 0.890
	parse
	error_sample cpu_hidden
	# no counter on this host: null, and rusage alone
	statusclock 0 0 false 1.5 null
	parse
	[ "$status" -eq 0 ]
	[ "$(field task_clock_s)" = null ]
	statusline 0 0 false 1.5
	parse
	[ "$status" -eq 0 ]
	[ "$(field task_clock_s)" = null ]
}

@test "a detail of any length is kept, cut at a UTF-8 boundary with a marker" {
	long=$(/usr/bin/python3 -c 'print("é" * 700)')
	run --separate-stderr sc-parse-time --unmeasured source_changed --detail "$long" \
		--run-id "$RUN" --plan-digest "$DIGEST" --revision "$REV" --sample base:X.Y
	error_sample source_changed
	d=$(field detail)
	[ "$(printf '%s' "$d" | wc -c)" -le 1024 ]
	[ "$(printf '%s' "$d" | wc -c)" -ge 1000 ]
	[[ "$d" == *"é [cut]" ]]
	/usr/bin/python3 -c 'import sys; sys.argv[1].encode("utf-8")' "$d"
}

@test "--unmeasured emits an error sample for a sample that never ran" {
	run --separate-stderr sc-parse-time --unmeasured prebuild_failed --detail 'lake build failed' \
		--run-id "$RUN" --plan-digest "$DIGEST" --revision "$REV" --sample base:X.Y
	error_sample prebuild_failed
	[ "$(field detail)" = 'lake build failed' ]
	[ "$(field sample)" = base:X.Y ]
	run --separate-stderr sc-parse-time --unmeasured deadline_exceeded \
		--run-id "$RUN" --plan-digest "$DIGEST" --revision "$REV" --sample head:X
	error_sample deadline_exceeded
}

@test "bad flags and bindings are usage errors with one line" {
	timefile 1.00 0.00 1 0 1.00
	statusline 0 0 false 1.5
	bad() {
		run --separate-stderr sc-parse-time "$@"
		[ "$status" -eq 2 ] || { echo "status $status for $*"; return 1; }
		[ -z "$output" ] || { echo "stdout for $*: $output"; return 1; }
		assert_error_line sc-parse-time
	}
	ok=(--time-file "$W/t.time" --status "$W/t.status")
	bad "${ok[@]}" --run-id "$RUN" --plan-digest "$DIGEST" --revision "$REV"
	bad "${ok[@]}" --run-id 0123 --plan-digest "$DIGEST" --revision "$REV" --sample head:A
	bad "${ok[@]}" --run-id "${RUN^^}" --plan-digest "$DIGEST" --revision "$REV" --sample head:A
	bad "${ok[@]}" --run-id "$RUN" --plan-digest abc --revision "$REV" --sample head:A
	bad "${ok[@]}" --run-id "$RUN" --plan-digest "$DIGEST" --revision 1234567 --sample head:A
	bad "${ok[@]}" --run-id "$RUN" --plan-digest "$DIGEST" --revision "$REV" --sample side:A
	bad "${ok[@]}" --run-id "$RUN" --plan-digest "$DIGEST" --revision "$REV" --sample head:A-B
	bad "${ok[@]}" --run-id "$RUN" --plan-digest "$DIGEST" --revision "$REV" --sample head:A --frob
	bad "${ok[@]}" --run-id "$RUN" --run-id "$RUN" --plan-digest "$DIGEST" --revision "$REV" --sample head:A
	bad --time-file "$W/t.time" --status "$W/none" --run-id "$RUN" --plan-digest "$DIGEST" --revision "$REV" --sample head:A
	bad --time-file "$W/t.time" --run-id "$RUN" --plan-digest "$DIGEST" --revision "$REV" --sample head:A
	bad --unmeasured bogus --run-id "$RUN" --plan-digest "$DIGEST" --revision "$REV" --sample head:A
	bad "${ok[@]}" --unmeasured timeout --run-id "$RUN" --plan-digest "$DIGEST" --revision "$REV" --sample head:A
	bad "${ok[@]}" --detail x --run-id "$RUN" --plan-digest "$DIGEST" --revision "$REV" --sample head:A
}

@test "end to end: a sandboxed run parses into an ok sample" {
	TC="${SC_FIXTURE:?}/toolchain"
	mkdir -p "$W/tree" "$W/deps" "$W/raw"
	echo 'leanprover/lean4:v4.34.0-rc1' > "$W/tree/lean-toolchain"
	echo '-- fixture: cpu=0.2' > "$W/tree/A.lean"
	chmod 0777 "$W/tree"  # the sandbox user (nobody, when we are root) writes there
	sandbox_reach "$W"
	sc-sandbox-exec --tree "$W/tree" --toolchain "$TC" --dependencies "$W/deps" \
		--time-file "$W/raw/head-A.time" --timeout 60 -- lake env lean -j1 A.lean > "$W/raw/head-A.status"
	run --separate-stderr sc-parse-time --time-file "$W/raw/head-A.time" --status "$W/raw/head-A.status" \
		--run-id "$RUN" --plan-digest "$DIGEST" --revision "$REV" --sample head:A
	[ "$status" -eq 0 ]
	[ "$(field ok)" = true ]
	awk -v x="$(field cpu_s)" 'BEGIN { exit !(x >= 0.15 && x <= 2) }'
}

@test "a side's prebuild is a sample too: <side>:@prebuild, and no other @ id" {
	timefile 41.20 3.05 1048576 0 45.00
	statusline 0 0 false 45.500
	run --separate-stderr sc-parse-time --time-file "$W/t.time" --status "$W/t.status" \
		--run-id "$RUN" --plan-digest "$DIGEST" --revision "$REV" --sample base:@prebuild
	[ "$status" -eq 0 ]
	[ "$(field sample)" = base:@prebuild ]
	[ "$(field cpu_s)" = 44.25 ]
	[ "$(field max_rss_kib)" = 1048576 ]
	run --separate-stderr sc-parse-time --unmeasured prebuild_timeout --detail 'out of time' \
		--run-id "$RUN" --plan-digest "$DIGEST" --revision "$REV" --sample head:@prebuild
	error_sample prebuild_timeout
	run --separate-stderr sc-parse-time --unmeasured source_changed \
		--run-id "$RUN" --plan-digest "$DIGEST" --revision "$REV" --sample head:A
	error_sample source_changed
	for id in base:@other head:@ @prebuild base:A@prebuild; do
		run --separate-stderr sc-parse-time --time-file "$W/t.time" --status "$W/t.status" \
			--run-id "$RUN" --plan-digest "$DIGEST" --revision "$REV" --sample "$id"
		[ "$status" -eq 2 ] || { echo "$id: $status"; return 1; }
		assert_error_line sc-parse-time
	done
}

@test "a sample that cannot be written (stdout on /dev/full) is a system failure: exit 3, one line" {
	timefile 1.00 0.00 1 0 1.00
	statusline 0 0 false 1.5
	run --separate-stderr bash -c '"$@" > /dev/full' - sc-parse-time --time-file "$W/t.time" --status "$W/t.status" \
		--run-id "$RUN" --plan-digest "$DIGEST" --revision "$REV" --sample head:Foo.Bar
	[ "$status" -eq 3 ]
	assert_error_line sc-parse-time
	[[ "$stderr" == *"cannot write the sample: no space left on device (stdout)"* ]]
}

@test "--help shows the usage and every option; --version the version" {
	run --separate-stderr sc-parse-time --help
	[ "$status" -eq 0 ]
	[[ "$output" == "usage: sc-parse-time "* ]]
	for o in time-file status run-id plan-digest revision sample unmeasured detail; do
		[[ "$output" == *"--$o "* ]] || { echo "--help lacks --$o"; false; }
	done
	run --separate-stderr sc-parse-time --version
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^sc-parse-time\ [0-9]+\.[0-9]+\.[0-9]+$ ]]
}

@test "--shard K binds the sample to the plan's shard; without it no shard" {
	timefile 1.00 0.10 1000 0 1.20
	statusline 0 0 false 1.20
	parse --shard 3
	[ "$status" -eq 0 ]
	[ "$(field shard)" = 3 ]
	parse
	[ "$(jq -c 'has("shard")' <<<"$output")" = false ]
	for bad in 0 257 x; do
		parse --shard "$bad"
		assert_error_line sc-parse-time
		[ "$stderr" = "sc-parse-time: error: --shard wants the plan's shard the run measures, 1 to 256 (--shard $bad)" ]
	done
}
