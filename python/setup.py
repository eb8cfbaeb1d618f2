"""Copies the repository's data files (data/profiles, data/cycles) into the package when
it is built from a source checkout, so an installed pqpan finds its built-in profiles and
cycle tables without the C library's share/pqpan. Everything else is in pyproject.toml."""
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

REPO_DATA = Path(__file__).resolve().parent.parent / "data"


class BuildWithData(build_py):
    def run(self):
        super().run()
        if not REPO_DATA.is_dir():
            return
        target = Path(self.build_lib) / "pqpan" / "data"
        for sub, pattern in (("profiles", "*.json"), ("cycles", "*.csv")):
            (target / sub).mkdir(parents=True, exist_ok=True)
            for f in sorted((REPO_DATA / sub).glob(pattern)):
                shutil.copy2(f, target / sub / f.name)


setup(cmdclass={"build_py": BuildWithData})
