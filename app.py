"""plx dashboard, the checkout's entry: `streamlit run app.py`.

The dashboard itself ships inside the package (`plx_app/`), so that `plx dashboard` starts the
same app from any folder after `pip install .`; this file only calls it.
"""

from plx_app.app import main

main()
