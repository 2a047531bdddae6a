"""Ready-made data sets: the paper's example, the synthetic Syn L/m family, the dashboard's
default (scikit-learn's breast-cancer set), and loaders for the public sets in
`shared/datasets` prepared as the paper did (see each loader's description for the choices).

Every loader returns a `Dataset` whose X holds strings/NaN, y strings, and whose `schema`
re-applies the same preparation to new rows.
"""

from __future__ import annotations

import contextvars
import math
import os
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from .data import Dataset, Schema, infer_schema, load_csv
from .errors import DataError

ENV_VAR = "PLX_DATA_DIR"

SHARED_NAMES: tuple[str, ...] = (
    "titanic", "mushroom", "nursery", "hiv1", "breast-cancer", "spect", "voting", "car",
    "tic-tac-toe", "monks-1", "monks-2", "monks-3", "zoo",
)

#: The dashboard default's features: greedy max-relevance/min-redundancy selection over the
#: 30 Wisconsin features cut into 3 quantile bins, with exact (count-based) mutual information
#: — see `select_features`. The six largest plain-MI features are near-copies of tumour size
#: (worst radius/perimeter/area, …), which makes explanations redundant.
BREAST_CANCER_FEATURES: tuple[str, ...] = (
    "worst radius", "worst concave points", "worst texture", "area error",
    "mean concave points", "worst concavity",
)

#: The seed string the paper gives for Syn 10/4.
PAPER_SYN_10_4_SEED = "3232411132"


# --------------------------------------------------------------------------------------------
# Generated data


def paper_example() -> Dataset:
    """Example 2 of the paper: positives 0000, 1111, 1010, 1100; negatives 0010, 0100, 1110,
    1000; features a1..a4 (bits, as "0"/"1"), label 'label' with positive "1"."""
    pos = ["0000", "1111", "1010", "1100"]
    neg = ["0010", "0100", "1110", "1000"]
    strings = pos + neg
    frame = pd.DataFrame(
        np.array([list(s) for s in strings], dtype=object), columns=["a1", "a2", "a3", "a4"]
    )
    frame["label"] = ["1"] * len(pos) + ["0"] * len(neg)
    return _prepare(
        "paper-example", frame, "label", "1",
        "The 8 bit strings of the paper's Example 2 (4 positive, 4 negative).",
        features=["a1", "a2", "a3", "a4"], categorical=["a1", "a2", "a3", "a4"],
    )


def synthetic(
    L: int,
    m: int,
    n: int,
    seed: int,
    seed_string: str | None = None,
    *,
    balanced: bool = True,
    unique: bool = True,
) -> Dataset:
    """Syn L/m: `n` strings of length L over the alphabet 1..m (features a1..aL), positive iff
    exactly 5 positions equal the seed string (kept as `Dataset.truth`, the explanation
    ground truth).

    The paper balances every data set, and uniform strings are rarely positive (5.8% for
    10/4), so by default half the rows (n // 2) are drawn uniformly from all positive strings
    and the rest uniformly from all negative ones; `balanced=False` draws uniform strings
    instead. With `unique` no string appears twice (so no test row can copy a training row).
    Deterministic for a given `seed`; without `seed_string` the seed string is drawn from it.
    """
    if not 5 <= L <= 19:
        raise DataError(f"L must be between 5 and 19 (exactly 5 positions must match), got {L}")
    if not 2 <= m <= 9:
        raise DataError(f"m must be between 2 and 9 (one digit per position), got {m}")
    if n < 2:
        raise DataError(f"n must be at least 2, got {n}")
    gen = np.random.default_rng(seed)
    if seed_string is None:
        truth = gen.integers(0, m, L)
    else:
        if len(seed_string) != L or any(ch not in "123456789"[:m] for ch in seed_string):
            raise DataError(
                f"seed_string must be {L} digits from 1..{m}, got {seed_string!r}"
            )
        truth = np.array([int(ch) - 1 for ch in seed_string])
    n_pos_all = math.comb(L, 5) * (m - 1) ** (L - 5)
    n_all = m**L
    weights = m ** np.arange(L - 1, -1, -1, dtype=np.int64)

    def keys(rows: np.ndarray) -> np.ndarray:
        return rows.astype(np.int64) @ weights

    def positives(b: int) -> np.ndarray:
        match = np.zeros((b, L), dtype=bool)
        picks = np.argsort(gen.random((b, L)), axis=1)[:, :5]
        np.put_along_axis(match, picks, True, axis=1)
        other = (truth + gen.integers(1, m, (b, L))) % m
        return np.where(match, truth, other)

    def negatives(b: int) -> np.ndarray:
        rows = gen.integers(0, m, (b, L))
        return rows[(rows == truth).sum(axis=1) != 5]

    def anything(b: int) -> np.ndarray:
        return gen.integers(0, m, (b, L))

    if balanced:
        plan = [(positives, n // 2, n_pos_all, "positive"),
                (negatives, n - n // 2, n_all - n_pos_all, "negative")]
    else:
        plan = [(anything, n, n_all, "")]
    parts = []
    for draw, need, population, what in plan:
        if unique and need > population:
            raise DataError(
                f"Syn {L}/{m} has only {population:,} distinct {what} strings; {need:,} were "
                "asked for (pass unique=False or a smaller n)"
            )
        parts.append(_draw(draw, need, keys if unique else None, max(2 * need, 4096)))
    rows = np.concatenate(parts)[gen.permutation(n)]
    label = np.where((rows == truth).sum(axis=1) == 5, "1", "0").astype(object)
    cols = [f"a{i + 1}" for i in range(L)]
    frame = pd.DataFrame((rows + 1).astype(str).astype(object), columns=cols)
    frame["label"] = label
    truth_s = "".join(str(v + 1) for v in truth)
    how = (
        f"{n // 2} positives drawn uniformly from all positive strings and {n - n // 2} "
        "negatives from all negative ones" if balanced else "uniform random strings"
    )
    ds = _prepare(
        f"syn-{L}-{m}", frame, "label", "1",
        f"Syn {L}/{m}: {n} strings of length {L} over 1..{m}, positive iff exactly 5 positions "
        f"equal the seed string {truth_s}; {how}"
        f"{', no string twice' if unique else ''}; random seed {seed}.",
        features=cols, categorical=cols,
    )
    ds.truth = truth_s
    return ds


def _draw(
    draw: Callable[[int], np.ndarray],
    need: int,
    keys: Callable[[np.ndarray], np.ndarray] | None,
    batch: int,
) -> np.ndarray:
    """`need` rows from `draw`, distinct when `keys` is given, in the order drawn."""
    got: list[np.ndarray] = []
    seen = np.empty(0, dtype=np.int64)
    have = 0
    for _ in range(100_000):
        if have >= need:
            break
        rows = draw(batch)
        if keys is not None:
            k = keys(rows)
            _, first = np.unique(k, return_index=True)
            first = np.sort(first)
            fresh = first[~np.isin(k[first], seen)]
            rows = rows[fresh]
            seen = np.concatenate([seen, k[fresh]])
        got.append(rows[: need - have])
        have += len(got[-1])
    else:
        raise DataError("could not draw enough distinct strings; pass unique=False")
    return np.concatenate(got) if got else np.empty((0, 0), dtype=np.int64)


def rare_positives(rate: float, n: int = 2000, seed: int = 0) -> tuple[pd.DataFrame, pd.Series]:
    """A raw table with rare positives: 8 numeric columns x1..x8 (standard normal) and 8
    categorical c1..c8 (3–4 levels), ~5% of x5..x8 and c5..c8 missing; label "yes" for the
    `rate` share of rows with the largest score 1.5·x1 − x2 + 0.8·x3·[c1 = a] + [c2 = b]
    + 0.5·x4² + noise N(0, 0.7), else "no". Returned raw (numbers stay numbers)."""
    if not 0 < rate < 1:
        raise DataError(f"rate must be between 0 and 1, got {rate}")
    gen = np.random.default_rng(seed)
    x = gen.standard_normal((n, 8))
    levels = [list("abc"), list("abcd")] * 4
    c = np.column_stack([gen.choice(lv, n) for lv in levels]).astype(object)
    score = (1.5 * x[:, 0] - x[:, 1] + 0.8 * x[:, 2] * (c[:, 0] == "a") + (c[:, 1] == "b")
             + 0.5 * x[:, 3] ** 2 + gen.normal(0, 0.7, n))
    y = np.where(score > np.quantile(score, 1 - rate), "yes", "no").astype(object)
    frame = pd.DataFrame(x, columns=[f"x{i + 1}" for i in range(8)])
    for j in range(8):
        frame[f"c{j + 1}"] = c[:, j]
    for col in ["x5", "x6", "x7", "x8", "c5", "c6", "c7", "c8"]:
        frame.loc[gen.random(n) < 0.05, col] = np.nan
    return frame, pd.Series(y, name="label")


def dnf_noise(n: int = 2000, noise: float = 0.1, seed: int = 0) -> tuple[pd.DataFrame, pd.Series]:
    """12 categorical columns f1..f12 with 3 values each (uniform); label "1" iff
    (f1 = 0 ∧ f2 = 1) ∨ (f3 = 2 ∧ f4 = 0 ∧ f5 = 1) ∨ (f6 = 1 ∧ f7 = 1), then flipped with
    probability `noise` (the best F1 possible stays below 1)."""
    gen = np.random.default_rng(seed)
    v = gen.integers(0, 3, (n, 12))
    clean = (((v[:, 0] == 0) & (v[:, 1] == 1)) | ((v[:, 2] == 2) & (v[:, 3] == 0) & (v[:, 4] == 1))
             | ((v[:, 5] == 1) & (v[:, 6] == 1)))
    y = clean ^ (gen.random(n) < noise)
    frame = pd.DataFrame(v.astype(str).astype(object), columns=[f"f{i + 1}" for i in range(12)])
    return frame, pd.Series(np.where(y, "1", "0").astype(object), name="label")


# --------------------------------------------------------------------------------------------
# The dashboard default


def breast_cancer_default(n_bins: int = 3) -> Dataset:
    """scikit-learn's Wisconsin diagnostic breast-cancer set (569 rows, ships with sklearn):
    the six `BREAST_CANCER_FEATURES`, each cut into `n_bins` quantile bins (tertiles), label
    'diagnosis' with positive class "malignant" (212 malignant, 357 benign).

    Note sklearn codes malignant as target 0; the label here is the class name.
    """
    from sklearn.datasets import load_breast_cancer

    raw = load_breast_cancer(as_frame=True)
    frame = raw.data[list(BREAST_CANCER_FEATURES)].copy()
    frame["diagnosis"] = np.asarray(raw.target_names, dtype=object)[raw.target.to_numpy()]
    feats = list(BREAST_CANCER_FEATURES)
    return _prepare(
        "breast-cancer-wisconsin", frame, "diagnosis", "malignant",
        "Breast cancer Wisconsin (diagnostic), scikit-learn's copy: 569 tumours, 212 malignant "
        f"and 357 benign; 6 of the 30 measurements (chosen by max-relevance/min-redundancy "
        f"mutual information), each cut into {n_bins} equal-frequency bins.",
        features=feats, numeric=feats, method="quantile", bins=n_bins,
    )


def select_features(X: pd.DataFrame, y: pd.Series, k: int) -> list[str]:
    """Greedy max-relevance/min-redundancy: repeatedly add the column maximising
    MI(column; y) − mean MI(column; chosen), with exact mutual information of the value
    counts (categorical columns). Ties go to the column that comes first. Deterministic."""
    codes = {c: pd.factorize(X[c], use_na_sentinel=False)[0] for c in X.columns}
    yc = pd.factorize(y)[0]
    rel = {c: _mutual_info(codes[c], yc) for c in X.columns}
    chosen: list[str] = []
    while len(chosen) < min(k, X.shape[1]):
        def score(c: str) -> float:
            red = np.mean([_mutual_info(codes[c], codes[s]) for s in chosen]) if chosen else 0.0
            return rel[c] - float(red)

        rest = [c for c in X.columns if c not in chosen]
        chosen.append(max(rest, key=lambda c: (score(c), -rest.index(c))))
    return chosen


def _mutual_info(a: np.ndarray, b: np.ndarray) -> float:
    joint = np.zeros((a.max() + 1, b.max() + 1))
    np.add.at(joint, (a, b), 1.0)
    p = joint / joint.sum()
    outer = p.sum(axis=1, keepdims=True) @ p.sum(axis=0, keepdims=True)
    nz = p > 0
    return float((p[nz] * np.log(p[nz] / outer[nz])).sum())


# --------------------------------------------------------------------------------------------
# The shared public data sets


UCI = "https://archive.ics.uci.edu/ml/machine-learning-databases"
HIV1_ZIP = "https://archive.ics.uci.edu/static/public/330/hiv+1+protease+cleavage.zip"

#: Where each file of the shared sets comes from: path under the data folder → URL, or
#: (URL of a zip archive, member name). The same public sources the shared copies were
#: checked against (shared/datasets/SOURCES.md).
PUBLIC_SOURCES: dict[str, str | tuple[str, str]] = {
    "titanic/train.csv":
        "https://raw.githubusercontent.com/datasciencedojo/datasets/master/titanic.csv",
    "mushroom/agaricus-lepiota.data": f"{UCI}/mushroom/agaricus-lepiota.data",
    "nursery/nursery.data": f"{UCI}/nursery/nursery.data",
    **{f"hiv1-protease/{f}": (HIV1_ZIP, f) for f in
       ("746Data.txt", "1625Data.txt", "impensData.txt", "schillingData.txt")},
    "breast-cancer/breast-cancer.data": f"{UCI}/breast-cancer/breast-cancer.data",
    "spect/SPECT.train": f"{UCI}/spect/SPECT.train",
    "spect/SPECT.test": f"{UCI}/spect/SPECT.test",
    "congressional-voting/house-votes-84.data": f"{UCI}/voting-records/house-votes-84.data",
    "car/car.data": f"{UCI}/car/car.data",
    "tic-tac-toe/tic-tac-toe.data": f"{UCI}/tic-tac-toe/tic-tac-toe.data",
    **{f"monks/monks-{k}.{p}": f"{UCI}/monks-problems/monks-{k}.{p}"
       for k in (1, 2, 3) for p in ("train", "test")},
    "zoo/zoo.data": f"{UCI}/zoo/zoo.data",
}
CACHE_ENV_VAR = "PLX_CACHE_DIR"
FETCH_TIMEOUT = 30.0


def local_data_dir() -> Path | None:
    """A folder of the shared data sets on this machine: $PLX_DATA_DIR when set (even if it
    does not exist, so errors name it), else `shared/datasets` next to the repository or
    `../shared/datasets` from the working directory when one exists, else None."""
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    beside = Path(__file__).resolve().parents[2] / "shared" / "datasets"
    if beside.is_dir():
        return beside
    cwd = Path("..", "shared", "datasets").resolve()
    return cwd if cwd.is_dir() else None


def cache_dir() -> Path:
    """Where fetched data sets are kept: $PLX_CACHE_DIR, else $XDG_CACHE_HOME/plx/datasets,
    else ~/.cache/plx/datasets."""
    env = os.environ.get(CACHE_ENV_VAR)
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "plx" / "datasets"


def data_dir() -> Path:
    """Where the shared data sets are read from: `local_data_dir()`, else the download cache
    (`cache_dir()`), filled from `PUBLIC_SOURCES` on first use."""
    local = local_data_dir()
    return local if local is not None else cache_dir()


def download(url: str, timeout: float = FETCH_TIMEOUT) -> bytes:
    """The bytes at `url` (the default fetcher; `load_shared(fetch=...)` replaces it)."""
    import urllib.request

    with urllib.request.urlopen(url, timeout=timeout) as r:  # noqa: S310 (fixed https URLs)
        return r.read()


def fetch_file(root: Path, rel: str, fetch: Callable[[str], bytes] | None = None,
               memo: dict[str, bytes] | None = None) -> Path:
    """Download one file of `PUBLIC_SOURCES` into `root / rel` (unzipping a member when the
    source is an archive), written whole or not at all. Offline or failing: one DataError
    naming the file, the URL and the two ways out."""
    import io
    import zipfile

    src = PUBLIC_SOURCES[rel]
    url, member = (src, None) if isinstance(src, str) else src
    get = fetch or download
    memo = {} if memo is None else memo
    try:
        data = memo[url] if url in memo else get(url)
        memo[url] = data
    except Exception as exc:  # URLError, timeouts, refused connections, DNS failures
        raise DataError(
            f"could not download {rel!r} from {url} ({type(exc).__name__}: {exc}); this "
            f"machine may be offline. Set {ENV_VAR} to a folder that holds the shared data "
            f"sets, or connect once so it is cached in {str(root)!r}"
        ) from None
    if member is not None:
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as z:
                names = [n for n in z.namelist() if n.rsplit("/", 1)[-1] == member]
                if not names:
                    raise DataError(f"{url} has no file {member!r}")
                data = z.read(names[0])
        except zipfile.BadZipFile:
            raise DataError(f"{url} is not a zip archive; cannot extract {member!r}") from None
    target = root / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".part")
    tmp.write_bytes(data)
    tmp.replace(target)
    return target


_data_dir = data_dir  # load_shared's `data_dir=` argument shadows the function's name


def load_shared(
    name: str,
    data_dir: str | Path | None = None,
    *,
    part: str | None = None,
    classes: Sequence[str] | None = None,
    fetch: Callable[[str], bytes] | None = None,
) -> Dataset:
    """Load one of `SHARED_NAMES` from the data directory, prepared as the paper did.

    Files come from `data_dir` (or `data_dir()`: $PLX_DATA_DIR, a local shared folder, else the
    download cache). In the download cache a missing file is fetched from its public source
    (`PUBLIC_SOURCES`, through `fetch(url) -> bytes`, default `download`) and kept; a folder
    given by $PLX_DATA_DIR or `data_dir=` is only read.

    `part`: for hiv1 one of "746", "1625", "impens", "schilling" (or the file name) or
    "union" (default); for spect "train", "test" or "all" (default); for monks-k "train"
    (default) or "test". `classes`: for nursery, the (positive, negative) pair of classes
    (default ("spec_prior", "priority")).
    """
    key = _ALIASES.get(name.lower().replace("_", "-"), name.lower().replace("_", "-"))
    if key not in _LOADERS:
        raise DataError(f"unknown data set {name!r}; choose one of {list(SHARED_NAMES)}")
    if part is not None and key not in ("hiv1", "spect", "monks-1", "monks-2", "monks-3"):
        raise DataError(f"{key} has no parts (part={part!r})")
    if classes is not None and key != "nursery":
        raise DataError(f"classes= applies to nursery only, not {key}")
    root = Path(data_dir).expanduser() if data_dir is not None else _data_dir()
    cached = data_dir is None and local_data_dir() is None
    if not cached and not root.is_dir():
        raise DataError(
            f"the shared data directory {str(root)!r} does not exist; set the {ENV_VAR} "
            "environment variable to the folder that holds the shared data sets"
        )
    token = _FETCH.set((root, fetch, {}) if cached else None)
    try:
        return _load(key, root, part, classes)
    finally:
        _FETCH.reset(token)


def _load(key: str, root: Path, part: str | None, classes: Sequence[str] | None) -> Dataset:
    loader = _LOADERS[key]
    if key == "nursery":
        return loader(root, classes)
    if key.startswith("monks-"):
        return loader(root, key, part)
    if key in ("hiv1", "spect"):
        return loader(root, part)
    return loader(root)


_FETCH: contextvars.ContextVar[tuple[Path, Callable[[str], bytes] | None, dict] | None] = (
    contextvars.ContextVar("plx_fetch", default=None)
)
"""Set while `load_shared` reads from the download cache: (cache root, fetcher, downloads so
far — an archive holding several files is fetched once)."""


def _path(root: Path, rel: str) -> Path:
    p = root / rel
    fetching = _FETCH.get()
    if not p.is_file() and fetching is not None and rel in PUBLIC_SOURCES:
        return fetch_file(fetching[0], rel, fetching[1], fetching[2])
    if not p.is_file():
        raise DataError(
            f"data file {str(p)!r} not found; set the {ENV_VAR} environment variable to the "
            f"folder that holds the shared data sets (now {str(root)!r})"
        )
    return p


def _prepare(name: str, frame: pd.DataFrame, label: str, positive: str | None,
             description: str, **schema_kw) -> Dataset:
    frame = frame.reset_index(drop=True)
    schema: Schema = infer_schema(frame, label, positive, **schema_kw)
    X, y = schema.apply(frame)
    assert y is not None
    counts = y.value_counts()
    tally = ", ".join(f"{k} {int(v)}" for k, v in sorted(counts.items(), key=lambda kv: -kv[1]))
    text = f"{description} {len(y)} rows × {X.shape[1]} features; classes: {tally}."
    return Dataset(name, X, y, schema.positive, text, schema)


def _titanic(root: Path) -> Dataset:
    frame = load_csv(_path(root, "titanic/train.csv"))
    feats = ["Pclass", "Sex", "Age", "SibSp", "Parch", "Fare", "Embarked"]
    return _prepare(
        "titanic", frame, "Survived", "1",
        "Kaggle Titanic train.csv, the paper's 7 features: Pclass, Sex, Age in 4 bins (fixed "
        "cuts 18, 30, 50: child / young / adult / 50+), SibSp, Parch, Fare in 3 equal-frequency "
        "bins (cuts from all 891 rows), Embarked; label Survived, positive \"1\". Missing Age "
        "(177) and Embarked (2) stay missing (unknown to the engine).",
        features=feats, categorical=["Pclass", "SibSp", "Parch"],
        cuts={"Age": (18, 30, 50)}, numeric=["Fare"], method={"Fare": "quantile"},
        bins={"Fare": 3},
    )


MUSHROOM_COLUMNS = (
    "class", "cap-shape", "cap-surface", "cap-color", "bruises", "odor", "gill-attachment",
    "gill-spacing", "gill-size", "gill-color", "stalk-shape", "stalk-root",
    "stalk-surface-above-ring", "stalk-surface-below-ring", "stalk-color-above-ring",
    "stalk-color-below-ring", "veil-type", "veil-color", "ring-number", "ring-type",
    "spore-print-color", "population", "habitat",
)


def _mushroom(root: Path) -> Dataset:
    frame = load_csv(_path(root, "mushroom/agaricus-lepiota.data"), header=False,
                     names=MUSHROOM_COLUMNS, delimiter=",")
    feats = list(MUSHROOM_COLUMNS[1:12])
    return _prepare(
        "mushroom", frame, "class", "p",
        "UCI Mushroom, the paper's first 11 attributes (cap-shape … stalk-root, one-letter "
        "codes as in the .names file); label class, positive \"p\" (poisonous) vs \"e\" "
        "(edible). stalk-root is '?' (missing) in 2480 rows.",
        features=feats, categorical=feats,
    )


NURSERY_COLUMNS = ("parents", "has_nurs", "form", "children", "housing", "finance", "social",
                   "health", "class")


def _nursery(root: Path, classes: Sequence[str] | None) -> Dataset:
    frame = load_csv(_path(root, "nursery/nursery.data"), header=False, names=NURSERY_COLUMNS,
                     delimiter=",")
    pos, neg = tuple(classes) if classes is not None else ("spec_prior", "priority")
    known = sorted(frame["class"].unique())
    for c in (pos, neg):
        if c not in known:
            raise DataError(f"nursery has no class {c!r} (classes: {known})")
    frame = frame[frame["class"].isin([pos, neg])]
    feats = list(NURSERY_COLUMNS[:-1])
    return _prepare(
        "nursery", frame, "class", pos,
        f"UCI Nursery reduced to two classes, {pos!r} (positive) vs {neg!r}, as the paper keeps "
        "two classes. The default pair is the two largest classes that no single attribute "
        "decides: not_recom is exactly health=not_recom, so any pair with it is trivial.",
        features=feats, categorical=feats,
    )


HIV1_FILES = {"746": "746Data.txt", "1625": "1625Data.txt", "impens": "impensData.txt",
              "schilling": "schillingData.txt"}
HIV1_FEATURES = tuple(f"p{i}" for i in range(1, 9))


def _hiv_file(root: Path, part: str) -> pd.DataFrame:
    frame = load_csv(_path(root, f"hiv1-protease/{HIV1_FILES[part]}"), header=False,
                     names=("octamer", "cleaved"), delimiter=",")
    octa = frame["octamer"].to_numpy(dtype=str)
    bad = np.char.str_len(octa) != 8
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise DataError(f"{HIV1_FILES[part]}, row {i + 1}: {octa[i]!r} is not an octamer")
    letters = octa.astype("<U8").view("<U1").reshape(-1, 8)
    out = pd.DataFrame(letters.astype(object), columns=list(HIV1_FEATURES))
    out["cleaved"] = frame["cleaved"].to_numpy(dtype=object)
    return out


def _hiv1(root: Path, part: str | None) -> Dataset:
    p = "union" if part is None else str(part)
    by_file = {v.lower(): k for k, v in HIV1_FILES.items()}
    p = by_file.get(p.lower(), p.lower())
    if p not in (*HIV1_FILES, "union"):
        raise DataError(f"hiv1 part must be one of {[*HIV1_FILES, 'union']}, not {part!r}")
    if p == "union":
        frames = [_hiv_file(root, k) for k in HIV1_FILES]
        frame = pd.concat(frames, ignore_index=True).drop_duplicates(ignore_index=True)
        what = (
            "the union of the 4 files (6590 rows) without exact repeats of an (octamer, label) "
            "pair; 10 octamers keep two rows because the files disagree on their label"
        )
    else:
        frame = _hiv_file(root, p)
        what = f"file {HIV1_FILES[p]}"
    feats = list(HIV1_FEATURES)
    return _prepare(
        f"hiv1-{p}", frame, "cleaved", "1",
        f"UCI HIV-1 protease cleavage, {what}: features p1..p8 are the octamer's residues "
        "(positions P4..P4', one-letter amino-acid codes); label cleaved, positive \"1\" "
        "(cleaved) vs \"-1\".",
        features=feats, categorical=feats,
    )


BREAST_CANCER_COLUMNS = ("class", "age", "menopause", "tumor-size", "inv-nodes", "node-caps",
                         "deg-malig", "breast", "breast-quad", "irradiat")


def _breast_cancer(root: Path) -> Dataset:
    frame = load_csv(_path(root, "breast-cancer/breast-cancer.data"), header=False,
                     names=BREAST_CANCER_COLUMNS, delimiter=",")
    feats = list(BREAST_CANCER_COLUMNS[1:])
    return _prepare(
        "breast-cancer", frame, "class", "recurrence-events",
        "UCI Breast Cancer (Ljubljana): 9 categorical attributes (ranges such as '30-39' kept "
        "as text); label class, positive \"recurrence-events\". '?' is missing (node-caps 8, "
        "breast-quad 1); 14 rows repeat another row exactly and are kept.",
        features=feats, categorical=feats,
    )


def _spect(root: Path, part: str | None) -> Dataset:
    p = "all" if part is None else str(part).lower()
    if p not in ("train", "test", "all"):
        raise DataError(f"spect part must be 'train', 'test' or 'all', not {part!r}")
    cols = ["OVERALL_DIAGNOSIS", *(f"F{i}" for i in range(1, 23))]
    files = ["train", "test"] if p == "all" else [p]
    frame = pd.concat(
        [load_csv(_path(root, f"spect/SPECT.{f}"), header=False, names=cols, delimiter=",")
         for f in files], ignore_index=True,
    )
    return _prepare(
        "spect" if p == "all" else f"spect-{p}", frame, "OVERALL_DIAGNOSIS", "1",
        f"UCI SPECT heart ({'SPECT.train then SPECT.test' if p == 'all' else 'SPECT.' + p}): "
        "22 binary features F1..F22; label OVERALL_DIAGNOSIS, positive \"1\" (abnormal). The "
        "official split has a balanced train file (40/40) and a skewed test file (15/172).",
        features=cols[1:], categorical=cols[1:],
    )


VOTING_COLUMNS = (
    "party", "handicapped-infants", "water-project-cost-sharing",
    "adoption-of-the-budget-resolution", "physician-fee-freeze", "el-salvador-aid",
    "religious-groups-in-schools", "anti-satellite-test-ban", "aid-to-nicaraguan-contras",
    "mx-missile", "immigration", "synfuels-corporation-cutback", "education-spending",
    "superfund-right-to-sue", "crime", "duty-free-exports",
    "export-administration-act-south-africa",
)


def _voting(root: Path) -> Dataset:
    frame = load_csv(_path(root, "congressional-voting/house-votes-84.data"), header=False,
                     names=VOTING_COLUMNS, delimiter=",", missing=())
    feats = list(VOTING_COLUMNS[1:])
    return _prepare(
        "voting", frame, "party", "republican",
        "UCI Congressional Voting Records 1984: 16 votes with values y / n / '?'. '?' is kept "
        "as a value, not missing: the .names file says it means neither yea nor nay (did not "
        "vote, paired, present). Label party, positive \"republican\".",
        features=feats, categorical=feats,
    )


CAR_COLUMNS = ("buying", "maint", "doors", "persons", "lug_boot", "safety", "class")


def _car(root: Path) -> Dataset:
    frame = load_csv(_path(root, "car/car.data"), header=False, names=CAR_COLUMNS,
                     delimiter=",")
    feats = list(CAR_COLUMNS[:-1])
    return _prepare(
        "car", frame, "class", "acceptable",
        "UCI Car Evaluation, binarised: acc, good and vgood become \"acceptable\" (positive) "
        "vs \"unacc\". The file is the full product of the 6 attributes.",
        features=feats, categorical=feats,
        label_map={"acc": "acceptable", "good": "acceptable", "vgood": "acceptable"},
    )


TIC_TAC_TOE_COLUMNS = ("top-left", "top-middle", "top-right", "middle-left", "middle-middle",
                       "middle-right", "bottom-left", "bottom-middle", "bottom-right", "class")


def _tic_tac_toe(root: Path) -> Dataset:
    frame = load_csv(_path(root, "tic-tac-toe/tic-tac-toe.data"), header=False,
                     names=TIC_TAC_TOE_COLUMNS, delimiter=",")
    feats = list(TIC_TAC_TOE_COLUMNS[:-1])
    return _prepare(
        "tic-tac-toe", frame, "class", "positive",
        "UCI Tic-Tac-Toe endgames: the 9 squares (x / o / b for blank); label class, positive "
        "\"positive\" (x wins).",
        features=feats, categorical=feats,
    )


MONKS_COLUMNS = ("lead", "class", "a1", "a2", "a3", "a4", "a5", "a6", "Id")


def _monks(root: Path, key: str, part: str | None) -> Dataset:
    p = "train" if part is None else str(part).lower()
    if p not in ("train", "test"):
        raise DataError(f"{key} part must be 'train' or 'test', not {part!r}")
    path = _path(root, f"monks/{key}.{p}")
    frame = load_csv(path, header=False, names=MONKS_COLUMNS, delimiter=" ")
    if frame["lead"].notna().any():
        raise DataError(f"{str(path)!r}: expected every line to start with a space")
    feats = list(MONKS_COLUMNS[2:8])
    return _prepare(
        f"{key}-{p}" if p == "test" else key, frame, "class", "1",
        f"UCI MONK's problem {key[-1]} ({key}.{p}): attributes a1..a6; label class, positive "
        "\"1\"; the row-name column Id is dropped. The .test file is the whole attribute space "
        "(432 rows), so it contains every training row"
        + ("; monks-3.train has 5% label noise by design." if key == "monks-3" else "."),
        features=feats, categorical=feats,
    )


ZOO_COLUMNS = ("animal", "hair", "feathers", "eggs", "milk", "airborne", "aquatic", "predator",
               "toothed", "backbone", "breathes", "venomous", "fins", "legs", "tail",
               "domestic", "catsize", "type")


def _zoo(root: Path) -> Dataset:
    frame = load_csv(_path(root, "zoo/zoo.data"), header=False, names=ZOO_COLUMNS,
                     delimiter=",")
    feats = list(ZOO_COLUMNS[1:-1])
    return _prepare(
        "zoo", frame, "type", "mammal",
        "UCI Zoo, binarised: type 1 becomes \"mammal\" (positive), types 2-7 \"other\"; 16 "
        "attributes (legs as a category 0/2/4/5/6/8), the animal name dropped. milk = 1 "
        "decides mammal exactly, so the task is easy; 'frog' has two different rows.",
        features=feats, categorical=feats,
        label_map={"1": "mammal", **{str(t): "other" for t in range(2, 8)}},
    )


_LOADERS: dict[str, Callable[..., Dataset]] = {
    "titanic": _titanic, "mushroom": _mushroom, "nursery": _nursery, "hiv1": _hiv1,
    "breast-cancer": _breast_cancer, "spect": _spect, "voting": _voting, "car": _car,
    "tic-tac-toe": _tic_tac_toe, "monks-1": _monks, "monks-2": _monks, "monks-3": _monks,
    "zoo": _zoo,
}
_ALIASES = {
    "hiv": "hiv1", "hiv-1": "hiv1", "hiv1-protease": "hiv1", "breast-cancer-ljubljana":
    "breast-cancer", "congressional-voting": "voting", "house-votes-84": "voting",
    "tictactoe": "tic-tac-toe", "monks1": "monks-1", "monks2": "monks-2", "monks3": "monks-3",
}

__all__ = [
    "BREAST_CANCER_FEATURES", "CACHE_ENV_VAR", "ENV_VAR", "PUBLIC_SOURCES", "cache_dir",
    "download", "fetch_file", "local_data_dir", "PAPER_SYN_10_4_SEED", "SHARED_NAMES",
    "breast_cancer_default", "data_dir", "dnf_noise", "load_shared", "paper_example",
    "rare_positives",
    "select_features", "synthetic",
]
