#!/usr/bin/env bats
# README for a newcomer: it starts with the two set-up commands and answers
# the first questions (which IDs, how to get them, the bubblewrap pin, the
# limits); what it shows of the CLI exists.
load helpers
bats_require_minimum_version 1.5.0

setup() { README=$BATS_TEST_DIRNAME/../README; }

@test "the first commands README shows are make demo and make check" {
	first=$(grep -m2 -E '^    [a-z]' "$README" | awk '{print $1, $2}')
	[ "$first" = $'make demo\nmake check' ]
}

@test "README tells how to get full IDs, that T is normally B, how to pin bubblewrap, and the limits" {
	grep -q 'T is normally B itself' "$README"
	grep -q 'git -C DIR rev-parse' "$README"
	grep -qF 'sha256sum $(command -v bwrap)' "$README"
	grep -q "When a system update replaces bubblewrap" "$README"
	grep -q 'bwrapPin = 0.8.0' "$README"
	grep -q 'at most 256 of them' "$README"
	grep -q 'profile.maxFiles' "$README"
	grep -q 'plain ASCII' "$README"
	grep -q 'unsupported module name' "$README"
}

@test "every option README shows for profile-run is one profile-run knows" {
	run --separate-stderr sc-profile-run --help
	[ "$status" -eq 0 ]
	known=$output
	opts=$(sed -n '/profile-run/,/^$/p' "$README" | grep -oE -- '--[a-z][a-z-]+' | sort -u)
	[ -n "$opts" ]
	for o in $opts; do
		[[ "$known" == *"$o"* ]] || { echo "README shows $o"; false; }
	done
}

@test "the host check README and sphereceti(1) give runs as written: exit 0, no output, as an unprivileged user too" {
	cmd=$(grep -o 'namespace (`[^`]*`' "$README" | sed 's/^namespace (`//; s/`$//')
	[[ "$cmd" == "bwrap "* ]]
	page=$(sed -n 's/^\.RB ( "\(bwrap [^"]*\)"$/\1/p' "$BATS_TEST_DIRNAME/../man/sphereceti.1" | sed 's/\\-/-/g')
	[ "$page" = "$cmd" ]
	read -r -a argv <<<"$cmd"
	run "${argv[@]}"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	[ "$(id -u)" = 0 ] || return 0
	run setpriv --reuid=65534 --regid=65534 --clear-groups "${argv[@]}"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "README's Hacking section runs one test file and one test by name, as it says" {
	grep -q '^Hacking$' "$README"
	line=$(grep -m1 "bats -f 'removed file' t/report.bats" "$README")
	[ -n "$line" ]
	run bats -f 'removed file' "$BATS_TEST_DIRNAME/report.bats"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" =~ ^1\.\.[1-9] ]]
}
