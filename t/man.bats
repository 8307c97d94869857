#!/usr/bin/env bats
# The manual pages as built (version and date in the footer): each renders
# without a single troff or man warning, and says only what is installed.
load helpers
bats_require_minimum_version 1.5.0

setup() {
	MANDIR=${SC_MAN:-$SC_BIN/man}
	[ -d "$MANDIR/man1" ] || skip "no built pages in $MANDIR (run through make)"
	SRC=$BATS_TEST_DIRNAME/../man
	export LC_ALL=C.UTF-8 MANWIDTH=100 MANPAGER=cat PAGER=cat
}

# Every built page rendered once, here, for the tests that read it (four
# of them read all pages): output, stderr and status as `run` keeps them.
setup_file() {
	local page c rc
	setup
	mkdir "$BATS_FILE_TMPDIR/rendered"
	for page in "$MANDIR"/man1/*.1; do
		c=$BATS_FILE_TMPDIR/rendered/${page##*/}
		rc=0
		man --warnings=w -l "$page" >"$c.out" 2>"$c.err" || rc=$?
		echo "$rc" >"$c.status"
	done
}

# render PAGE: man's own rendering, warnings on; stderr must stay empty.
render() {
	local c=$BATS_FILE_TMPDIR/rendered/${1##*/}
	if [ "${1%/*}" = "$MANDIR/man1" ] && [ -f "$c.status" ]; then
		status=$(<"$c.status") output=$(<"$c.out") stderr=$(<"$c.err")
	else
		run --separate-stderr man --warnings=w -l "$1"
	fi
	[ "$status" -eq 0 ]
	[ -z "$stderr" ] || { echo "$1: $stderr"; false; }
}

@test "every page of man/ is built, and renders with warnings as errors; sc-profile-run(1) is sphereceti(1)" {
	local n=0
	for src in "$SRC"/*.1; do
		[ -f "$MANDIR/man1/$(basename "$src")" ]
	done
	cmp "$MANDIR/man1/sc-profile-run.1" "$MANDIR/man1/sphereceti.1"
	for page in "$MANDIR"/man1/*.1; do
		run grep -c '^\.so ' "$page"
		[ "$output" = 0 ]
		run --separate-stderr groff -ww -z -man "$page"
		[ "$status" -eq 0 ]
		[ -z "$stderr" ] || { echo "$page: $stderr"; false; }
		render "$page"
		n=$((n + 1))
	done
	[ "$n" -ge 7 ]
}

@test "every page of the source tree renders from there, with man -l and groff -ww, without a warning" {
	local n=0
	cd "$SRC/.."
	for src in man/*.1; do
		run --separate-stderr groff -ww -z -man "$src"
		[ "$status" -eq 0 ]
		[ -z "$stderr" ] || { echo "groff $src: $stderr"; false; }
		render "$src"
		[ -n "$output" ]
		n=$((n + 1))
	done
	[ "$n" -ge 6 ]
}

@test "each page's footer carries the version and a date" {
	version=$(sphereceti --version | cut -d' ' -f2)
	for page in "$MANDIR"/man1/*.1; do
		run grep -c '@VERSION@\|@DATE@' "$page"
		[ "$status" -eq 1 ]
		render "$page"
		footer=$(printf '%s\n' "$output" | grep . | tail -1)
		[[ "$footer" =~ ^sphereceti\ $version\ +[0-9]{4}-[0-9]{2}-[0-9]{2}\ +[A-Z-]+\(1\)$ ]] ||
			{ echo "$page footer: $footer"; false; }
	done
}

@test "sphereceti(1): the example keeps its continuation backslashes and no option floats before a comma" {
	render "$MANDIR/man1/sphereceti.1"
	[[ "$output" == *'--head $H \'$'\n'*'--workspace /srv/runs/pr-123 \'* ]]
	run grep -E -- '--[a-z-]+ +,' <<<"$output"
	[ "$status" -eq 1 ]
	[[ "$output" != *'--threshold-ratio  ,'* ]]
}

@test "sphereceti(1) lists every option profile-run --help lists, thresholds included" {
	render "$MANDIR/man1/sphereceti.1"
	page=$output
	run --separate-stderr sc-profile-run --help
	[ "$status" -eq 0 ]
	opts=$(grep -oE -- '--[a-z][a-z-]+' <<<"$output" | sort -u)
	[[ "$opts" == *--threshold-ratio* ]]
	for o in $opts; do
		[[ "$page" == *"$o"* ]] || { echo "sphereceti(1) lacks $o"; false; }
	done
}

@test "profile-run --help lists every option of its option table" {
	run --separate-stderr sc-profile-run --help
	[ "$status" -eq 0 ]
	help=$output
	opts=$(grep -oE 'SC_OPT_[A-Z_]+\([^,]*, "[a-z][a-z0-9-]+"' "$BATS_TEST_DIRNAME/../cmd/sc-profile-run.c" |
		cut -d'"' -f2)
	[[ "$opts" == *threshold-added* ]]
	for o in $opts; do
		[[ "$help" == *"--$o"* ]] || { echo "--help lacks --$o"; false; }
	done
}

@test "sc-profile-run(1) is sphereceti(1), found through man's path as installed" {
	run --separate-stderr env MANPATH="$MANDIR" man --warnings=w sc-profile-run
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ "$output" == SPHERECETI\(1\)* ]]
	[[ "$output" == *PROFILE-RUN* ]]
}

@test "pages with environment or files of their own have ENVIRONMENT and FILES sections" {
	for p in sphereceti sc-plan sc-sandbox-exec; do
		grep -q '^\.SH ENVIRONMENT' "$MANDIR/man1/$p.1" || { echo "$p: no ENVIRONMENT"; false; }
	done
	for p in sphereceti sc-sandbox-exec sc-report; do
		grep -q '^\.SH FILES' "$MANDIR/man1/$p.1" || { echo "$p: no FILES"; false; }
	done
}

@test "no page cites a file of the source tree, which is not installed" {
	for page in "$MANDIR"/man1/*.1; do
		render "$page"
		run grep -nE '(^|[^A-Za-z./])(t|contrib|common|cmd)/[A-Za-z]|DESIGN\.md|README' <<<"$output"
		[ "$status" -eq 1 ] || { echo "$page: $output"; false; }
	done
}
