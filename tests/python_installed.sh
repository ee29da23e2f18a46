#!/usr/bin/env bash
# The Python tests against ppsim as pip installs it: a fresh venv that sees
# Debian's numpy, pandas and pytest (--system-site-packages), `pip install
# --no-build-isolation .` (no other registry), a Jupyter kernel of that venv
# for the notebook test, and pytest run from outside the source tree, so
# `import ppsim` can only find the installed package.
#   tests/python_installed.sh SOURCE_DIR BUILD_DIR PPSIM_BINARY
set -euo pipefail
src=$1 build=$2 binary=$3
venv="$build/venv-installed"
rm -rf "$venv"
/usr/bin/python3 -m venv --system-site-packages "$venv"
# shellcheck disable=SC1091
. "$venv/bin/activate"
cd "$src"
PPSIM_BUILD_DIR="$build" pip install --no-build-isolation --no-index --no-deps -q . 2>&1 | grep -v '^\s*$' || true
pip show -q ppsim >/dev/null  # fails the test if it did not install
python -m ipykernel install --sys-prefix --name python3 >/dev/null
cd /
python - "$src" <<'PY'
import os, sys
import ppsim
where = os.path.dirname(ppsim.__file__)
assert where.startswith(sys.prefix), f"imported {where}, not the venv's package"
print("installed:", where, ppsim.__version__, "makespan", ppsim.simulate("1f1b", P=4, M=6).makespan)
PY
PPSIM_BINARY="$binary" PPSIM_SOURCE_DIR="$src" python -m pytest -q -p no:cacheprovider "$src/tests/python"
