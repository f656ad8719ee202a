#!/usr/bin/env python3
"""Start-up ratio with the two commands alternating run by run, so that other work on a shared
machine weighs on both alike (hyperfine in run.sh times one command's runs, then the other's).

usage: alternate.py N "REFERENCE COMMAND" "INTERLINK COMMAND"
Prints the median wall time of each, the wall ratio, the ratio of mean CPU time (user + system)
and the page faults of each (minor faults: on the development VM each costs 13-20 us, most of a
short process's time).
"""
import os, subprocess, sys, time, statistics
n = int(sys.argv[1]); a = sys.argv[2].split(); b = sys.argv[3].split()
res = {0: [], 1: []}
for i in range(n):
    for k, cmd in ((0, a), (1, b)) if i % 2 == 0 else ((1, b), (0, a)):
        t = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        res[k].append((time.perf_counter() - t, ru.ru_utime + ru.ru_stime, ru.ru_minflt))
w = [statistics.median(x[0] for x in res[k]) for k in (0, 1)]
c = [statistics.mean(x[1] for x in res[k]) for k in (0, 1)]
f = [statistics.median(x[2] for x in res[k]) for k in (0, 1)]
print(f"reference {w[0]*1e3:.2f} ms  interlink {w[1]*1e3:.2f} ms  wall ratio {w[1]/w[0]:.2f}  CPU ratio {c[1]/c[0]:.2f}  "
      f"page faults {f[0]:.0f} / {f[1]:.0f}  (n={n} each, alternating)")
