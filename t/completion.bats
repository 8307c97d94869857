#!/usr/bin/env bats
# contrib/completion/sphereceti.bash: commands, options and directory
# completion, asked the way bash asks (COMP_WORDS/COMP_CWORD, then the
# function complete -p names).
load helpers

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

@test "the dispatcher and every stage program are registered" {
	for p in sphereceti sc-plan sc-materialize sc-sandbox-exec sc-parse-time sc-report sc-profile-run; do
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
		[ "$prog" != sc-init ] || continue
		if [ "$prog" = sc-report ]; then
			opts=$(grep -oE '"--[a-z][a-z0-9-]+' "$f" | tr -d '"' | grep -vx -- --name | sort -u)
		else
			# getopt tables, or util/options tables (SC_OPT_...(s, "name", ...))
			opts=$(grep -oE '\{"[a-z][a-z0-9-]+", *(no|required|optional)_argument|SC_OPT_[A-Z_]+\([^,]*, *"[a-z][a-z0-9-]+"' "$f" |
				sed -E 's/^[^"]*"([^"]*)".*/--\1/' | sort -u)
		fi
		[ -n "$opts" ]
		offered=$(complete_words "$prog" --)
		for o in $opts; do
			grep -qx -- "$o" <<<"$offered" || { echo "$prog: $o not offered"; false; }
		done
	done
}
