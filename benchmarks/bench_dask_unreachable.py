"""Time `plx predict --dask` at a closed local port: python benchmarks/bench_dask_unreachable.py MODEL DATA."""
import socket
import subprocess
import sys
import time

with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
t = time.perf_counter()
r = subprocess.run([sys.executable, "-m", "plx_core.cli", "predict", sys.argv[1], sys.argv[2],
                    "--out", "/dev/null", "--dask", f"tcp://127.0.0.1:{port}"],
                   capture_output=True, text=True)
print(f"{time.perf_counter() - t:.1f} s, exit {r.returncode}: {r.stderr.strip().splitlines()[-1]}")
