"""Time and memory of ``deckpress check`` on the hostile variant corpus.

Each case runs in a fresh Python process (``deckpress check --no-simulate``, or a short
simulation for the game that never ends) and its wall time and peak resident memory are printed
against the targets for fan variants: a clear error or a reject in under a second and
under 300 MB.  A plain ``deckpress --version`` run is the baseline (interpreter start-up).

    python benchmarks/hostile.py
"""
from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

HOSTILE = Path(__file__).resolve().parent.parent / "tests" / "variants" / "hostile"
HEADER = "extends: mission-emission\nname: Big\nauthor: A Fan\nversion: \"1\"\ndescription: Hostile.\n"


_CHILD = """
import resource, sys
from deckpress.generator.cli import main
try:
    main()
finally:
    print(f"PEAK_KB {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}", file=sys.stderr)
"""


def run(args: list[str]) -> tuple[float, float, int]:
    """Wall seconds, the process's own peak RSS (MB) and exit code of ``deckpress ARGS``."""
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", _CHILD, *args], capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    peak = next(int(line.split()[1]) for line in proc.stderr.splitlines() if line.startswith("PEAK_KB"))
    return elapsed, peak / 1024, proc.returncode


def main() -> None:
    """Run every hostile case in a fresh process; print its exit code, time and peak memory."""
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        big = tmp / "ten-megabytes.yaml"
        big.write_text(HEADER + "description2: " + "x" * 10 * 1024 * 1024 + "\n")
        deep = tmp / "deep-nesting.yaml"
        deep.write_text(HEADER + "parameters: {a: " + "[" * 50_000 + "]" * 50_000 + "}\n")
        absurd = tmp / "a-million-players.yaml"
        absurd.write_text(HEADER + "parameters: {players: 1000000}\n")
        cases = sorted(HOSTILE.glob("*.yaml")) + [big, deep, absurd]
        base_t, base_m, _ = run(["--version"])
        print(f"{'case':32} {'exit':>4} {'seconds':>8} {'peak MB':>8}   (targets: < 1 s, < 300 MB)")
        print(f"{'baseline: deckpress --version':32} {'':>4} {base_t:8.2f} {base_m:8.0f}")
        for case in cases:
            t, m, code = run(["check", "--no-simulate", "--report", str(tmp / "r" / case.stem), str(case)])
            flag = "" if t < 1 and m < 300 else "   <- over target"
            print(f"{case.name:32} {code:>4} {t:8.2f} {m:8.0f}{flag}")


if __name__ == "__main__":
    main()
