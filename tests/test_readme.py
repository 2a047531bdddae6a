"""The README's Python example runs and prints what it says."""

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_example_prints_its_comment():
    text = README.read_text(encoding="utf-8")
    block = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    expected = re.search(r"# (0\.5 0\.5 False median)", block).group(1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, str(README), "exec"), {})
    assert out.getvalue().strip() == expected


def test_readme_gives_the_two_setup_commands():
    text = README.read_text(encoding="utf-8")
    commands = re.findall(r"```bash\n(.*?)\n```", text, re.S)
    assert any("streamlit run app.py" in c and "pip install -e ." in c for c in commands)
    assert any("python -m pytest" in c and "pip install -e '.[dev]'" in c for c in commands)
