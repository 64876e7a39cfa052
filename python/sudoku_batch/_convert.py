"""Inputs to batches: every kind of puzzle collection the calls take, converted once.

- integer arrays of shape (n, 81), (n, 9, 9), (81,) or (9, 9), any integer dtype: cell
  values, 0 for empty (a value outside 0-9 makes that puzzle malformed, its message naming
  the cell and the value as the array held it, not the call fail);
- ``S`` and ``U`` arrays of 81-character lines (``.``, ``0``, ``_`` or ``-`` for empty);
- a ``str`` (one puzzle), or a list or tuple of ``str``/``bytes`` (``None`` is a missing
  puzzle), or a list of 81-value rows;
- Python ints holding 81 digits in a pandas Series or an object array, as ``pandas.read_csv``
  makes of a Kaggle puzzle column (the leading zeros it dropped were empty cells and come
  back); an int in a list or tuple is a ``TypeError``, as anything else not a puzzle string;
- pandas Series (object or string dtype, Arrow-backed or not) and polars Series;
- pyarrow string arrays, and the result of :func:`sudoku_batch.read`.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from . import _native

__all__ = ["as_batch", "index_of"]


def _arrow_batch(arr: Any) -> _native.Batch:
    """A batch from a pyarrow string Array or ChunkedArray (no copy on the Python side)."""
    import pyarrow as pa

    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks() if arr.num_chunks != 1 else arr.chunk(0)
    if not (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)):
        try:
            arr = arr.cast(pa.large_string())
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as e:
            raise ValueError(f"an Arrow column of {arr.type} is not puzzles: {e}") from None
    if pa.types.is_string(arr.type):
        arr = arr.cast(pa.large_string())
    n = len(arr)
    _, offsets_buf, data_buf = arr.buffers()
    offsets = np.frombuffer(offsets_buf, dtype=np.int64, count=n + 1, offset=arr.offset * 8)
    data = np.frombuffer(data_buf, dtype=np.uint8) if data_buf is not None else np.zeros(0, np.uint8)
    missing = None
    if arr.null_count:
        missing = np.ascontiguousarray(arr.is_null().to_numpy(zero_copy_only=False), dtype=bool)
    return _native.Batch.from_text(data, np.ascontiguousarray(offsets), missing)


#: The character of each place of a candidate grid's 729: the digit it stands for.
_CANDIDATE_DIGITS = np.tile(np.frombuffer(b"123456789", dtype=np.uint8), 81)


def _is_candidate_array(a: np.ndarray) -> bool:
    """Whether an array holds candidate grids: shape (729,), (n, 729) or (n, 9, 9, 9) of 0/1
    flags (cell row, cell column, digit). A (9, 9, 9) array stays nine 9x9 puzzles."""
    return a.shape[-1:] == (729,) and a.ndim <= 2 or a.ndim == 4 and a.shape[1:] == (9, 9, 9)


def _candidate_batch(a: np.ndarray) -> _native.Batch:
    """Candidate flags as 729-character grids (the digit where a flag is 1, ``.`` where 0)."""
    flags = a.reshape(-1, 729)
    if flags.dtype != np.bool_ and ((flags != 0) & (flags != 1)).any():
        raise ValueError("candidate flags must be 0 or 1 (or bool)")
    text = np.where(flags != 0, _CANDIDATE_DIGITS, np.uint8(ord(".")))
    return _text_array_batch(np.ascontiguousarray(text, dtype=np.uint8).view("S729").reshape(-1))


def _integer_batch(a: np.ndarray) -> _native.Batch:
    shape = a.shape
    if _is_candidate_array(a):
        return _candidate_batch(a)
    if a.ndim == 1 and shape == (81,) or a.ndim == 2 and shape == (9, 9):
        a = a.reshape(1, 81)
    elif a.ndim == 3 and shape[1:] == (9, 9):
        a = a.reshape(shape[0], 81)
    elif not (a.ndim == 2 and shape[1] == 81):
        raise ValueError(
            f"an integer array of puzzles must have shape (n, 81) or (n, 9, 9); got {shape}"
        )
    if a.dtype == np.uint8:
        return _native.Batch.from_digits(np.ascontiguousarray(a))
    # Rows holding a value outside 0-9 are malformed: each is given with its first such cell
    # and the value as written (-1 is reported as -1), and the uint8 copy gets a 0 there.
    outside = (a < 0) | (a > 9)
    bad = None
    if outside.any():
        rows = np.flatnonzero(outside.any(axis=1))
        cells = outside[rows].argmax(axis=1)
        bad = {int(r): (int(c), int(a[r, c])) for r, c in zip(rows.tolist(), cells.tolist())}
        a = np.where(outside, 0, a)
    return _native.Batch.from_digits(np.ascontiguousarray(a, dtype=np.uint8), bad)


def _text_array_batch(a: np.ndarray) -> _native.Batch:
    if a.ndim == 0:
        a = a.reshape(1)
    if a.ndim != 1:
        raise ValueError(f"an array of puzzle strings must be 1-D; got shape {a.shape}")
    if a.dtype.kind == "U":
        codes = np.ascontiguousarray(a).view(np.uint32).reshape(len(a), a.dtype.itemsize // 4)
        # A character beyond one byte is never a cell: 0xFF keeps it malformed.
        chars = np.where(codes > 255, 255, codes).astype(np.uint8)
    else:
        chars = np.ascontiguousarray(a).view(np.uint8).reshape(len(a), a.dtype.itemsize)
    return _native.Batch.from_fixed(np.ascontiguousarray(chars))


def as_batch(puzzles: Any) -> _native.Batch:
    """The puzzles as a batch for the native calls (see the module docs for the kinds)."""
    if isinstance(puzzles, _native.Batch):
        return puzzles
    batch = getattr(puzzles, "_batch", None)
    if isinstance(batch, _native.Batch):
        return batch
    if isinstance(puzzles, (str, bytes)):
        return _native.Batch.from_strings([puzzles])
    module = type(puzzles).__module__.split(".")[0]
    if module == "pandas":
        return _pandas_batch(puzzles)
    if module == "polars":
        return _arrow_batch(puzzles.to_arrow())
    if module == "pyarrow":
        return _arrow_batch(puzzles)
    if isinstance(puzzles, np.ndarray):
        return _array_batch(puzzles)
    if isinstance(puzzles, (list, tuple)):
        if len(puzzles) and isinstance(puzzles[0], (list, tuple, np.ndarray)):
            return _array_batch(np.asarray(puzzles))
        return _native.Batch.from_strings(puzzles)
    raise TypeError(
        f"puzzles must be a numpy array, a list of str, a pandas or polars Series; "
        f"got {type(puzzles).__name__}"
    )


def _array_batch(a: np.ndarray) -> _native.Batch:
    kind = a.dtype.kind
    if kind in "iu":
        return _integer_batch(a)
    if kind == "b" and _is_candidate_array(a):
        return _candidate_batch(a)
    if kind in "SU":
        return _text_array_batch(a)
    if kind == "O":
        items = a.reshape(-1).tolist() if a.ndim else [a.item()]
        return _native.Batch.from_strings(items, ints=True)
    raise ValueError(
        f"an array of puzzles must hold integers (cell values) or strings; got dtype {a.dtype}"
    )


def _pandas_batch(series: Any) -> _native.Batch:
    import pandas as pd

    if isinstance(series, pd.DataFrame):
        raise TypeError("give one column of the DataFrame (e.g. df['puzzle']), not the frame")
    if isinstance(series, pd.Index):
        series = series.to_series()
    dtype = series.dtype
    if isinstance(dtype, pd.StringDtype) and dtype.storage == "pyarrow" or isinstance(
        dtype, getattr(pd, "ArrowDtype", ())
    ):
        if "pyarrow" in sys.modules or _has_pyarrow():
            import pyarrow as pa

            return _arrow_batch(pa.array(series.array))
    return _native.Batch.from_strings(series.tolist(), ints=True)


def _has_pyarrow() -> bool:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


def index_of(puzzles: Any) -> Any:
    """The pandas index of the input when it has one (results keep it), else None."""
    if type(puzzles).__module__.split(".")[0] == "pandas" and hasattr(puzzles, "index"):
        return puzzles.index
    return None
