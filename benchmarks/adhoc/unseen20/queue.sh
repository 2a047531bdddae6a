#!/bin/bash
# run families two at a time, from the repository root: bash benchmarks/adhoc/unseen20/queue.sh OUTDIR FAM...
cd "$(dirname "$0")/../../.."
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 PYTHONPATH=. PLX_DATA_DIR=${PLX_DATA_DIR:-../shared/datasets}
out=$1; shift
mkdir -p "$out"
printf '%s\n' "$@" | xargs -P 2 -I{} sh -c "python benchmarks/adhoc/unseen20/run.py {} 6 $out/{}.csv > $out/{}.log 2>&1"
