"""Model files: the schema that turns raw rows into features, the stored KB and the settings
around them (class names, the tuned clause window), written as readable JSON or as a compact
binary npz (`plx_core.binformat`) and read back through one validated path.

A yes/no model is version 1: one KB (POS = the positive class). A model of several classes is
version 2 (`ClassesModelFile`): the schema once, the list of its classes, and one member per
class — that class against the rest, each a version-1 model's fields without the schema —;
a row's class is the one whose member's ω(POS) bounds have the highest mean — a vote's member
compared by its vote's own probability (`DECISIONS`) — (ties: the first class in order), as
`PLXClassifier.predict` decides. Its npz stores the members' KBs in one
archive (`binformat.write_npz_kbs`: columns the one-vs-rest KBs share are stored once).

A model of ordered classes (`PLXClassifier(class_order=…)`) is version 3 (`OrderedModelFile`):
the classes from lowest to highest level and one yes/no model a step between neighbouring
levels ("above level k"), each a whole version-1 model with its own schema (its own cut
points), family, threshold, KB and POS side; the file's own schema reads new rows, its bins
every step's cut points together, so each step's bins are unions of its bins
(`OrderedModelFile.step_rows`). A row's level is the number of steps it answers "above"
(`plx_core.ordered`), as `PLXClassifier.predict` decides.

The format is chosen by the file name (`.json` or `.npz`), else by size: KBs of at least
`BINARY_FROM_CLAUSES` clauses (all members together) go binary. Reading sniffs the bytes, whatever the name. Every
field is checked before it is used; a malformed file ends in one `ModelFileError` naming the
field (`answer.min_len`, `schema`, `kb: clauses[3]`, …). Never pickle.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .binformat import is_npz, npz_holds_many, read_npz, read_npz_kbs, write_npz, write_npz_kbs
from .errors import ModelFileError, PLXError
from .jsonformat import kb_from_document, load_json
from .plurals import noun

MODEL_FORMAT = "plx-model"
MODEL_VERSION = 1
CLASSES_VERSION = 2  # several classes: one member model per class
ORDERED_VERSION = 3  # ordered classes: one yes/no model per step between neighbouring levels
STEP_SIDES = ("True", "False")
"""A step's POS in a version-3 file: "True" (rows above its lower level) or "False" (rows at
most it: the rarer side of a low step, `PLXClassifier._fit_ordered`)."""
DECISIONS = ("highest mean", "highest vote")
"""How a version-2 file picks the class (checked on load): "highest mean", every member by its
bounds' mean; "highest vote" (multi22), a member whose `chosen` family is a vote
(`selection.VOTE_FAMILIES`) by its vote's own probability (`vote.kb_probability` of its KB),
any other by its mean — as `PLXClassifier.predict` compares them (`ClassesModelFile.by_vote`)."""
MAX_MODEL_BYTES = 4_000_000_000  # checked before a file is read
MAX_JSON_MODEL_BYTES = 256 * 2**20
"""The largest JSON model file read (and written): reading one takes about 14 times its size
in memory (a 34 MB JSON model, 338,078 clauses: 475 MB above the import's; its npz, 15 MB:
57 MB), so a 500 MB JSON file would take some 7 GB. Checked before the file is read; larger
models are written as npz, which reads up to `MAX_MODEL_BYTES`."""
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


@dataclass
class ClassesModelFile:
    """A model of several classes: the schema, the classes in order and one `ModelFile` per
    class (its class against the rest: `positive` the class, `negative` "not <class>");
    `settings` holds the fit's own fields (kb_kind, variant, n_train, chosen, …)."""

    schema: Any
    classes: tuple[str, ...]
    members: list[ModelFile]
    settings: dict[str, Any] = field(default_factory=dict)
    decision: str = "highest mean"

    def by_vote(self, i: int) -> bool:
        """Whether member i is compared by its vote's own probability (`DECISIONS`)."""
        from .selection import VOTE_FAMILIES

        return (self.decision == "highest vote"
                and self.members[i].settings.get("chosen") in VOTE_FAMILIES)

    @property
    def kb(self) -> Any:
        """The first class's KB (what a size or a feature list needs of one)."""
        return self.members[0].kb

    def n_clauses(self) -> int:
        return sum(len(m.kb) for m in self.members)

    def header(self) -> dict[str, Any]:
        """The model document without the KBs (JSON-able)."""
        return {"format": MODEL_FORMAT, "version": CLASSES_VERSION, **self.settings,
                "classes": list(self.classes), "decision": self.decision,
                "schema": self.schema.to_dict(),
                "members": [member_header(m) for m in self.members]}


@dataclass
class OrderedModelFile:
    """A model of ordered classes (version 3): the schema new rows are read with (a numeric
    column's bins cut at every step's cut points), the classes from lowest to highest level
    and one yes/no `ModelFile` a step ("above classes[k]"), each with its own schema;
    `settings` holds the fit's own fields (kb_kind, variant, n_train, chosen, …)."""

    schema: Any
    classes: tuple[str, ...]
    steps: list[ModelFile]
    settings: dict[str, Any] = field(default_factory=dict)

    @property
    def kb(self) -> Any:
        """The first step's KB (what a size or a feature list needs of one)."""
        return self.steps[0].kb

    def n_clauses(self) -> int:
        return sum(len(m.kb) for m in self.steps)

    def header(self) -> dict[str, Any]:
        """The model document without the KBs (JSON-able)."""
        return {"format": MODEL_FORMAT, "version": ORDERED_VERSION, **self.settings,
                "classes": list(self.classes), "schema": self.schema.to_dict(),
                "steps": [{**member_header(m), "schema": m.schema.to_dict()}
                          for m in self.steps]}

    def step_rows(self, X: Any, k: int) -> Any:
        """Rows read by the file's schema (`Schema.apply`) as step k's own schema reads them:
        a numeric column's bin of the union cuts relabelled as the step's bin holding it (each
        lies in exactly one), a column this step alone reads as numbers (a few whole numbers)
        binned from its text."""
        import pandas as pd

        schema = self.steps[k].schema
        out = {}
        for f in schema.features:
            own = schema.bins.get(f)
            if own is None:
                out[f] = X[f]
            elif f in self.schema.bins:
                union = self.schema.bins[f]
                to = dict(zip(union.labels, own.labels_of(np.array([-np.inf, *union.cuts]))))
                out[f] = X[f].map(to)
            else:
                out[f] = own.apply(X[f])
        return pd.DataFrame(out, index=X.index)


def member_header(m: ModelFile) -> dict[str, Any]:
    """A member's fields in a version-2 file: a version-1 header without format and schema."""
    return {**m.settings, "positive": m.positive, "negative": m.negative, "answer": m.answer}


def n_clauses(model: ModelFile | ClassesModelFile | OrderedModelFile) -> int:
    """Clauses a model file holds (every member's or step's)."""
    return (model.n_clauses() if isinstance(model, (ClassesModelFile, OrderedModelFile))
            else len(model.kb))


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


def model_bytes(model: ModelFile | ClassesModelFile, fmt: str = "json") -> bytes:
    """The model file's bytes in one format (what `save_model` writes); a JSON model larger
    than plx reads back (`MAX_JSON_MODEL_BYTES`) is refused, not written."""
    raw = _model_bytes(model, fmt)
    if fmt == "json" and len(raw) > MAX_JSON_MODEL_BYTES:
        raise ModelFileError(f"the model is {len(raw):,} bytes as JSON, more than the "
                             f"{MAX_JSON_MODEL_BYTES:,} plx reads back as JSON: write it as "
                             "npz (a name ending in .npz)")
    return raw


def _model_bytes(model: ModelFile | ClassesModelFile | OrderedModelFile, fmt: str) -> bytes:
    if isinstance(model, (ClassesModelFile, OrderedModelFile)):
        return _classes_bytes(model, fmt)
    if fmt == "npz":
        import io

        buf = io.BytesIO()
        write_npz(model.kb, buf, meta={"model": model.header()})
        return buf.getvalue()
    head = json.dumps(model.header(), ensure_ascii=False)
    # the KB's JSON (one clause per line) spliced in, not re-encoded: linear in its size
    return (head[:-1] + ', "kb": ' + model.kb.to_json().rstrip("\n") + "}\n").encode("utf-8")


def _classes_bytes(model: ClassesModelFile | OrderedModelFile, fmt: str) -> bytes:
    """A version-2 or 3 file's bytes: the KBs in one npz, or spliced into the JSON members
    (steps)."""
    head = model.header()
    key, parts = (("steps", model.steps) if isinstance(model, OrderedModelFile)
                  else ("members", model.members))
    if fmt == "npz":
        import io

        buf = io.BytesIO()
        write_npz_kbs([m.kb for m in parts], buf, meta={"model": head})
        return buf.getvalue()
    members = [json.dumps(h, ensure_ascii=False)[:-1] + ', "kb": ' + m.kb.to_json().rstrip("\n")
               + "}" for h, m in zip(head.pop(key), parts)]
    text = json.dumps(head, ensure_ascii=False)
    return (text[:-1] + f', "{key}": [\n' + ",\n".join(members) + "]}\n").encode("utf-8")


SAVED_VARIANTS = ("tuned", "paper", "direct-conf", "direct-vote", "rule-vote")
"""The estimator variants a model file holds (one KB, its tuned window, threshold, semantics)."""


def schema_of(clf: Any, label: str = "label") -> Any:
    """How raw rows become a fitted `PLXClassifier`'s features, as a `plx_core.data.Schema`:
    its bins (`discretizer_`) for the numeric columns, the KB's values for the others, the
    left-out columns with their reasons, the grouped columns' kept levels; `label` (with "_" added while a feature has that
    name) names the label column a table of new rows may hold."""
    from .data import Schema

    kbs = [clf._searched(i) for i in range(len(clf.kbs_))]
    parts = getattr(clf, "date_parts_", {})  # derived from a date column at predict
    names = [*clf._feature_names(), *parts]
    while label in names:  # a feature called "label" must not be read as the label
        label += "_"
    features = tuple(f for f in names if f not in clf.excluded_)
    bins = {f: b for f, b in clf.discretizer_.binnings_.items() if f in features}
    levels = getattr(clf.discretizer_, "levels_", {})
    return Schema(label, clf.positive_, features,
                  {f: "numeric" if f in bins else "categorical" for f in features}, bins,
                  dict(clf.excluded_), tuple(clf._class_str),
                  {f: tuple(next(kb.domains[f] for kb in kbs if f in kb.domains))
                   for f in features if f not in bins and any(f in kb.domains for kb in kbs)},
                  grouped={f: tuple(v) for f, v in levels.items() if f in features},
                  date_parts={n: v for n, v in parts.items() if n in features and v[0] in bins})


def model_of(clf: Any, schema: Any = None, label: str = "label",
             n_train: int | None = None) -> ModelFile | ClassesModelFile:
    """The model file of a fitted `PLXClassifier` (what `plx fit` writes, and what
    `save_model` writes for an estimator): the KB explanations search, the tuned window and
    threshold that answer, the semantics and the choice made — one `ModelFile`, or with more
    than two classes a `ClassesModelFile` of one member a class. `schema` turns raw rows into
    its features (`plx fit`'s reading of the CSV); by default the fit's own (`schema_of`,
    the label column named `label`)."""
    if getattr(clf, "kbs_", None) is None:
        raise ModelFileError("the classifier is not fitted: call fit before saving it")
    if getattr(clf, "class_order_", None) is not None:
        return _ordered_model(clf, schema, label, n_train)
    if clf.kb == "direct" and clf.variant_ not in SAVED_VARIANTS and clf.chosen_ != "direct-conf":
        raise ModelFileError(f"variant={clf.variant!r} answers with more than the one KB a model "
                             "file holds a class; model files hold the variants 'auto', 'tuned' "
                             "and 'paper'")
    schema = schema_of(clf, label) if schema is None else schema
    cw = clf.class_weight_
    if isinstance(cw, dict):  # JSON keys: the labels' canonical strings (numpy keys too)
        from .encoding import value_str

        cw = {value_str(k): float(v) for k, v in cw.items()}
    top: dict[str, Any] = {} if n_train is None else {"n_train": int(n_train)}
    top.update({"class_weight": cw, "chosen": clf.chosen_, "chosen_reason": clf.chosen_reason_})
    if clf.kb_ is not None:
        neg = [c for c in clf._class_str if c != clf.positive_][0]
        member = _member(clf, 0, clf.positive_, neg, clf._threshold())
        member.settings = {"kb_kind": member.settings["kb_kind"], "variant": clf.variant_,
                           **{k: v for k, v in top.items() if k == "n_train"},
                           "threshold": member.settings["threshold"], "class_weight": cw,
                           "semantics": clf._semantics(), "chosen": clf.chosen_,
                           "chosen_reason": clf.chosen_reason_}
        return ModelFile(schema, member.kb, member.positive, member.negative, member.answer,
                         member.settings)
    members = [_member(clf, i, c, f"not {c}", 0.5) for i, c in enumerate(clf._class_str)]
    top = {"kb_kind": members[0].settings["kb_kind"], "variant": clf.variant_, **top,
           "semantics": clf._semantics()}
    votes = any(clf._compared_by_vote(i) for i in range(len(members)))
    return ClassesModelFile(schema, tuple(clf._class_str), members, top,
                            DECISIONS[1] if votes else DECISIONS[0])


def fitted_schema(schema: Any, clf: Any) -> Any:
    """`schema` (how `plx fit` read the file) with a fitted step's own readings, as `plx fit`
    gives a model its fit's: the cut points its `Discretizer` chose for each numeric column
    (not a date part, which the schema derives), read from text as the schema reads it, the
    columns of a few whole numbers it read as numbers (`whole_read_`); its POS and classes."""
    import dataclasses

    kinds, bins, cats = dict(schema.kinds), dict(schema.bins), dict(schema.categories)
    cut = clf.discretizer_.binnings_
    for c, read in getattr(clf, "whole_read_", {}).items():
        if read == "numbers" and c in kinds and c not in bins:  # read as the fit cut it
            kinds[c], bins[c] = "numeric", cut[c]
            cats[c] = tuple(bins[c].labels)
    for f, b in schema.bins.items():  # the estimator's cut points, read as the schema reads
        if f in cut and f not in schema.date_parts:
            bins[f] = cut[f].with_reading(b)
            cats[f] = tuple(bins[f].labels)  # its values: these bins, not the first
    return dataclasses.replace(schema, kinds=kinds, bins=bins, categories=cats,
                               positive=clf.positive_, classes=tuple(clf._class_str))


def _union_binning(bins: list[Any]) -> Any:
    """One column's bins cut at every step's cut points (each step's bin a union of these),
    read from text as the steps read it."""
    import dataclasses

    from .data import bin_labels

    first = bins[0]
    cuts = tuple(sorted({c for b in bins for c in b.cuts}))
    labels = bin_labels(cuts, None, first.number_format)
    if len(set(labels)) < len(labels):  # cuts too close to tell apart as written
        labels = tuple(f"bin {i}" for i in range(len(cuts) + 1))
    return dataclasses.replace(first, method="steps", cuts=cuts, labels=labels)


def _ordered_model(clf: Any, schema: Any, label: str, n_train: int | None) -> OrderedModelFile:
    """The model file of a fitted classifier of ordered classes: each step a whole yes/no
    model (`model_of` of the step, its schema its own cut points), the file's schema every
    step's cut points together, its classes the fit's."""
    import dataclasses

    steps = []
    for step in clf.ordered_:
        own = schema_of(step, label) if schema is None else fitted_schema(schema, step)
        steps.append(model_of(step, own, label, n_train))
    schemas = [m.schema for m in steps]
    first = schemas[0]
    binned = [f for f in first.features if all(f in s.bins for s in schemas)]
    kinds = {f: "numeric" if f in binned else "categorical" for f in first.features}
    bins = {f: _union_binning([s.bins[f] for s in schemas]) for f in binned}
    cats = {f: (tuple(bins[f].labels) if f in bins else tuple(dict.fromkeys(
        v for s in schemas if f not in s.bins for v in s.categories.get(f, ()))))
            for f in first.features if f in bins or any(f in s.categories for s in schemas)}
    base = schema if schema is not None else first
    top = dataclasses.replace(first, positive=None, classes=tuple(clf._class_str), kinds=kinds,
                              bins=bins, categories={f: v for f, v in cats.items() if v},
                              missing=getattr(base, "missing", None))
    settings: dict[str, Any] = {} if n_train is None else {"n_train": int(n_train)}
    settings.update({"kb_kind": steps[0].settings["kb_kind"], "variant": clf.variant_,
                     "chosen": clf.chosen_, "chosen_reason": clf.chosen_reason_,
                     "semantics": clf._semantics()})
    return OrderedModelFile(top, tuple(str(c) for c in clf._order), steps, settings)


def _member(clf: Any, i: int, positive: str, negative: str, threshold: float) -> ModelFile:
    """One-vs-rest problem i of a fitted classifier as a model (schema left to the caller)."""
    from .estimator import KB_KINDS

    full = clf._searched(i)
    cfg = clf.tuned_[i]
    answer = None
    if cfg is not None and not cfg.is_paper:
        answer = {"min_len": cfg.min_len, "max_len": cfg.max_len,
                  "prior_weight": cfg.prior_weight, "loo_f1": cfg.loo_f1,
                  "paper_loo_f1": cfg.paper_loo_f1}
    kind = clf.kbs_[i].kind if clf.kbs_[i].kind in KB_KINDS else clf.kb
    chosen = getattr(clf, "class_chosen_", None)
    variant = getattr(clf, "class_variant_", None)
    settings = {"kb_kind": kind, "variant": clf.variant_ if variant is None else variant[i],
                "threshold": threshold, "semantics": clf._semantics()}
    if chosen is not None:  # several classes, each chosen with its own setting
        sel = clf.class_selection_[i]
        settings.update(chosen=chosen[i], chosen_reason=sel.reason if sel is not None else "")
    return ModelFile(None, full, positive, negative, answer, settings)


def save_model(model: Any, path: str | Path, fmt: str = "auto") -> str:
    """Write the model file atomically (`plx_core.export.write_atomic`); returns the format.
    `model` is a `ModelFile`, a `ClassesModelFile` or a fitted `PLXClassifier` (`model_of`)."""
    from .export import write_atomic

    if not isinstance(model, (ModelFile, ClassesModelFile)):
        model = model_of(model)
    fmt = choose_format(path, n_clauses(model), fmt)
    write_atomic(path, model_bytes(model, fmt))
    return fmt


def _one_kb(read: tuple[Any, dict]) -> tuple[list[Any], dict]:
    """`read_npz`'s (KB, meta) as `read_npz_kbs`'s ([KB], meta)."""
    return [read[0]], read[1]


def _json_size_checked(head: bytes, size: int, where: str, cap: int | None) -> None:
    """Refuse a model file that is no npz (`head`: its first bytes) and larger than `cap`
    (`MAX_JSON_MODEL_BYTES`; None: no cap), before it is read; the message says how to read
    it once and keep it as npz (a JSON model written before the cap is not lost)."""
    if cap is not None and size > cap and not is_npz(head):
        raise ModelFileError(f"{where} is {size:,} bytes and no npz model, more than the "
                             f"{cap:,} plx reads as a JSON model (reading takes about 14 times "
                             "its size in memory): save the model as npz — to convert this one "
                             "where the memory allows, in Python: save_model(load_model(path, "
                             "max_json_bytes=None), 'model.npz') (plx_core.modelfile)")


def load_model(source: str | Path | bytes, where: str | None = None,
               max_json_bytes: int | None = MAX_JSON_MODEL_BYTES
               ) -> ModelFile | ClassesModelFile | OrderedModelFile:
    """Read a model file (JSON or npz, told apart by its first bytes); sizes are checked first
    (`max_json_bytes`: the JSON cap, None to read a larger JSON model once, to save it as npz)."""
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
        with p.open("rb") as fh:
            _json_size_checked(fh.read(4), size, f"model file {where}", max_json_bytes)
        raw = p.read_bytes()
    if len(raw) > MAX_MODEL_BYTES:
        raise ModelFileError(f"{where} is {len(raw):,} bytes, more than the cap of "
                             f"{MAX_MODEL_BYTES:,}")
    _json_size_checked(raw[:4], len(raw), where, max_json_bytes)
    if is_npz(raw):
        many = npz_holds_many(raw)  # a model of several classes: one KB a class
        try:
            kbs, meta = read_npz_kbs(raw, where) if many else _one_kb(read_npz(raw, where))
        except PLXError as exc:
            raise ModelFileError(str(exc)) from None
        doc = meta.get("model")
        if not isinstance(doc, dict):
            raise ModelFileError(f"{where}: an npz KB without a model header (field 'meta.model')")
        return (model_from_document(doc, where, kbs=kbs) if many
                else model_from_document(doc, where, kb=kbs[0]))
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
                        text: str | None = None, kbs: list | None = None
                        ) -> ModelFile | ClassesModelFile | OrderedModelFile:
    """A ModelFile (version 1), ClassesModelFile (version 2) or OrderedModelFile (version 3) from a parsed model document
    (its "kb" fields, or `kb` / `kbs` already read from an npz)."""
    if isinstance(doc, dict) and doc.get("format") == MODEL_FORMAT and type(
            doc.get("version")) is int and doc["version"] == CLASSES_VERSION:
        return _classes_from_document(doc, where, text, kbs)
    if isinstance(doc, dict) and doc.get("format") == MODEL_FORMAT and type(
            doc.get("version")) is int and doc["version"] == ORDERED_VERSION:
        return _ordered_from_document(doc, where, text, kbs)
    if kbs is not None:
        raise ModelFileError(f"{where}: an npz of {len(kbs)} KBs whose header is not a model of "
                             f"several classes (version {CLASSES_VERSION}) or of ordered classes "
                             f"(version {ORDERED_VERSION})")
    return _model_from_document(doc, where, kb, text)


def _classes_from_document(doc: dict, where: str, text: str | None, kbs: list | None
                           ) -> ClassesModelFile:
    """A version-2 document: its fields, then each member read as a version-1 model."""
    classes, members = doc.get("classes"), doc.get("members")
    if not isinstance(classes, list) or len(classes) < 3 or not all(
            isinstance(c, str) for c in classes) or len(set(classes)) != len(classes):
        raise ModelFileError(f"{where} is a model of several classes (version 2), and field "
                             "'classes' must list 3 or more distinct class names (strings), not "
                             f"{classes!r:.60}")
    if not isinstance(members, list) or len(members) != len(classes):
        raise ModelFileError(f"{where}: field 'members' must be a list of one model per class "
                             f"({len(classes)}), not {type(members).__name__}"
                             + (f" of {len(members)}" if isinstance(members, list) else ""))
    if doc.get("decision", DECISIONS[0]) not in DECISIONS:
        raise ModelFileError(f"{where}: field 'decision' must be one of {list(DECISIONS)}, not "
                             f"{doc.get('decision')!r:.60}")
    if kbs is not None and len(kbs) != len(classes):
        raise ModelFileError(f"{where}: the npz holds {len(kbs)} KBs for {len(classes)} classes")
    check_document({**doc, "version": MODEL_VERSION, "positive": "", "negative": ""}, where,
                   need_kb=False)
    shared = {k: v for k, v in doc.items() if k in ("format", "schema")}
    out = []
    for i, (c, m) in enumerate(zip(classes, members)):
        if not isinstance(m, dict):
            raise ModelFileError(f"{where}: field 'members[{i}]' must be an object")
        one = _model_from_document({**m, **shared, "version": MODEL_VERSION},
                                   f"{where}: members[{i}]", None if kbs is None else kbs[i], text)
        if one.positive != c:
            raise ModelFileError(f"{where}: members[{i}] is the model of {one.positive!r}, but "
                                 f"class {i} is {c!r}")
        out.append(one)
    schema = out[0].schema
    if schema.positive is not None:
        raise ModelFileError(f"{where}: field 'schema.positive' must be null in a model of "
                             f"several classes, not {schema.positive!r:.60}")
    settings = {k: v for k, v in doc.items() if k not in (
        "format", "version", "classes", "members", "schema", "decision")}
    for m in out:
        m.schema = schema
    return ClassesModelFile(schema, tuple(classes), out, settings,
                            doc.get("decision", DECISIONS[0]))


def _ordered_from_document(doc: dict, where: str, text: str | None, kbs: list | None
                           ) -> OrderedModelFile:
    """A version-3 document: its fields, then each step read as a version-1 model with its
    own schema, whose bins must be unions of the file's (a cut the file's schema lacks would
    answer the step on another bin)."""
    from .data import Schema

    classes, steps = doc.get("classes"), doc.get("steps")
    if not isinstance(classes, list) or len(classes) < 3 or not all(
            isinstance(c, str) for c in classes) or len(set(classes)) != len(classes):
        raise ModelFileError(f"{where} is a model of ordered classes (version {ORDERED_VERSION}), "
                             "and field 'classes' must list 3 or more distinct class names "
                             f"(strings) from lowest to highest level, not {classes!r:.60}")
    if not isinstance(steps, list) or len(steps) != len(classes) - 1:
        raise ModelFileError(f"{where}: field 'steps' must be a list of one model per step "
                             f"between neighbouring levels ({len(classes) - 1}), not "
                             f"{type(steps).__name__}"
                             + (f" of {len(steps)}" if isinstance(steps, list) else ""))
    if kbs is not None and len(kbs) != len(steps):
        raise ModelFileError(f"{where}: the npz holds {len(kbs)} KBs for {len(steps)} steps")
    check_document({**doc, "version": MODEL_VERSION, "positive": "", "negative": ""}, where,
                   need_kb=False)
    try:
        schema = Schema.from_dict(doc["schema"])
    except (PLXError, KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise ModelFileError(f"{where}: field 'schema': {exc}") from None
    if schema.positive is not None:
        raise ModelFileError(f"{where}: field 'schema.positive' must be null in a model of "
                             f"ordered classes, not {schema.positive!r:.60}")
    if sorted(schema.classes) != sorted(classes):
        raise ModelFileError(f"{where}: field 'classes' lists {classes[:6]}, but field "
                             f"'schema.classes' {list(schema.classes)[:6]}")
    out = []
    for i, m in enumerate(steps):
        at = f"{where}: steps[{i}]"
        if not isinstance(m, dict):
            raise ModelFileError(f"{at} must be an object")
        one = _model_from_document({**m, "format": MODEL_FORMAT, "version": MODEL_VERSION},
                                   at, None if kbs is None else kbs[i], text)
        if one.positive not in STEP_SIDES or {one.positive, one.negative} != set(STEP_SIDES):
            raise ModelFileError(f"{at}: fields 'positive' and 'negative' must be 'True' and "
                                 f"'False' (above {classes[i]!r} or at most it), not "
                                 f"{one.positive!r:.30} and {one.negative!r:.30}")
        for f in one.schema.features:
            if f not in schema.features:
                raise ModelFileError(f"{at}: field 'schema.features' names {f!r}, which field "
                                     "'schema.features' of the file does not")
            if f in one.schema.bins and f in schema.bins and (odd := sorted(
                    set(one.schema.bins[f].cuts) - set(schema.bins[f].cuts))):
                raise ModelFileError(f"{at}: field 'schema.bins.{f}.cuts' holds the cut {odd[0]!r}, "
                                     f"which field 'schema.bins.{f}.cuts' of the file lacks")
        out.append(one)
    settings = {k: v for k, v in doc.items() if k not in (
        "format", "version", "classes", "steps", "schema")}
    return OrderedModelFile(schema, tuple(classes), out, settings)


def _model_from_document(doc: Any, where: str, kb: Any = None,
                         text: str | None = None) -> ModelFile:
    """A version-1 model document (its "kb" field, or `kb` already read)."""
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
        raise ModelFileError(f"{where}: the KB has {noun(len(missing), 'feature')} {missing[:5]} the schema does not "
                             "produce")
    if kb.positive is not None and kb.positive != doc["positive"]:
        raise ModelFileError(f"{where}: field 'positive' is {doc['positive']!r} but the KB's POS "
                             f"stands for {kb.positive!r}")
    _check_agrees(doc, schema, kb, where)
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


def _check_agrees(doc: dict, schema: Any, kb: Any, where: str) -> None:
    """The schema and the KB of a model file tell one story (a file edited by hand): each
    value a learned clause names is one the schema produces for its column, and the classes
    the schema lists hold the model's positive class and, for two, its negative one. A value
    renamed on one side only left the clauses naming it silent on every row, answered
    without a word; a class renamed in the schema printed another label than the answers."""
    named = kb.codes >= 0
    only = {(f, v) for f, vals in kb.saved_state().get("rule_only", {}).items() for v in vals}
    for j, f in enumerate(kb.features):
        listed = list(schema.categories.get(f, ()))
        produced = set(listed)
        if not produced:
            continue
        used = np.unique(kb.codes[named[:, j], j]) if named[:, j].any() else ()
        odd = [kb.domains[f][int(c)] for c in used
               if kb.domains[f][int(c)] not in produced and (f, kb.domains[f][int(c)]) not in only]
        if odd:
            raise ModelFileError(
                f"{where}: field 'kb': a clause names {f}={odd[0]!r}, a value field "
                f"'schema.categories.{f}' does not list ({', '.join(map(repr, listed[:6]))}"
                f"{' …' if len(listed) > 6 else ''}): was the file edited? Each value must be "
                "written alike in both")
    classes = list(schema.classes)
    if classes and doc["positive"] not in classes:
        raise ModelFileError(f"{where}: field 'positive' is {doc['positive']!r}, not one of the "
                             f"classes field 'schema.classes' lists {classes[:6]}")
    if len(classes) == 2 and doc["negative"] not in classes:
        raise ModelFileError(f"{where}: field 'negative' is {doc['negative']!r}, not one of the "
                             f"classes field 'schema.classes' lists {classes}")


def check_document(doc: Any, where: str, need_kb: bool = True) -> None:
    """The model document's own fields (the schema and the KB check theirs)."""
    if not isinstance(doc, dict) or doc.get("format") != MODEL_FORMAT:
        raise ModelFileError(f"{where} is not a plx model file (no \"format\": \"{MODEL_FORMAT}\")")
    if doc.get("version") != MODEL_VERSION or isinstance(doc.get("version"), bool):
        v = doc.get("version")
        newer = (isinstance(v, int) and not isinstance(v, bool) and v > ORDERED_VERSION)
        raise ModelFileError(f"{where} has model version {v!r:.40}; this plx reads "
                             f"versions {MODEL_VERSION} (two classes), {CLASSES_VERSION} "
                             f"(several classes) and {ORDERED_VERSION} (ordered classes) "
                             "(field 'version')" +
                             ("; a newer plx wrote it: upgrade plx to read it" if newer else ""))
    required = ("schema", "kb", "positive", "negative") if need_kb else ("schema", "positive", "negative")
    missing = [k for k in required if k not in doc]
    if missing:
        raise ModelFileError(f"{where} lacks the {noun(len(missing), 'field')} {missing}")
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
