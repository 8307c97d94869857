#!/usr/bin/python3
"""doccite.py [ROOT]: the design lives in the tree, and what cites it
finds it.

Every citation `Documentation/FILE "Section"` in cmd/, common/, t/,
contrib/, man/, the Makefile, README and .ci/ must name a file of
Documentation/ and a section heading of that file (a line followed by a
line of '-' or '=' as long as it).  Nothing may cite DESIGN.md, a file
outside the tree, or a tracker issue by number, which a newcomer cannot
read (a test is named by the behaviour it checks).  Each finding is one line "FILE:LINE: what"; exit 1 if
any.
"""
import os
import re
import subprocess
import sys

# a citation may wrap inside a comment: "Sealed\n * measurement"
CITE = re.compile(r'Documentation/\s*(?:\*\s*|#\s*|//\s*)?([\w.-]+)(?:\'s)?(?:\s|\*|#|//)+"([^"]+)"')
WRAP = re.compile(r"\s*\n\s*(?:\*|#|//)?\s*")
OUTSIDE = re.compile(r"DESIGN\.md")
ISSUE = re.compile(r"\b[Ii]ssues? #?\d+")
SCOPES = ("cmd/", "common/", "t/", "contrib/", "man/", "Makefile", "README", ".ci/")
SELF = "t/lint/doccite.py"


def sections(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    return {a.strip() for a, b in zip(lines, lines[1:])
            if a.strip() and re.fullmatch(r"[-=]+", b.strip()) and len(b.strip()) == len(a.strip())}


def main(root):
    doc = os.path.join(root, "Documentation")
    files = subprocess.run(["git", "-C", root, "ls-files", "-co", "--exclude-standard"],
                           capture_output=True, text=True, check=True).stdout.split("\n")
    found = []
    known = {}
    for f in sorted(x for x in files if x.startswith(SCOPES) and x != SELF):
        p = os.path.join(root, f)
        try:
            text = open(p, encoding="utf-8").read()
        except (OSError, UnicodeDecodeError):
            continue
        for m in CITE.finditer(text):
            name, sec = m.group(1), WRAP.sub(" ", m.group(2))
            path = os.path.join(doc, name)
            if name not in known:
                known[name] = sections(path) if os.path.isfile(path) else None
            line = text.count("\n", 0, m.start()) + 1
            if known[name] is None:
                found.append(f"{f}:{line}: cites Documentation/{name}, which does not exist")
            elif sec not in known[name]:
                found.append(f'{f}:{line}: cites section "{sec}" of Documentation/{name}, which has none')
        for no, l in enumerate(text.split("\n"), 1):
            if OUTSIDE.search(l):
                found.append(f"{f}:{no}: cites DESIGN.md, a file outside the tree (cite Documentation/)")
            if ISSUE.search(l):
                found.append(f"{f}:{no}: cites a tracker issue by number (say what the rule is)")
    for x in found:
        print(x)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else
                  os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))))
