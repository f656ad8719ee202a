#!/usr/bin/env python3
"""Loading the 4000-link chain from Python against C++ (target: at most 10% more).

    PYTHONPATH=build/python /usr/bin/python3 bench/python/bench_python_load.py [--build build] [--links 4000]

Both sides keep one loader and load the same generated file REPEAT times; the median load of
each is compared, alternating rounds so that machine load affects both alike. Exit status 1 when
the ratio exceeds the target.
"""

import argparse
import os
import statistics
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
                start = time.perf_counter()
                model = interlink.load(chain)
                times.append((time.perf_counter() - start) * 1000)
                del model
            py.append(statistics.median(times))
    cpp_ms, py_ms = min(cpp), min(py)
    ratio = py_ms / cpp_ms
    print(f"chain of {args.links} links: C++ {cpp_ms:.2f} ms, Python {py_ms:.2f} ms per load; "
          f"ratio {ratio:.3f} (target <= {TARGET})")
    return 0 if ratio <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
