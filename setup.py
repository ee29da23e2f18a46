"""Builds ppsim's extension (_ppsim) with CMake for `pip install .`.

The extension is python/'s CMake target: CMake configures a Release build of
the libraries it needs (no tests, benchmarks or CLI) under setuptools' build
folder, builds `_ppsim` for the interpreter running pip, and the result is
placed where setuptools packs it. PPSIM_CMAKE_ARGS adds arguments to the
configure step; PPSIM_JOBS sets the build's parallelism (default: all cores);
PPSIM_BUILD_DIR=build uses a build the set-up already configured instead
(tests/python_installed.sh: the tests' run against the installed package).
"""
import os
import pathlib
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).parent.resolve()


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        jobs = os.environ.get("PPSIM_JOBS", str(os.cpu_count() or 1))
        given = os.environ.get("PPSIM_BUILD_DIR")
        if given:  # a build the set-up made (scripts/setup.sh): only _ppsim, for the Python it was configured for
            build = pathlib.Path(given).resolve()
        else:
            build = pathlib.Path(self.build_temp).resolve() / "cmake"
            subprocess.check_call([
                "cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                "-DPPSIM_BUILD_TESTS=OFF", "-DPPSIM_BUILD_BENCH=OFF", "-DPPSIM_BUILD_PYTHON=ON",
                f"-DPython3_EXECUTABLE={sys.executable}",
            ] + os.environ.get("PPSIM_CMAKE_ARGS", "").split())
        subprocess.check_call(["cmake", "--build", str(build), "--target", "_ppsim", "-j", jobs])
        built = next((build / "python" / "ppsim").glob("_ppsim*.so"), None)
        if built is None:
            sys.exit("ppsim: CMake built no _ppsim extension (needs python3-dev and pybind11-dev)")
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)


setup(
    version=(ROOT / "VERSION").read_text().strip(),
    ext_modules=[CMakeExtension("ppsim._ppsim")],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": "build-pip"}},  # build/ is CMake's own (scripts/setup.sh)
)
