"""Streamlit glue for the dashboard (the engine, `plx_core`, never imports Streamlit)."""
