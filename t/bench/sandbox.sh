#!/usr/bin/env bash
# Cost of one sc-sandbox-exec invocation against bare bwrap with the same
# mounts and against bare `true`, measured in the same run.
# Env: SC_BIN, SC_FIXTURE (make bench); N (default 200).
set -euo pipefail
: "${SC_BIN:?}" "${SC_FIXTURE:?}"
N=${N:-200}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
TC="$SC_FIXTURE/toolchain"
mkdir -p "$W/tree" "$W/deps" "$W/raw"

# The mounts of common/sandbox_args.c, without GNU time and sc-init.
links=()
for d in /bin /sbin /lib /lib32 /lib64 /libx32; do
	if [ -L "$d" ]; then links+=(--symlink "$(readlink "$d")" "$d")
	elif [ -d "$d" ]; then links+=(--ro-bind "$d" "$d"); fi
done
bare_bwrap=(bwrap --unshare-all --cap-drop ALL --die-with-parent --new-session --clearenv
	--setenv PATH /toolchain/bin:/usr/bin:/bin --setenv HOME /tmp/home --ro-bind /usr /usr "${links[@]}"
	--ro-bind-try /etc/ld.so.cache /etc/ld.so.cache --proc /proc --dev /dev --tmpfs /tmp --dir /tmp/home
	--ro-bind "$TC" /toolchain --bind "$W/tree" /project --ro-bind "$W/deps" /project/.lake/packages
	--chdir /project -- /usr/bin/true)

# measure NAME CMD...: N timings in ms into $W/NAME (per-invocation, wall).
measure() {
	local name=$1 i t0 t1
	shift
	: > "$W/$name"
	for ((i = 0; i < N; i++)); do
		t0=$EPOCHREALTIME
		"$@" > /dev/null
		t1=$EPOCHREALTIME
		echo "$t0 $t1" >> "$W/$name"
	done
}
sbx() {
	"$SC_BIN/sc-sandbox-exec" --tree "$W/tree" --toolchain "$TC" --dependencies "$W/deps" \
		--time-file "$W/raw/$RANDOM$RANDOM$RANDOM.time" --timeout 30 -- true
}

# Interleave warm-up, then the three series.
measure warm sbx
measure true /usr/bin/true
measure bwrap "${bare_bwrap[@]}"
measure sbx sbx

# stats NAME -> "median p90" in ms
stats() {
	awk '{ printf "%.3f\n", ($2 - $1) * 1000 }' "$W/$1" | sort -n |
		awk '{ v[NR] = $1 } END { m = v[int((NR + 1) / 2)]; p = v[int(NR * 0.9 + 0.5)]; printf "%.3f %.3f", m, p }'
}
read -r t_m t_p <<< "$(stats true)"
read -r b_m b_p <<< "$(stats bwrap)"
read -r s_m s_p <<< "$(stats sbx)"
printf 'runs per series: %d\n' "$N"
printf '%-34s median %7.2f ms  p90 %7.2f ms\n' "bare true" "$t_m" "$t_p" \
	"bare bwrap (same mounts) true" "$b_m" "$b_p" "sc-sandbox-exec -- true" "$s_m" "$s_p"
awk -v sm="$s_m" -v sp="$s_p" -v bm="$b_m" -v bp="$b_p" -v tm="$t_m" 'BEGIN {
	printf "added over bare bwrap: median %.2f ms, p90 %.2f ms (goal: median < 3 ms)\n", sm - bm, sp - bp
	printf "ratio: sc-sandbox-exec / bare bwrap %.2fx, / bare true %.1fx\n", sm / bm, sm / tm
}'
