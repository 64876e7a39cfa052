"""Type stubs of the native module (the Rust side of sudoku_batch). Use the package's
functions: they convert inputs and wrap these results."""

from os import PathLike
from typing import Any, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

__version__: str
SOLVE_STATUSES: list[tuple[str, int]]
RATE_STATUSES: list[tuple[str, int]]
HINT_STATUSES: list[tuple[str, int]]
CANON_STATUSES: list[tuple[str, int]]

class Batch:
    """Puzzles converted once for the native calls."""

    @staticmethod
    def from_digits(
        cells: npt.NDArray[np.uint8], bad: Optional[dict[int, tuple[int, int]]] = None
    ) -> Batch: ...
    @staticmethod
    def from_fixed(chars: npt.NDArray[np.uint8]) -> Batch: ...
    @staticmethod
    def from_text(
        data: npt.NDArray[np.uint8],
        offsets: npt.NDArray[np.int64],
        missing: Optional[npt.NDArray[np.bool_]] = None,
    ) -> Batch: ...
    @staticmethod
    def from_strings(
        items: Sequence[Union[str, bytes, None, float, int]], ints: bool = False
    ) -> Batch: ...
    def __len__(self) -> int: ...

def solve(
    batch: Batch,
    *,
    limit: Optional[int] = None,
    threads: Optional[int] = None,
    algorithm: str = "fast",
) -> dict[str, Any]: ...
def verify(
    puzzles: Batch, solutions: Batch, *, unique: bool = True, threads: Optional[int] = None
) -> dict[str, Any]: ...
def canon(batch: Batch, *, threads: Optional[int] = None) -> dict[str, Any]: ...
def digits(batch: Batch, *, threads: Optional[int] = None) -> dict[str, Any]: ...
def generate(
    n: int,
    *,
    seed: int,
    min_clues: Optional[int] = None,
    max_clues: Optional[int] = None,
    minimal: bool = False,
    min_guesses: Optional[int] = None,
    max_guesses: Optional[int] = None,
    max_attempts: Optional[int] = None,
    threads: Optional[int] = None,
) -> dict[str, Any]: ...
def shuffle(
    batch: Batch,
    *,
    seed: int,
    copies: Optional[int] = None,
    solutions: bool = False,
    threads: Optional[int] = None,
) -> dict[str, Any]: ...
def rate(
    batch: Batch,
    *,
    ladder: str = "se",
    max_rating: Union[None, float, int, str] = None,
    threads: Optional[int] = None,
) -> dict[str, Any]: ...
def hint(
    batch: Batch,
    *,
    ladder: str = "se",
    max_rating: Union[None, float, int, str] = None,
    threads: Optional[int] = None,
) -> dict[str, Any]: ...
def steps(
    batch: Batch,
    *,
    ladder: str = "se",
    max_rating: Union[None, float, int, str] = None,
    threads: Optional[int] = None,
) -> dict[str, Any]: ...
def explain(
    batch: Batch,
    *,
    ladder: str = "se",
    max_rating: Union[None, float, int, str] = None,
    threads: Optional[int] = None,
) -> bytes: ...
def strings(batch: Batch, *, empty: int = 46) -> list[Optional[str]]: ...
def read(
    path: Union[str, PathLike[str]],
    *,
    column: Union[None, str, int] = None,
    format: str = "auto",
    solutions: bool = True,
) -> dict[str, Any]: ...
