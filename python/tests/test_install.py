"""`pip install ./python` works offline with Debian's packages: into a fresh venv that sees
the system's site-packages (cffi, setuptools), without build isolation or an index; the
installed package (run from outside the source tree) finds its bundled data files and
gives the CLI's number."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import same_number


def test_pip_install_offline(cli, source_dir, tmp_path):
    src = tmp_path / "src"
    shutil.copytree(source_dir / "python", src / "python",
                    ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    shutil.copytree(source_dir / "data", src / "data")
    shutil.copytree(source_dir / "include", src / "include")  # setup.py regenerates _cdef.py
    venv = tmp_path / "venv"
    # Without its own pip: Debian's python3-pip is seen through the system site-packages.
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip",
                    str(venv)], check=True)
    pip = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install",
                          "--no-build-isolation",
                          "--no-index", "--disable-pip-version-check", str(src / "python")],
                         capture_output=True, text=True)
    assert pip.returncode == 0, pip.stdout + pip.stderr
    code = ("import pqpan, pathlib; assert 'site-packages' in pqpan.__file__, pqpan.__file__; "
            "print(pqpan.estimate()['peripheral']['e_total_uj'])")
    lib = Path(os.environ.get("PQPAN_LIB", source_dir / "build" / "libpqpan.so")).resolve()
    env = {"PATH": "/usr/bin:/bin", "PQPAN_LIB": str(lib)}
    run = subprocess.run([str(venv / "bin" / "python"), "-c", code], capture_output=True,
                         text=True, cwd=str(tmp_path), env=env)
    assert run.returncode == 0, run.stderr
    expected = cli.json(["estimate"])["sides"][0]["e_total_uj"]
    assert same_number(float(run.stdout), expected)
