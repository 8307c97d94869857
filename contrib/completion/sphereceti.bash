# bash completion for sphereceti and its programs (sc-plan, sc-materialize,
# sc-sandbox-exec, sc-parse-time, sc-report, sc-profile-run, sc-merge,
# sc-setup, sc-doctor).
#
# Nothing here lists an option: each program prints its own option table
# (`PROGRAM --complete-options`: "--NAME KIND [repeat]" a line, KIND one of
# flag, dir, file, revision, number, text) and the dispatcher its commands
# (`sphereceti --complete-commands`), as git's --git-completion-helper
# does, so completion cannot drift from the tools.  Answers are cached per
# program for the shell's life.
#
# `make install` puts this file where bash-completion looks (its
# completionsdir, as sphereceti and one link per sc-* name); or source it
# from ~/.bashrc.

declare -gA _sphereceti_cache=()

# _sphereceti_ask PROGRAM ARGS...: PROGRAM's answer to ARGS (cached).
_sphereceti_ask() {
	local key="$*"
	if [[ -z ${_sphereceti_cache[$key]+set} ]]; then
		_sphereceti_cache[$key]=$("$@" 2>/dev/null) || _sphereceti_cache[$key]=""
	fi
	printf '%s\n' "${_sphereceti_cache[$key]}"
}

# _sphereceti_reply WORD...: COMPREPLY gets the words, one element each
# (names with spaces stay whole).
_sphereceti_reply() {
	COMPREPLY=()
	local w
	for w in "$@"; do
		[[ -n $w ]] && COMPREPLY+=("$w")
	done
}

# _sphereceti_values KIND CUR [PREFIX]: complete a value of that kind;
# PREFIX ("--opt=") is put back in front of each answer.
_sphereceti_values() {
	local kind=$1 cur=$2 prefix=${3:-} line
	local -a found=()
	# A value typed with an opening quote is matched without it.
	cur=${cur#[\"\']}
	case $kind in
	dir) mapfile -t found < <(compgen -d -- "$cur") ;;
	file) mapfile -t found < <(compgen -f -- "$cur") ;;
	*) COMPREPLY=(); return ;;
	esac
	# Folders get a slash, names are quoted, no space after a folder.
	compopt -o filenames 2>/dev/null
	COMPREPLY=()
	for line in "${found[@]}"; do
		COMPREPLY+=("$prefix$line")
	done
}

# _sphereceti_complete_for PROGRAM... START: complete COMP_WORDS[COMP_CWORD]
# for the program run by the words PROGRAM..., whose own arguments start at
# COMP_WORDS[START].
_sphereceti_complete_for() {
	local start=${*: -1}
	local -a prog=("${@:1:$#-1}")
	local cur=${COMP_WORDS[COMP_CWORD]} i
	# After "--" (sandbox-exec's command) the words are the command's.
	for ((i = start; i < COMP_CWORD; i++)); do
		if [[ ${COMP_WORDS[i]} == -- ]]; then
			if ((i + 1 == COMP_CWORD)); then
				mapfile -t COMPREPLY < <(compgen -c -- "$cur")
			else
				_sphereceti_values file "$cur"
			fi
			return
		fi
	done
	local -A kind=() repeat=()
	local name k r
	while read -r name k r; do
		[[ $name == --* ]] || continue
		kind[$name]=$k
		[[ $r == repeat ]] && repeat[$name]=1
	done < <(_sphereceti_ask "${prog[@]}" --complete-options)

	# The value of an option: "--opt VALUE", "--opt=VALUE" in one word, or
	# split at '=' by COMP_WORDBREAKS into "--opt" "=" "VALUE".
	local opt="" prefix=""
	if [[ $cur == --*=* ]]; then
		opt=${cur%%=*} prefix="$opt=" cur=${cur#*=}
	elif ((COMP_CWORD - 1 >= start)) && [[ ${COMP_WORDS[COMP_CWORD - 1]} == = ]] &&
		((COMP_CWORD - 2 >= start)); then
		opt=${COMP_WORDS[COMP_CWORD - 2]}
	elif [[ $cur == = ]] && ((COMP_CWORD - 1 >= start)); then
		opt=${COMP_WORDS[COMP_CWORD - 1]} cur=""
	elif ((COMP_CWORD - 1 >= start)); then
		local prev=${COMP_WORDS[COMP_CWORD - 1]}
		[[ $prev == --* && -n ${kind[$prev]:-} && ${kind[$prev]} != flag ]] && opt=$prev
	fi
	if [[ -n $opt ]]; then
		_sphereceti_values "${kind[$opt]:-text}" "$cur" "$prefix"
		return
	fi

	# Options not given yet (a repeatable one always).
	local -A given=()
	for ((i = start; i < COMP_CWORD; i++)); do
		given[${COMP_WORDS[i]%%=*}]=1
	done
	local -a offer=()
	for name in "${!kind[@]}"; do
		[[ -n ${given[$name]:-} && -z ${repeat[$name]:-} ]] && continue
		[[ $name == "$cur"* ]] && offer+=("$name")
	done
	_sphereceti_reply "${offer[@]}"
}

# The dispatcher: the first word is the program as typed (a path or a name
# on PATH).
_sphereceti() {
	local self=${COMP_WORDS[0]/#\~/$HOME}
	if ((COMP_CWORD == 1)); then
		local -a cmds
		mapfile -t cmds < <(_sphereceti_ask "$self" --complete-commands)
		mapfile -t COMPREPLY < <(compgen -W "${cmds[*]} --help --version" -- "${COMP_WORDS[1]}")
		return
	fi
	local cmd=${COMP_WORDS[1]}
	if [[ $cmd == help ]]; then
		if ((COMP_CWORD == 2)); then
			local -a cmds
			mapfile -t cmds < <(_sphereceti_ask "$self" --complete-commands)
			mapfile -t COMPREPLY < <(compgen -W "${cmds[*]}" -- "${COMP_WORDS[2]}")
		fi
		return
	fi
	[[ $cmd == version || $cmd == -* ]] && return
	_sphereceti_complete_for "$self" "$cmd" 2
}

# sc-plan, sc-report, ...: their own option tables.
_sphereceti_stage() {
	_sphereceti_complete_for "${COMP_WORDS[0]}" 1
}

complete -F _sphereceti sphereceti
complete -F _sphereceti_stage sc-plan sc-materialize sc-sandbox-exec sc-parse-time sc-report \
	sc-profile-run sc-merge sc-setup sc-doctor
