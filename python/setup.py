"""Built from a source checkout, the package gets the repository's data files
(data/profiles, data/cycles), so an installed pqpan finds its built-in profiles and cycle
tables without the C library's share/pqpan, and, when a C compiler is there, declarations
generated from the checkout's include/pqpan/ now (python/tools/gen_cdef.py) instead of the
committed copy. Everything else is in pyproject.toml."""
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
REPO_DATA = HERE.parent / "data"
REPO_INCLUDE = HERE.parent / "include" / "pqpan" / "pqpan.h"


class BuildWithData(build_py):
    def run(self):
        super().run()
        self.regenerate_declarations()
        if not REPO_DATA.is_dir():
            return
        target = Path(self.build_lib) / "pqpan" / "data"
        for sub, pattern in (("profiles", "*.json"), ("cycles", "*.csv")):
            (target / sub).mkdir(parents=True, exist_ok=True)
            for f in sorted((REPO_DATA / sub).glob(pattern)):
                shutil.copy2(f, target / sub / f.name)

    def regenerate_declarations(self):
        cc = shutil.which("cc") or shutil.which("gcc")
        if cc is None or not REPO_INCLUDE.is_file():
            return
        out = Path(self.build_lib) / "pqpan" / "_cdef.py"
        subprocess.run([sys.executable, str(HERE / "tools" / "gen_cdef.py"), "--cc", cc,
                        "--out", str(out), str(HERE.parent)], check=True)


setup(cmdclass={"build_py": BuildWithData})
