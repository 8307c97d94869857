#!/usr/bin/env bats
# sc-plan: every rule of Documentation/planning.txt "Inputs and rules", each with a passing
# and a failing case, on small repositories built here with git.
load helpers
bats_require_minimum_version 1.5.0
load lib/plan

setup_file() { plan_template; }
setup() { plan_copy; }

# ---------------------------------------------------------------- plan shape

@test "modified, added, removed and a rename (removal + addition), sorted, with roles and blobs" {
	echo 'def a := 2' >"$R/Lib/A.lean"
	git -C "$R" mv Lib/Sub/B.lean Lib/Sub/C.lean
	echo 'def n := 1' >"$R/Lib/Road/N.lean"
	H=$(pcommit head)
	plan
	[ "$status" -eq 0 ]
	[ "$(files_of)" = "modified library Lib/A.lean
added roadmap Lib/Road/N.lean
removed library Lib/Sub/B.lean
added library Lib/Sub/C.lean" ]
	[ "$(jq -r '[.files[].path] | join(" ")' <<<"$output")" = "Lib/A.lean Lib/Road/N.lean Lib/Sub/B.lean Lib/Sub/C.lean" ]
	[ "$(jq -r '.status' <<<"$output")" = changes ]
	[ "$(jq -r '.files[0] | "\(.id) \(.module)"' <<<"$output")" = "Lib.A Lib.A" ]
	[ "$(jq -r '.files[0].base_blob' <<<"$output")" = "$(git -C "$R" rev-parse "$T:Lib/A.lean")" ]
	[ "$(jq -r '.files[0].head_blob' <<<"$output")" = "$(git -C "$R" rev-parse "$H:Lib/A.lean")" ]
	[ "$(jq -r '.files[] | select(.path == "Lib/Sub/B.lean") | "\(.change) \(.head_blob)"' <<<"$output")" = "removed null" ]
	[ "$(jq -r '.files[] | select(.path == "Lib/Sub/C.lean") | "\(.change) \(.base_blob)"' <<<"$output")" = "added null" ]
	[ "$(jq -r '.files[] | select(.path == "Lib/Road/N.lean") | .role' <<<"$output")" = roadmap ]
}

@test "the plan records revisions, configuration, Lake blobs and the trimmed toolchain" {
	printf '  leanprover/lean4:v4.34.0-rc1 \n\n' >"$R/lean-toolchain"
	printf '[sandbox]\n\tbwrapSha256 = %s\n\tbwrapVersion = 0.8.0\n' \
		"$(printf 'A%.0s' {1..64})" >>"$R/.sphereceti"
	T=$(pcommit tooling)
	B=$T
	echo 'def a := 2' >"$R/Lib/A.lean"
	H=$(pcommit head)
	plan
	[ "$status" -eq 0 ]
	[ "$(jq -r '.schema, .profiler_version, .object_format' <<<"$output" | paste -sd' ')" = "sphereceti.plan/1 0.1.0 sha1" ]
	[ "$(jq -r '.revisions | "\(.tooling) \(.base_tip) \(.merge_base) \(.head)"' <<<"$output")" = "$T $T $T $H" ]
	[ "$(jq -c '.config' <<<"$output")" = "{\"library\":[\"Lib\"],\"roadmap\":[\"Lib/Road\"],\"github\":\"owner/name\",\"tooling_path\":null,\"bwrap_pins\":[{\"version\":\"0.8.0\",\"sha256\":\"$(printf 'a%.0s' {1..64})\"}]}" ]
	[ "$(jq -r '.lake["lean-toolchain"]' <<<"$output")" = "$(git -C "$R" rev-parse "$T:lean-toolchain")" ]
	[ "$(jq -r '.lake["lakefile.toml"]' <<<"$output")" = "$(git -C "$R" rev-parse "$T:lakefile.toml")" ]
	[ "$(jq -r '.lake["lakefile.lean"]' <<<"$output")" = null ]
	[ "$(jq -r '.lean_toolchain' <<<"$output")" = "leanprover/lean4:v4.34.0-rc1" ]
}

@test "no changed Lean file under a root is the valid no_changes plan" {
	H=$T
	plan
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.status, .files]' <<<"$output")" = '["no_changes",[]]' ]
	echo more >>"$R/README.md"
	echo 'def o := 1' >"$R/Other.lean"
	echo notes >"$R/Lib/notes.md"
	H=$(pcommit "outside roots")
	plan
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.status, .files]' <<<"$output")" = '["no_changes",[]]' ]
}

@test "a head already in the base is still no_changes, with a warning (merged, or --base/--head swapped)" {
	echo 'def a := 2' >"$R/Lib/A.lean"
	H=$(pcommit head)
	plan "$T" "$H" "$T"
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.status, .files]' <<<"$output")" = '["no_changes",[]]' ]
	[ "$stderr" = "sc-plan: warning: the head is already in the base (merged, or base and head swapped): nothing to measure (--head)" ]
	run --separate-stderr sphereceti profile-plan --repo "$R" --tooling "$T" --base "$H" --head "$T"
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"the head is already in the base"* ]]
	# no warning when the head has commits of its own, even with nothing selected
	echo more >>"$R/README.md"
	H=$(pcommit "outside roots")
	plan "$T" "$T" "$H"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
}

@test "a mode-only change counts as modified" {
	chmod +x "$R/Lib/A.lean"
	H=$(pcommit exec)
	plan
	[ "$status" -eq 0 ]
	[ "$(files_of)" = "modified library Lib/A.lean" ]
}

@test "output is deterministic, byte for byte" {
	for i in 1 2 3 4 5; do echo "def x$i := 1" >"$R/Lib/X$i.lean"; done
	H=$(pcommit head)
	plan
	first=$output
	plan
	[ "$output" = "$first" ]
}

# ------------------------------------------------------------ object IDs

@test "full commit IDs are accepted, in any letter case" {
	echo 'def a := 2' >"$R/Lib/A.lean"
	H=$(pcommit head)
	plan "${T^^}" "${B^^}" "${H^^}"
	[ "$status" -eq 0 ]
	[ "$(jq -r .revisions.head <<<"$output")" = "$H" ]
}

@test "an abbreviated ID is rejected, with a hint how to get the full one" {
	H=$(pcommit head)
	plan_fails "not a full 40-digit sha1 object ID: '${H:0:12}'; 'git rev-parse REV^{commit}' in the repository prints the full ID (--head)" "$T" "$B" "${H:0:12}"
}

@test "every bad revision argument is named in the one error line, not only the first" {
	H=$(pcommit head)
	plan_fails "2 bad revisions: --base: not a full 40-digit sha1 object ID: 'HEAD'; --head: not a full 40-digit sha1 object ID: '${H:0:7}'; 'git rev-parse REV^{commit}' in the repository prints the full ID (--base, --head)" "$T" HEAD "${H:0:7}"
	local tree missing
	tree=$(git -C "$R" rev-parse "$T^{tree}")
	missing=$(printf '0%.0s' {1..40})
	plan_fails "2 bad revisions: --tooling: object $tree is a tree, not a commit; --head: no such object $missing; fetch it into the repository first (a pull request's head: git fetch origin pull/N/head) (--tooling, --head)" "$tree" "$B" "$missing"
}

@test "ref names are rejected, even HEAD" {
	H=$(pcommit head)
	plan_fails "(--base)" "$T" HEAD "$H"
	plan_fails "(--tooling)" main "$B" "$H"
	plan_fails "(--head)" "$T" "$B" base
}

@test "a tree, a blob, a tag object and an unknown ID are rejected" {
	H=$(pcommit head)
	plan_fails "is a tree, not a commit (--head)" "$T" "$B" "$(git -C "$R" rev-parse "$H^{tree}")"
	plan_fails "is a blob, not a commit (--tooling)" "$(git -C "$R" rev-parse "$T:Lib/A.lean")" "$B" "$H"
	git -C "$R" tag -a -m annotated anno "$T"
	plan_fails "is a tag, not a commit (--base)" "$T" "$(git -C "$R" rev-parse anno)" "$H"
	plan_fails "no such object 0123456789012345678901234567890123456789; fetch it into the repository first (a pull request's head: git fetch origin pull/N/head) (--base)" \
		"$T" 0123456789012345678901234567890123456789 "$H"
	plan_fails "is a tree, not a commit (--head)" "$T" "$B" "$(git -C "$R" rev-parse "$H^{tree}")"
	[[ "$stderr" != *fetch* ]]
}

@test "a head that was never fetched names the fetch that brings a pull request's head" {
	local other
	other=$BATS_TEST_TMPDIR/other
	git clone -q "$R" "$other"
	echo 'def a := 3' >"$other/Lib/A.lean"
	git -C "$other" add -A
	git -C "$other" commit -q -m "pull request"
	H=$(git -C "$other" rev-parse HEAD)
	plan_fails "no such object $H; fetch it into the repository first (a pull request's head: git fetch origin pull/N/head) (--head)"
}

# ------------------------------------------------------------ merge base

@test "the base side is the merge base of B and H, not B" {
	git -C "$R" checkout -q -b main base
	echo 'def b := 2' >"$R/Lib/Sub/B.lean"
	B=$(pcommit "main moves on")
	git -C "$R" checkout -q head
	echo 'def a := 2' >"$R/Lib/A.lean"
	H=$(pcommit head)
	plan
	[ "$status" -eq 0 ]
	[ "$(jq -r '.revisions | "\(.base_tip) \(.merge_base)"' <<<"$output")" = "$B $T" ]
	[ "$(files_of)" = "modified library Lib/A.lean" ]
}

@test "a criss-cross history (two merge bases) is ambiguous" {
	git -C "$R" checkout -q -b x base
	echo 1 >"$R/x1"; X1=$(pcommit x1)
	git -C "$R" checkout -q -b y base
	echo 1 >"$R/y1"; Y1=$(pcommit y1)
	git -C "$R" checkout -q x
	git -C "$R" merge -q --no-edit "$Y1"
	B=$(git -C "$R" rev-parse HEAD)
	git -C "$R" checkout -q y
	git -C "$R" merge -q --no-edit "$X1"
	H=$(git -C "$R" rev-parse HEAD)
	[ "$(git -C "$R" merge-base --all "$B" "$H" | wc -l)" -eq 2 ]
	plan_fails "ambiguous merge base"
}

@test "unrelated histories (no merge base) fail" {
	git -C "$R" checkout -q --orphan lone
	echo 'def z := 1' >"$R/Lib/Z.lean"
	H=$(pcommit lone)
	plan_fails "no merge base"
}

# ------------------------------------------------------------ configuration

@test "a tooling commit without .sphereceti is missing configuration" {
	git -C "$R" rm -q .sphereceti
	T=$(pcommit "no config")
	H=$T
	plan_fails "missing configuration: the tooling commit has no .sphereceti"
}

@test "a configuration without profile.library is missing configuration" {
	printf '[profile]\n\troadmap = Lib/Road\n' >"$R/.sphereceti"
	T=$(pcommit "roadmap only")
	H=$T
	plan_fails "missing configuration: no profile.library root"
}

@test "invalid configuration: bad root, unknown key, duplicate root, bad slug, syntax" {
	local bad
	for bad in '[profile]\n\tlibrary = Lib/../X\n' '[profile]\n\tlibrary = Lib\n\tlibary = Lab\n' \
		'[profile]\n\tlibrary = Lib\n\troadmap = Lib\n' '[profile]\n\tlibrary = Lib\n\tgithub = a/b/c\n' \
		'[profile\n\tlibrary = Lib\n' '[profile]\n\tlibrary\n' '[profile]\n\tlibrary = Lib\n\ttooling = ../x\n' \
		'[sandbox]\n\tbwrapSha256 = abc\n[profile]\n\tlibrary = Lib\n'; do
		printf "$bad" >"$R/.sphereceti"
		T=$(pcommit "bad config")
		H=$T
		plan_fails "invalid configuration"
	done
}

@test "configuration comes from T only: B's and H's .sphereceti are ignored" {
	printf '[profile]\n\tlibrary = Other\n' >"$R/.sphereceti"
	echo 'def a := 2' >"$R/Lib/A.lean"
	H=$(pcommit "head rewrites the config")
	plan
	[ "$status" -eq 0 ]
	[ "$(jq -c .config.library <<<"$output")" = '["Lib"]' ]
	[ "$(files_of)" = "modified library Lib/A.lean" ]
}

@test "working tree and index edits, even to .sphereceti, change nothing" {
	echo 'def a := 2' >"$R/Lib/A.lean"
	H=$(pcommit head)
	plan
	clean=$output
	printf '[profile]\n\tlibrary = Nothing\n' >"$R/.sphereceti"
	echo 'def a := 3' >"$R/Lib/A.lean"
	echo 'def d := 1' >"$R/Lib/D.lean"
	git -C "$R" add Lib/D.lean
	rm "$R/lean-toolchain"
	plan
	[ "$status" -eq 0 ]
	[ "$output" = "$clean" ]
}

@test ".sphereceti that is not a regular file is missing configuration" {
	git -C "$R" rm -q .sphereceti
	printf '[profile]\n\tlibrary = Lib\n' >"$R/real-config"
	ln -s real-config "$R/.sphereceti"
	T=$(pcommit "config is a link")
	H=$T
	plan_fails "missing configuration: .sphereceti is not a regular file"
}

# ------------------------------------------------------------ selected paths

@test "a symlink under a root is not measured (exit 4), one outside the roots is ignored" {
	ln -s README.md "$R/docs-link"
	H=$(pcommit "outside link")
	plan
	[ "$status" -eq 0 ]
	ln -s A.lean "$R/Lib/Link.lean"
	H=$(pcommit "lean link")
	plan_not_measured "symlink on a selected path: Lib/Link.lean"
	git -C "$R" rm -q Lib/Link.lean
	ln -s ../.. "$R/Lib/Dir"
	H=$(pcommit "directory link")
	plan_not_measured "symlink on a selected path: Lib/Dir"
}

@test "a submodule under a root is not measured (exit 4), one outside the roots is ignored" {
	git -C "$R" update-index --add --cacheinfo "160000,$T,vendor/dep"
	git -C "$R" commit -q -m "outside submodule"
	H=$(git -C "$R" rev-parse HEAD)
	plan
	[ "$status" -eq 0 ]
	git -C "$R" update-index --add --cacheinfo "160000,$T,Lib/Vendor"
	git -C "$R" commit -q -m "submodule under the library"
	H=$(git -C "$R" rev-parse HEAD)
	plan_not_measured "submodule on a selected path: Lib/Vendor"
}

@test "a type change on a selected path is not measured (exit 4)" {
	rm "$R/Lib/A.lean"
	ln -s Sub/B.lean "$R/Lib/A.lean"
	H=$(pcommit "file becomes a link")
	plan_not_measured "type change on a selected path: Lib/A.lean"
}

@test "unsupported module names are not measured (exit 4); plain identifiers pass" {
	echo x >"$R/Lib/_Ok9.lean"
	mkdir -p "$R/Lib/Deep_1/x"
	echo x >"$R/Lib/Deep_1/x/Y.lean"
	H=$(pcommit good)
	plan
	[ "$status" -eq 0 ]
	[ "$(jq -r '[.files[].module] | join(" ")' <<<"$output")" = "Lib.Deep_1.x.Y Lib._Ok9" ]
	for bad in Lib/my-file.lean Lib/Bad.Dir/X.lean Lib/9lives.lean 'Lib/Ünï.lean' 'Lib/sp ace.lean'; do
		git -C "$R" checkout -q -f head
		mkdir -p "$(dirname "$R/$bad")"
		echo x >"$R/$bad"
		H=$(pcommit "bad name")
		plan_not_measured "unsupported module name"
		git -C "$R" reset -q --hard HEAD~1
	done
}

# ------------------------------------------------------------ Lake configuration

@test "a Lake configuration bump on the head is not measured (exit 4)" {
	printf 'leanprover/lean4:v4.35.0\n' >"$R/lean-toolchain"
	H=$(pcommit bump)
	plan_not_measured "Lake configuration differs from the tooling commit: lean-toolchain changed; the pull request changes it: toolchain and dependency bumps are not measured (head)"
	git -C "$R" reset -q --hard base
	echo 'name = "x"' >"$R/lakefile.lean"
	H=$(pcommit "second lakefile")
	plan_not_measured "lakefile.lean is added; the pull request changes it"
	git -C "$R" reset -q --hard base
	git -C "$R" rm -q lake-manifest.json
	H=$(pcommit "no manifest")
	plan_not_measured "lake-manifest.json is absent; the pull request changes it"
}

@test "a Lake configuration that differs on the merge base is not measured, naming the fix (profile the merge, or rebase); T = M = H passes" {
	git -C "$R" checkout -q -b main base
	printf '{"version": 7, "packagesDir": ".lake/packages", "packages": [{"name": "x"}]}\n' >"$R/lake-manifest.json"
	T=$(pcommit "main bumps deps")
	B=$T
	git -C "$R" checkout -q head
	git -C "$R" checkout -q "$T" -- lake-manifest.json
	echo 'def a := 2' >"$R/Lib/A.lean"
	H=$(pcommit "head takes the bump")
	plan_not_measured "lake-manifest.json changed; the base branch changed it after the pull request branched off: profile the merge of the pull request into --base (--merge-of), or rebase it (merge base)"
	T=$(git -C "$R" rev-parse base)
	B=$T
	git -C "$R" checkout -q -B head2 base
	echo 'def a := 2' >"$R/Lib/A.lean"
	H=$(pcommit "same lake")
	plan
	[ "$status" -eq 0 ]
}

# behind_bump: main moved on with a manifest bump ($T = $B) after the pull
# request (branch head, $H, one changed file) branched off at base.
behind_bump() {
	echo 'def a := 2' >"$R/Lib/A.lean"
	H=$(pcommit "the pull request")
	git -C "$R" checkout -q -b main base
	printf '{"version": 7, "packagesDir": ".lake/packages", "packages": [{"name": "x"}]}\n' >"$R/lake-manifest.json"
	echo 'def b := 2' >"$R/Lib/Sub/B.lean"
	T=$(pcommit "main bumps deps")
	B=$T
}

# merge_of B P: the merge of P into B as a job's disposable clone makes it.
merge_of() {
	local tree
	tree=$(git -C "$R" merge-tree --write-tree "$1" "$2")
	git -C "$R" commit-tree "$tree" -p "$1" -p "$2" -m "merge $2 into $1"
}

@test "--merge-of: a pull request behind a Lake bump is planned as its merge into the base: M = B, B's configuration, the pull request's files only" {
	behind_bump
	local merge
	merge=$(merge_of "$B" "$H")
	run --separate-stderr sc-plan --repo "$R" --tooling "$T" --base "$B" --head "$merge" --merge-of "$H"
	[ "$status" -eq 0 ]
	[ "$(jq -r '.revisions | "\(.merge_base) \(.head) \(.merge_of)"' <<<"$output")" = "$B $merge $H" ]
	[ "$(files_of)" = "modified library Lib/A.lean" ]
	[ "$(jq -r '.lake["lake-manifest.json"]' <<<"$output")" = "$(git -C "$R" rev-parse "$B:lake-manifest.json")" ]
}

@test "--merge-of is refused unless the head's parents are exactly the base tip, then the pull request head; the error says how to make that merge" {
	behind_bump
	local swapped one
	swapped=$(merge_of "$H" "$B")
	run --separate-stderr sc-plan --repo "$R" --tooling "$T" --base "$B" --head "$swapped" --merge-of "$H"
	assert_error_line sc-plan
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"the head is not a merge of --merge-of into --base: $swapped has 2 parents, first ${H:0:12} (want exactly two: --base ${B:0:12}, then --merge-of ${H:0:12}); make it with: git commit-tree \"\$(git merge-tree --write-tree ${B:0:12} ${H:0:12})\" -p ${B:0:12} -p ${H:0:12} -m merge (--head)" ]]
	run --separate-stderr sc-plan --repo "$R" --tooling "$T" --base "$B" --head "$H" --merge-of "$H"
	assert_error_line sc-plan
	[[ "$stderr" == *"$H has 1 parent, first"* ]]
	one=$(git -C "$R" rev-parse base)
	run --separate-stderr sc-plan --repo "$R" --tooling "$T" --base "$B" --head "$one" --merge-of "$H"
	assert_error_line sc-plan
	[[ "$stderr" == *"$one has no parent; make it with: "*" (--head)" ]]
	run --separate-stderr sc-plan --repo "$R" --tooling "$T" --base "$B" --head "$swapped" --merge-of "${H:0:12}"
	assert_error_line sc-plan
	[[ "$stderr" == *"(--merge-of)" ]]
	# the way it names works: that merge is taken
	local made
	made=$(git -C "$R" commit-tree "$(git -C "$R" merge-tree --write-tree "${B:0:12}" "${H:0:12}")" -p "${B:0:12}" -p "${H:0:12}" -m merge)
	run --separate-stderr sc-plan --repo "$R" --tooling "$T" --base "$B" --head "$made" --merge-of "$H"
	[ "$status" -eq 0 ]
}

@test "without --merge-of the plan has no merge_of member: byte for byte the plan it was" {
	echo 'def a := 2' >"$R/Lib/A.lean"
	H=$(pcommit head)
	plan
	[ "$status" -eq 0 ]
	[ "$(jq -c '.revisions | keys' <<<"$output")" = '["base_tip","head","merge_base","tooling"]' ]
}

# importer_repo: at base, Lib/X1 imports Lib.A, Lib/X2 imports Lib.A and
# Lib.Sub.B, Lib/X3 imports Lib.A and is imported by Lib/Y, and
# Lib/Bad.lean has a header that cannot be read; the head modifies Lib/A
# and Lib/Sub/B.
importer_repo() {
	printf 'import Lib.A\n' >"$R/Lib/X1.lean"
	printf '/- two -/\nimport Lib.A\nimport Lib.Sub.B\n' >"$R/Lib/X2.lean"
	printf 'import Lib.A\n' >"$R/Lib/X3.lean"
	printf 'import Lib.X3\n' >"$R/Lib/Y.lean"
	printf 'import Lib.\n' >"$R/Lib/Bad.lean"
	T=$(pcommit "importers at base")
	B=$T
	git -C "$R" checkout -q -B head "$T"
	echo 'def a := 2' >"$R/Lib/A.lean"
	echo 'def b := 2' >"$R/Lib/Sub/B.lean"
	H=$(pcommit head)
}

@test "--importers N: up to N unchanged modules importing a changed one, most changed imports first, then most importers of their own, then path" {
	importer_repo
	run --separate-stderr sc-plan --repo "$R" --tooling "$T" --base "$B" --head "$H" --importers 2
	[ "$status" -eq 0 ]
	[ "$(files_of)" = "modified library Lib/A.lean
modified library Lib/Sub/B.lean
importer library Lib/X2.lean
importer library Lib/X3.lean" ]
	[ "$(jq -c '[.files[] | select(.change == "importer") | .imports]' <<<"$output")" = '[["Lib.A","Lib.Sub.B"],["Lib.A"]]' ]
	[ "$(jq -r '.files[2] | "\(.base_blob == .head_blob) \(.head_blob)"' <<<"$output")" = "true $(git -C "$R" rev-parse "$H:Lib/X2.lean")" ]
	[ "$(jq -c '.importers | [.limit, .qualified]' <<<"$output")" = '[2,3]' ]
	[ "$(jq -r '.importers.unreadable[]' <<<"$output")" = "Lib/Bad.lean: Lean cannot read it: a name ending in '.' (line 1)" ]
	# all qualify under a larger N, in that order
	run --separate-stderr sc-plan --repo "$R" --tooling "$T" --base "$B" --head "$H" --importers 32
	[ "$(jq -r '[.files[] | select(.change == "importer") | .path] | join(" ")' <<<"$output")" = "Lib/X2.lean Lib/X3.lean Lib/X1.lean" ]
}

@test "the rebuild: the changed modules and every module importing one, directly or not, of all under the roots; an unreadable header counted apart; null without changes" {
	importer_repo
	plan
	[ "$status" -eq 0 ]
	# A and Sub/B changed; X1, X2, X3 import A; Y imports X3; R imports
	# nothing; Bad's header cannot be read
	[ "$(jq -c .rebuild <<<"$output")" = '{"modules":6,"of":8,"unreadable":1}' ]
	# a change nothing imports rebuilds itself alone
	git -C "$R" checkout -q -B head2 "$T"
	echo 'def r := 2' >"$R/Lib/Road/R.lean"
	H=$(pcommit "roadmap only")
	plan
	[ "$(jq -c .rebuild <<<"$output")" = '{"modules":1,"of":8,"unreadable":1}' ]
	plan "$T" "$T" "$T"
	[ "$(jq -c .rebuild <<<"$output")" = null ]
}

@test "--importers 0 is the plan without it, byte for byte; bad values are one line, exit 2" {
	importer_repo
	plan
	[ "$status" -eq 0 ]
	local without=$output
	run --separate-stderr sc-plan --repo "$R" --tooling "$T" --base "$B" --head "$H" --importers 0
	[ "$status" -eq 0 ]
	[ "$output" = "$without" ]
	local v
	for v in -1 33 abc '' 1.5; do
		run --separate-stderr sc-plan --repo "$R" --tooling "$T" --base "$B" --head "$H" --importers "$v"
		[ "$status" -eq 2 ] || { echo "--importers '$v': $status"; false; }
		assert_error_line sc-plan
		[[ "$stderr" == *"--importers wants a count from 0 to 32 (--importers $v)"* ]] ||
			[[ "$stderr" == *"(--importers)"* ]]
	done
}

# ------------------------------------------------------------ repositories

@test "SHA-256 repository: 64-digit IDs work, 40-digit IDs are rejected" {
	rm -rf "$R"
	plan_repo --object-format=sha256
	echo 'def a := 2' >"$R/Lib/A.lean"
	H=$(pcommit head)
	[ "${#H}" -eq 64 ]
	plan
	[ "$status" -eq 0 ]
	[ "$(jq -r .object_format <<<"$output")" = sha256 ]
	[ "$(jq -r '.files[0].head_blob' <<<"$output")" = "$(git -C "$R" rev-parse "$H:Lib/A.lean")" ]
	plan_fails "not a full 64-digit sha256 object ID" "$T" "$B" "${H:0:40}"
}

@test "a bare clone gives the same plan, from any current directory" {
	echo 'def a := 2' >"$R/Lib/A.lean"
	H=$(pcommit head)
	plan
	want=$output
	git clone -q --bare "$R" "$BATS_TEST_TMPDIR/bare.git"
	R=$BATS_TEST_TMPDIR/bare.git
	plan
	[ "$status" -eq 0 ]
	[ "$output" = "$want" ]
	mkdir -p "$BATS_TEST_TMPDIR/elsewhere"
	cd "$BATS_TEST_TMPDIR/elsewhere"
	R=../bare.git
	plan
	[ "$output" = "$want" ]
	cd /
	R=$BATS_TEST_TMPDIR/repo
	plan
	[ "$output" = "$want" ]
}

@test "the repository's files and refs are unchanged, on success and on failure" {
	echo 'def a := 2' >"$R/Lib/A.lean"
	H=$(pcommit head)
	git -C "$R" gc -q
	ln -s A.lean "$R/Lib/L.lean"
	H2=$(pcommit link)
	before=$(repo_state "$R")
	plan
	[ "$status" -eq 0 ]
	[ "$(repo_state "$R")" = "$before" ]
	plan_fails "(--head)" "$T" "$B" "${H:0:7}"
	plan_not_measured "symlink" "$T" "$B" "$H2"
	[ "$(repo_state "$R")" = "$before" ]
}

@test "not a repository, or no repository at all, fails" {
	H=$T
	mkdir "$BATS_TEST_TMPDIR/plain"
	R=$BATS_TEST_TMPDIR/plain
	plan_fails "not a git repository (--repo"
	R=$BATS_TEST_TMPDIR/missing
	plan_fails "repository does not exist (--repo"
}

@test "a repository another user owns: Git's ownership check is named, with its fix, not 'not a git repository'" {
	H=$T
	mkdir -m 0777 "$BATS_TEST_TMPDIR/nobody-home"
	# a folder on the way closed to that user: said so, not "does not exist"
	chmod 0700 "$BATS_TEST_TMPDIR"
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/ \
		"$SC_BIN/sc-plan" --repo "$R" --tooling "$T" --base "$B" --head "$H"
	[ "$stderr" = "sc-plan: error: cannot reach the repository: Permission denied (give this user search permission on the folders above it) (--repo $R)" ]
	sandbox_reach "$R"
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$BATS_TEST_TMPDIR/nobody-home" \
		"$SC_BIN/sc-plan" --repo "$R" --tooling "$T" --base "$B" --head "$H"
	assert_error_line sc-plan
	[ "$status" -eq 2 ]
	[ "$stderr" = "sc-plan: error: Git refuses the repository: another user owns it (Git's safe.directory check); run as its owner, or mark it safe for this user with git config --global --add safe.directory $R (--repo $R)" ]
	# the fix it names, as that user: planned
	setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$BATS_TEST_TMPDIR/nobody-home" git config --global --add safe.directory "$R"
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$BATS_TEST_TMPDIR/nobody-home" \
		"$SC_BIN/sc-plan" --repo "$R" --tooling "$T" --base "$B" --head "$H"
	[ "$status" -eq 0 ]
}

@test "usage errors: missing, repeated, unknown flags and stray arguments" {
	run --separate-stderr sc-plan --repo "$R" --tooling "$T"
	assert_error_line sc-plan
	[ "$status" -eq 2 ]
	grep -q '(--base, --head)$' <<<"$stderr"
	run --separate-stderr sc-plan --repo "$R" --tooling "$T" --base "$B" --head "$T" --head "$T"
	assert_error_line sc-plan
	[ "$status" -eq 2 ]
	grep -q 'given twice (--head)$' <<<"$stderr"
	run --separate-stderr sc-plan --repo "$R" --tooling "$T" --base "$B" --head "$T" --bogus
	assert_error_line sc-plan
	[ "$status" -eq 2 ]
	run --separate-stderr sc-plan --repo "$R" --tooling "$T" --base "$B" --head "$T" extra
	assert_error_line sc-plan
	[ "$status" -eq 2 ]
	run --separate-stderr sc-plan --repo "$R" --tooling "$T" --base "$B" --head
	assert_error_line sc-plan
	[ "$status" -eq 2 ]
	run sc-plan --help
	[ "$status" -eq 0 ]
	[[ "$output" == usage:* ]]
	grep -q -- '--tooling T' <<<"$output"
	# a unique prefix is the option; --he could be --head or --help
	run sc-plan --rep "$R" --tool "$T" --ba "$B" --hea "$T"
	[ "$status" -eq 0 ]
	run --separate-stderr sc-plan --repo "$R" --tooling "$T" --base "$B" --he "$T"
	[ "$status" -eq 2 ]
	grep -q 'ambiguous' <<<"$stderr"
}

# ------------------------------------------------------------ profile.tooling

# copy_sources DIR: our tracked sources, as committed content would be.
copy_sources() {
	local src=$BATS_TEST_DIRNAME/.. dest=$1
	git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1 || skip "sources are not a git checkout"
	mkdir -p "$dest"
	# One tar each side, not a mkdir and a cp per file.  A tracked file
	# deleted in the checkout is left out (--ignore-failed-read); links are
	# kept as links, modes and times as they are.
	(cd "$src" && git ls-files -z | tar --null --no-recursion --ignore-failed-read \
		--warning=no-failed-read -T - -cf -) | tar -xpf - -C "$dest"
}

@test "profile.tooling: our own sources at that path pass, in SHA-1 and SHA-256 repositories" {
	for fmt in sha1 sha256; do
		rm -rf "$R"
		plan_repo --object-format=$fmt
		copy_sources "$R/tools/sc"
		printf '\ttooling = tools/sc\n' >>"$R/.sphereceti"
		T=$(pcommit "vendor the profiler")
		B=$T H=$T
		plan
		[ "$status" -eq 0 ] || { echo "$stderr"; false; }
		[ "$(jq -r .config.tooling_path <<<"$output")" = tools/sc ]
		run sc-plan --version
		[[ "$output" == *"source-tree $fmt $(git -C "$R" rev-parse "$T:tools/sc")"* ]]
	done
}

@test "profile.tooling: different sources, or no such directory, fail" {
	copy_sources "$R/tools/sc"
	echo '/* local patch */' >>"$R/tools/sc/cmd/sc-plan.c"
	printf '\ttooling = tools/sc\n' >>"$R/.sphereceti"
	T=$(pcommit "patched profiler")
	B=$T H=$T
	plan_fails "installed profiler sources (tree"
	[[ "$stderr" == *"differ from the tooling commit's tools/sc (tree $(git -C "$R" rev-parse "$T:tools/sc"))"* ]]
	sed -i 's|tooling = tools/sc|tooling = tools/none|' "$R/.sphereceti"
	T=$(pcommit "wrong path")
	B=$T H=$T
	plan_fails "the tooling commit has no directory tools/none (profile.tooling)"
}

@test "profile.tooling: a Debian packager's debian/ and .pc/ change neither the built ID nor the comparison" {
	local src=$BATS_TEST_TMPDIR/src gen=$SC_BIN/gen/srctree-id
	[ -x "$gen" ] || skip "no build-time generator in SC_BIN"
	copy_sources "$src"
	# Outside a Git checkout the generator walks the folder: same ID as git's.
	want=$(sc-plan --version | sed -n 's/^source-tree sha1 //p')
	(cd "$src" && "$gen") >"$BATS_TEST_TMPDIR/plain.h"
	grep -q "SC_SRCTREE_SHA1 \"$want\"" "$BATS_TEST_TMPDIR/plain.h"
	mkdir -p "$src/debian/source" "$src/.pc"
	echo 'Source: sphereceti' >"$src/debian/control"
	echo '3.0 (quilt)' >"$src/debian/source/format"
	echo 'applied' >"$src/.pc/applied-patches"
	(cd "$src" && "$gen") >"$BATS_TEST_TMPDIR/packaged.h"
	grep -v '^/\*' "$BATS_TEST_TMPDIR/plain.h" >"$BATS_TEST_TMPDIR/a"
	grep -v '^/\*' "$BATS_TEST_TMPDIR/packaged.h" >"$BATS_TEST_TMPDIR/b"
	cmp "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
	# The same packaged folder vendored in T still matches this sc-plan.
	mkdir -p "$R/tools"
	cp -r "$src" "$R/tools/sc"
	printf '\ttooling = tools/sc\n' >>"$R/.sphereceti"
	T=$(pcommit "vendor the packaged profiler")
	B=$T H=$T
	plan
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	# ... while any other addition does change it.
	echo x >"$R/tools/sc/NOTES"
	T=$(pcommit "one more file")
	B=$T H=$T
	plan_fails "installed profiler sources (tree"
}

@test "--profiler-commit: a build from a clean checkout embeds its commit; an edit or an untracked source is no commit's build" {
	local src=$BATS_TEST_TMPDIR/src gen=$SC_BIN/gen/srctree-id
	[ -x "$gen" ] || skip "no build-time generator in SC_BIN"
	copy_sources "$src"
	git -C "$src" init -q
	git -C "$src" add -A
	git -C "$src" -c user.name=t -c user.email=t@t commit -q -m sources
	local c
	c=$(git -C "$src" rev-parse HEAD)
	(cd "$src" && "$gen") >"$BATS_TEST_TMPDIR/clean.h"
	grep -qx "#define SC_BUILD_COMMIT \"$c\"" "$BATS_TEST_TMPDIR/clean.h"
	# An ignored build folder changes nothing.
	mkdir -p "$src/build" && echo x >"$src/build/x.o"
	(cd "$src" && "$gen") | grep -qx "#define SC_BUILD_COMMIT \"$c\""
	# An untracked source (make would compile it) is no commit's build.
	echo 'int x;' >"$src/common/util/extra.c"
	(cd "$src" && "$gen") | grep -qx '#define SC_BUILD_COMMIT ""'
	rm "$src/common/util/extra.c"
	# Nor is an edited one.
	echo '/* local patch */' >>"$src/cmd/sc-plan.c"
	(cd "$src" && "$gen") | grep -qx '#define SC_BUILD_COMMIT ""'
}

@test "--profiler-commit: the pin must be this build's commit; the plan and the report record it" {
	local built
	built=$(sc-plan --version | sed -n 's/^build-commit //p')
	H=$T
	run --separate-stderr sc-plan --repo "$R" --tooling "$T" --base "$B" --head "$H" --profiler-commit nope
	assert_error_line sc-plan
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"not a full commit ID of sphereceti's repository: 'nope' (--profiler-commit)" ]]
	local pin=0123456789abcdef0123456789abcdef01234567
	run --separate-stderr sc-plan --repo "$R" --tooling "$T" --base "$B" --head "$H" --profiler-commit "$pin"
	assert_error_line sc-plan
	[ "$status" -eq 2 ]
	if [ "$built" = none ]; then
		[[ "$stderr" == *"this profiler was not built from a clean Git checkout of sphereceti, so it is no commit's build: build it from a checkout of $pin (git checkout $pin && make install) (--profiler-commit)" ]]
	else
		[[ "$stderr" == *"this profiler was built from commit $built, not the pinned $pin: build it from a checkout of $pin"* ]]
		run --separate-stderr sc-plan --repo "$R" --tooling "$T" --base "$B" --head "$H" --profiler-commit "$built"
		[ "$status" -eq 0 ]
		[ "$(jq -r .revisions.profiler <<<"$output")" = "$built" ]
	fi
	# Without the flag the plan has no such member, as before.
	plan
	[ "$(jq -r '.revisions | has("profiler")' <<<"$output")" = false ]
}

# ---- profile.sourceDir (Lake's srcDir; Config/LeanLib.lean) ----

@test "profile.sourceDir: roots and module names are relative to it; files elsewhere are not selected" {
	mkdir -p "$R/src/Lib/Sub"
	mv "$R/Lib/A.lean" "$R/src/Lib/A.lean"
	printf '\tsourceDir = src\n' >>"$R/.sphereceti"
	sed -i '1i srcDir = "src"' "$R/lakefile.toml"
	rm -rf "$R/Lib"
	T=$(pcommit "sources under src")
	B=$T
	echo 'def a := 2' >"$R/src/Lib/A.lean"
	echo 'def c := 1' >"$R/src/Lib/Sub/C.lean"
	mkdir -p "$R/tools" && echo 'def t := 1' >"$R/tools/T.lean"
	H=$(pcommit candidate)
	plan
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(jq -r '[.files[] | "\(.path)=\(.module)"] | join(" ")' <<<"$output")" = "src/Lib/A.lean=Lib.A src/Lib/Sub/C.lean=Lib.Sub.C" ]
	[ "$(jq -r .config.source_dir <<<"$output")" = src ]
	[ "$(files_of | head -n 1)" = "modified library src/Lib/A.lean" ]
}

@test "profile.sourceDir: a Lean file at a root's place outside it is refused (Lake: unknown module), not a failed prebuild" {
	printf '\tsourceDir = src\n' >>"$R/.sphereceti"
	mkdir -p "$R/src/Lib"
	echo 'def a := 1' >"$R/src/Lib/A.lean"
	T=$(pcommit "sourceDir src")
	B=$T
	echo 'def a := 2' >"$R/Lib/A.lean"
	H=$(pcommit candidate)
	plan_not_measured "Lib/A.lean is outside profile.sourceDir 'src': no library root covers its module"
	[ "$status" -ne 0 ]
}

@test "profile.sourceDir: default '.' keeps plans byte-identical; bad values are refused" {
	echo 'def a := 2' >"$R/Lib/A.lean"
	H=$(pcommit candidate)
	plan
	[ "$status" -eq 0 ]
	[ "$(jq -r '.config | has("source_dir")' <<<"$output")" = false ]
	printf '\tsourceDir = .\n' >>"$R/.sphereceti"
	T=$(pcommit "explicit .")
	B=$T
	echo 'def a := 3' >"$R/Lib/A.lean"
	H=$(pcommit candidate2)
	plan
	[ "$status" -eq 0 ]
	[ "$(jq -r '.files[0].module' <<<"$output")" = Lib.A ]
	for bad in ../up /abs 'a/../b'; do
		git -C "$R" config -f .sphereceti profile.sourceDir "$bad"
		T=$(pcommit "bad $bad")
		B=$T H=$T
		plan_fails "profile.sourceDir '$bad' is not a relative path"
	done
}

@test "a plan that cannot be written (stdout on a full disk) is a system failure: exit 3" {
	run --separate-stderr bash -c 'sc-plan --repo "$1" --tooling "$2" --base "$2" --head "$2" >/dev/full' - "$R" "$T"
	assert_error_line sc-plan
	[ "$status" -eq 3 ]
	grep -q 'cannot write the plan: no space left on device (stdout)' <<<"$stderr"
}

# ---- selected files must be modules of a lean_lib (Config/LeanLib.lean) ----

@test "lakefile.toml: a selected file no lean_lib builds is refused, naming file and module; with a lakefile.lean it is left to Lake" {
	printf 'name = "demo"\n\n[[lean_lib]]\nname = "Lib"\nglobs = ["Lib.A", "Lib.Sub.+"]\n' >"$R/lakefile.toml"
	T=$(pcommit "globs")
	B=$T
	echo 'def b := 2' >"$R/Lib/Sub/B.lean"
	H=$(pcommit "covered")
	plan
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	echo 'def r := 3' >"$R/Lib/Road/R.lean"
	H=$(pcommit "not covered")
	plan_not_measured "no lean_lib of lakefile.toml builds module Lib.Road.R from ., so Lib/Road/R.lean cannot be measured"
	# Lake reads lakefile.lean first: this reader does not judge it.
	git -C "$R" checkout -q "$T"
	echo '-- config' >"$R/lakefile.lean"
	T=$(pcommit "lakefile.lean")
	B=$T
	echo 'def r := 4' >"$R/Lib/Road/R.lean"
	H=$(pcommit "lean config")
	plan
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
}
