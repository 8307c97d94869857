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
# What ends one statement and starts the next; after if/elif/while/until
# comes a condition, where a failing check is meant.
SEPARATOR = re.compile(r";;|;|(?<![&>|])&(?![&>])|(?<![$\w])[{}()](?![\w])|"
                       r"\b(?:then|do|else|elif|if|while|until)\b")


def blank(text):
    """The text with quoted strings, expansions, command substitutions,
    comments and here-document bodies replaced by '_' (newlines kept), so
    that what is left is the top-level shell syntax."""
    return Blanker(text).run()


class Blanker:
    """A context stack: N top level, S '...', A $'...', D "...", C $(...),
    P ${...}, B `...`; only what is read at top level stays visible."""
    CLOSE = {"S": "'", "A": "'", "D": '"', "B": "`"}

    def __init__(self, text):
        self.text, self.out, self.i = text, [], 0
        self.stack, self.depth, self.heredocs = ["N"], [], []

    def emit(self, shown, width):
        self.out.append(shown if len(self.stack) == 1 else "_" * width)
        self.i += width

    def run(self):
        while self.i < len(self.text):
            c, top = self.text[self.i], self.stack[-1]
            if c == "\n":
                self.out.append("\n")
                self.i += 1
                if self.heredocs and self.stack == ["N"]:
                    self.i = skip_heredocs(self.text, self.i, self.heredocs, self.out)
            elif top in ("S", "A", "B"):
                self.quoted(c, top)
            elif top == "D" and not self.opens(c):
                self.quoted(c, top)
            else:
                self.code(c, top)
        return "".join(self.out)

    def quoted(self, c, top):
        if c == "\\" and top != "S":
            self.out.append("_" * len(self.text[self.i:self.i + 2]))
            self.i += 2
            return
        if c == self.CLOSE[top]:
            self.stack.pop()
        self.out.append("_")
        self.i += 1

    def opens(self, c):
        """c starts an expansion or a substitution ($( ${ `)."""
        nxt = self.text[self.i + 1:self.i + 2]
        return c == "`" or (c == "$" and nxt in ("(", "{"))

    def code(self, c, top):
        t, i = self.text, self.i
        nxt = t[i + 1:i + 2]
        if c == "\\" and nxt:
            self.emit(t[i:i + 2], 2)
        elif c == "#" and top != "D" and (i == 0 or t[i - 1] in " \t\n;"):
            j = t.find("\n", i)
            j = len(t) if j < 0 else j
            self.out.append(" " * (j - i))
            self.i = j
        elif c == "<" and t.startswith("<<", i) and not t.startswith("<<<", i) and self.heredoc():
            pass
        elif c == "$" and nxt in ("(", "{") or (c == "$" and nxt == "'" and top != "D"):
            kind = {"(": "C", "{": "P", "'": "A"}[nxt]
            # "$_" marks a command substitution (local-subst), "${" not
            self.emit({"C": "$_", "P": "${", "A": "$'"}[kind], 2)
            self.stack.append(kind)
            if kind != "A":
                self.depth.append(1)
        elif c == "`" or c in "'\"" and top != "D":
            self.emit("_", 1)
            self.stack.append({"`": "B", "'": "S", '"': "D"}[c])
        else:
            self.emit(c, 1)
            self.nest(c, top)

    def heredoc(self):
        m = re.match(r"<<(-?)\s*(['\"]?)([A-Za-z_][\w.-]*)\2", self.text[self.i:])
        if m:
            self.heredocs.append((m.group(3), m.group(1) == "-"))
            self.emit(m.group(0), len(m.group(0)))
        return m

    def nest(self, c, top):
        """Count brackets inside $( ) and ${ }; the last one closes it."""
        if top not in ("C", "P"):
            return
        opener, closer = ("(", ")") if top == "C" else ("{", "}")
        if c == opener:
            self.depth[-1] += 1
        elif c == closer:
            self.depth[-1] -= 1
            if self.depth[-1] == 0:
                self.depth.pop()
                self.stack.pop()


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
        parts, keys = SEPARATOR.split(line), SEPARATOR.findall(line)
        cond = False
        for k, part in enumerate(parts):
            text = part.strip()
            if text:
                out.append((no, text, cond))
            cond = k < len(keys) and keys[k] in ("if", "elif", "while", "until")
    return out


def shell_findings(code):
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
            if re.search(r"(?<!\|)\|(?!\|)", re.split(r"&&|\|\|", rest)[0]):
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
        # the checkout's own path, not a longer name it is a prefix of
        pats.append(re.escape(root) + r"(?![\w.-])")
    rx = re.compile("|".join(pats))
    return [(no, "abs-path", f"names a checkout's absolute path: {m.group(0)}")
            for no, line in enumerate(raw.split("\n"), 1) for m in [rx.search(line)] if m]


def lint(path, root, shell):
    with open(path, "rb") as f:
        data = f.read()
    raw = data.decode("utf-8", "replace")
    found = path_findings(raw, root)
    if shell and b"\0" not in data:
        found += shell_findings(blank(raw))
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
