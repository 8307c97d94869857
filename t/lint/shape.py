#!/usr/bin/python3
"""Check the shape of the house (common/README): cmd/ files are an
option table and calls, functions stay short, every program parses its
options with the one table, and no reader guards a strbuf that is never
NULL.

  shape.py          check cmd/ and common/ of this checkout
  shape.py DIR      check DIR/cmd and DIR/common

Rules, each finding one line "shape: error: what (where)"; exit 1 if any:
  cmd-length   a cmd/*.c file but the standalone ones (STANDALONE: they
               run around or inside the sandbox, without the library) has
               more than CMD_MAX lines
  fn-length    a function in cmd/ or common/ spans more than FN_MAX lines,
               its signature and braces included
  one-table    a cmd/*.c file but the standalone ones does not call sc_parse_options,
               or any file but util/options.c includes <getopt.h>
  strbuf-null  `X.buf ? X.buf : ...`: strbuf's buf is never NULL
  flag-words   a string in common/ names an option of a cmd/ option table
               among other words: a library says what is wrong with a
               value, the program that owns the option names it
               (Documentation/architecture.txt "Layers").  A string that
               is the flag alone, "--NAME" or "--NAME=%s", is an argv
               element for a spawned stage, not a message
"""
import os
import re
import sys

CMD_MAX = 250
FN_MAX = 80
STANDALONE = {"sc-confine.c", "sc-pid1.c", "sc-sandbox-probe.c"}
NAME = re.compile(r"^[A-Za-z_].*?\b(\w+)\s*\(")
OPTION = re.compile(r'SC_OPT_\w+\(\s*(?:(?:0|\'.\')\s*,\s*)?"([a-z0-9-]+)"')
STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
GUARD = re.compile(r"([\w.>-]+)\.buf \? \1\.buf :|([\w.>-]+)->buf \? \2->buf :")


def functions(lines):
    """(name, first line, last line), 1-based, of every function: a body
    opens with "{" in column 0 and closes with "}" in column 0."""
    i = 0
    while i < len(lines):
        if lines[i].startswith("{"):
            j = i - 1
            while j >= 0 and not NAME.match(lines[j]):
                j -= 1
            k = i + 1
            while k < len(lines) and not lines[k].startswith("}"):
                k += 1
            if j >= 0:
                yield NAME.match(lines[j]).group(1), j + 1, k + 1
            i = k
        i += 1


def sources(root):
    for sub in ("cmd", "common"):
        top = os.path.join(root, sub)
        for dirpath, dirs, files in os.walk(top):
            dirs.sort()
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    path = os.path.join(dirpath, f)
                    yield os.path.relpath(path, root), path


def option_names(root):
    names = set()
    for rel, path in sources(root):
        # a program's table, and the entries a library offers every
        # program that takes its options (sandbox/sandbox_opts.h)
        if rel.startswith("cmd" + os.sep) or rel.endswith(".h"):
            with open(path, encoding="utf-8", errors="replace") as fh:
                names.update(OPTION.findall(fh.read()))
    return names


def flag_words(rel, text, options):
    """Strings of a common/ file that name an option among other words."""
    if not rel.startswith("common" + os.sep):
        return
    text = COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    for n, line in enumerate(text.split("\n"), 1):
        for m in STRING.finditer(line):
            s = m.group(0)[1:-1]
            for name in re.findall(r"--([a-z0-9][a-z0-9-]*)", s):
                if name in options and s not in (f"--{name}", f"--{name}=%s"):
                    yield f"a library names no option: --{name} in a message ({rel}:{n})"


def check(root):
    found = []
    options = option_names(root)
    for rel, path in sources(root):
        with open(path, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        lines = text.split("\n")
        if text.endswith("\n"):
            lines.pop()
        base = os.path.basename(rel)
        in_cmd = rel.startswith("cmd" + os.sep) and rel.endswith(".c")
        if in_cmd and base not in STANDALONE:
            if len(lines) > CMD_MAX:
                found.append(f"a cmd/ file is an option table and calls: {len(lines)} lines, "
                             f"more than {CMD_MAX} ({rel})")
            if "sc_parse_options(" not in text:
                found.append(f"a program parses its options with the one table: "
                             f"no sc_parse_options call ({rel})")
        for name, first, last in functions(lines):
            if last - first + 1 > FN_MAX:
                found.append(f"function {name} is {last - first + 1} lines, more than "
                             f"{FN_MAX} ({rel}:{first})")
        for n, line in enumerate(lines, 1):
            if re.match(r"\s*#\s*include\s*<getopt\.h>", line) and \
                    rel != os.path.join("common", "util", "options.c") and base not in STANDALONE:
                found.append(f"options are parsed by util/options only: <getopt.h> ({rel}:{n})")
            if GUARD.search(line):
                found.append(f"strbuf's buf is never NULL: drop the guard ({rel}:{n})")
        found.extend(flag_words(rel, text, options))
    return found


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
    found = check(root)
    for f in found:
        print(f"shape: error: {f}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
