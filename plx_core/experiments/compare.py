"""The comparison of issue 11: plx's default against interpretable models and black boxes on
the same features and splits.

`python -m plx_core.experiments compare --runs 10 --out experiments-out` measures, per data
set and split (stratified 70/30, seeds 0..runs−1; sets above `--max-rows` rows are first
subsampled, stratified, with seed 0), the F1 of the positive class and the fit time of:

* plx — `PLXClassifier()` with its defaults (balanced clause probabilities, mdlp bins);
  "plx paper" — `variant="paper"`;
* interpretable: CART (depth 1–8 or unlimited, chosen by 3-fold CV on the training rows),
  EBM (`interpret`; no interaction terms, one outer bag — `baselines.EBM_SETTINGS`), FIGS
  and RuleFit (`imodels`; rules from 30 trees, `baselines.RULEFIT_SETTINGS`), otherwise
  library defaults — all from `plx_core.baselines`;
* black boxes: random forest (100 trees), gradient boosting, logistic regression, SVM (RBF)
  and an MLP (scikit-learn defaults).

Everyone sees the raw table: plx bins numeric columns inside `fit`; the scikit-learn and
imodels models get numeric columns as numbers (median-imputed, a missing-indicator column,
standardised) and other columns one-hot (missing as its own value); EBM gets the table
itself. A column is numeric by `plx_core.discretize.is_numeric`, for every method alike.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from plx_core.discretize import is_numeric
from plx_core.errors import DataError
from plx_core.plurals import counted, noun
from plx_core.query import UnansweredRows

INTERPRETABLE = ("CART", "EBM", "FIGS", "RuleFit")
BLACK_BOX = ("Forest", "GBoost", "LogReg", "SVM", "MLP")
OURS = ("plx", "plx paper")
METHODS = (*OURS, *INTERPRETABLE, *BLACK_BOX)
#: The `plx_core.baselines` model behind each method name here.
BASELINE_KEYS = {"CART": "CART-cv", "FIGS": "FIGS", "RuleFit": "RuleFit", "Forest": "forest",
                 "GBoost": "boosting", "LogReg": "logistic", "SVM": "SVM", "MLP": "MLP-default"}
MAX_ROWS = 1000


# --------------------------------------------------------------------------- data sets


@dataclass(frozen=True)
class CompareSet:
    key: str
    label: str
    load: Callable[[], tuple[pd.DataFrame, pd.Series, str]]  # raw X, labels, positive class


def _shared(name: str) -> Callable[[], tuple[pd.DataFrame, pd.Series, str]]:
    def load():
        from plx_core.datasets import load_shared

        ds = load_shared(name)
        return ds.X, ds.y, str(ds.positive)

    return load


def _syn(L: int, m: int) -> Callable[[], tuple[pd.DataFrame, pd.Series, str]]:
    def load():
        from plx_core.datasets import PAPER_SYN_10_4_SEED, synthetic

        ds = synthetic(L, m, 1000, seed=0,
                       seed_string=PAPER_SYN_10_4_SEED if (L, m) == (10, 4) else None)
        return ds.X, ds.y, "1"

    return load


def _rare(rate: float) -> Callable[[], tuple[pd.DataFrame, pd.Series, str]]:
    def load():
        from plx_core.datasets import rare_positives

        X, y = rare_positives(rate, n=MAX_ROWS, seed=0)
        return X, y, "yes"

    return load


def _dnf():
    from plx_core.datasets import dnf_noise

    X, y = dnf_noise(n=MAX_ROWS, noise=0.1, seed=0)
    return X, y, "1"


ADDITIVE_ROWS = 20_000


def rare_additive(n: int = ADDITIVE_ROWS, seed: int = 0) -> tuple[pd.DataFrame, pd.Series]:
    """The rare additive table of the last review: 35 numeric columns x1..x35 (standard
    normal), 5% of the cells missing, label "yes" for the 10% of rows with the largest
    x1 + x2 + N(0, 1.5²) (two weak features plus noise), else "no". Seeded."""
    gen = np.random.default_rng(seed)
    x = gen.standard_normal((n, 35))
    score = x[:, 0] + x[:, 1] + gen.normal(0, 1.5, n)
    y = np.where(score > np.quantile(score, 0.9), "yes", "no").astype(object)
    x[gen.random(x.shape) < 0.05] = np.nan
    frame = pd.DataFrame(x, columns=[f"x{i + 1}" for i in range(35)])
    return frame, pd.Series(y, name="label")


def _additive():
    X, y = rare_additive()
    return X, y, "yes"


def _breast_cancer_30():
    from sklearn.datasets import load_breast_cancer

    raw = load_breast_cancer(as_frame=True)
    y = pd.Series(np.asarray(raw.target_names, dtype=object)[raw.target.to_numpy()],
                  name="diagnosis")
    return raw.data.copy(), y, "malignant"


SETS: dict[str, CompareSet] = {
    **{k: CompareSet(k, lab, _shared(k)) for k, lab in [
        ("titanic", "Titanic"), ("mushroom", "Mushroom"), ("nursery", "Nursery"),
        ("hiv1", "HIV-1"), ("breast-cancer", "Breast Cancer"), ("spect", "SPECT"),
        ("voting", "Voting"), ("car", "Car"), ("tic-tac-toe", "Tic-Tac-Toe"),
        ("monks-1", "MONK's 1"), ("monks-2", "MONK's 2"), ("monks-3", "MONK's 3"),
        ("zoo", "Zoo"),
    ]},
    "breast-cancer-30": CompareSet("breast-cancer-30", "Breast cancer (sklearn, 30 numeric)",
                                   _breast_cancer_30),
    "rare-5": CompareSet("rare-5", "Rare 5%", _rare(0.05)),
    "rare-10": CompareSet("rare-10", "Rare 10%", _rare(0.10)),
    "rare-30": CompareSet("rare-30", "Rare 30%", _rare(0.30)),
    "dnf": CompareSet("dnf", "DNF + 10% noise", _dnf),
    "rare-additive": CompareSet("rare-additive", "Rare additive (35 numeric, 10%)", _additive),
    "syn-10-4": CompareSet("syn-10-4", "Syn 10/4", _syn(10, 4)),
    "syn-10-8": CompareSet("syn-10-8", "Syn 10/8", _syn(10, 8)),
    "syn-12-4": CompareSet("syn-12-4", "Syn 12/4", _syn(12, 4)),
    "syn-12-8": CompareSet("syn-12-8", "Syn 12/8", _syn(12, 8)),
}


def subsample(X: pd.DataFrame, y: pd.Series, n: int, seed: int = 0
              ) -> tuple[pd.DataFrame, pd.Series]:
    """At most n rows, stratified by class."""
    if len(y) <= n:
        return X.reset_index(drop=True), y.reset_index(drop=True)
    from sklearn.model_selection import train_test_split

    keep, _ = train_test_split(np.arange(len(y)), train_size=n, random_state=seed,
                               stratify=y.to_numpy(dtype=str))
    keep = np.sort(keep)
    return X.iloc[keep].reset_index(drop=True), y.iloc[keep].reset_index(drop=True)


# --------------------------------------------------------------------------- methods


def column_kinds(X: pd.DataFrame) -> tuple[list[str], list[str]]:
    """(numeric, categorical) columns, decided as plx decides them."""
    num = [c for c in X.columns if is_numeric(X[c])]
    return num, [c for c in X.columns if c not in num]


def typed(X: pd.DataFrame, num: Sequence[str], cat: Sequence[str], missing: str) -> pd.DataFrame:
    """Numeric columns as floats (NaN where missing), the others as text with `missing` for a
    missing value."""
    out = X.copy()
    for c in num:
        out[c] = pd.to_numeric(out[c], errors="coerce").astype(float)
    for c in cat:
        out[c] = out[c].astype(object).where(out[c].notna(), missing).astype(str)
    return out


class MatrixModel:
    """A scikit-learn-style model on a numeric matrix: numeric columns median-imputed with a
    missing indicator and standardised, the others one-hot (missing as its own value)."""

    def __init__(self, model: Any):
        self.model = model

    def _prep(self):
        from sklearn.compose import ColumnTransformer
        from sklearn.impute import SimpleImputer
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import OneHotEncoder, StandardScaler

        return ColumnTransformer([
            ("num", make_pipeline(SimpleImputer(strategy="median", add_indicator=True),
                                  StandardScaler()), self.num_),
            ("cat", OneHotEncoder(handle_unknown="ignore", sparse_output=False), self.cat_),
        ])

    def _frame(self, X: pd.DataFrame) -> pd.DataFrame:
        return typed(X, self.num_, self.cat_, "\x00missing")

    def fit(self, X: pd.DataFrame, y: np.ndarray) -> MatrixModel:
        self.num_, self.cat_ = column_kinds(X)
        self.prep_ = self._prep()
        M = self.prep_.fit_transform(self._frame(X))
        self.model.fit(np.asarray(M, dtype=float), y)
        return self

    def predict(self, X: pd.DataFrame) -> np.ndarray:
        return np.asarray(self.model.predict(np.asarray(self.prep_.transform(self._frame(X)),
                                                        dtype=float)))


class EBMModel:
    """interpret's Explainable Boosting Machine on the raw table (categorical columns as text,
    one thread)."""

    def __init__(self, seed: int):
        self.seed = seed

    def _frame(self, X: pd.DataFrame) -> pd.DataFrame:
        return typed(X, self.num_, self.cat_, "missing")

    def fit(self, X: pd.DataFrame, y: np.ndarray) -> EBMModel:
        from plx_core.baselines import make_model

        self.num_, self.cat_ = column_kinds(X)
        types = ["continuous" if c in self.num_ else "nominal" for c in X.columns]
        self.model_ = make_model("EBM", self.seed).set_params(feature_types=types)
        self.model_.fit(self._frame(X), y)
        return self

    def predict(self, X: pd.DataFrame) -> np.ndarray:
        return np.asarray(self.model_.predict(self._frame(X)))


class PLXModel:
    """`PLXClassifier` on the raw table, labels 0/1 with POS = 1."""

    def __init__(self, **kw: Any):
        self.kw = kw

    def fit(self, X: pd.DataFrame, y: np.ndarray) -> PLXModel:
        from plx_core.estimator import PLXClassifier

        self.model_ = PLXClassifier(positive=1, **self.kw).fit(X, y)
        return self

    def predict(self, X: pd.DataFrame) -> np.ndarray:
        return np.asarray(self.model_.predict(X), dtype=int)


def split_set(key: str, runs: int, max_rows: int = MAX_ROWS
              ) -> tuple[pd.DataFrame, np.ndarray, list[tuple[np.ndarray, np.ndarray]]]:
    """(X, y as 0/1 with 1 the positive class, the `runs` stratified 70/30 (train, test) splits)
    of set `key`, subsampled to `max_rows`: the rows every method of the comparison sees
    (the benchmarks time fits on the first split)."""
    from sklearn.model_selection import StratifiedShuffleSplit

    X, y, pos = SETS[key].load()
    X, y = subsample(X, y, max_rows)
    yb = (y.astype(str).to_numpy() == str(pos)).astype(int)
    return X, yb, list(StratifiedShuffleSplit(runs, test_size=0.3, random_state=0).split(X, yb))


def plx_max_len(n_features: int) -> int | None:
    """The clause-length cap passed to plx here: none up to `direct.WIDE_FEATURES` features,
    else `direct.WIDE_MAX_LEN` — since session 19 the default's own ceiling where clauses of
    one more feature would count over `direct.WIDE_PAIRS` pairs (not on the cheap SPECT,
    Voting, Zoo, which the default counts longer); kept explicit so that the comparison's
    figures and A/B runs against older code (benchmarks/bench_fit_change.py) fit the same KB."""
    from plx_core.direct import WIDE_FEATURES, WIDE_MAX_LEN

    return None if n_features <= WIDE_FEATURES else WIDE_MAX_LEN


def make(name: str, seed: int, n_features: int) -> Any:
    """A fresh model of method `name`."""
    if name in OURS:
        kw: dict[str, Any] = {"random_state": seed, "max_len": plx_max_len(n_features)}
        if name == "plx paper":
            kw["variant"] = "paper"
        return PLXModel(**kw)
    if name == "EBM":
        return EBMModel(seed)
    from plx_core.baselines import make_model

    if name not in BASELINE_KEYS:
        raise DataError(f"unknown method {name!r}; choose from {list(METHODS)}")
    return MatrixModel(make_model(BASELINE_KEYS[name], seed))


# --------------------------------------------------------------------------- runs


def compare_runs(set_keys: Sequence[str], methods: Sequence[str], runs: int,
                 max_rows: int = MAX_ROWS, progress: Callable[[str], None] | None = None,
                 log: Path | None = None, measure: bool = True) -> pd.DataFrame:
    """One row per (set, run, method): F1 of the positive class, accuracy, fit/predict s.

    With `log` (a CSV), each row is appended as soon as it is measured and rows already in
    the file for the same (set, run, method, max_rows) are reused, not re-measured — the
    splits are deterministic, so a long comparison can be resumed, extended or measured in
    parallel pieces whose logs are concatenated. `measure=False` only gathers logged rows."""
    from sklearn.metrics import f1_score

    rows: list[dict[str, Any]] = []
    done: dict[tuple[str, int, str], dict[str, Any]] = {}
    columns = None  # an existing log's columns: appended rows keep its layout
    if log is not None and log.is_file():
        old = pd.read_csv(log)
        columns = list(old.columns)
        old = old[old["max_rows"] == max_rows]
        done = {(r["dataset"], int(r["run"]), r["method"]): r
                for r in old.to_dict("records")}
    for key in set_keys:
        if not measure:  # only the logged rows: the data set is not read (nor fetched)
            rows += [done[(key, run, name)] for run in range(runs) for name in methods
                     if (key, run, name) in done]
            continue
        spec = SETS[key]
        X, yb, splits = split_set(key, runs, max_rows)
        for run, (tr, te) in enumerate(splits):
            for name in methods:
                if (key, run, name) in done:
                    rows.append(done[(key, run, name)])
                    continue
                model = make(name, run, X.shape[1])
                with warnings.catch_warnings(record=True) as caught:  # the failed rows counted
                    warnings.simplefilter("always")
                    t0 = time.perf_counter()
                    model.fit(X.iloc[tr], yb[tr])
                    t1 = time.perf_counter()
                    pred = np.asarray(model.predict(X.iloc[te])).astype(int)
                    t2 = time.perf_counter()
                # test rows the LP failed on are scored as predict decided them, and said
                unanswered = sum(w.message.rows for w in caught
                                 if isinstance(w.message, UnansweredRows))
                rows.append({
                    "dataset": key, "label": spec.label, "run": run, "method": name,
                    "f1": float(f1_score(yb[te], pred, zero_division=0)),
                    "accuracy": float(np.mean(pred == yb[te])),
                    "fit_s": t1 - t0, "predict_s": t2 - t1,
                    "n_train": len(tr), "n_test": len(te), "n_features": X.shape[1],
                    "positive_rate": float(yb.mean()), "max_rows": max_rows,
                    "unanswered": unanswered,
                })
                if log is not None:
                    pd.DataFrame([rows[-1]], columns=columns).to_csv(
                        log, mode="a", index=False, header=not log.is_file())
                if progress is not None:
                    progress(f"{key} run {run} {name}: F1 {rows[-1]['f1']:.3f} "
                             f"({rows[-1]['fit_s']:.1f} s)" + (
                                 f"; {counted(unanswered, 'test row')} could not be answered (the LP "
                                 "failed), scored as predict decided them" if unanswered else ""))
    return pd.DataFrame(rows)


def summary(df: pd.DataFrame) -> pd.DataFrame:
    """Mean and sd of F1 and the median fit time per (set, method)."""
    g = df.groupby(["dataset", "label", "method"], sort=False)
    return g.agg(f1_mean=("f1", "mean"), f1_sd=("f1", "std"), fit_s=("fit_s", "median"),
                 runs=("run", "count"),
                 **({"unanswered": ("unanswered", "sum")} if "unanswered" in df else {})
                 ).reset_index()


def targets(summ: pd.DataFrame) -> pd.DataFrame:
    """Per set: plx's F1 against the best interpretable model, the best black box and the
    paper variant, with each target met or missed (and by how much)."""
    out = []
    for key, part in summ.groupby("dataset", sort=False):
        f1 = dict(zip(part["method"], part["f1_mean"], strict=True))
        fit = dict(zip(part["method"], part["fit_s"], strict=True))
        if "plx" not in f1:
            continue
        interp = {m: f1[m] for m in INTERPRETABLE if m in f1}
        black = {m: f1[m] for m in BLACK_BOX if m in f1}
        bi = max(interp, key=interp.get) if interp else None
        bb = max(black, key=black.get) if black else None
        out.append({
            "dataset": key, "label": part["label"].iloc[0], "plx": f1["plx"],
            "best_interpretable": bi, "vs_interpretable": f1["plx"] - interp[bi] if bi else np.nan,
            "best_black_box": bb, "vs_black_box": f1["plx"] - black[bb] if bb else np.nan,
            "vs_paper": f1["plx"] - f1["plx paper"] if "plx paper" in f1 else np.nan,
            "fit_vs_forest": fit["plx"] / fit["Forest"] if "Forest" in fit else np.nan,
        })
    return pd.DataFrame(out)


def markdown(summ: pd.DataFrame, tgt: pd.DataFrame, methods: Sequence[str], command: str) -> str:
    """Two tables: F1 mean ± sd per set and method (fit seconds, median, below), and the
    targets."""
    lines = [command, "", "F1 of the positive class, mean ± sd over the splits (a method "
             "measured on fewer splits says how many: n=…); median fit time in seconds in "
             "brackets.", "",
             "| set | " + " | ".join(methods) + " |", "|---|" + "---|" * len(methods)]
    for _key, part in summ.groupby("dataset", sort=False):
        most = int(part["runs"].max())
        cell = {r.method: f"{r.f1_mean:.3f} ± {r.f1_sd:.3f} ({r.fit_s:.2f})"
                + (f" n={r.runs}" if r.runs < most else "") for r in part.itertuples()}
        lines.append(f"| {part['label'].iloc[0]} | "
                     + " | ".join(cell.get(m, "") for m in methods) + " |")
    lines += ["", "| set | plx | − best interpretable | − best black box | − paper | "
              "fit / forest fit |", "|---|---|---|---|---|---|"]
    for r in tgt.itertuples():
        lines.append(f"| {r.label} | {r.plx:.3f} | {r.vs_interpretable:+.3f} "
                     f"({r.best_interpretable}) | {r.vs_black_box:+.3f} ({r.best_black_box}) | "
                     f"{r.vs_paper:+.3f} | {r.fit_vs_forest:.1f}× |")
    n = len(tgt)
    if n:
        a = int((tgt["vs_interpretable"] >= -1e-9).sum())
        b = int((tgt["vs_black_box"] >= -0.01).sum())
        c = int((tgt["vs_paper"] >= -0.005).sum())
        lines += ["", f"Targets: ≥ every interpretable model on {a}/{n} sets; within 0.01 of "
                  f"the best black box on {b}/{n} (goal ≥ {int(np.ceil(2 * n / 3))}); not more "
                  f"than 0.005 below the paper variant on {c}/{n}."]
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> list[Path]:
    """The `compare` experiment: runs (resumable, `compare_runs.csv`), summary CSV, markdown."""
    keys = [k.strip() for k in args.sets.split(",") if k.strip()] if args.sets else list(SETS)
    bad = [k for k in keys if k not in SETS]
    if bad:
        raise DataError(f"unknown {noun(len(bad), 'data set')} {bad}; choose from {list(SETS)}")
    methods = ([m.strip() for m in args.methods.split(",") if m.strip()] if args.methods
               else list(METHODS))
    bad = [m for m in methods if m not in METHODS]
    if bad:
        raise DataError(f"unknown {noun(len(bad), 'method')} {bad}; choose from {list(METHODS)}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    log = out / "compare_runs.csv"
    say = None if args.no_progress else (lambda s: print(s, file=sys.stderr, flush=True))
    df = compare_runs(keys, methods, args.runs, args.max_rows, say, log,
                      measure=not getattr(args, "summarise_only", False))
    if df.empty:
        raise DataError(f"no runs measured or logged in {str(log)!r}")
    summ = summary(df)
    tgt = targets(summ)
    summ.to_csv(out / "compare_summary.csv", index=False)
    tgt.to_csv(out / "compare_targets.csv", index=False)
    md = out / "compare.md"
    md.write_text(markdown(summ, tgt, methods, f"Command: `{args.command_line}`"),
                  encoding="utf-8")
    return [log, out / "compare_summary.csv", out / "compare_targets.csv", md]


__all__ = ["BLACK_BOX", "run", "INTERPRETABLE", "METHODS", "SETS", "compare_runs", "make", "markdown", "split_set",
           "summary", "targets"]
