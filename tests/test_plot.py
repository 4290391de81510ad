"""--plot: a picture of the search (solutions and nodes over time, nodes by depth), and the
nodes-by-depth profile the search records for it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import conundrum as cn

ROOT = Path(__file__).resolve().parents[1]


def conundrum(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "conundrum", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=300)


def test_a_png_is_written_beside_the_usual_output(tmp_path):
    target = tmp_path / "queens.png"
    r = conundrum("queens", "8", "--count", "--plot", str(target))
    assert r.returncode == 0 and r.stdout == "92\n", r.stderr
    data = target.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (1210, 462)  # 11 x 4.2 inches at 110 dpi


def test_the_svg_says_what_the_search_did(tmp_path):
    target = tmp_path / "queens.svg"
    r = conundrum("queens", "6", "--all", "--json-stream", "--plot", str(target))
    assert r.returncode == 0, r.stderr
    summary = r.stdout.splitlines()[-1]
    nodes = int(summary.split('"nodes": ')[1].split(",")[0])
    svg = target.read_text(encoding="utf-8")
    assert "conundrum queens 6" in svg
    assert f"4 solutions, {nodes:,} nodes" in svg
    assert "nodes by depth (deepest: " in svg


def test_plot_errors_are_usage_errors(tmp_path):
    r = conundrum("queens", "6", "--plot", str(tmp_path / "q.txt"))
    assert r.returncode == 2 and "must end in .png, .svg or .pdf" in r.stderr
    r = conundrum("queens", "6", "--plot", str(tmp_path / "missing" / "q.png"))
    assert r.returncode == 2 and "no such folder" in r.stderr
    r = conundrum("sudoku", "examples/sudoku-4x4.txt", "--hint", "--plot", str(tmp_path / "a.png"))
    assert r.returncode == 2 and "--plot draws a search" in r.stderr
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("var_select", ["input_order", "first_fail", "dom_wdeg"])
@pytest.mark.parametrize("method", ["complete", "lds:2"])
def test_nodes_by_depth_add_up_to_the_nodes(var_select, method):
    m = cn.Model()
    q = m.int_vars(7, 0, 6, "q")
    m += cn.all_different(q)
    m += cn.all_different([q[i] + i for i in range(7)])
    m += cn.all_different([q[i] - i for i in range(7)])
    found = m.count(var_select=var_select, method=method)
    stats = m.stats
    assert found == (40 if method == "complete" else stats.solutions)
    assert sum(stats.depth_nodes) == stats.nodes > 0
    assert len(stats.depth_nodes) == stats.max_depth
    assert all(k > 0 for k in stats.depth_nodes)  # every depth up to the deepest is reached
    assert stats.depth_nodes[0] <= 7 * 2  # the root branches on one variable


def test_no_search_no_profile():
    m = cn.Model()
    x = m.int_var(0, 9, "x")
    m += x == 3
    assert m.count() == 1 and m.stats.depth_nodes == [] and m.stats.nodes == 0
