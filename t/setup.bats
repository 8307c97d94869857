#!/usr/bin/env bats
# sphereceti init (sc-setup): .sphereceti and the two workflows written into
# a Lean project's checkout, only where nothing is, all or none.

bats_require_minimum_version 1.5.0
load helpers

C40=0123456789abcdef0123456789abcdef01234567

setup() {
	P=$BATS_TEST_TMPDIR/proj
	git init -q -b main "$P"
	printf 'leanprover/lean4:v4.34.0-rc1\n' >"$P/lean-toolchain"
	printf '{"version": "1.1.0", "packagesDir": ".lake/packages", "packages": []}\n' >"$P/lake-manifest.json"
	cat >"$P/lakefile.toml" <<'TOML'
name = "proj"
srcDir = "src"

[[lean_lib]]
name = "Proj"

[[lean_lib]]
name = "ProjRoadmap"
roots = ["Roadmap"]

[[lean_lib]]
name = "Extra"
roots = ["Extra.A", "Extra.B"]
TOML
	mkdir -p "$P/src/Proj"
	echo 'def a := 1' >"$P/src/Proj/A.lean"
	git -C "$P" add -A
	git -C "$P" commit -q -m base
	git -C "$P" remote add origin https://github.com/acme/proj.git
	# as a clone has it: origin's default branch
	git -C "$P" update-ref refs/remotes/origin/main HEAD
	git -C "$P" symbolic-ref refs/remotes/origin/HEAD refs/remotes/origin/main
	PIN="bwrapPin = $(bwrap --version | sed 's/^bubblewrap //') $(sha256sum /usr/bin/bwrap | cut -d' ' -f1)"
}

init() { run --separate-stderr sc-setup --repo "$P" "$@"; }

@test "init: .sphereceti from the lakefile, the origin and this host's bubblewrap; the workflows pinned; nothing else" {
	init --sphereceti-commit "$C40"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	cat >"$BATS_TEST_TMPDIR/want" <<EOF
# sphereceti: which Lean files a pull request is profiled on, read from the
# base branch (written by \`sphereceti init\` from lakefile.toml; README
# "Configuration" says what each key does).
[profile]
	library = Proj
	library = Extra/A
	library = Extra/B
	roadmap = Roadmap
	sourceDir = "src"
	github = acme/proj
[sandbox]
	# the bubblewrap of the machine init ran on; a CI runner with another
	# one says in its first seconds which line to add
	$PIN
EOF
	diff -u "$BATS_TEST_TMPDIR/want" "$P/.sphereceti"
	# the recipe as this build carries it, the commit set
	run diff "$BATS_TEST_DIRNAME/../contrib/github/profile.yml" "$P/.github/workflows/sphereceti-profile.yml"
	[ "$(grep -c '^>' <<<"$output")" -eq 1 ]
	grep -qx "  SPHERECETI_COMMIT: \"$C40\"" "$P/.github/workflows/sphereceti-profile.yml"
	run diff "$BATS_TEST_DIRNAME/../contrib/github/deps.yml" "$P/.github/workflows/sphereceti-deps.yml"
	[ "$output" = $'32c32\n<     branches: [main]\n---\n>     branches: ["main"]' ]
	# nothing else in the work tree
	[ "$(git -C "$P" status --porcelain --untracked-files=all | sort | tr '\n' ' ')" = "?? .github/workflows/sphereceti-deps.yml ?? .github/workflows/sphereceti-profile.yml ?? .sphereceti " ]
	# committed, sc-plan takes it
	git -C "$P" add -A
	git -C "$P" commit -q -m sphereceti
	local t
	t=$(git -C "$P" rev-parse HEAD)
	run --separate-stderr sc-plan --repo "$P" --tooling "$t" --base "$t" --head "$t"
	[ "$status" -eq 0 ]
	[ "$(jq -r '.config.library | join(" ")' <<<"$output")" = "Proj Extra/A Extra/B" ]
	[ "$(jq -r '.config.source_dir' <<<"$output")" = src ]
}

@test "init prints the steps left to a person: commit and push, the label, the variables" {
	init --sphereceti-commit "$C40"
	[ "$status" -eq 0 ]
	[ "$(head -1 <<<"$output")" = "wrote .sphereceti (library Proj, Extra/A, Extra/B; roadmap Roadmap; from lakefile.toml)," ]
	grep -qF '  1. Review the three files, then commit and push them to main:' <<<"$output"
	grep -qF '  2. Create the label `profile`' <<<"$output"
	grep -qF 'SPHERECETI_FAIL_ON_FLAG=true' <<<"$output"
	grep -qF 'SPHERECETI_IMPORTERS=N' <<<"$output"
	grep -qF "($PIN)" <<<"$output"
}

@test "every repository variable init names is one the workflow reads" {
	init --sphereceti-commit "$C40"
	[ "$status" -eq 0 ]
	local named v yml=$P/.github/workflows/sphereceti-profile.yml
	named=$(grep -o 'SPHERECETI_[A-Z_]*=' <<<"$output" | tr -d = | sort -u)
	[ "$(wc -l <<<"$named")" -ge 8 ]
	for v in $named; do
		grep -qF "vars.$v " "$yml" || { echo "init names $v, the workflow reads no vars.$v"; false; }
	done
}

@test "init changes nothing that is there: one of the three files stops it before anything is written" {
	mkdir -p "$P/.github/workflows"
	echo mine >"$P/.github/workflows/sphereceti-deps.yml"
	init --sphereceti-commit "$C40"
	[ "$status" -eq 2 ]
	assert_error_line sc-setup
	[ "$stderr" = "sc-setup: error: .github/workflows/sphereceti-deps.yml is there already, and init changes nothing that is: edit it by hand, or move it away and run init again ($P/.github/workflows/sphereceti-deps.yml)" ]
	[ ! -e "$P/.sphereceti" ]
	[ ! -e "$P/.github/workflows/sphereceti-profile.yml" ]
	[ "$(cat "$P/.github/workflows/sphereceti-deps.yml")" = mine ]
}

@test "init writes all three or none: a workflow that cannot be written takes .sphereceti back with it" {
	echo 'not a folder' >"$P/.github"
	init --sphereceti-commit "$C40"
	[ "$status" -eq 2 ]
	assert_error_line sc-setup
	[ "$stderr" = "sc-setup: error: cannot write .github/workflows/sphereceti-profile.yml, nothing was written: Not a directory ($P/.github/workflows/sphereceti-profile.yml)" ]
	[ ! -e "$P/.sphereceti" ]
	[ "$(cat "$P/.github")" = 'not a folder' ]
	[ -z "$(find "$P" -name '.*.tmp*' -o -name '*.tmp')" ]
}

@test "init reads a lakefile.lean's lean_lib lines (as Lake, before lakefile.toml) and refuses one that sets a srcDir" {
	printf 'import Lake\nopen Lake DSL\n\npackage proj\n\n@[default_target]\nlean_lib «Proj» where\n  -- options\n\nlean_lib TheRoadmap\n' >"$P/lakefile.lean"
	init --sphereceti-commit "$C40"
	[ "$status" -eq 0 ]
	grep -qx $'\tlibrary = Proj' "$P/.sphereceti"
	grep -qx $'\troadmap = TheRoadmap' "$P/.sphereceti"
	run ! grep -q sourceDir "$P/.sphereceti"
	grep -qF 'from lakefile.lean' "$P/.sphereceti"
	rm -rf "$P/.sphereceti" "$P/.github"
	printf 'package proj where\n  srcDir := "src"\nlean_lib Proj\n' >"$P/lakefile.lean"
	init --sphereceti-commit "$C40"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"lakefile.lean sets a srcDir, which init does not evaluate: write .sphereceti by hand with its sourceDir"* ]]
	[ ! -e "$P/.sphereceti" ]
}

@test "init's refusals: no checkout, no lakefile, libraries in two srcDirs, a commit that is no full ID, a branch a workflow cannot hold" {
	mkdir "$BATS_TEST_TMPDIR/plain"
	run --separate-stderr sc-setup --repo "$BATS_TEST_TMPDIR/plain" --sphereceti-commit "$C40"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "sc-setup: error: not in a Git checkout's work tree: init writes .sphereceti and .github/workflows/ into the project's checkout: run it there, or name that checkout (--repo "* ]]
	init --sphereceti-commit main
	[ "$status" -eq 2 ]
	[ "$stderr" = "sc-setup: error: not a full commit ID of sphereceti's repository: 'main' (--sphereceti-commit)" ]
	init --sphereceti-commit "$C40" --sphereceti-repository 'a/b/c'
	[ "$status" -eq 2 ]
	[ "$stderr" = "sc-setup: error: not a GitHub repository's owner/name: 'a/b/c' (--sphereceti-repository)" ]
	init --sphereceti-commit "$C40" --base-branch 'x"y'
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"a branch name the workflow's \`branches\` cannot hold plainly"* ]]
	printf '[[lean_lib]]\nname = "A"\nsrcDir = "a"\n\n[[lean_lib]]\nname = "B"\nsrcDir = "b"\n' >"$P/lakefile.toml"
	init --sphereceti-commit "$C40"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"lean_libs live in different srcDirs ('a', 'b'), and .sphereceti has one sourceDir: write it by hand"* ]]
	rm "$P/lakefile.toml"
	init --sphereceti-commit "$C40"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "sc-setup: error: no lakefile.lean or lakefile.toml: run init at the root of a Lake project ($P)" ]]
	[ ! -e "$P/.sphereceti" ]
	[ ! -e "$P/.github" ]
}

@test "init checks every root before it writes: a lean_lib sc-plan cannot measure is bad input naming it, and nothing is left" {
	printf '[[lean_lib]]\nname = "my-lib"\n' >"$P/lakefile.toml"
	init --sphereceti-commit "$C40"
	[ "$status" -eq 2 ]
	assert_error_line sc-setup
	[[ "$stderr" == "sc-setup: error: lean_lib my-lib: its root 'my-lib' is no plain Lean module name"*"($P)" ]]
	[ ! -e "$P/.sphereceti" ]
	[ ! -e "$P/.github" ]
	git -C "$P" checkout -q lakefile.toml
	# an escape Lake would not close, in a lakefile.lean
	printf 'import Lake\nopen Lake DSL\npackage proj\nlean_lib \302\253Foo where\n' >"$P/lakefile.lean"
	init --sphereceti-commit "$C40"
	[ "$status" -eq 2 ]
	assert_error_line sc-setup
	[[ "$stderr" == "sc-setup: error: lean_lib «Foo: its root '«Foo' is no plain Lean module name"* ]]
	[ "$(git -C "$P" status --porcelain --untracked-files=all)" = "?? lakefile.lean" ]
}

@test "init: the base branch is origin's default, never the one checked out; without one it refuses with the flag to pass; a remote elsewhere gives no github line" {
	git -C "$P" remote set-url origin https://gitlab.example/acme/proj.git
	git -C "$P" update-ref refs/remotes/origin/trunk HEAD
	git -C "$P" symbolic-ref refs/remotes/origin/HEAD refs/remotes/origin/trunk
	git -C "$P" checkout -q -b feature
	init --sphereceti-commit "$C40"
	[ "$status" -eq 0 ]
	grep -qx '    branches: \["trunk"\]' "$P/.github/workflows/sphereceti-deps.yml"
	run ! grep -q github "$P/.sphereceti"
	rm -rf "$P/.sphereceti" "$P/.github"
	git -C "$P" symbolic-ref --delete refs/remotes/origin/HEAD
	init --sphereceti-commit "$C40"
	[ "$status" -eq 2 ]
	assert_error_line sc-setup
	[ "$stderr" = "sc-setup: error: origin names no default branch (no refs/remotes/origin/HEAD: git remote set-head origin --auto makes one): name the base branch with --base-branch NAME (--repo $P)" ]
	[ ! -e "$P/.sphereceti" ]
	init --sphereceti-commit "$C40" --base-branch trunk
	[ "$status" -eq 0 ]
}

@test "github slugs from remote URLs, as GitHub spells them" {
	for u in https://github.com/o/n.git https://github.com/o/n git@github.com:o/n.git ssh://git@github.com/o/n/; do
		git -C "$P" remote set-url origin "$u"
		rm -rf "$P/.sphereceti" "$P/.github"
		init --sphereceti-commit "$C40"
		[ "$status" -eq 0 ]
		grep -qx $'\tgithub = o/n' "$P/.sphereceti"
	done
}
