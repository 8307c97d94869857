#!/usr/bin/env bash
# Cost of one sc-sandbox-exec invocation against bare bwrap with the same
# mounts and against bare `true`, measured in the same run.  With
# SC_BIN_BEFORE (a build folder of an older sc-sandbox-exec, e.g. of
# 13ff906, main before the sealed measurement) that one is
# measured in the same run too, alternating, called alone and as
# profile-run calls it, and each difference is held to its goal: at most
# GOAL_MS (default 3) ms median.  The third round of sealing (the task
# clock compared, kernel-wide pools, inodes, the bounded tmpfs made by the
# host step) is held to 1 ms over 8ec424e, the build before it:
#   SC_BIN_BEFORE=<build of 8ec424e> GOAL_MS=1 make bench
# Also measured: what the chain costs by design (GNU time, and a static
# program for sc-confine and sc-pid1), the call as profile-run makes
# it for each sample, with the run's uid passed as --sandbox-user UID:GID
# (profile-run allocates it once per run; sc-sandbox-exec alone allocates
# one per call, which costs an NSS lookup of the uid and the group, i.e.
# loading libnss_systemd),
# and each series' CPU per run, which load from elsewhere disturbs less
# than wall time.
# Env: SC_BIN, SC_FIXTURE (make bench); N (default 200); SC_BIN_BEFORE;
# GOAL_MS.
set -euo pipefail
rc=0
N=${N:-200}
GOAL_MS=${GOAL_MS:-3}
# shellcheck source=sandbox-env.bash
. "$(dirname "$0")/sandbox-env.bash"

# cpu_us FILE: the CPU (user + sys, microseconds) of every process this
# shell has reaped so far, each with all it reaped in turn (the whole
# chain, sandbox included), into FILE.  Never in $(...): `times` in a
# subshell starts at 0.
cpu_us() {
	times > "$W/times"
	awk 'NR == 2 {
		t = 0
		for (i = 1; i <= 2; i++) { split($i, p, /[ms]/); t += p[1] * 60 + p[2] }
		printf "%d\n", t * 1e6
	}' "$W/times" > "$1"
}

# measure NAME CMD...: N timings in ms into $W/NAME (per-invocation, wall),
# and the series' CPU per invocation in ms into $W/NAME.cpu.  CPU time
# is what a loaded machine (other suites on the same cores) disturbs least.
measure() {
	local name=$1 i t0 t1
	shift
	: > "$W/$name"
	cpu_us "$W/c0"
	for ((i = 0; i < N; i++)); do
		t0=$EPOCHREALTIME
		"$@" > /dev/null
		t1=$EPOCHREALTIME
		echo "$t0 $t1" >> "$W/$name"
	done
	cpu_us "$W/c1"
	cat "$W/c0" "$W/c1" | awk -v n="$N" '{ c[NR] = $1 } END { printf "%.3f\n", (c[2] - c[1]) / n / 1000 }' > "$W/$name.cpu"
}
sbx() { sbx_of "$SC_BIN"; }
sbx_before() { sbx_of "$SC_BIN_BEFORE"; }
sbxu_before() { sbx_of "$SC_BIN_BEFORE" --sandbox-user 65534:65534; }
# as profile-run calls it; nobody stands in for the run's own uid
sbx_user() { sbx_of "$SC_BIN" --sandbox-user 65534:65534; }
sbx_of() {
	"$1/sc-sandbox-exec" "${@:2}" --tree "$W/tree" --toolchain "$TC" --dependencies "$W/deps" \
		--time-file "$W/raw/$RANDOM$RANDOM$RANDOM.time" --timeout 30 -- true
}

# Interleave warm-up, then the three series.
measure warm sbx
measure true /usr/bin/true
measure bwrap "${bare_bwrap[@]}"
# What the chain costs by design, one process each beyond bare bwrap:
# GNU time (the only counter we trust), sc-confine and sc-pid1 (static).
measure gnutime /usr/bin/time -o /dev/null /usr/bin/true
measure static "$SC_BIN/sc-pid1" --version
if [ -n "${SC_BIN_BEFORE:-}" ]; then
	# alternating, so that load from elsewhere falls on both alike
	# both called alone, then both as profile-run calls them
	: > "$W/sbx"
	: > "$W/before"
	: > "$W/sbxu"
	: > "$W/beforeu"
	for ((i = 0; i < N; i++)); do
		for s in sbx:sbx sbx_before:before sbx_user:sbxu sbxu_before:beforeu; do
			t0=$EPOCHREALTIME; "${s%%:*}" > /dev/null; t1=$EPOCHREALTIME
			echo "$t0 $t1" >> "$W/${s#*:}"
		done
	done
else
	measure sbx sbx
	measure sbxu sbx_user
fi

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
if [ -n "${SC_BIN_BEFORE:-}" ]; then
	read -r o_m o_p <<< "$(stats before)"
	read -r ou_m ou_p <<< "$(stats beforeu)"
	read -r su_m su_p <<< "$(stats sbxu)"
	printf '%-34s median %7.2f ms  p90 %7.2f ms\n' "before (SC_BIN_BEFORE) -- true" "$o_m" "$o_p" \
		"this, --sandbox-user UID:GID" "$su_m" "$su_p" "before, --sandbox-user UID:GID" "$ou_m" "$ou_p"
	# The sealing adds at most GOAL_MS over the build before it
	awk -v sm="$s_m" -v om="$o_m" -v um="$su_m" -v oum="$ou_m" -v g="$GOAL_MS" 'BEGIN {
		printf "this over before: median %.2f ms called alone, %.2f ms as profile-run calls it (goal: at most %s ms)\n", sm - om, um - oum, g
		exit !(sm - om <= g && um - oum <= g)
	}' || rc=1
fi
read -r g_m _ <<< "$(stats gnutime)"
read -r x_m _ <<< "$(stats static)"
printf '%-34s median %7.2f ms\n' "GNU time -- true" "$g_m" "static exec (sc-pid1 --version)" "$x_m"
awk -v sm="$s_m" -v bm="$b_m" -v tm="$t_m" -v gm="$g_m" -v xm="$x_m" 'BEGIN {
	chain = (gm - tm) + 2 * xm
	printf "the chain by design (GNU time + sc-confine + sc-pid1): %.2f ms; the rest of the added: %.2f ms\n", chain, sm - bm - chain
}'
awk -v sm="$s_m" -v sp="$s_p" -v bm="$b_m" -v bp="$b_p" -v tm="$t_m" 'BEGIN {
	printf "added over bare bwrap: median %.2f ms, p90 %.2f ms (goal: median < 3 ms)\n", sm - bm, sp - bp
	printf "ratio: sc-sandbox-exec / bare bwrap %.2fx, / bare true %.1fx\n", sm / bm, sm / tm
}'
# (with SC_BIN_BEFORE the series alternate: no CPU per series)
if [ -e "$W/sbx.cpu" ]; then
read -r u_m u_p <<< "$(stats sbxu)"
printf '%-34s median %7.2f ms  p90 %7.2f ms\n' "... --sandbox-user UID:GID -- true" "$u_m" "$u_p"
awk -v um="$u_m" -v up="$u_p" -v bm="$b_m" -v bp="$b_p" 'BEGIN {
	printf "added over bare bwrap, as profile-run calls it: median %.2f ms, p90 %.2f ms\n", um - bm, up - bp
}'
awk -v s="$(cat "$W/sbx.cpu")" -v u="$(cat "$W/sbxu.cpu")" -v b="$(cat "$W/bwrap.cpu")" -v t="$(cat "$W/true.cpu")" 'BEGIN {
	printf "CPU per run (user + sys, whole chain): true %.2f ms, bare bwrap %.2f ms, sc-sandbox-exec %.2f ms, with --sandbox-user %.2f ms\n", t, b, s, u
	printf "CPU added over bare bwrap: %.2f ms (%.2fx); with --sandbox-user %.2f ms (%.2fx)\n", s - b, s / b, u - b, u / b
}'
fi
exit $rc
