"""review27: a table through the dashboard's pages (AppTest): upload, choose the positive
class, "Use this data", then every page; prints each page's exceptions and errors, and any
markdown, caption, notice, metric or widget label holding the hostile table's HTML or
markdown unescaped. `python pages.py FILE.csv POSITIVE` from the repository's root."""
import glob
import re
import sys

sys.path.insert(0, "tests")
from app_util import classic_workspace  # noqa: E402
from test_app import errors, run  # noqa: E402

BAD = re.compile(r"(?<!\\)\[link\]\(|(?<!\\)\*\*md|(?<!\\)<(script|img|b>)")


def main(name: str, pos: str) -> None:
    at = run("plx_app/views/1_Data.py", classic_workspace(build=False).fork())
    at.radio(key="data_source").set_value("Upload a CSV").run()
    at.file_uploader(key="data_upload").set_value(
        (name.split("/")[-1], open(name, "rb").read(), "text/csv")).run()
    key = next(s for s in at.session_state if str(s).startswith("data_pos_"))
    at.selectbox(key=key).set_value(pos).run()
    print("Data page warnings:", [str(w.value)[:200] for w in at.warning])
    at.button(key="data_apply").click().run()
    for page in sorted(glob.glob("plx_app/views/*.py")):
        at.switch_page(page).run(timeout=300)
        shown = [m.value for m in at.markdown] + [c.value for c in at.caption]
        shown += [e.value for e in (*at.info, *at.warning, *at.success, *at.error)]
        shown += [m.label for m in at.metric] + [str(m.value) for m in at.metric]
        for kind in ("selectbox", "radio", "multiselect", "checkbox", "text_input", "button"):
            shown += [getattr(w, "label", "") for w in getattr(at, kind)]
        bad = [str(s)[:200] for s in shown if BAD.search(str(s))]
        print(page, "exceptions:", [str(e.value)[:200] for e in at.exception],
              "errors:", errors(at)[:2], "unescaped:", bad[:3])


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
