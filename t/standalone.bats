#!/usr/bin/env bats
# The standalone programs that run between GNU time and the candidate
# (sc-confine on the host, sc-pid1 as the sandbox's PID 1): every bad
# call is one error line "PROG: error: ... (...)", exit 2, before anything
# runs; none ever dies of a signal, whatever its argv.
load helpers
bats_require_minimum_version 1.5.0

# bad_calls PROG ARGS-LINE...: each line's words (split on "|") are one
# call; each must be a usage error.  A report descriptor named in a call
# is open (5) so that only the call itself is at fault.
bad_calls() {
	local prog=$1 line
	shift
	for line in "$@"; do
		local -a args=()
		[ -z "$line" ] || IFS='|' read -r -a args <<<"$line"
		run --separate-stderr "$SC_BIN/$prog" "${args[@]}" 5>/dev/null
		echo "$prog ${args[*]}: status $status, stderr: $stderr"
		[ "$status" -eq 2 ]
		assert_error_line "$prog"
		[[ "$stderr" =~ \(.*\)$ ]]
	done
}

@test "sc-pid1: every bad call is one error line, exit 2, never a signal" {
	bad_calls sc-pid1 '' '5' '5|--keep-output' '5|--' '5|--keep-output|--' \
		'x|--|/usr/bin/true' '-1|--|/usr/bin/true' '2|--|/usr/bin/true' '0|--|/usr/bin/true' \
		'99999999999999999999|--|/usr/bin/true' '5x|--|/usr/bin/true' '|--|/usr/bin/true' \
		' 5|--|/usr/bin/true' '+5|--|/usr/bin/true' '5|--bogus|--|/usr/bin/true' \
		'5|--keep-output|--keep-output|--|/usr/bin/true' '5|/usr/bin/true' \
		'5|--self-test|pid=1' '--host|65534|65534|5|--|/usr/bin/true' '--bogus' '-h|x' '--version|x'
}

@test "sc-confine: every bad call is one error line, exit 2, never a signal; nothing runs" {
	bad_calls sc-confine '' '--uid' '--uid|65534' '--uid|65534|--gid|65534' \
		'--uid|65534|--gid|65534|--' '--gid|65534|--|/usr/bin/touch|/nonexistent/ran' \
		'--uid|0|--gid|65534|--|/usr/bin/true' '--uid|65534|--gid|0|--|/usr/bin/true' \
		'--uid|4294967295|--gid|65534|--|/usr/bin/true' '--uid|-1|--gid|65534|--|/usr/bin/true' \
		'--uid|x|--gid|65534|--|/usr/bin/true' '--uid|99999999999999999999|--gid|1|--|/usr/bin/true' \
		'--uid|1|--gid|1|--max-procs|0|--|/usr/bin/true' '--uid|1|--gid|1|--max-procs|-5|--|/usr/bin/true' \
		'--uid|1|--gid|1|--keep-fd|2|--|/usr/bin/true' '--uid|1|--gid|1|--keep-fd|5x|--|/usr/bin/true' \
		'--uid|1|--gid|1|--keep-fd|5|--keep-fd|5|--|/usr/bin/true' '--uid|1|--gid|1|--bogus|1|--|/usr/bin/true' \
		'--host|65534|65534|5|--|/usr/bin/true' '-h|x' '--version|x' \
		'--uid|1|--gid|1|--tmpfs-size|1048576|--|/usr/bin/true' \
		'--uid|1|--gid|1|--tmpfs-inodes|1024|--|/usr/bin/true' \
		'--uid|1|--gid|1|--tmpfs-size|1000|--tmpfs-inodes|1024|--|/usr/bin/true' \
		'--uid|1|--gid|1|--tmpfs-size|1M|--tmpfs-inodes|1024|--|/usr/bin/true' \
		'--uid|1|--gid|1|--tmpfs-size|1048576|--tmpfs-inodes|8|--|/usr/bin/true'
}

@test "sc-confine's bounded tmpfs stay in the chain's own mount namespace, even under a shared /" {
	[ "$(id -u)" -eq 0 ] || skip "needs a root operator to make a shared mount namespace"
	# the inner command reads its own view; the outer shell, a peer of the
	# one sc-confine copied, reads its view after the chain has gone
	run --separate-stderr unshare --mount --propagation unchanged /usr/bin/bash -c '
		mount --make-rshared / || exit 9
		"$1" --uid 65534 --gid 65534 --tmpfs-size 1048576 --tmpfs-inodes 64 -- \
			/usr/bin/grep -c " /sys/tmp .*nr_inodes=64" /proc/self/mountinfo || exit 8
		/usr/bin/grep -c " /sys/tmp " /proc/self/mountinfo' _ "$SC_BIN/sc-confine"
	[ "$status" -eq 1 ]
	[ "$output" = $'1\n0' ]
}

@test "sc-confine keeps only 0-2 and each --keep-fd, then runs the program as the user" {
	[ "$(id -u)" -eq 0 ] || skip "needs a root operator to drop to another uid"
	run --separate-stderr "$SC_BIN/sc-confine" --uid 65534 --gid 65533 --keep-fd 5 -- \
		/usr/bin/python3 -c 'import os; print(os.getresuid(), os.getresgid(), os.getgroups(), sorted(os.listdir("/proc/self/fd")))' \
		5>/dev/null 6>/dev/null 7>/dev/null
	[ "$status" -eq 0 ]
	[ "$output" = "(65534, 65534, 65534) (65533, 65533, 65533) [] ['0', '1', '2', '3', '5']" ]
}

@test "sc-sandbox-probe: a bad namespace argument or a run outside a sandbox fails, never a signal" {
	local a
	for a in 'pid' 'pid=' 'pid=x' '=5' 'PID=5' 'pid=-1' 'pid=99999999999999999999999'; do
		run "$SC_BIN/sc-sandbox-probe" "$a"
		[ "$status" -eq 1 ]
		[[ "$output" == "self-test-failed "* ]]
	done
	run "$SC_BIN/sc-sandbox-probe"
	[ "$status" -eq 1 ]
	[[ "$output" == "self-test-failed "* ]]
}
