"""multi23's race runner (`multi23/grid_race.py`) on multi23/24's tables and several26's
(`tables26`): per table and split plx's macro F1, its fit CPU over a 100-tree forest's, and
the baselines named (CART, EBM, Forest) on the same stratified 70/30 splits.

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 PYTHONPATH=CODE python \
        benchmarks/adhoc/several26/race.py TABLES SPLITS [BASELINES] OUT.csv
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, os.pardir, "multi23"))
import grid_race  # noqa: E402
import tables26  # noqa: E402,F401  (its tables join multi23's)

if __name__ == "__main__":
    grid_race.main(sys.argv[1].split(","), int(sys.argv[2]),
                   [m for m in sys.argv[3].split(",") if m], sys.argv[4])
