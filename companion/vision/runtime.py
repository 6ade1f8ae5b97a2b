"""ONNX Runtime settings and loading, shared by the shipped models."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.errors import MissingResource, RecognitionFailure


def session_options(threads: int) -> Any:
    """Options for one model: ``threads`` for each run, which spin between the network's layers
    and stop spinning when the run ends. Threads left spinning after a run took the CPU from the
    next model and from the rest of the pipeline (``companion bench vision`` on 2 cores: 16 -> 27
    fps once they slept); threads that sleep between layers too wake late at each one (on a 2-core
    CPU with AVX2 alone: 16.2-17.3 fps sleeping, 21.1-21.3 spinning within runs only)."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    options.add_session_config_entry("session.intra_op.allow_spinning", "1")
    options.add_session_config_entry("session.force_spinning_stop", "1")
    return options


def load_session(path: Path, what: str, threads: int) -> Any:
    """The ONNX Runtime session of the ``what`` model at ``path`` on the CPU, or a one-line error
    that names the file: :class:`MissingResource` when it is absent, :class:`RecognitionFailure`
    when ONNX Runtime cannot load it."""
    import onnxruntime as ort

    if not path.is_file():
        raise MissingResource(f"{what} model not found: {path}")
    try:
        return ort.InferenceSession(str(path), session_options(threads), providers=["CPUExecutionProvider"])
    except Exception as error:  # onnxruntime raises its own untyped errors
        raise RecognitionFailure(f"cannot load {what} model {path}: {error}") from None
