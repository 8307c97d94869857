#!/usr/bin/env bats
# contrib/completion/sphereceti.bash: commands, options and directory
# completion, asked the way bash asks (COMP_WORDS/COMP_CWORD, then the
# function complete -p names).  The options come from each program's own
# table (--complete-options), the commands from the dispatcher.
load helpers
bats_require_minimum_version 1.5.0

setup() {
	# shellcheck source=../contrib/completion/sphereceti.bash
	. "$BATS_TEST_DIRNAME/../contrib/completion/sphereceti.bash"
	SRC=$BATS_TEST_DIRNAME/..
}

# complete_words WORD...: the completions of the last word, one a line.
complete_words() {
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE="$*" COMP_POINT=${#COMP_LINE}
	local fn
	fn=$(complete -p "${COMP_WORDS[0]##*/}" | sed -n 's/.*-F \([^ ]*\) .*/\1/p')
	[ -n "$fn" ]
	COMPREPLY=()
	"$fn"
	printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort
}

# complete_count WORD...: how many completions (names with spaces are one).
complete_count() {
	complete_words "$@" >/dev/null
	echo "${#COMPREPLY[@]}"
}

@test "the dispatcher and every stage program are registered" {
	for p in sphereceti sc-plan sc-materialize sc-sandbox-exec sc-parse-time sc-report sc-profile-run \
		sc-setup sc-doctor; do
		run complete -p "$p"
		[ "$status" -eq 0 ]
		[[ "$output" == "complete -F _sphereceti"* ]]
	done
}

@test "commands, and help's commands" {
	run complete_words sphereceti profile-
	[ "$output" = $'profile-plan\nprofile-run' ]
	run complete_words sphereceti ''
	[[ "$output" == *materialize* ]]
	[[ "$output" == *sandbox-exec* ]]
	[[ "$output" == *help* ]]
	run complete_words sphereceti help re
	[ "$output" = report ]
}

@test "options of a command, the thresholds included" {
	run complete_words sphereceti profile-run --thr
	[ "$output" = $'--threshold-added\n--threshold-delta\n--threshold-ratio' ]
	run complete_words sc-sandbox-exec --self
	[ "$output" = --self-test ]
	run complete_words sphereceti profile-plan --re
	[ "$output" = --repo ]
}

@test "an option that takes a folder completes folders only; one that takes an ID nothing" {
	cd "$BATS_TEST_TMPDIR"
	mkdir -p wsdir/inner deps-here
	touch wsfile deps-file
	for opt in --workspace --repo --toolchain --dependencies; do
		run complete_words sphereceti profile-run "$opt" ''
		[ "$output" = $'deps-here\nhome\nwsdir' ] || { echo "$opt: $output"; false; }
	done
	run complete_words sc-materialize --dest ws
	[ "$output" = wsdir ]
	run complete_words sc-report --out-dir d
	[ "$output" = deps-here ]
	run complete_words sc-report --plan ws
	[ "$output" = $'wsdir\nwsfile' ]
	run complete_words sphereceti profile-run --head ''
	[ -z "$output" ]
}

@test "after sandbox-exec's --, the command is completed as a command" {
	run complete_words sc-sandbox-exec --tree t -- bas
	[[ "$output" == *bash* ]]
}

@test "every option of every program's option table is offered" {
	. "$BATS_TEST_DIRNAME/../contrib/completion/sphereceti.bash"
	for f in "$SRC"/cmd/sc-*.c; do
		prog=$(basename "$f" .c)
		case $prog in sc-confine | sc-pid1 | sc-sandbox-probe) continue ;; esac
		# util/options.h's table
		opts=$(grep -oE 'SC_OPT_[A-Z_]+\(([^,"]*, *)?"[a-z][a-z0-9-]+"' "$f" |
			cut -d'"' -f2 | sed 's/^/--/' | sort -u)
		[ -n "$opts" ]
		offered=$(complete_words "$prog" --)
		for o in $opts; do
			grep -qx -- "$o" <<<"$offered" || { echo "$prog: $o not offered"; false; }
		done
	done
}

@test "each program's --complete-options is its --help's option table, with value kinds" {
	for prog in sc-plan sc-materialize sc-sandbox-exec sc-parse-time sc-report sc-profile-run \
		sc-merge sc-setup sc-doctor; do
		run --separate-stderr "$prog" --complete-options
		[ "$status" -eq 0 ]
		helped=$("$prog" --help | grep -oE '^ +(-[a-z], )?--[a-z0-9-]+' | sed 's/.*--/--/' | sort -u)
		listed=$(cut -d' ' -f1 <<<"$output" | sort)
		[ "$helped" = "$listed" ] || { echo "$prog: $helped vs $listed"; false; }
	done
	run sc-profile-run --complete-options
	grep -qx -- '--repo dir' <<<"$output"
	grep -qx -- '--head revision' <<<"$output"
	grep -qx -- '--sample-timeout number' <<<"$output"
	grep -qx -- '--keep-logs flag' <<<"$output"
	run sc-report --complete-options
	grep -qx -- '--samples file repeat' <<<"$output"
	run sphereceti --complete-commands
	[ "$(sort <<<"$output" | paste -sd' ')" = "doctor help init materialize merge parse-time plan profile-plan profile-run report sandbox-exec version" ]
}

@test "--opt=value completes the value, in one word or split at '=' as bash splits it" {
	cd "$BATS_TEST_TMPDIR"
	mkdir -p wsdir
	touch wsfile
	run complete_words sphereceti profile-run --repo=ws
	[ "$output" = --repo=wsdir ]
	run complete_words sphereceti profile-run --repo = ws
	[ "$output" = wsdir ]
	run complete_words sc-report --plan = ws
	[ "$output" = $'wsdir\nwsfile' ]
	run complete_words sphereceti profile-run --head=
	[ -z "$output" ]
	run complete_words sphereceti profile-run --head = ''
	[ -z "$output" ]
}

@test "folders with spaces stay one completion; folders and files are completed as file names" {
	cd "$BATS_TEST_TMPDIR"
	mkdir -p "my dir/in" "my other"
	run complete_count sc-report --out-dir "my d"
	[ "$output" = 1 ]
	run complete_words sc-report --out-dir "my d"
	[ "$output" = "my dir" ]
	run complete_count sphereceti profile-run --workspace my
	[ "$output" = 2 ]
	# an opening quote as typed
	run complete_words sc-report --out-dir "'my o"
	[ "$output" = "my other" ]
	# bash then adds the slash and quotes the name: compopt -o filenames
	compopt() { echo "$*" >>"$BATS_TEST_TMPDIR/compopt"; }
	complete_words sc-report --out-dir my >/dev/null
	grep -qx -- '-o filenames' "$BATS_TEST_TMPDIR/compopt"
}

@test "an option already given is not offered again, a repeatable one is" {
	run complete_words sphereceti profile-plan --repo x --re
	[ -z "$output" ]
	run complete_words sphereceti profile-plan --repo=x --
	[[ "$output" != *--repo* ]]
	[[ "$output" == *--head* ]]
	run complete_words sc-report --samples a --sam
	[ "$output" = --samples ]
}

@test "commands come from the dispatcher, an unknown command completes nothing" {
	run complete_words sphereceti pars
	[ "$output" = parse-time ]
	run complete_words sphereceti help profile-
	[ "$output" = $'profile-plan\nprofile-run' ]
	run complete_words sphereceti profle-run --re
	[ -z "$output" ]
}
