"""Write the project's generated data sets into this folder (run from anywhere):

    python3 datasets/generate.py

Everything here comes from `plx_core.datasets`; nothing is copied from outside. The output is
deterministic, and `tests/test_datasets.py` checks the committed files still match it.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from plx_core.datasets import PAPER_SYN_10_4_SEED, paper_example, synthetic  # noqa: E402

SYN_10_4 = {"L": 10, "m": 4, "n": 3000, "seed": 0, "seed_string": PAPER_SYN_10_4_SEED}


def build() -> dict[str, str]:
    """File name → CSV text (header, LF line ends)."""
    syn = synthetic(**SYN_10_4)
    return {
        "paper_example.csv": paper_example().frame().to_csv(index=False, lineterminator="\n"),
        "syn_10_4.csv": syn.frame().to_csv(index=False, lineterminator="\n"),
    }


def main() -> None:
    for name, text in build().items():
        (HERE / name).write_text(text, encoding="utf-8", newline="")
        print(f"wrote {HERE / name} ({text.count(chr(10)) - 1} rows)")


if __name__ == "__main__":
    main()
