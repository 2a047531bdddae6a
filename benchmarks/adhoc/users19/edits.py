"""A fitted model file (m0.json from plx fit on make.py's train.csv) edited by hand 22 ways: what
plx predict says of each (users19)."""

import copy
import json
import subprocess

m = json.load(open("m0.json"))


def e(name, f):
    x = copy.deepcopy(m)
    f(x)
    json.dump(x, open(f"ed_{name}.json", "w"))
    r = subprocess.run(
        [
            "python",
            "-m",
            "plx_core.cli",
            "predict",
            f"ed_{name}.json",
            "new_clean.csv",
            "--out",
            "ed.csv",
        ],
        capture_output=True,
        text=True,
    )
    print(
        f"== {name} rc={r.returncode}",
        r.stderr.strip().splitlines()[-1][:400] if r.stderr.strip() else "",
        "|lines",
        len(r.stderr.strip().splitlines()),
    )


e("w_abc", lambda x: x["kb"]["clauses"][3].__setitem__("w", "abc"))
e("p_abc", lambda x: x["kb"]["clauses"][3].__setitem__("p", "abc"))
e("p_2", lambda x: x["kb"]["clauses"][3].__setitem__("p", 2))
e("w_neg", lambda x: x["kb"]["clauses"][3].__setitem__("w", -1))
e("cut_removed", lambda x: x["schema"]["bins"]["age"]["cuts"].pop(5))
e("cut_unsorted", lambda x: x["schema"]["bins"]["age"]["cuts"].__setitem__(5, 99.0))
e("label_removed", lambda x: x["schema"]["bins"]["age"]["labels"].pop(5))
e("class_renamed_pos", lambda x: x.__setitem__("positive", "Sepsis"))
e("class_renamed_schema", lambda x: x["schema"].__setitem__("classes", ["no", "Sepsis"]))
e("class_renamed_kb", lambda x: x["kb"].__setitem__("positive", "Sepsis"))
e("literal_badval", lambda x: x["kb"]["clauses"][3].__setitem__("literals", ["POS", "~age=<99"]))
e("literal_badfeat", lambda x: x["kb"]["clauses"][3].__setitem__("literals", ["POS", "~agee=<23"]))
e("domain_removed", lambda x: x["kb"]["domains"].pop("age"))
e("feature_removed_schema", lambda x: x["schema"]["features"].remove("age"))
e("threshold_abc", lambda x: x.__setitem__("threshold", "abc"))
e("threshold_2", lambda x: x.__setitem__("threshold", 2))
e("version_9", lambda x: x.__setitem__("version", 9))
e("kind_bad", lambda x: x["schema"]["kinds"].__setitem__("age", "numerc"))
e("cat_renamed", lambda x: x["schema"]["categories"]["ward"].__setitem__(0, "Cardio"))
e("clauses_none", lambda x: x["kb"].__setitem__("clauses", None))
e("n_train_abc", lambda x: x.__setitem__("n_train", "abc"))
e("label_map_bad", lambda x: x["schema"].__setitem__("label_map", {"a": 1}))
