#!/usr/bin/env bats
# sphereceti: the porcelain runs the stages found next to it.
load helpers
bats_require_minimum_version 1.5.0
load lib/plan

@test "sphereceti profile-plan prints exactly what sc-plan prints" {
	plan_repo
	echo 'def a := 2' >"$R/Lib/A.lean"
	H=$(pcommit head)
	plan
	[ "$status" -eq 0 ]
	want=$output
	run --separate-stderr sphereceti profile-plan --repo "$R" --tooling "$T" --base "$B" --head "$H"
	[ "$status" -eq 0 ]
	[ "$output" = "$want" ]
	run --separate-stderr sphereceti plan --repo "$R" --tooling "$T" --base "$B" --head "$H"
	[ "$status" -eq 0 ]
	[ "$output" = "$want" ]
}

@test "sphereceti profile-plan passes sc-plan's errors and exit code through" {
	plan_repo
	run --separate-stderr sphereceti profile-plan --repo "$R" --tooling "$T" --base "$B" --head HEAD
	[ "$status" -eq 2 ]
	assert_error_line sc-plan
}

@test "the dispatcher finds its stages from any current directory, through a symlink too" {
	plan_repo
	H=$T
	ln -s "$SC_BIN/sphereceti" "$BATS_TEST_TMPDIR/sc-link"
	cd /
	run --separate-stderr env PATH=/usr/bin:/bin "$BATS_TEST_TMPDIR/sc-link" profile-plan \
		--repo "$R" --tooling "$T" --base "$B" --head "$H"
	[ "$status" -eq 0 ]
	[ "$(jq -r .status <<<"$output")" = no_changes ]
}

@test "a stage missing beside the dispatcher (an incomplete installation) is the operator's to fix: exit 2, one line" {
	cp "$SC_BIN/sphereceti" "$BATS_TEST_TMPDIR/sphereceti"
	run --separate-stderr "$BATS_TEST_TMPDIR/sphereceti" profile-plan --repo x
	[ "$status" -eq 2 ]
	assert_error_line sphereceti
	[[ "$stderr" == *"cannot run sc-plan: No such file or directory ($BATS_TEST_TMPDIR/sc-plan)" ]]
}

@test "sphereceti --version and help" {
	run sphereceti --version
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^sphereceti\ [0-9]+\.[0-9]+\.[0-9]+ ]]
	run --separate-stderr sphereceti version
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^sphereceti\ [0-9]+\.[0-9]+\.[0-9]+$ ]]
	run sphereceti help
	[ "$status" -eq 0 ]
	[[ "$output" == *profile-plan* ]]
	[[ "$output" == *profile-run* ]]
	run --separate-stderr sphereceti --help
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ "$output" == "usage: sphereceti [--help | --version] <command> [<args>]"* ]]
	[[ "$output" == *"-h, --help"* ]]
	# options stop at the command: --version is profile-run's own
	run --separate-stderr sphereceti profile-run --version
	[ "$status" -eq 0 ]
	[[ "$output" == "sc-profile-run "* ]]
}

@test "an unknown command, or none, is a usage error" {
	run --separate-stderr sphereceti frobnicate
	[ "$status" -eq 2 ]
	assert_error_line sphereceti
	[[ "$stderr" == *"unknown command 'frobnicate'"* ]]
	run --separate-stderr sphereceti
	[ "$status" -eq 2 ]
	assert_error_line sphereceti
	run --separate-stderr sphereceti --frobnicate profile-run
	[ "$status" -eq 2 ]
	assert_error_line sphereceti
	run --separate-stderr sphereceti help plan report
	[ "$status" -eq 2 ]
	assert_error_line sphereceti
}

@test "init is the one name of the set-up: setup is no command, and pid1 is no command either" {
	run --separate-stderr sphereceti init --help
	[ "$status" -eq 0 ]
	[[ "$output" == usage:* ]]
	for name in setup pid1; do
		run --separate-stderr sphereceti "$name"
		[ "$status" -eq 2 ]
		assert_error_line sphereceti
		[[ "$stderr" == *"unknown command '$name'"* ]]
	done
}

@test "installed layout: bin/ finds its stages, sc-sandbox-exec finds libexec/sphereceti/sc-pid1" {
	# Under check-valgrind SC_BIN holds scripts that exec the binaries in
	# the build folder, so a copied layout would not be the one running.
	[ -z "${SC_VALGRIND:-}" ] || skip "needs the real binaries, not valgrind's wrappers"
	local p=$BATS_TEST_TMPDIR/prefix
	mkdir -p "$p/bin" "$p/libexec/sphereceti"
	cp "$SC_BIN"/sphereceti "$SC_BIN"/sc-plan "$SC_BIN"/sc-sandbox-exec "$p/bin/"
	cp "$SC_BIN"/sc-confine "$SC_BIN"/sc-pid1 "$SC_BIN"/sc-sandbox-probe "$p/libexec/sphereceti/"
	sandbox_reach "$p/libexec/sphereceti"  # the sandbox user binds sc-pid1 from there
	run --separate-stderr "$p/bin/sphereceti" sandbox-exec --self-test
	[ "$status" -eq 0 ]
	[[ "$output" == "self-test ok"* ]]
	# each standalone program is installed with sc-pid1, or nothing runs
	rm "$p/libexec/sphereceti/sc-confine"
	run --separate-stderr "$p/bin/sphereceti" sandbox-exec --self-test
	[ "$status" -eq 2 ]
	assert_error_line sc-sandbox-exec
	[[ "$stderr" == *"sc-confine, installed with sc-pid1, is missing"* ]]
	rm "$p/libexec/sphereceti/sc-pid1"
	run --separate-stderr "$p/bin/sphereceti" sandbox-exec --self-test
	[ "$status" -ne 0 ]
	assert_error_line sc-sandbox-exec
}

@test "sphereceti help CMD shows that command's manual page, as git help does" {
	export MANPAGER=cat PAGER=cat MANWIDTH=100 LC_ALL=C.UTF-8
	run --separate-stderr sphereceti help plan
	[ "$status" -eq 0 ]
	[[ "$output" == SC-PLAN\(1\)* ]]
	run --separate-stderr sphereceti help profile-plan
	[ "$status" -eq 0 ]
	[[ "$output" == SC-PLAN\(1\)* ]]
	run --separate-stderr sphereceti help sandbox-exec
	[ "$status" -eq 0 ]
	[[ "$output" == SC-SANDBOX-EXEC\(1\)* ]]
	run --separate-stderr sphereceti help profile-run
	[ "$status" -eq 0 ]
	[[ "$output" == SPHERECETI\(1\)* ]]
	[[ "$output" == *PROFILE-RUN* ]]
	[[ "$output" == *--threshold-added* ]]
	run --separate-stderr sphereceti help frobnicate
	[ "$status" -eq 2 ]
	assert_error_line sphereceti
	[[ "$stderr" == *"unknown command 'frobnicate'"* ]]
}

@test "sphereceti help finds pages in the installed layout, else on man's own path" {
	[ -z "${SC_VALGRIND:-}" ] || skip "needs the real binaries, not valgrind's wrappers"
	export MANPAGER=cat PAGER=cat MANWIDTH=100 LC_ALL=C.UTF-8
	local mandir=${SC_MAN:-$SC_BIN/man} p=$BATS_TEST_TMPDIR/prefix
	mkdir -p "$p/bin" "$p/share/man/man1"
	cp "$SC_BIN/sphereceti" "$p/bin/"
	cp "$mandir/man1/sc-report.1" "$p/share/man/man1/"
	run --separate-stderr env MANPATH=/nonexistent "$p/bin/sphereceti" help report
	[ "$status" -eq 0 ]
	[[ "$output" == SC-REPORT\(1\)* ]]
	rm "$p/share/man/man1/sc-report.1"
	run --separate-stderr env MANPATH="$mandir" "$p/bin/sphereceti" help report
	[ "$status" -eq 0 ]
	[[ "$output" == SC-REPORT\(1\)* ]]
	run --separate-stderr env MANPATH=/nonexistent "$p/bin/sphereceti" help report
	[ "$status" -ne 0 ]
}
