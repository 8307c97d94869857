#!/usr/bin/python3
"""Recompute TauCeti's verdict for every row of an anchor table, in IEEE
doubles with report.py's expression order, and fail on any row whose
tauceti_float label differs.  Usage: tauceti-float.py TABLE.tsv"""
import sys

MODIFIED_RATIO = 1.5
CPU_MODIFIED_MIN_DELTA = 30.0
CPU_NEW_FILE_LIMIT = 150.0


def value(cell):
    # measure.py: float(record["user_seconds"]) + float(record["system_seconds"])
    user, _, system = cell.partition("+")
    return float(user) + float(system or "0")


def tauceti(change, base, head):
    if change == "removed":
        return "pass"
    head_value = value(head)
    if change == "added":
        return "fail" if head_value >= CPU_NEW_FILE_LIMIT else "pass"
    base_value = value(base)
    delta = head_value - base_value
    regression = delta >= CPU_MODIFIED_MIN_DELTA and head_value >= MODIFIED_RATIO * base_value
    return "fail" if regression else "pass"


def main():
    rows = bad = 0
    with open(sys.argv[1], encoding="utf-8") as table:
        for n, line in enumerate(table, 1):
            if line.startswith("#") or line.startswith("change\t") or not line.strip():
                continue
            change, base, head, label, _exact = line.rstrip("\n").split("\t")
            rows += 1
            got = tauceti(change, base, head)
            if got != label:
                bad += 1
                print(f"line {n}: {change} {base} -> {head}: TauCeti says {got}, table says {label}")
    print(f"{rows} rows, {bad} mislabelled")
    return 1 if bad or rows == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
