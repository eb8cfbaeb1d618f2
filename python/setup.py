"""Built from a source checkout, the package gets, when a C compiler is there, declarations
generated from the checkout's include/pqpan/ now (python/tools/gen_cdef.py) instead of the
committed copy. The built-in profiles and cycle tables come with libpqpan-io (compiled in).
Everything else is in pyproject.toml."""
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
REPO_INCLUDE = HERE.parent / "include" / "pqpan" / "pqpan.h"


class BuildWithDeclarations(build_py):
    def run(self):
        super().run()
        self.regenerate_declarations()

    def regenerate_declarations(self):
        cc = shutil.which("cc") or shutil.which("gcc")
        if cc is None or not REPO_INCLUDE.is_file():
            return
        out = Path(self.build_lib) / "pqpan" / "_cdef.py"
        subprocess.run([sys.executable, str(HERE / "tools" / "gen_cdef.py"), "--cc", cc,
                        "--out", str(out), str(HERE.parent)], check=True)


setup(cmdclass={"build_py": BuildWithDeclarations})
