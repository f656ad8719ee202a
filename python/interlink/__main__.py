"""``python3 -m interlink ...``: the ``interlink`` command, from the package.

``python3 -m interlink check FILE`` runs what ``interlink check FILE`` runs, with the same options,
output and exit status (0 valid, 1 invalid input, 2 usage or I/O error): the command is the
``interlink`` executable shipped inside the package (``interlink/bin/interlink`` of a wheel or
``pip install``), else the one beside a build tree's package, else ``interlink`` on PATH.
"""

import os
import shutil
import subprocess
import sys


def _command() -> str:
    here = os.path.dirname(os.path.abspath(__file__))
    for candidate in (
        os.path.join(here, "bin", "interlink"),                      # pip install / wheel
        os.path.join(os.path.dirname(os.path.dirname(here)), "bin", "interlink"),  # build tree: build/python/interlink
    ):
        if os.access(candidate, os.X_OK):
            return candidate
    found = shutil.which("interlink")
    if found:
        return found
    sys.stderr.write("interlink: the interlink command was not found beside the package nor on PATH\n")
    sys.exit(2)


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    return subprocess.call([_command(), *args])


if __name__ == "__main__":
    sys.exit(main())
