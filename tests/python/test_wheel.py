"""`pip install .` as Python users do it (issue 35): a wheel built from the repository by pip with
the standard pyproject.toml (setuptools driving the project's CMake build, no network), installed
into a fresh virtual environment, passes the Python tests there, with nothing from the build tree
on the path: the package brings its module, library, plugins and `interlink` command.

The wheel's CMake build directory is setup.py's own (./build-wheel, kept), so that later runs
rebuild only what changed and ccache serves what ./build compiled. In CI's sanitizer build
(INTERLINK_WHEEL_PREBUILT_DIR set by CMake) pip packages that build's own install instead
(setup.py's INTERLINK_PREBUILT_DIR): the same pyproject.toml, setup.py, package layout, RPATHs,
plugin lookup and entry points, with the instrumented module, and no second build of the tree."""

import os
import subprocess
import sys
from pathlib import Path

from conftest import SOURCE_DIR

TESTS = ["test_model.py", "test_threads.py", "test_load.py"]


def run(args, **kwargs):
    done = subprocess.run([str(a) for a in args], capture_output=True, text=True, **kwargs)
    assert done.returncode == 0, f"{' '.join(map(str, args))} exited {done.returncode}:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    return done


def test_wheel_installs_into_a_venv_and_passes_the_python_tests(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "INTERLINK_PLUGIN_PATH")}
    env.setdefault("CMAKE_BUILD_PARALLEL_LEVEL", "2")
    env["PIP_NO_INDEX"] = "1"  # no network: everything comes from Debian packages
    build_env = dict(env)
    prebuilt = os.environ.get("INTERLINK_WHEEL_PREBUILT_DIR")
    if prebuilt:
        build_env["INTERLINK_PREBUILT_DIR"] = prebuilt
        # Packaging loads no instrumented code: pip and CMake run without the sanitizer runtime
        # (the venv's interpreter below keeps it, for the module).
        build_env.pop("LD_PRELOAD", None)
    wheels = tmp_path / "wheels"
    run([sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "-w", wheels, SOURCE_DIR],
        env=build_env, cwd=tmp_path)
    (wheel,) = wheels.glob("interlink-*.whl")
    listing = run([sys.executable, "-m", "zipfile", "-l", wheel]).stdout
    for member in ("interlink/__init__.py", "interlink/_interlink.pyi", "interlink/bin/interlink",
                   "interlink/lib/interlink/plugins/libinterlink_plugin_urdf.so",
                   "interlink/lib/interlink/plugins/libinterlink_plugin_mjcf.so",
                   "interlink/lib/interlink/libinterlink_mesh_assimp.so"):
        assert member in listing, member
    assert "interlink/include/" not in listing and "interlink/share/" not in listing

    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", "--system-site-packages", venv])
    python = venv / "bin/python"
    run([python, "-m", "pip", "install", "--no-deps", "--no-index", wheel], env=build_env)
    site = run([python, "-c", "import interlink, os; print(os.path.dirname(interlink.__file__))"],
               env=env, cwd=tmp_path).stdout.strip()
    assert site.startswith(str(venv)), site
    package = Path(site)
    # The tests, run with the venv's interpreter; the CLI they compare with is the one in the package.
    env.update({
        "INTERLINK_CLI": str(package / "bin/interlink"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "PYTHONDONTWRITEBYTECODE": "1",
    })
    tests_dir = SOURCE_DIR / "tests/python"
    done = run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", *[tests_dir / t for t in TESTS]],
               env=env, cwd=tests_dir)
    assert " passed" in done.stdout and "failed" not in done.stdout
    # The console script and `python -m interlink` are the CLI.
    assert run([venv / "bin/interlink", "--version"], env=env).stdout.startswith("interlink ")
