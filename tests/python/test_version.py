# One version number: `ppsim --version`, ppsim.__version__ and the package's
# metadata all come from the repository's VERSION file.
import os

import ppsim
from conftest import SOURCE_DIR, run_cli


def test_the_module_and_the_cli_share_one_version():
    with open(os.path.join(SOURCE_DIR, "VERSION")) as f:
        version = f.read().strip()
    code, out, _ = run_cli("--version")
    assert code == 0 and out == f"ppsim {version}\n"
    assert ppsim.__version__ == version
