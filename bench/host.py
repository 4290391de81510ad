"""What the machine a benchmark ran on is called (for the reports' headers)."""

from __future__ import annotations

from pathlib import Path


def cpu_name(default: str) -> str:
    """The CPU's model name from /proc/cpuinfo, or `default` where there is none."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return default
