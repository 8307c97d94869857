# Shared start of the profile-run benchmarks: the example project of
# contrib/example with its prepared dependency, in a temporary folder.
# Sets here, W (removed on exit), TC, R (the repository, not committed) and
# sources the example helpers (ex_lean, ex_commit, ...).
: "${SC_BIN:?}" "${SC_FIXTURE:?}"
here=$(cd "$(dirname "$0")/../.." && pwd)
W=$(mktemp -d)
chmod 0711 "$W"  # run as root, the sandbox runs as nobody, which must reach the workspace
trap 'rm -rf "$W"' EXIT
# shellcheck source=../../contrib/example/example.bash
. "$here/contrib/example/example.bash"
export GIT_AUTHOR_NAME=Bench GIT_AUTHOR_EMAIL=bench@example.invalid
export GIT_COMMITTER_NAME=Bench GIT_COMMITTER_EMAIL=bench@example.invalid
TC=$SC_FIXTURE/toolchain
mkdir -p "$W/deps"
R=$W/repo
ex_project "$R" "$(ex_dependency "$W/deps" "$TC")"
