#!/bin/bash
# run families two at a time, from the repository root: bash benchmarks/adhoc/unseen23/queue.sh OUTDIR FAM...
# (SEEDS=N to change the 6 splits; rare2_big runs 3)
cd "$(dirname "$0")/../../.."
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 PYTHONPATH=. PLX_DATA_DIR=${PLX_DATA_DIR:-../shared/datasets}
out=$1; shift
mkdir -p "$out"
printf '%s\n' "$@" | xargs -P ${PAR:-2} -I{} sh -c "s=\${SEEDS:-6}; [ {} = rare2_big ] && s=3; nice -n 10 python benchmarks/adhoc/unseen23/run.py {} \$s $out/{}.csv > $out/{}.log 2>&1"
