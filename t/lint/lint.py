#!/usr/bin/python3
"""Lint the test suites for shapes that make an assertion unable to fail.

bats runs a test body under `set -e`, and bash ignores `set -e` for a
command negated with `!` and for every command of an `A && B` list but the
last; a pipeline's status is its last command's (no pipefail); `local x=$(f)`
takes `local`'s status, not f's.  Ordering events by `sleep` is a race.  A
path of one checkout (/work/..., /home/USER/...) makes  # lint-allow: abs-path the rule's own text another clone test a
different copy.

  lint.py            lint this checkout: t/*.bats, t/lib/*.bash, t/helpers.bash
                     (shell rules) and every tracked file under t/, contrib/,
                     .ci/ and the Makefile (absolute paths); the lint's own
                     bad sample is left out
  lint.py FILE...    lint these files (shell rules for *.bats, *.bash,
                     *.bats.txt; the path rule for all)

Each finding is one line "FILE:LINE: RULE: what"; exit 1 if any.  A line may
carry `# lint-allow: RULE why` to accept one finding of RULE there (the
reason is required).  Rules:

  bang        a statement `! cmd`, or `! cmd` after && or || (set -e ignores
              every `!`: use `run ! cmd`, or `if cmd; then false; fi`)
  and-chain   a statement starting with a check ([, [[, test, grep, cmp,
              diff, assert_*) followed by `&&` (one assertion per line; a
              condition is written as `if`)
  pipe-check  a statement whose first command is a check and which pipes on
              (only the last command's status counts)
  local-subst local/declare/export/readonly NAME=$(...) (the status is lost)
  run-wait    `run wait PID` (run's subshell is not PID's parent: its status
              is a race)
  sleep       `sleep` as a command (wait for a readiness signal: wait_for in
              t/helpers.bash)
  abs-path    a path of a checkout: /work/..., /home/USER/..., this checkout  # lint-allow: abs-path its text
"""
import os
import re
import subprocess
import sys

CHECK = r"(\[\[?|test|grep|cmp|diff|assert_\w+)"
ALLOW = re.compile(r"#\s*lint-allow:\s*([\w-]+)\s+\S")
SHELL_SUFFIXES = (".bats", ".bash", ".bats.txt")


def blank(text):
    """The text with quoted strings, expansions, command substitutions,
    comments and here-document bodies replaced by '_' (newlines kept), so
    that what is left is the top-level shell syntax."""
    out = []
    stack = ["N"]      # N top, S '...', A $'...', D "...", C $(...), P ${...}, B `...`
    depth = []         # paren/brace depth per C/P context
    heredocs = []      # pending (delimiter, strip_tabs)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        top = stack[-1]
        code = top in ("N", "C")
        if c == "\n":
            out.append("\n")
            i += 1
            if heredocs and stack == ["N"]:
                i = skip_heredocs(text, i, heredocs, out)
            continue
        visible = len(stack) == 1
        if top == "S":
            if c == "'":
                stack.pop()
            out.append("_")
            i += 1
            continue
        if top in ("A", "D", "B") and c == "\\":
            out.append("__"[: min(2, n - i)])
            i += 2
            continue
        if top == "A":
            if c == "'":
                stack.pop()
            out.append("_")
            i += 1
            continue
        if code and c == "\\" and i + 1 < n:
            out.append("\\" + text[i + 1] if visible else "__")
            i += 2
            continue
        if code and c == "#" and (i == 0 or text[i - 1] in " \t\n;"):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
            continue
        if code and text.startswith("<<", i) and not text.startswith("<<<", i):
            m = re.match(r"<<(-?)\s*(['\"]?)([A-Za-z_][\w.-]*)\2", text[i:])
            if m:
                heredocs.append((m.group(3), m.group(1) == "-"))
                out.append(m.group(0) if visible else "_" * len(m.group(0)))
                i += len(m.group(0))
                continue
        if top in ("N", "C", "D", "P") and c == "$" and i + 1 < n and text[i + 1] in "({'":
            kind = {"(": "C", "{": "P", "'": "A"}[text[i + 1]]
            if kind == "A" and top == "D":
                out.append("_")
                i += 1
                continue
            stack.append(kind)
            depth.append(1)
            # "$_" marks a command substitution (local-subst), "${" not
            out.append(("$_" if kind == "C" else "${") if visible else "__")
            i += 2
            continue
        if top in ("N", "C", "D", "P") and c == "`":
            stack.append("B")
            out.append("_")
            i += 1
            continue
        if top == "B":
            if c == "`":
                stack.pop()
            out.append("_")
            i += 1
            continue
        if top in ("N", "C", "P") and c in "'\"":
            stack.append("S" if c == "'" else "D")
            out.append("_")
            i += 1
            continue
        if top == "D":
            if c == '"':
                stack.pop()
            out.append("_")
            i += 1
            continue
        if top in ("C", "P"):
            opener, closer = ("(", ")") if top == "C" else ("{", "}")
            if c == opener:
                depth[-1] += 1
            elif c == closer:
                depth[-1] -= 1
                if depth[-1] == 0:
                    depth.pop()
                    stack.pop()
        out.append(c if visible else "_")
        i += 1
    return "".join(out)


def skip_heredocs(text, i, heredocs, out):
    """Blank the bodies of the here-documents pending at a newline."""
    while heredocs:
        delim, strip = heredocs.pop(0)
        while i < len(text):
            j = text.find("\n", i)
            j = len(text) if j < 0 else j
            line = text[i:j]
            out.append("_" * len(line) + ("\n" if j < len(text) else ""))
            i = j + 1
            if (line.lstrip("\t") if strip else line) == delim:
                break
    return i


def statements(code):
    """(line, text, is_condition) for each simple or listed statement of
    the blanked code."""
    # Join lines continued by a backslash or an operator, remembering where
    # each logical line starts.
    lines = code.split("\n")
    logical, start, buf = [], 0, ""
    for no, line in enumerate(lines, 1):
        if not buf:
            start = no
        s = line.rstrip()
        if s.endswith("\\"):
            buf += s[:-1] + " "
            continue
        buf += line
        if re.search(r"(&&|\|\||\|)\s*$", s):
            buf += " "
            continue
        logical.append((start, buf))
        buf = ""
    if buf:
        logical.append((start, buf))
    out = []
    for no, line in logical:
        parts = re.split(r";;|;|(?<![&>|])&(?![&>])|(?<![$\w])[{}()](?![\w])|"
                         r"\b(?:then|do|else|elif|if|while|until)\b", line)
        # Re-scan to know which pieces follow a condition keyword.
        keys = re.findall(r";;|;|(?<![&>|])&(?![&>])|(?<![$\w])[{}()](?![\w])|"
                          r"\b(?:then|do|else|elif|if|while|until)\b", line)
        cond = False
        for k, part in enumerate(parts):
            text = part.strip()
            if text:
                out.append((no, text, cond))
            cond = k < len(keys) and keys[k] in ("if", "elif", "while", "until")
    return out


def shell_findings(raw, code):
    found = []
    for no, text, cond in statements(code):
        if cond:
            continue
        if re.match(r"!\s", text) or re.search(r"(&&|\|\|)\s*!\s", text):
            found.append((no, "bang", "`! cmd` never fails a test under set -e: use `run ! cmd`"))
        m = re.match(CHECK + r"(\s|$)", text)
        if m:
            rest = text
            if m.group(1) == "[[":
                end = text.find("]]")
                rest = text[end + 2:] if end >= 0 else ""
            if "&&" in rest:
                found.append((no, "and-chain",
                              "a check before `&&` is never asserted: one assertion per line, or `if`"))
            if re.search(r"(?<!\|)\|(?!\|)", rest):
                found.append((no, "pipe-check", "a check piped on: only the pipeline's last status counts"))
        if re.match(r"(local|declare|typeset|export|readonly)\s.*=\$_", text):
            found.append((no, "local-subst", "`local x=$(cmd)` hides cmd's status: declare, then assign"))
        if re.match(r"run\s+(!\s+)?wait(\s|$)", text):
            found.append((no, "run-wait", "`run wait` runs in a subshell, which is no process's parent: "
                          "`wait PID || rc=$?`"))
        if re.match(r"sleep(\s|$)", text):
            found.append((no, "sleep", "ordering by sleep is a race: wait_for a readiness signal"))
    return found


def path_findings(raw, root):
    pats = [r"(?<![\w./-])/work/", r"(?<![\w./-])/home/[^/\s\"'$]+/"]  # lint-allow: abs-path the rule itself
    if root and root != "/":
        pats.append(re.escape(root))
    rx = re.compile("|".join(pats))
    return [(no, "abs-path", f"names a checkout's absolute path: {m.group(0)}")
            for no, line in enumerate(raw.split("\n"), 1) for m in [rx.search(line)] if m]


def lint(path, root, shell):
    with open(path, "rb") as f:
        data = f.read()
    raw = data.decode("utf-8", "replace")
    found = path_findings(raw, root)
    if shell and b"\0" not in data:
        found += shell_findings(raw, blank(raw))
    lines = raw.split("\n")
    bad = []
    for no, rule, what in sorted(found):
        allowed = [m.group(1) for m in ALLOW.finditer(lines[no - 1])]
        if rule not in allowed:
            bad.append(f"{path}:{no}: {rule}: {what}")
    return bad


def checkout_files(root):
    try:
        names = subprocess.run(["git", "-C", root, "ls-files", "-z", "--", "t", "contrib", ".ci", "Makefile"],
                               check=True, capture_output=True).stdout.decode().split("\0")
    except (OSError, subprocess.CalledProcessError):
        names = []
        for top in ("t", "contrib", ".ci"):
            for d, _, fs in os.walk(os.path.join(root, top)):
                names += [os.path.relpath(os.path.join(d, f), root) for f in fs]
        names.append("Makefile")
    names = [x for x in names if x and not x.startswith("t/lint/bad-")]
    return sorted(os.path.join(root, x) for x in names if os.path.isfile(os.path.join(root, x)))


def main(argv):
    root = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    given = argv[1:]
    tests = os.path.join(root, "t") + os.sep
    bad = []
    for f in given or checkout_files(root):
        bad += lint(f, root, shell=f.endswith(SHELL_SUFFIXES) and (bool(given) or f.startswith(tests)))
    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
