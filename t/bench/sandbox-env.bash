# Shared start of the sandbox benchmarks: a tree, dependencies and a raw
# folder in a temporary folder W (removed on exit), the fixture toolchain
# TC, and bare_bwrap: bwrap with the mounts of common/sandbox/sandbox_args.c,
# without GNU time and sc-pid1, running true.
: "${SC_BIN:?}" "${SC_FIXTURE:?}"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
TC="$SC_FIXTURE/toolchain"
mkdir -p "$W/tree" "$W/deps" "$W/raw"
# Run as root, the sandbox runs as nobody: it must reach and write the tree.
chmod 0711 "$W"
mkdir -p "$W/tree/.lake/packages"
chmod -R 0777 "$W/tree"

links=()
for d in /bin /sbin /lib /lib32 /lib64 /libx32; do
	if [ -L "$d" ]; then links+=(--symlink "$(readlink "$d")" "$d")
	elif [ -d "$d" ]; then links+=(--ro-bind "$d" "$d"); fi
done
# shellcheck disable=SC2034 # for the script that sources us
bare_bwrap=(bwrap --unshare-all --cap-drop ALL --die-with-parent --new-session --clearenv
	--setenv PATH /toolchain/bin:/usr/bin:/bin --setenv HOME /tmp/home --ro-bind /usr /usr "${links[@]}"
	--ro-bind-try /etc/ld.so.cache /etc/ld.so.cache --proc /proc --dev /dev --tmpfs /tmp --dir /tmp/home
	--ro-bind "$TC" /toolchain --bind "$W/tree" /project --ro-bind "$W/deps" /project/.lake/packages
	--chdir /project -- /usr/bin/true)
