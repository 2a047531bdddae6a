"""Explanations and the dashboard on a wide table (wide27): `PLXClassifier.explain` at k = 1, 2,
3 on test rows of a 300-column table (CPU a row, the search run, what the k features read as),
then the Knowledge base, Explain and Query pages in AppTest on the same table (wall and CPU of
each page run, the longest element lists shown).
Run: OMP_NUM_THREADS=1 PYTHONPATH=. python benchmarks/bench_wide_pages.py [FAMILY] [ROWS]
FAMILY from benchmarks/adhoc/wide27/tables27.py (default genes_add; pres_or: 0/1 columns)."""
# ruff: noqa: E402
import sys
import time
import warnings
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks" / "adhoc" / "wide27"))
sys.path.insert(0, str(ROOT))
warnings.simplefilter("ignore")
import numpy as np
from streamlit.testing.v1 import AppTest
from tables27 import TABLES

import plx_app.service.tables as T
from plx_app.service import new_workspace, read_upload
from plx_core.estimator import PLXClassifier

fam = sys.argv[1] if len(sys.argv) > 1 else "genes_add"
n = int(sys.argv[2]) if len(sys.argv) > 2 else TABLES[fam].__defaults__[0]
X, y, pos = TABLES[fam](0, n + 20)
y = np.asarray(y)
t = time.process_time()
m = PLXClassifier(positive=pos, random_state=0).fit(X.iloc[:n], y[:n])
print(f"{fam} {n} x {X.shape[1]}: fit {time.process_time() - t:.1f}s CPU, {m.chosen_}")
for k in (1, 2, 3):
    cpu, searches, said = [], set(), ""
    for i in range(n, n + 20):
        t = time.process_time()
        e = m.explain(X.iloc[[i]], k=k)
        cpu.append(time.process_time() - t)
        searches.add(e.search)
        said = said or "; ".join(map(str, e.features))
    print(f"explain k={k}: median {np.median(cpu) * 1000:.0f} ms, max {max(cpu) * 1000:.0f} ms CPU a row; "
          f"search {sorted(searches)}; first row's features: {said}")

T.MAX_UPLOAD_COLS = max(T.MAX_UPLOAD_COLS, X.shape[1] + 1)  # the pages, whatever the upload cap
raw = read_upload(X.iloc[:n].assign(label=y[:n]).to_csv(index=False).encode(), f"{fam}.csv")
t, c = time.time(), time.process_time()
ws = new_workspace(raw, replace(raw.defaults, label="label", positive=pos))
print(f"workspace and model: {time.time() - t:.1f}s wall, {time.process_time() - c:.1f}s CPU; {ws.model.chosen}")
at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
at.session_state["ws"] = ws
at.run()
for page in ("2_Knowledge_base", "4_Explain", "3_Query", "2_Knowledge_base", "4_Explain"):
    t, c = time.time(), time.process_time()
    at.switch_page(f"plx_app/views/{page}.py").run()
    longest = max((len(s.options), s.label) for s in [*at.selectbox, *at.multiselect]) if len(
        at.selectbox) + len(at.multiselect) else (0, "")
    longest_text = max((len(str(x.value)) for x in [*at.markdown, *at.caption]), default=0)
    print(f"{page}: {time.time() - t:.2f}s wall, {time.process_time() - c:.2f}s CPU; "
          f"exception {[e.value[:80] for e in at.exception][:1]}; {len(at.selectbox)} selectboxes, "
          f"longest list {longest[0]} ({longest[1][:50]!r}); tables {[d.value.shape for d in at.dataframe]}; "
          f"longest text {longest_text:,} characters")
