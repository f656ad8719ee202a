#!/usr/bin/env python3
"""Loading the 4000-link chain from Python against C++ (target: at most 10% more).

    PYTHONPATH=build/python /usr/bin/python3 bench/python/bench_python_load.py [--build build] [--links 4000]

Both sides keep one loader and load the same generated file REPEAT times; the least CPU time
of the loading thread per load is compared (noise only adds) (wall time on a shared machine measures the others), alternating rounds so that machine load affects both alike. Exit status 1 when
the ratio exceeds the target. Whole processes are timed too, for information (wall and CPU time,
best of the runs): `bench_load_file FILE 1` against `python3 -c "import interlink; load(FILE)"`,
where Python's own start-up (the interpreter, the import) comes on top of the load.
"""

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

TARGET = 1.10


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build", help="build directory (default: build)")
    parser.add_argument("--links", type=int, default=4000)
    parser.add_argument("--repeat", type=int, default=15, help="loads per round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    sys.path.insert(0, os.path.join(args.build, "python"))
    import interlink

    with tempfile.TemporaryDirectory() as work:
        chain = os.path.join(work, "chain.sdf")
        subprocess.run([os.path.join(args.build, "bin/bench_sdformat_generate"), "chain", str(args.links), chain],
                       check=True, capture_output=True)
        interlink.load(chain)  # plugins discovered, caches warm
        cpp, py = [], []
        for _ in range(args.rounds):
            out = subprocess.run([os.path.join(args.build, "bin/bench_load_file"), chain, str(args.repeat)],
                                 check=True, capture_output=True, text=True).stdout
            cpp.append(float(out))
            times = []
            for _ in range(args.repeat):
                start = time.thread_time()
                model = interlink.load(chain)
                times.append((time.thread_time() - start) * 1000)
                del model
            py.append(min(times))
        processes = {"C++": [os.path.join(args.build, "bin/bench_load_file"), chain, "1"],
                     "Python": [sys.executable, "-c", f"import interlink; interlink.load({chain!r})"]}
        env = dict(os.environ, PYTHONPATH=os.path.join(args.build, "python"))
        best = {name: (float("inf"), float("inf")) for name in processes}
        for _ in range(args.rounds * 2):
            for name, command in processes.items():
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                start = time.perf_counter()
                subprocess.run(command, check=True, capture_output=True, env=env)
                wall = (time.perf_counter() - start) * 1000
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000
                best[name] = (min(best[name][0], wall), min(best[name][1], cpu))
    (cpp_wall, cpp_cpu), (py_wall, py_cpu) = best["C++"], best["Python"]
    print(f"whole process: C++ {cpp_wall:.1f} ms wall / {cpp_cpu:.1f} ms CPU, Python {py_wall:.1f} ms wall / "
          f"{py_cpu:.1f} ms CPU; ratio {py_wall / cpp_wall:.3f} wall, {py_cpu / cpp_cpu:.3f} CPU (information)")
    cpp_ms, py_ms = min(cpp), min(py)
    ratio = py_ms / cpp_ms
    print(f"chain of {args.links} links: C++ {cpp_ms:.2f} ms, Python {py_ms:.2f} ms CPU per load; "
          f"ratio {ratio:.3f} (target <= {TARGET})")
    return 0 if ratio <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
