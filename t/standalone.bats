#!/usr/bin/env bats
# The standalone programs that run between GNU time and the candidate
# (sc-applyuidgid on the host, sc-init as the sandbox's PID 1): every bad
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

@test "sc-init: every bad call is one error line, exit 2, never a signal" {
	bad_calls sc-init '' '5' '5|--keep-output' '5|--' '5|--keep-output|--' \
		'x|--|/usr/bin/true' '-1|--|/usr/bin/true' '2|--|/usr/bin/true' '0|--|/usr/bin/true' \
		'99999999999999999999|--|/usr/bin/true' '5x|--|/usr/bin/true' '|--|/usr/bin/true' \
		' 5|--|/usr/bin/true' '+5|--|/usr/bin/true' '5|--bogus|--|/usr/bin/true' \
		'5|--keep-output|--keep-output|--|/usr/bin/true' '5|/usr/bin/true' \
		'5|--self-test|pid=1' '--host|65534|65534|5|--|/usr/bin/true' '--bogus' '-h|x' '--version|x'
}
