#!/usr/bin/env python3
"""Which processes belong to one run, scoped so that other suites running on
the same host at the same time do not count.

  runprocs.py snapshot PID        PID and all its descendants, one per line:
                                  "pid starttime pidns comm"
  runprocs.py alive SNAPSHOT SID  live (not zombie) processes that are in the
                                  snapshot (same pid and start time), in
                                  session SID, or in a PID namespace the
                                  snapshot saw other than ours (while its
                                  PID 1 is the snapshot's: the kernel
                                  reuses a gone namespace's number); exit 1
                                  if any
  runprocs.py reap LEFT SECS CMD...  run CMD as a child subreaper (every
                                  process CMD starts stays our descendant,
                                  orphans and sandboxes included); once CMD
                                  ends, wait up to SECS for its descendants to
                                  end, write those still alive to LEFT (empty:
                                  none), SIGKILL them; exit with CMD's status

Processes inside bwrap are in their own PID namespace and session but are
visible here with host PIDs and parents, so a snapshot of the tree catches
them, and their namespace catches what they fork later.
"""
import ctypes
import os
import signal
import subprocess
import sys
import time


def table():
    procs = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                stat = f.read()
            ns = os.readlink(f"/proc/{name}/ns/pid")
        except OSError:
            continue
        comm = stat[stat.index("(") + 1:stat.rindex(")")]
        rest = stat[stat.rindex(")") + 2:].split()
        # rest[0] is field 3 (state): ppid 4, session 6, starttime 22
        procs[int(name)] = {
            "state": rest[0], "ppid": int(rest[1]), "sid": int(rest[3]),
            "start": rest[19], "ns": ns, "comm": comm,
        }
    return procs


def snapshot(root):
    procs = table()
    children = {}
    for pid, p in procs.items():
        children.setdefault(p["ppid"], []).append(pid)
    todo, seen = [root], []
    while todo:
        pid = todo.pop()
        if pid in procs:
            seen.append(pid)
            todo.extend(children.get(pid, []))
    for pid in seen:
        p = procs[pid]
        print(pid, p["start"], p["ns"], p["comm"])


def ns_init(pid):
    """Whether PID is PID 1 of its own namespace (its last NSpid is 1)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("NSpid:"):
                    return line.split()[-1] == "1"
    except OSError:
        pass
    return False


def alive(snapfile, sid):
    known, spaces = set(), {}
    own = os.readlink("/proc/self/ns/pid")
    with open(snapfile) as f:
        for line in f:
            pid, start, ns, _ = line.rstrip("\n").split(" ", 3)
            known.add((int(pid), start))
            # parents come before children: a namespace's first process
            # in the snapshot is its PID 1
            if ns != own and ns not in spaces:
                spaces[ns] = (int(pid), start)
    procs = table()
    # A namespace's number is reused once it is gone: one whose PID 1 is
    # not the snapshot's is another run's (a suite beside us), never ours.
    reused = {p["ns"] for pid, p in procs.items()
              if p["ns"] in spaces and (pid, p["start"]) != spaces[p["ns"]] and ns_init(pid)}
    left = []
    for pid, p in procs.items():
        if p["state"] == "Z" or pid == os.getpid():
            continue
        ours = p["ns"] in spaces and p["ns"] not in reused
        if (pid, p["start"]) in known or p["sid"] == sid or ours:
            left.append(f'{pid} {p["comm"]} sid={p["sid"]} {p["ns"]}')
    print("\n".join(left))
    return 1 if left else 0


def descendants(root):
    procs = table()
    children = {}
    for pid, p in procs.items():
        children.setdefault(p["ppid"], []).append(pid)
    todo, found = list(children.get(root, [])), []
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return [(pid, procs[pid]) for pid in found]


def reap(leftfile, seconds, cmd):
    PR_SET_CHILD_SUBREAPER = 36
    if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        sys.exit("runprocs.py: cannot become a child subreaper")
    rc = subprocess.call(cmd)
    deadline = time.monotonic() + seconds
    while True:
        try:
            while os.waitpid(-1, os.WNOHANG)[0] > 0:
                pass
        except ChildProcessError:
            pass
        live = [(pid, p) for pid, p in descendants(os.getpid()) if p["state"] != "Z"]
        if not live or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    with open(leftfile, "w") as f:
        for pid, p in live:
            f.write(f'{pid} {p["comm"]} sid={p["sid"]} {p["ns"]}\n')
    for pid, _ in live:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    return 128 - rc if rc < 0 else rc


if __name__ == "__main__":
    if sys.argv[1] == "snapshot":
        snapshot(int(sys.argv[2]))
    elif sys.argv[1] == "reap":
        sys.exit(reap(sys.argv[2], float(sys.argv[3]), sys.argv[4:]))
    elif sys.argv[1] == "alive":
        sys.exit(alive(sys.argv[2], int(sys.argv[3])))
    else:
        sys.exit("usage: runprocs.py snapshot PID | alive SNAPSHOT SID | reap LEFT SECS CMD...")
