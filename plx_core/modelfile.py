"""Model files: the schema that turns raw rows into features, the stored KB and the settings
around them (class names, the tuned clause window), written as readable JSON or as a compact
binary npz (`plx_core.binformat`) and read back through one validated path.

The format is chosen by the file name (`.json` or `.npz`), else by size: KBs of at least
`BINARY_FROM_CLAUSES` clauses go binary. Reading sniffs the bytes, whatever the name. Every
field is checked before it is used; a malformed file ends in one `ModelFileError` naming the
field (`answer.min_len`, `schema`, `kb: clauses[3]`, …). Never pickle.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .binformat import is_npz, read_npz, write_npz
from .errors import ModelFileError, PLXError
from .jsonformat import kb_from_document, load_json

MODEL_FORMAT = "plx-model"
MODEL_VERSION = 1
MAX_MODEL_BYTES = 4_000_000_000  # checked before a file is read
BINARY_FROM_CLAUSES = 100_000  # "auto" writes KBs of this many clauses or more as npz
FORMATS = ("json", "npz")
ANSWER_INTS = ("min_len", "max_len", "prior_weight")
SEMANTICS = ("auto", "relevant", "full")  # how the stored KB answers (`plx_core.query`)


@dataclass
class ModelFile:
    """What a model file holds: the schema, the stored KB and the settings around them.

    `kb` is the stored KB (for the tuned Direct variant, the full KB that explanations search);
    `answering_kb()` is the KB that answers (cut to the tuned window, plus the prior clause).
    `settings` keeps any other top-level fields (kb_kind, variant, n_train, …) as they were
    (but the variant of a chosen "direct-conf", which files before it took that name called
    "confidence").
    """

    schema: Any  # plx_core.data.Schema
    kb: Any  # plx_core.kb.KB
    positive: str
    negative: str
    answer: dict[str, Any] | None = None
    settings: dict[str, Any] = field(default_factory=dict)

    def answering_kb(self) -> Any:
        from .variants import windowed_kb

        a = self.answer
        if not a:
            return self.kb
        return windowed_kb(self.kb, a["min_len"], a["max_len"], a["prior_weight"])

    def header(self) -> dict[str, Any]:
        """The model document without the KB (JSON-able)."""
        return {"format": MODEL_FORMAT, "version": MODEL_VERSION, **self.settings,
                "positive": self.positive, "negative": self.negative, "answer": self.answer,
                "schema": self.schema.to_dict()}


def choose_format(path: str | Path, n_clauses: int, fmt: str = "auto") -> str:
    """"json" or "npz": as asked, else by extension, else by size."""
    if fmt != "auto":
        if fmt not in FORMATS:
            raise ModelFileError(f"model format {fmt!r} is not one of {list(FORMATS)} or 'auto'")
        return fmt
    ext = Path(path).suffix.lower()
    if ext in (".json", ".npz"):
        return ext[1:]
    return "npz" if n_clauses >= BINARY_FROM_CLAUSES else "json"


def model_bytes(model: ModelFile, fmt: str = "json") -> bytes:
    """The model file's bytes in one format (what `save_model` writes)."""
    if fmt == "npz":
        import io

        buf = io.BytesIO()
        write_npz(model.kb, buf, meta={"model": model.header()})
        return buf.getvalue()
    head = json.dumps(model.header(), ensure_ascii=False)
    # the KB's JSON (one clause per line) spliced in, not re-encoded: linear in its size
    return (head[:-1] + ', "kb": ' + model.kb.to_json().rstrip("\n") + "}\n").encode("utf-8")


SAVED_VARIANTS = ("tuned", "paper", "direct-conf", "direct-vote", "rule-vote")
"""The estimator variants a model file holds (one KB, its tuned window, threshold, semantics)."""


def schema_of(clf: Any, label: str = "label") -> Any:
    """How raw rows become a fitted `PLXClassifier`'s features, as a `plx_core.data.Schema`:
    its bins (`discretizer_`) for the numeric columns, the KB's values for the others, the
    left-out columns with their reasons, the grouped columns' kept levels; `label` (with "_" added while a feature has that
    name) names the label column a table of new rows may hold."""
    from .data import Schema

    kb = clf.kb_
    names = clf._feature_names()
    while label in names:  # a feature called "label" must not be read as the label
        label += "_"
    features = tuple(f for f in names if f not in clf.excluded_)
    bins = {f: b for f, b in clf.discretizer_.binnings_.items() if f in features}
    levels = getattr(clf.discretizer_, "levels_", {})
    return Schema(label, clf.positive_, features,
                  {f: "numeric" if f in bins else "categorical" for f in features}, bins,
                  dict(clf.excluded_), tuple(clf._class_str),
                  {f: tuple(kb.domains[f]) for f in features if f not in bins and f in kb.domains},
                  grouped={f: tuple(v) for f, v in levels.items() if f in features})


def model_of(clf: Any, schema: Any = None, label: str = "label",
             n_train: int | None = None) -> ModelFile:
    """The model file of a fitted binary `PLXClassifier` (what `plx fit` writes, and what
    `save_model` writes for an estimator): the KB explanations search, the tuned window and
    threshold that answer, the semantics and the choice made. `schema` turns raw rows into
    its features (`plx fit`'s reading of the CSV); by default the fit's own (`schema_of`,
    the label column named `label`)."""
    if getattr(clf, "kbs_", None) is None:
        raise ModelFileError("the classifier is not fitted: call fit before saving it")
    if clf.kb_ is None:
        raise ModelFileError(
            f"a model file holds one yes/no model, and this classifier has {len(clf.classes_)} "
            "classes: fit it on one class against the rest (e.g. y == 'gold') to save it")
    variant = clf.variant_ if clf.chosen_ != "direct-conf" else "direct-conf"
    if clf.kb == "direct" and variant not in SAVED_VARIANTS:
        raise ModelFileError(f"variant={clf.variant!r} answers with more than the one KB a model "
                             "file holds; model files hold the variants 'auto', 'tuned' and 'paper'")
    schema = schema_of(clf, label) if schema is None else schema
    neg = [c for c in clf._class_str if c != clf.positive_][0]
    full = clf.paper_kbs_[0] if clf.paper_kbs_[0] is not None else clf.kb_
    cfg = clf.tuned_[0]
    answer = None
    if cfg is not None and not cfg.is_paper:
        answer = {"min_len": cfg.min_len, "max_len": cfg.max_len,
                  "prior_weight": cfg.prior_weight, "loo_f1": cfg.loo_f1,
                  "paper_loo_f1": cfg.paper_loo_f1}
    from .estimator import KB_KINDS

    settings = {"kb_kind": clf.kb_.kind if clf.kb_.kind in KB_KINDS else clf.kb,
                "variant": clf.variant_}
    if n_train is not None:
        settings["n_train"] = int(n_train)
    cw = clf.class_weight_
    if isinstance(cw, dict):  # JSON keys: the labels' canonical strings (numpy keys too)
        from .encoding import value_str

        cw = {value_str(k): float(v) for k, v in cw.items()}
    settings.update({"threshold": clf._threshold(), "class_weight": cw,
                     "semantics": clf._semantics(), "chosen": clf.chosen_,
                     "chosen_reason": clf.chosen_reason_})
    return ModelFile(schema, full, clf.positive_, neg, answer, settings)


def save_model(model: Any, path: str | Path, fmt: str = "auto") -> str:
    """Write the model file atomically (`plx_core.export.write_atomic`); returns the format.
    `model` is a `ModelFile` or a fitted binary `PLXClassifier` (`model_of`)."""
    from .export import write_atomic

    if not isinstance(model, ModelFile):
        model = model_of(model)
    fmt = choose_format(path, len(model.kb), fmt)
    write_atomic(path, model_bytes(model, fmt))
    return fmt


def load_model(source: str | Path | bytes, where: str | None = None) -> ModelFile:
    """Read a model file (JSON or npz, told apart by its first bytes); sizes are checked first."""
    if isinstance(source, bytes):
        raw, where = source, where or "model file"
    else:
        p = Path(source)
        where = where or repr(str(p))
        if p.is_dir():
            raise ModelFileError(f"{where} is a folder, not a model file")
        if not p.is_file():
            raise ModelFileError(f"model file {where} not found")
        size = p.stat().st_size
        if size > MAX_MODEL_BYTES:
            raise ModelFileError(f"model file {where} is {size:,} bytes, more than the cap of "
                                 f"{MAX_MODEL_BYTES:,}")
        raw = p.read_bytes()
    if len(raw) > MAX_MODEL_BYTES:
        raise ModelFileError(f"{where} is {len(raw):,} bytes, more than the cap of "
                             f"{MAX_MODEL_BYTES:,}")
    if is_npz(raw):
        try:
            kb, meta = read_npz(raw, where)
        except PLXError as exc:
            raise ModelFileError(str(exc)) from None
        doc = meta.get("model")
        if not isinstance(doc, dict):
            raise ModelFileError(f"{where}: an npz KB without a model header (field 'meta.model')")
        return model_from_document(doc, where, kb=kb)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ModelFileError(f"{where} is neither a JSON model (not UTF-8 at byte {exc.start}) "
                             "nor an npz model") from None
    try:
        doc = load_json(text, where)
    except PLXError as exc:
        raise ModelFileError(str(exc)) from None
    return model_from_document(doc, where, text=text)


def model_from_document(doc: Any, where: str = "model", kb: Any = None,
                        text: str | None = None) -> ModelFile:
    """A ModelFile from a parsed model document (its "kb" field, or `kb` already read)."""
    from .data import Schema

    check_document(doc, where, need_kb=kb is None)
    try:
        schema = Schema.from_dict(doc["schema"])
    except PLXError as exc:
        raise ModelFileError(f"{where}: field 'schema': {exc}") from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        detail = (f"field {exc.args[0]!r} is missing" if isinstance(exc, KeyError) and exc.args
                  else str(exc) or type(exc).__name__)
        raise ModelFileError(f"{where}: field 'schema': {detail}") from None
    if kb is None:
        try:
            kb = kb_from_document(doc["kb"], text)
        except PLXError as exc:
            raise ModelFileError(f"{where}: field 'kb': {exc}") from None
    missing = [f for f in kb.features if f not in set(schema.features)]
    if missing:
        raise ModelFileError(f"{where}: the KB has feature(s) {missing[:5]} the schema does not "
                             "produce")
    if kb.positive is not None and kb.positive != doc["positive"]:
        raise ModelFileError(f"{where}: field 'positive' is {doc['positive']!r} but the KB's POS "
                             f"stands for {kb.positive!r}")
    settings = {k: v for k, v in doc.items()
                if k not in ("format", "version", "positive", "negative", "answer", "schema", "kb")}
    if settings.get("chosen") == "direct-conf" and settings.get("variant") == "confidence":
        settings["variant"] = "direct-conf"  # written before the variant took the chosen name
    model = ModelFile(schema, kb, doc["positive"], doc["negative"], doc.get("answer"), settings)
    if model.answer:
        try:
            model.answering_kb()
        except PLXError as exc:
            raise ModelFileError(f"{where}: field 'answer': {exc}") from None
    return model


def check_document(doc: Any, where: str, need_kb: bool = True) -> None:
    """The model document's own fields (the schema and the KB check theirs)."""
    if not isinstance(doc, dict) or doc.get("format") != MODEL_FORMAT:
        raise ModelFileError(f"{where} is not a plx model file (no \"format\": \"{MODEL_FORMAT}\")")
    if doc.get("version") != MODEL_VERSION or isinstance(doc.get("version"), bool):
        raise ModelFileError(f"{where} has model version {doc.get('version')!r}; this plx reads "
                             f"version {MODEL_VERSION}")
    required = ("schema", "kb", "positive", "negative") if need_kb else ("schema", "positive", "negative")
    missing = [k for k in required if k not in doc]
    if missing:
        raise ModelFileError(f"{where} lacks the field(s) {missing}")
    for k in ("schema", "kb")[: 2 if need_kb else 1]:
        if not isinstance(doc[k], dict):
            raise ModelFileError(f"{where}: field {k!r} must be an object, not "
                                 f"{type(doc[k]).__name__}")
    for k in ("positive", "negative"):
        if not isinstance(doc[k], str):
            raise ModelFileError(f"{where}: field {k!r} must be a string, not {doc[k]!r:.60}")
    for k in ("kb_kind", "variant", "chosen", "chosen_reason"):
        if k in doc and not isinstance(doc[k], str):
            raise ModelFileError(f"{where}: field {k!r} must be a string, not {doc[k]!r:.60}")
    if doc.get("semantics", "auto") not in SEMANTICS:
        raise ModelFileError(f"{where}: field 'semantics' must be one of {list(SEMANTICS)}, not "
                             f"{doc['semantics']!r:.60}")
    n = doc.get("n_train")
    if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n < 0):
        raise ModelFileError(f"{where}: field 'n_train' must be a whole number ≥ 0, not {n!r:.60}")
    a = doc.get("answer")
    if a is None:
        return
    if not isinstance(a, dict):
        raise ModelFileError(f"{where}: field 'answer' must be an object or null")
    for k in ANSWER_INTS:
        v = a.get(k)
        if isinstance(v, bool) or not isinstance(v, int):
            raise ModelFileError(f"{where}: field 'answer.{k}' must be an integer, not {v!r:.60}")
    if not 1 <= a["min_len"] <= a["max_len"]:
        raise ModelFileError(f"{where}: 'answer.min_len' {a['min_len']} and 'answer.max_len' "
                             f"{a['max_len']} must satisfy 1 ≤ min_len ≤ max_len")
    for k in ("loo_f1", "paper_loo_f1"):
        v = a.get(k)
        if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))):
            raise ModelFileError(f"{where}: field 'answer.{k}' must be a number or null, not {v!r:.60}")
