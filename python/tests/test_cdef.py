"""The cffi declarations in use (the build's, generated from include/pqpan/ by
python/tools/gen_cdef.py; PQPAN_CDEF) lay every struct out as the C compiler does: the same
size and member offsets (ABI mode cannot check layouts by itself); the package's committed
copy (python/pqpan/_cdef.py) is what the headers give now."""
import re
import shutil
import subprocess
import sys

import pytest

from pqpan._lib import ffi
from pqpan._lib import CDEF


def cc():
    path = shutil.which("cc") or shutil.which("gcc")
    if path is None:
        pytest.fail("no C compiler (cc) to check the declarations with")
    return path


def test_struct_layouts_match_the_compiler(source_dir, tmp_path):
    structs = sorted(set(re.findall(r"^struct (pqpan_\w+) \{", CDEF, re.M)))
    assert len(structs) > 40
    lines = ['#include <stdio.h>', '#include <stddef.h>', '#include "pqpan/pqpan.h"',
             '#include "pqpan/io.h"', '#include "pqpan/run.h"',
             "int main(void) {"]
    expected = []
    for s in structs:
        lines.append('printf("%%zu\\n", sizeof(struct %s));' % s)
        expected.append(ffi.sizeof("struct " + s))
        for field, _ in ffi.typeof("struct " + s).fields:
            lines.append('printf("%%zu\\n", offsetof(struct %s, %s));' % (s, field))
            expected.append(ffi.offsetof("struct " + s, field))
    lines.append("return 0; }")
    src = tmp_path / "layout.c"
    src.write_text("\n".join(lines) + "\n")
    exe = tmp_path / "layout"
    subprocess.run([cc(), "-std=c11", "-I", str(source_dir / "include"), str(src), "-o",
                    str(exe)], check=True)
    got = [int(x) for x in subprocess.run([str(exe)], capture_output=True, text=True,
                                          check=True).stdout.split()]
    assert got == expected


def test_committed_copy_is_fresh(source_dir):
    """`pip install` without a C compiler installs python/pqpan/_cdef.py as committed: it
    must be what gen_cdef.py writes from the headers now."""
    tool = source_dir / "python" / "tools" / "gen_cdef.py"
    proc = subprocess.run([sys.executable, str(tool), "--cc", cc(), "--check", str(source_dir)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
