#!/bin/bash
# make demo: install what is missing to build and run (not the test tools:
# `make check` installs those), build, profile the bundled example
# repository with the fixture toolchain, print the report as plain text.
#
# It touches only what it makes: one demo folder, holding an installed
# copy of sphereceti, the fixture toolchain, the example and the run, with
# the modes the sandbox needs.  Run as root, the sandbox runs as a uid of
# its own, which must reach that folder: when a folder above it is closed
# (TMPDIR under /root), the demo says so and where else to run, and
# changes nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" = 0 ]; then
	bash contrib/install-deps.sh run
fi
# Two demos at once share the build: each builds and installs under a
# lock of the tree's own (make would race on the same outputs).
exec 9<Makefile
flock 9
make all fixture
parent=${TMPDIR:-/tmp}
if [ "$(id -u)" = 0 ]; then
	d=$(cd "$parent" && pwd -P)
	while [ "$d" != / ]; do
		if [ -n "$(find "$d" -maxdepth 0 ! -perm -o=x)" ]; then
			echo "demo: error: the sandbox's user cannot pass $d (mode $(stat -c %a "$d")), above the demo folder; run the demo where it can, e.g. TMPDIR=/tmp make demo (nothing was changed) ($parent)" >&2
			exit 1
		fi
		d=$(dirname "$d")
	done
fi
work=$(mktemp -d "$parent/sphereceti-demo.XXXXXX")
# search, not read, for the sandbox's user; everything below is ours
chmod 0711 "$work"
# DESTDIR only: the build keeps its own paths (a prefix would rebuild it)
make --no-print-directory install DESTDIR="$work/sphereceti" >/dev/null
flock -u 9
cp -a build/fixture/toolchain "$work/toolchain"
chmod -R go+rX "$work/toolchain"
sc=$(find "$work/sphereceti" -path '*/bin/sphereceti' -type f)
bash contrib/example/make-example.sh "$work/example" "$work/toolchain"
# shellcheck disable=SC1091
. "$work/example/revs"
echo "demo: example repository $work/example/repo, tooling/base $T, head $H" >&2
rc=0
# Scaled-down thresholds (recorded in the report) so that the example's
# one-second regression shows as flagged; real runs use the defaults.
"$sc" profile-run --repo "$work/example/repo" --tooling "$T" --base "$B" --head "$H" \
	--workspace "$work/run" --toolchain "$work/toolchain" --dependencies "$work/example/deps" \
	--threshold-delta 1 --threshold-added 5 || rc=$?
echo
echo "===== $work/run/report.txt (report.md: the same for GitHub) ====="
cat "$work/run/report.txt"
echo "demo: everything it made is in $work (rm -rf it when done)" >&2
exit "$rc"
