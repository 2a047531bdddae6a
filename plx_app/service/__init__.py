"""The dashboard's logic without Streamlit: per-session state, caches and the calls into plx_core.

Pages call these names and only arrange widgets; everything here is tested without a browser.
`Workspace` (one per browser session) owns the data, the KB, the rules, the selection and the
caches, all keyed by one builder (`Workspace.key`); `explain` holds the explanation calls.
"""

from plx_core.baselines import DASHBOARD_BASELINES, baseline_scores, confusion, scores

from .browse import SORT_KEYS, BrowseQuery, browse_kb, browse_mask
from .cache import LRU, fingerprint
from .export import kb_csv, safe_cell, safe_csv
from .instances import UNKNOWN, Instance, edit_instance, instance_from_row, plain_label, unique_rows
from .kbs import KB_KIND_HELP, KB_KINDS, KBSettings, build_kb, default_max_len, with_rules
from .rules import (
    next_rule_id,
    parse_conditions,
    rule_clause,
    rule_notes,
    rule_parts,
    rule_text,
    rules_frame,
    validate_conditions,
)
from .tables import (
    BUILTIN,
    DEFAULT_NAME,
    MAX_UPLOAD_BYTES,
    MAX_UPLOAD_COLS,
    MAX_UPLOAD_ROWS,
    DataSettings,
    RawTable,
    RowFilter,
    Split,
    column_overview,
    cut_points,
    filter_rows,
    front_columns,
    keep_cuts,
    label_values,
    positive_choice,
    positive_note,
    prepare,
    raw_builtin,
    raw_default,
    raw_shared,
    read_upload,
    shared_available,
    split,
    split_characters,
    validate,
)
from .workspace import (
    METHODS,
    SEMANTICS,
    KBView,
    RulesEffect,
    Workspace,
    decision_frame,
    decision_word,
    new_workspace,
    use_data,
)

__all__ = [
    "BUILTIN", "DASHBOARD_BASELINES", "DEFAULT_NAME", "KB_KIND_HELP", "KB_KINDS", "LRU", "MAX_UPLOAD_BYTES",
    "MAX_UPLOAD_COLS", "MAX_UPLOAD_ROWS", "METHODS", "SEMANTICS", "SORT_KEYS", "UNKNOWN",
    "BrowseQuery", "DataSettings", "Split", "Instance", "KBSettings", "KBView", "RawTable", "RowFilter", "RulesEffect",
    "Workspace", "baseline_scores", "browse_kb", "browse_mask", "build_kb", "column_overview",
    "confusion", "decision_frame", "decision_word", "default_max_len", "edit_instance",
    "filter_rows", "fingerprint", "front_columns", "instance_from_row", "kb_csv", "keep_cuts", "label_values", "new_workspace", "next_rule_id",
    "cut_points", "parse_conditions", "plain_label", "positive_choice", "positive_note", "prepare", "raw_builtin", "raw_default", "raw_shared", "read_upload",
    "rule_clause", "rule_notes", "rule_parts", "rule_text", "rules_frame", "safe_cell", "safe_csv", "scores",
    "shared_available", "split", "split_characters", "unique_rows", "use_data", "validate",
    "validate_conditions", "with_rules",
]
