"""perf script's sched fork/exec/exit lines (stdin) -> the median ms from
each event of a call to the next (t/bench/phases.sh).  Only the workload's
processes count: the first bash perf started and its descendants.  A call
starts where that bash forks; the first two calls are a warm-up; calls
whose sequence of events differs from the most common one are left out
(and counted)."""
import collections
import re
import sys

LINE = re.compile(r'\s*(.*?)\s+(\d+)\s+\[\d+\]\s+([\d.]+):\s+sched:sched_process_(fork|exec|exit):\s*(.*)')

root, ours, calls = None, set(), []
for line in sys.stdin:
    m = LINE.match(line)
    if not m:
        continue
    comm, pid, t, kind, rest = m.group(1), int(m.group(2)), float(m.group(3)) * 1000, m.group(4), m.group(5)
    if kind == 'exec':
        name = re.search(r'filename=(\S+)', rest).group(1).rsplit('/', 1)[-1]
        if root is None and name == 'bash':
            root = pid
            ours.add(pid)
            continue
        label = 'exec ' + name
    elif kind == 'fork':
        label = 'fork by ' + comm
    else:
        label = 'exit ' + re.search(r'comm=(\S+)', rest).group(1)
    if pid not in ours:
        continue
    if kind == 'fork':
        ours.add(int(re.search(r'child_pid=(\d+)', rest).group(1)))
        if pid == root:
            calls.append([])
    if calls:
        calls[-1].append((t, label))

calls = [c for c in calls[2:] if len(c) > 1]
if not calls:
    sys.exit('phases: no call traced')
shapes = collections.Counter(tuple(e for _, e in c) for c in calls)
shape, n = shapes.most_common(1)[0]
runs = [c for c in calls if tuple(e for _, e in c) == shape]
median = lambda v: sorted(v)[len(v) // 2]
for k in range(len(shape) - 1):
    print('%7.2f ms  %s -> %s' % (median([r[k + 1][0] - r[k][0] for r in runs]), shape[k], shape[k + 1]))
print('%7.2f ms  the whole call (%d calls of this shape, %d of others)'
      % (median([r[-1][0] - r[0][0] for r in runs]), n, len(calls) - n))
