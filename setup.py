"""setuptools backend of pyproject.toml: the package is built by the project's CMake build.

build_ext configures a CMake build of the module, the plugins and the `interlink` command (no
tests, no benchmarks), and installs it into the package directory so that the wheel holds:

    interlink/__init__.py ... _interlink.*.so      the package (module RPATH $ORIGIN/lib)
    interlink/lib/libinterlink.so.*                 the core library
    interlink/lib/interlink/plugins/*.so            format and hardware plugins (found beside the library)
    interlink/lib/interlink/interlink-plugin-scanner  examines plugin libraries in a process of its own
    interlink/bin/interlink                         the command (`python3 -m interlink` runs it)

The CMake build directory is ./build-wheel (kept: later builds are incremental), beside ./build so
that ccache, given paths relative to the repository as scripts/build.sh gives them, serves both.
Environment: INTERLINK_CMAKE_BUILD_DIR chooses another build directory; CMAKE_BUILD_PARALLEL_LEVEL
sets the build's parallelism; INTERLINK_CMAKE_ARGS adds configure arguments (space separated).

INTERLINK_PREBUILT_DIR names a build directory of this tree that is already configured (with the
Python module) and built: nothing is configured or built, the package is what that tree installs,
arranged as above. CI packages its sanitizer build this way, so that the wheel test runs there
without a second build of the tree (tests/python/test_wheel.py).
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SOURCE_DIR = Path(__file__).resolve().parent


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


def cache_value(build_dir, name):
    """A variable of the CMake cache of `build_dir`."""
    for line in (Path(build_dir) / "CMakeCache.txt").read_text().splitlines():
        if line.startswith(name + ":"):
            return line.split("=", 1)[1]
    raise RuntimeError(f"{build_dir} is not a configured CMake build of Interlink: no {name} in its cache")


def install_prebuilt(build_dir, staging, package_dir):
    """The package from an install of `build_dir`: the Python files and the module from its
    site-packages, the libraries (plugins included) and the command beside them."""
    shutil.rmtree(staging, ignore_errors=True)
    subprocess.check_call(["cmake", "--install", str(build_dir), "--prefix", str(staging)])
    site = staging / cache_value(build_dir, "INTERLINK_PYTHON_INSTALL_DIR") / "interlink"
    if not site.is_dir():
        raise RuntimeError(f"{build_dir} installs no Python package (configure it with -DINTERLINK_BUILD_PYTHON=ON)")
    # What an earlier run left in setuptools' build directory is replaced, not merged.
    for part in ("lib", "bin"):
        shutil.rmtree(package_dir / part, ignore_errors=True)
    shutil.copytree(site, package_dir, dirs_exist_ok=True)
    libdir = staging / cache_value(build_dir, "CMAKE_INSTALL_LIBDIR")
    shutil.copytree(libdir, package_dir / "lib", symlinks=True, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("python3*", "libinterlink_sdformat_bridge*"))
    shutil.copytree(staging / cache_value(build_dir, "CMAKE_INSTALL_BINDIR"), package_dir / "bin", dirs_exist_ok=True)
    shutil.rmtree(staging)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        package_dir = Path(self.get_ext_fullpath(ext.name)).resolve().parent
        prebuilt = os.environ.get("INTERLINK_PREBUILT_DIR")
        if prebuilt:
            install_prebuilt(Path(prebuilt).resolve(), Path(self.build_temp).resolve() / "prebuilt-install", package_dir)
        else:
            self.build_with_cmake(package_dir)
        # What a C++ host needs (headers, CMake and pkg-config files, docs) is not part of the wheel.
        for extra in ("include", "share", "lib/cmake", "lib/pkgconfig"):
            shutil.rmtree(package_dir / extra, ignore_errors=True)
        # The link-time name (libinterlink.so) serves C++ builds only; a wheel stores a symlink as a copy.
        (package_dir / "lib" / "libinterlink.so").unlink(missing_ok=True)

    def build_with_cmake(self, package_dir):
        build_dir = Path(os.environ.get("INTERLINK_CMAKE_BUILD_DIR") or SOURCE_DIR / "build-wheel")
        build_dir.mkdir(parents=True, exist_ok=True)
        configure = [
            "cmake", "-S", str(SOURCE_DIR), "-B", str(build_dir),
            "-DCMAKE_BUILD_TYPE=Release",
            "-DINTERLINK_BUILD_TESTS=OFF", "-DINTERLINK_BUILD_BENCH=OFF",
            "-DINTERLINK_BUILD_PYTHON=ON",
            "-DCMAKE_DISABLE_FIND_PACKAGE_sdformat12=ON",  # the libsdformat bridge is for C++ hosts
            f"-DPython3_EXECUTABLE={sys.executable}",
            # The package directory is the install prefix: lib/ and bin/ inside it, the Python
            # files at its top (INTERLINK_PYTHON_INSTALL_DIR/interlink == the prefix).
            "-DCMAKE_INSTALL_LIBDIR=lib", "-DCMAKE_INSTALL_BINDIR=bin",
            "-DINTERLINK_PYTHON_INSTALL_DIR=..",
        ]
        if shutil.which("ninja"):
            configure += ["-G", "Ninja"]
        configure += os.environ.get("INTERLINK_CMAKE_ARGS", "").split()
        if (build_dir / "CMakeCache.txt").exists() and "-G" in configure:
            configure = [a for a in configure if a not in ("-G", "Ninja")]  # the generator is fixed at first configure
        env = dict(os.environ)
        env.setdefault("CCACHE_BASEDIR", str(SOURCE_DIR))  # as scripts/build.sh: cache keys without the clone's path
        env.setdefault("CCACHE_NOHASHDIR", "1")
        subprocess.check_call(configure, env=env)
        # Everything the configure above has (no tests, no benchmarks): what the install step installs.
        subprocess.check_call(["cmake", "--build", str(build_dir)], env=env)
        subprocess.check_call(["cmake", "--install", str(build_dir), "--prefix", str(package_dir)])


setup(
    ext_modules=[CMakeExtension("interlink._interlink")],
    cmdclass={"build_ext": CMakeBuild},
    # setuptools' own build directory beside CMake's ./build, not inside it.
    options={"build": {"build_base": "build-pip"}},
    zip_safe=False,
)
