#!/bin/bash
# "Same answers" check of RESULTS.md's "Fit time: the count's live pairs ..." (session 10):
# usage (from the repository root): benchmarks/adhoc/speed2/dumpsets.sh ROOT OUT SETS
# ROOT holds a plx_core (e.g. `git archive COMMIT plx_core | tar -x -C ROOT`); one process a
# set, niced; then `python benchmarks/adhoc/speed2/diff.py OUT_OLD OUT_NEW`.
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 PLX_DATA_DIR=${PLX_DATA_DIR:-../shared/datasets}
HERE=$(cd "$(dirname "$0")" && pwd)
for s in ${3//,/ }; do
  PYTHONPATH=$1 timeout 900 nice python "$HERE/dump.py" $2 $s || echo "FAILED $s"
done
