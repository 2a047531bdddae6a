"""`python -m plx_core.experiments` / `plx experiments`: the command line of the harness."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from ..errors import DataError
from . import __doc__ as DOC
from .runner import run_fig2, run_fig3, run_fig4, run_table2, run_table3, run_table4, run_variants
from .sets import EXPERIMENTS, SETS
from .tables import Outputs

RUNNERS: dict[str, Callable[[argparse.Namespace], Outputs]] = {
    "table2": run_table2, "table3": run_table3, "table4": run_table4, "fig2": run_fig2,
    "fig3": run_fig3, "fig4": run_fig4, "variants": run_variants,
}


def build_parser(prog: str = "python -m plx_core.experiments") -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=prog, description=DOC.split("\n\n")[0])
    p.add_argument("experiment", choices=EXPERIMENTS)
    p.add_argument("--runs", type=int, default=10, help="runs (split seeds 0..R-1); paper: 50")
    p.add_argument("--out", default="experiments-out", help="output folder")
    p.add_argument("--quick", action="store_true",
                   help="tiny settings (small data, fewer points) for smoke tests")
    p.add_argument("--balance", choices=("before", "train", "both"), default="both",
                   help="the balancing protocol for the F1 experiments (both: each in turn)")
    p.add_argument("--sets", default="", help=f"comma-separated subset of {list(SETS)}")
    p.add_argument("--methods", default="",
                   help="comma-separated subset of the methods of table2/table3/variants")
    p.add_argument("--rows", type=int, default=0,
                   help="explained rows per run for table4/fig2 (default 200, quick 15)")
    p.add_argument("--max-rows", type=int, default=1000,
                   help="compare: subsample larger sets to this many rows (stratified)")
    p.add_argument("--summarise-only", action="store_true",
                   help="compare: tables from the runs logged in OUT/compare_runs.csv, "
                   "measuring nothing")
    p.add_argument("--no-png", action="store_true", help="skip PNG export (HTML only)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    return p


def main(argv: Sequence[str] | None = None, prog: str = "python -m plx_core.experiments") -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(prog)
    args = parser.parse_args(argv)
    args.command_line = " ".join([prog, *argv])
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    try:
        if args.experiment == "compare":
            from .compare import run as run_compare

            for path in run_compare(args):
                print(path)
            return 0
        o = RUNNERS[args.experiment](args)
    except DataError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for p in o.written:
        print(p)
    for n in o.notes:
        print(f"note: {n}", file=sys.stderr)
    return 0
