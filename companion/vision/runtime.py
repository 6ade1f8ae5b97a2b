"""ONNX Runtime settings shared by the shipped models."""

from __future__ import annotations

from typing import Any


def session_options(threads: int) -> Any:
    """Options for one model: ``threads`` for each run, and idle threads that sleep instead of
    spinning, so that the detector and the identifier, run one after the other on every frame,
    do not take the CPU from each other (``companion bench vision`` on 2 cores: 16 -> 27 fps)."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return options
