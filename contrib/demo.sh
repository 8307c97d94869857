#!/bin/bash
# make demo: install what is missing to build and run (not the test tools:
# `make check` installs those), build, profile the bundled example
# repository with the fixture toolchain, print report.md.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" = 0 ]; then
	bash contrib/install-deps.sh run
fi
make all fixture
tc=$PWD/build/fixture/toolchain
work=$(mktemp -d "${TMPDIR:-/tmp}/sphereceti-demo.XXXXXX")
# Run as root, the sandbox runs as nobody, which must reach (search, not
# read) the workspace and the fixture toolchain, e.g. in a checkout under /root.
chmod 0711 "$work"
if [ "$(id -u)" = 0 ]; then
	d=$tc
	while [ "$d" != / ]; do
		if [ -n "$(find "$d" -maxdepth 0 ! -perm -o=x)" ]; then
			echo "demo: giving the sandbox user search permission on $d" >&2
			chmod o+x "$d"
		fi
		d=$(dirname "$d")
	done
fi
bash contrib/example/make-example.sh "$work" "$tc"
# shellcheck disable=SC1091
. "$work/revs"
echo "demo: example repository $work/repo, tooling/base $T, head $H" >&2
rc=0
# Scaled-down thresholds (recorded in the report) so that the example's
# one-second regression shows as flagged; real runs use the defaults.
./build/sphereceti profile-run --repo "$work/repo" --tooling "$T" --base "$B" --head "$H" \
	--workspace "$work/run" --toolchain "$tc" --dependencies "$work/deps" \
	--threshold-delta 1 --threshold-added 5 || rc=$?
echo
echo "===== $work/run/report.md ====="
cat "$work/run/report.md"
exit "$rc"
