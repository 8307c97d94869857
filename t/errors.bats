#!/usr/bin/env bats
# Error lines that tell the user what to do: getopt_long's one '?' for an
# unknown option, an ambiguous abbreviation and a missing value is told
# apart, in every program that takes long options.
load helpers
bats_require_minimum_version 1.5.0

@test "an ambiguous option prefix says so and lists the candidates, in every program" {
	run --separate-stderr sc-profile-run --thr 1
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	[ "$stderr" = "sc-profile-run: error: ambiguous option: could be --threshold-ratio, --threshold-delta, --threshold-added; see sc-profile-run --help (--thr)" ]
	run --separate-stderr sc-sandbox-exec --ti 5
	[ "$status" -eq 2 ]
	[ "$stderr" = "sc-sandbox-exec: error: ambiguous option: could be --time-file, --timeout; see sc-sandbox-exec --help (--ti)" ]
	run --separate-stderr sc-parse-time --s x
	[ "$status" -eq 2 ]
	[ "$stderr" = "sc-parse-time: error: ambiguous option: could be --status, --sample, --shard; see sc-parse-time --help (--s)" ]
	run --separate-stderr sphereceti profile-run --threshold x
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"ambiguous option: could be --threshold-ratio, --threshold-delta, --threshold-added"* ]]
}

@test "an unknown option, a missing value and a value for a flag are three different errors" {
	run --separate-stderr sc-plan --xyzzy
	[ "$status" -eq 2 ]
	[ "$stderr" = "sc-plan: error: unknown option; see sc-plan --help (--xyzzy)" ]
	run --separate-stderr sc-plan --repo
	[ "$status" -eq 2 ]
	[ "$stderr" = "sc-plan: error: option --repo needs a value (--repo)" ]
	run --separate-stderr sc-materialize --help=yes
	[ "$status" -eq 2 ]
	[ "$stderr" = "sc-materialize: error: option --help takes no value (--help=yes)" ]
	run --separate-stderr sc-profile-run -x
	[ "$status" -eq 2 ]
	[ "$stderr" = "sc-profile-run: error: unknown option; see sc-profile-run --help (-x)" ]
}

@test "an unknown option names the nearest ones, as git's did-you-mean" {
	run --separate-stderr sc-plan --reop x
	[ "$status" -eq 2 ]
	assert_error_line sc-plan
	[ "$stderr" = "sc-plan: error: unknown option; did you mean --repo? see sc-plan --help (--reop)" ]
	run --separate-stderr sphereceti profile-run --timeout 5
	[ "$status" -eq 2 ]
	assert_error_line sc-profile-run
	[ "$stderr" = "sc-profile-run: error: unknown option; did you mean --prebuild-timeout, --sample-timeout or --phase-timeout? see sc-profile-run --help (--timeout)" ]
	# a slip inside the part finds the same ones
	run --separate-stderr sphereceti profile-run --timout 5
	[ "$status" -eq 2 ]
	[ "$stderr" = "sc-profile-run: error: unknown option; did you mean --prebuild-timeout, --sample-timeout or --phase-timeout? see sc-profile-run --help (--timout)" ]
	run --separate-stderr sc-sandbox-exec --selftest
	[ "$status" -eq 2 ]
	[ "$stderr" = "sc-sandbox-exec: error: unknown option; did you mean --self-test? see sc-sandbox-exec --help (--selftest)" ]
	run --separate-stderr sc-report --outdir=x
	[ "$status" -eq 2 ]
	[ "$stderr" = "sc-report: error: unknown option; did you mean --out-dir? see sc-report --help (--outdir=x)" ]
}

@test "an unknown command names the nearest commands" {
	run --separate-stderr sphereceti profle-run --repo x
	[ "$status" -eq 2 ]
	assert_error_line sphereceti
	[ "$stderr" = "sphereceti: error: unknown command 'profle-run'; did you mean profile-run? see 'sphereceti help' (argv[1])" ]
	run --separate-stderr sphereceti help reprot
	[ "$status" -eq 2 ]
	[ "$stderr" = "sphereceti: error: unknown command 'reprot'; did you mean report? see 'sphereceti help' (help)" ]
	run --separate-stderr sphereceti frobnicate
	[ "$status" -eq 2 ]
	[ "$stderr" = "sphereceti: error: unknown command 'frobnicate'; see 'sphereceti help' (argv[1])" ]
}

@test "an unambiguous prefix still works as getopt_long allows" {
	run --separate-stderr sc-profile-run --hel
	[ "$status" -eq 0 ]
	[[ "$output" == usage:* ]]
}

@test "a bubblewrap pin mismatch prints the exact line to paste for this host" {
	local bwrap sha ver zero
	bwrap=$(readlink -f /usr/bin/bwrap)
	sha=$(sha256sum "$bwrap" | cut -c1-64)
	ver=$(bwrap --version | sed -n 's/^bubblewrap //p')
	zero=$(printf '0%.0s' {1..64})
	run --separate-stderr sc-sandbox-exec --check-bwrap "$zero" 0.8.0
	[ "$status" -eq 2 ]
	assert_error_line sc-sandbox-exec
	[ "$stderr" = "sc-sandbox-exec: error: bubblewrap's SHA-256 is $sha, no pin says it (pinned: 0.8.0 000000000000...); if bubblewrap was updated or this host is a new image, review it, then commit this line under [sandbox] in .sphereceti on the base branch: bwrapPin = $ver $sha ($bwrap)" ]
	run --separate-stderr sc-sandbox-exec --check-bwrap "$sha" 0.0.1
	[ "$status" -eq 2 ]
	assert_error_line sc-sandbox-exec
	[ "$stderr" = "sc-sandbox-exec: error: bubblewrap's version is \"$ver\", the pin with its SHA-256 says \"0.0.1\"; correct that pin: bwrapPin = $ver $sha ($bwrap)" ]
	run --separate-stderr sc-sandbox-exec --check-bwrap "" ""
	[ "$status" -eq 2 ]
	assert_error_line sc-sandbox-exec
	[[ "$stderr" == *"no bubblewrap pin: "*": bwrapPin = $ver $sha ($bwrap)" ]]
}
