# bash completion for sphereceti and its stages (sc-plan, sc-materialize,
# sc-sandbox-exec, sc-parse-time, sc-report, sc-profile-run).
# Install: copy to /usr/share/bash-completion/completions/sphereceti (and
# link the sc-* names to it), or source it from ~/.bashrc.

# Options per program; a trailing '=' marks one that takes a value.
_sphereceti_opts() {
	case $1 in
	plan | profile-plan)
		echo "--repo= --tooling= --base= --head= --version --help" ;;
	profile-run)
		echo "--repo= --tooling= --base= --head= --workspace= --toolchain= --dependencies=" \
			"--prebuild-timeout= --sample-timeout= --phase-timeout= --bwrap=" \
			"--sandbox-user= --tmp-size= --max-procs=" \
			"--threshold-ratio= --threshold-delta= --threshold-added= --keep-logs --quiet --help" \
			"--version" ;;
	materialize)
		echo "--repo= --commit= --dest= --plan= --help" ;;
	sandbox-exec)
		echo "--tree= --toolchain= --dependencies= --time-file= --timeout= --log= --bwrap=" \
			"--sandbox-user= --tmp-size= --max-procs= --self-test --check-bwrap=" ;;
	parse-time)
		echo "--time-file= --status= --run-id= --plan-digest= --revision= --sample=" \
			"--unmeasured= --detail=" ;;
	report)
		echo "--plan= --samples= --out-dir= --run-id= --lean-version= --lean-sha256=" \
			"--lake-sha256= --sandbox-user= --threshold-ratio= --threshold-delta= --threshold-added=" \
			"--help --version" ;;
	esac
}

_sphereceti_commands="profile-plan profile-run plan materialize sandbox-exec parse-time report help"

# _sphereceti_complete_for PROGRAM: complete COMP_WORDS[COMP_CWORD] for a
# program whose own options start at COMP_WORDS[$2].
_sphereceti_complete_for() {
	local prog=$1 cur=${COMP_WORDS[COMP_CWORD]} prev=""
	((COMP_CWORD > $2)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
	# After "--" (sandbox-exec's command) nothing is ours.
	local i
	for ((i = $2; i < COMP_CWORD; i++)); do
		[[ ${COMP_WORDS[i]} == -- ]] && { COMPREPLY=($(compgen -c -- "$cur")); return; }
	done
	case $prev in
	--repo | --workspace | --toolchain | --dependencies | --tree | --dest | --out-dir)
		COMPREPLY=($(compgen -d -- "$cur"))
		return ;;
	--plan | --samples | --time-file | --status | --bwrap | --log)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	--tooling | --base | --head | --commit | --timeout | --*-timeout | --threshold-* | \
		--run-id | --plan-digest | --revision | --sample | --unmeasured | --detail | \
		--lean-version | --lean-sha256 | --lake-sha256 | --check-bwrap | --sandbox-user | \
		--tmp-size | --max-procs)
		COMPREPLY=()
		return ;;
	esac
	local opts
	opts=$(_sphereceti_opts "$prog")
	COMPREPLY=($(compgen -W "${opts//=/}" -- "$cur"))
}

_sphereceti() {
	if ((COMP_CWORD == 1)); then
		COMPREPLY=($(compgen -W "$_sphereceti_commands --version --help" -- "${COMP_WORDS[1]}"))
		return
	fi
	local cmd=${COMP_WORDS[1]}
	if [[ $cmd == help ]]; then
		((COMP_CWORD == 2)) && COMPREPLY=($(compgen -W "${_sphereceti_commands% help}" -- "${COMP_WORDS[2]}"))
		return
	fi
	_sphereceti_complete_for "$cmd" 2
}

# sc-plan, sc-report, ...: the same options as "sphereceti plan", ...
_sphereceti_stage() {
	local prog=${COMP_WORDS[0]##*/}
	_sphereceti_complete_for "${prog#sc-}" 1
}

complete -F _sphereceti sphereceti
complete -F _sphereceti_stage sc-plan sc-materialize sc-sandbox-exec sc-parse-time sc-report \
	sc-profile-run
