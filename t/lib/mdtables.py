#!/usr/bin/python3
"""Read HTML (cmark-gfm's rendering of a report.md) on stdin and print every
table cell by cell: one line per row, "TABLE<TAB>cell<TAB>cell...", TABLE
counting from 1.  Cell text is the rendered text (tags dropped, entities
decoded; a no-break space prints as "~").  A line "BAD ..." reports HTML that
does not nest as a table should."""
import sys
from html.parser import HTMLParser


class Tables(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.table = 0
        self.row = None
        self.cell = None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.table += 1
        elif tag == "tr":
            self.row = []
        elif tag in ("td", "th"):
            if self.row is None:
                print("BAD cell outside a row")
            self.cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.row.append("".join(self.cell).strip().replace("\u00a0", "~"))
            self.cell = None
        elif tag == "tr" and self.row is not None:
            print("\t".join([str(self.table)] + self.row))
            self.row = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


Tables().feed(sys.stdin.read())
