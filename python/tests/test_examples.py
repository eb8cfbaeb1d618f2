"""python/examples/study_headline.py runs (headless, matplotlib's Agg backend), its headline
figures equal `pqpan reproduce --format json`'s at the CLI's precision (every figure, both
readings, with the same verdicts), and it draws the DLE figure: a PNG of plausible size
that is not blank."""
import json
import subprocess
import sys

import pytest

from conftest import NumberText, same_number

plt = pytest.importorskip("matplotlib.pyplot", reason="python3-matplotlib (scripts/deps.sh)")


def test_study_headline_example(cli, source_dir, tmp_path):
    script = source_dir / "python/examples/study_headline.py"
    run = subprocess.run([sys.executable, str(script), "--out", str(tmp_path), "--step", "4"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    got = json.loads((tmp_path / "headline.json").read_text())
    expected = json.loads(cli.run(["reproduce", "--format", "json"]).stdout,
                          parse_float=NumberText, parse_int=NumberText)["headline"]
    assert [(g["reading"], g["figure"]) for g in got] == \
        [(e["reading"], e["figure"]) for e in expected]
    assert len(got) == 12
    for g, e in zip(got, expected):
        assert same_number(g["model_lo"], e["model_lo"]), (g, e)
        assert same_number(g["model_hi"], e["model_hi"]), (g, e)
        assert (g["study"], g["verdict"]) == (e["study"], e["verdict"]), (g, e)
    png = tmp_path / "dle.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    image = plt.imread(str(png))
    height, width = image.shape[:2]
    assert width >= 800 and height >= 300
    assert image.std() > 0.05  # curves and text drawn, not an empty canvas
