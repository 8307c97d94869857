# GitHub as the recipe replays see it (t/github.bats, t/recipe/check.sh).
# shellcheck shell=bash
# github_origin SRC DIR TOOLCHAIN: in DIR, the example project
# (contrib/example) with SRC's tree vendored at tools/sphereceti and
# profile.tooling set (main = B = T), a bare repository DIR/origin.git
# standing in for GitHub (refs/pull/7/head = H), and DIR/cache-store
# holding the prepared dependencies under the key the workflows compute
# from B's lean-toolchain and lake-manifest.json.  Sets B, H and KEY;
# commits as the caller's GIT_* identity; needs contrib/example/example.bash.
github_origin() {
	local src=$1 dir=$2 tc=$3
	local ex=$dir/example
	mkdir -p "$dir"
	bash "$src/contrib/example/make-example.sh" "$ex" "$tc" >/dev/null
	# shellcheck disable=SC1091
	. "$ex/revs"
	local r=$ex/repo
	mkdir -p "$r/tools/sphereceti"
	(cd "$src" && git ls-files -co --exclude-standard -z | xargs -0 cp -a --parents -t "$r/tools/sphereceti")
	printf '\ttooling = tools/sphereceti\n' >"$dir/tooling"
	sed -i "/^\\[profile\\]/r $dir/tooling" "$r/.sphereceti"
	B=$(ex_commit "$r" "vendor sphereceti")
	git clone -q --bare "$r" "$dir/origin.git"
	git -C "$dir/origin.git" update-ref refs/pull/7/head "$H"
	KEY=sphereceti-deps-v2-Linux-$(git -C "$r" rev-parse "$B:lean-toolchain")-$(git -C "$r" rev-parse "$B:lake-manifest.json")
	mkdir -p "$dir/cache-store/$KEY/packages"
	cp -a "$ex/deps/tinylib" "$dir/cache-store/$KEY/packages/"
}
