"""Type stubs of the native module (the Rust side of sudoku_batch). Use the package's
functions: they convert inputs and wrap these results."""

from os import PathLike
from typing import Any, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

__version__: str

class Batch:
    """Puzzles converted once for the native calls."""

    @staticmethod
    def from_digits(cells: npt.NDArray[np.uint8]) -> Batch: ...
    @staticmethod
    def from_fixed(chars: npt.NDArray[np.uint8]) -> Batch: ...
    @staticmethod
    def from_text(
        data: npt.NDArray[np.uint8],
        offsets: npt.NDArray[np.int64],
        missing: Optional[npt.NDArray[np.bool_]] = None,
    ) -> Batch: ...
    @staticmethod
    def from_strings(items: Sequence[Union[str, bytes, None, float]]) -> Batch: ...
    def __len__(self) -> int: ...

def solve(
    batch: Batch, *, limit: int = 1, threads: Optional[int] = None, algorithm: str = "fast"
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
    min_guesses: int = 0,
    max_guesses: int = ...,
    max_attempts: int = 10000,
    threads: Optional[int] = None,
) -> dict[str, Any]: ...
def shuffle(
    batch: Batch,
    *,
    seed: int,
    copies: int = 1,
    solutions: bool = False,
    threads: Optional[int] = None,
) -> dict[str, Any]: ...
def rate(
    batch: Batch,
    *,
    ladder: str = "se",
    max_rating: Optional[float] = None,
    threads: Optional[int] = None,
) -> dict[str, Any]: ...
def strings(batch: Batch, *, empty: int = 46) -> list[Optional[str]]: ...
def read(
    path: Union[str, PathLike[str]],
    *,
    column: Union[None, str, int] = None,
    format: str = "auto",
    solutions: bool = True,
) -> dict[str, Any]: ...
