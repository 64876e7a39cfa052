"""Solve, check, canonicalise, shuffle and generate Sudoku puzzles in bulk: numpy arrays in,
numpy arrays out, at the speed of the ``sudoku-batch`` command line.

Every batch call takes puzzles as an (n, 81) or (n, 9, 9) integer array (0 for empty), an
``S81``/``U81`` array or a list of 81-character strings, or a pandas or polars column; it
releases the GIL, runs on ``threads`` worker threads (default: ``RAYON_NUM_THREADS`` or
every core), keeps the input order, gives the same result at any thread count, and checks
for Ctrl-C between chunks. A puzzle that is not one is a status in its row, never an
exception; a wrong shape or dtype is a ``ValueError`` naming it.

>>> import sudoku_batch as sb
>>> r = sb.solve(["53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"])
>>> r.status[0] == sb.Status.SOLVED, sb.to_strings(r.solutions)[0][:9]
(True, '534678912')
"""

from __future__ import annotations

import collections.abc
import enum
import json
import os
import sys
from typing import Any, Optional, Sequence, Union

import numpy as np

from . import _native
from ._convert import as_batch, index_of

__version__ = _native.__version__

__all__ = [
    "CanonResult",
    "CanonStatus",
    "GenerateResult",
    "HintResult",
    "HintStatus",
    "Problem",
    "RateResult",
    "RateStatus",
    "ReadResult",
    "ShuffleResult",
    "SolveResult",
    "StepRows",
    "StepsResult",
    "Status",
    "VerifyResult",
    "canon",
    "explain",
    "generate",
    "hint",
    "rate",
    "read",
    "register_accessor",
    "shuffle",
    "solve",
    "solve_df",
    "steps",
    "to_digits",
    "to_strings",
    "verify",
]


def _statuses(name: str, table: list[tuple[str, int]], doc: str) -> Any:
    """An IntEnum of a job's statuses as the library defines them: the CLI's status words
    (upper-cased) and the library's stable codes, so that there is one definition."""
    made = enum.IntEnum(name, [(word.upper(), code) for word, code in table], module=__name__)
    made.__doc__ = doc
    return made


Status = _statuses(
    "Status",
    _native.SOLVE_STATUSES,
    """What ``solve`` made of a puzzle (the values of ``SolveResult.status``), as the CLI's
    ``solve`` says it: ``SOLVED`` (with ``limit >= 2``: exactly one solution), ``MULTIPLE``
    (two or more; only reported with ``limit >= 2``), ``UNSOLVABLE`` (consistent givens, no
    solution), ``INVALID`` (the givens break a rule: ``errors`` names the unit and digit),
    ``MALFORMED`` (not a puzzle: ``errors`` says why), ``ABORTED`` (never returned: the calls
    have no time limit). The codes are the library's (``sudoku_batch::jobs::solve``).""",
)

RateStatus = _statuses(
    "RateStatus",
    _native.RATE_STATUSES,
    """What ``rate`` made of a puzzle (the values of ``RateResult.status``), as the CLI's
    ``rate`` says it: ``RATED`` (one solution, rated; capped or not), ``MULTIPLE``,
    ``UNSOLVABLE``, ``INVALID``, ``MALFORMED`` (not rated), ``FAILED`` (the rating engine
    failed on this puzzle: a defect, reported in its row with the message, the call goes on).
    The codes are the library's (``sudoku_batch::jobs::rate``).""",
)

HintStatus = _statuses(
    "HintStatus",
    _native.HINT_STATUSES,
    """What ``hint`` made of a position (the values of ``HintResult.status``), as the CLI's
    ``hint`` says it: ``STEP`` (the next step is in ``steps``), ``SOLVED`` (every cell is
    placed), ``CAPPED`` (no technique of the ladder applies, or the next step is above
    ``max_rating``), and :class:`RateStatus`' ``MULTIPLE``, ``UNSOLVABLE``, ``INVALID``,
    ``MALFORMED``, ``FAILED`` with the same codes. The codes are the library's
    (``sudoku_batch::jobs::hint``).""",
)

CanonStatus = _statuses(
    "CanonStatus",
    _native.CANON_STATUSES,
    """What ``canon`` made of a puzzle: ``OK``, ``INVALID``, ``MALFORMED``, as the CLI's
    ``canon`` says it.""",
)


class Problem(enum.IntFlag):
    """The problems ``verify`` finds (bits of ``VerifyResult.problems``), as the CLI's codes."""

    MALFORMED = 1 << 0
    MISSING_SOLUTION = 1 << 1
    INVALID_GIVENS = 1 << 2
    BAD_GRID = 1 << 3
    CLUE_MISMATCH = 1 << 4
    UNSOLVABLE = 1 << 5
    NOT_UNIQUE = 1 << 6
    WRONG_SOLUTION = 1 << 7


Puzzles = Any
"""Anything the calls take as puzzles (see the module docs)."""


def _status_column(status: np.ndarray, enum_type: Any) -> Any:
    """The status codes as a pandas Categorical of the CLI's status words."""
    import pandas as pd

    return pd.Categorical.from_codes(
        status.astype(np.int8), categories=[s.name.lower() for s in enum_type]
    )


def _error_column(n: int, errors: dict[int, str]) -> list:
    error: list = [None] * n
    for row, message in errors.items():
        error[row] = message
    return error


def _status_counts(status: np.ndarray, enum_type: Any) -> str:
    counts = np.bincount(status, minlength=len(enum_type))
    parts = [f"{m.name.lower()}={counts[m.value]}" for m in enum_type if counts[m.value]]
    return ", ".join(parts)


class _Result:
    """A call's result: each slot an entry of the native call's dict (``_batch`` its
    ``batch``), but ``index``, the input's index; its length is its first slot's."""

    __slots__: tuple[str, ...] = ()

    def __init__(self, fields: dict, index: Any = None) -> None:
        for name in self._names():
            setattr(self, name, index if name == "index" else fields[name.lstrip("_")])

    def __len__(self) -> int:
        return len(getattr(self, self._names()[0]))

    @classmethod
    def _names(cls) -> tuple[str, ...]:
        """The slots, a base class's first (a result class may add none to its base's)."""
        return tuple(n for k in reversed(cls.__mro__) for n in k.__dict__.get("__slots__", ()))


class SolveResult(_Result):
    """The result of :func:`solve`: arrays of length n, in input order.

    Attributes:
        solutions: (n, 81) uint8, the first solution found (the same on every run); zeros
            where there is none.
        status: (n,) uint8 of :class:`Status` values.
        count: (n,) uint32, solutions found, at most ``limit`` (``limit`` means "that many
            or more").
        guesses: (n,) uint64, alternatives tried at branch points.
        nodes: (n,) uint64, search states visited (the root included).
        errors: ``{row: message}`` for malformed and invalid rows.
    """

    __slots__ = ("solutions", "status", "count", "guesses", "nodes", "errors", "index")

    solutions: np.ndarray
    status: np.ndarray
    count: np.ndarray
    guesses: np.ndarray
    nodes: np.ndarray
    errors: dict[int, str]
    index: Any

    def __repr__(self) -> str:
        return f"SolveResult(n={len(self)}: {_status_counts(self.status, Status)})"

    def to_pandas(self, prefix: str = "") -> Any:
        """A DataFrame with the CLI's csv columns ``solution, status, solutions, guesses,
        nodes, error`` (each name after ``prefix``), on the input's index when it had one."""
        import pandas as pd

        solved = (self.status == Status.SOLVED) | (self.status == Status.MULTIPLE)
        text = to_strings(self.solutions)
        solution = [t if ok else None for t, ok in zip(text, solved.tolist())]
        columns = {
            "solution": solution,
            "status": _status_column(self.status, Status),
            "solutions": self.count,
            "guesses": self.guesses,
            "nodes": self.nodes,
            "error": _error_column(len(self), self.errors),
        }
        return pd.DataFrame(
            {prefix + name: values for name, values in columns.items()}, index=self.index
        )


def solve(
    puzzles: Puzzles,
    *,
    limit: int = 1,
    threads: Optional[int] = None,
    algorithm: str = "fast",
) -> SolveResult:
    """Solve every puzzle.

    Args:
        puzzles: an (n, 81) or (n, 9, 9) integer array (0 empty), an ``S81``/``U81`` array,
            a list of 81-character strings (``.``, ``0``, ``_`` or ``-`` for empty), a
            pandas or polars Series, or a :class:`ReadResult`.
        limit: stop after this many solutions: 1 finds one, 2 proves it unique, N counts up
            to N (1 to 2**32 - 1, as the CLI's ``--limit``).
        threads: worker threads, 1 to 8 per core (at least 64 allowed), as the CLI's
            ``--threads`` (default: ``RAYON_NUM_THREADS`` or every core). Results are the same
            at any count.
        algorithm: ``fast`` (default), ``bands``, ``hybrid``, ``jcz``, ``mrv`` or ``naive``,
            as the CLI's ``--algorithm``.

    Returns:
        a :class:`SolveResult` of arrays in input order.

    Raises:
        ValueError: a wrong shape or dtype, or an argument out of its bounds (the message
            names the argument and the bound). A bad puzzle is never raised: it is a status
            (``MALFORMED``, ``INVALID``, ...) with a message in ``errors``.
        TypeError: an argument or a puzzle of the wrong type (``threads=2.0``, an ``int`` in
            a list of strings).
    """
    batch = as_batch(puzzles)
    fields = _native.solve(batch, limit=limit, threads=threads, algorithm=algorithm)
    return SolveResult(fields, index_of(puzzles))


def solve_df(
    puzzles: Puzzles,
    *,
    limit: int = 1,
    threads: Optional[int] = None,
    algorithm: str = "fast",
    prefix: str = "sb_",
) -> Any:
    """:func:`solve` as a pandas DataFrame on the input Series' index, to join to the frame
    the puzzles came from: the CLI's csv columns (see :meth:`SolveResult.to_pandas`) with
    ``prefix`` in front of each, ``sb_solution, sb_status, sb_solutions, sb_guesses,
    sb_nodes, sb_error`` by default, so that no name collides with a dataset's own
    (Kaggle's ``solution`` and ``solutions``). ``prefix=""`` gives the CLI's names."""
    result = solve(puzzles, limit=limit, threads=threads, algorithm=algorithm)
    return result.to_pandas(prefix=prefix)


class VerifyResult(_Result):
    """The result of :func:`verify`.

    Attributes:
        ok: (n,) bool, True where the listed solution is right (and, with ``unique``, the
            puzzle has no other).
        problems: (n,) uint16 of :class:`Problem` bits.
        errors: ``{row: "code: detail" lines}`` for every row that is not ok, as
            ``sudoku-batch verify`` reports them.
    """

    __slots__ = ("ok", "problems", "errors", "index")

    ok: np.ndarray
    problems: np.ndarray
    errors: dict[int, str]
    index: Any

    def __repr__(self) -> str:
        return f"VerifyResult(n={len(self)}, ok={int(self.ok.sum())})"

    def has(self, problem: Problem) -> np.ndarray:
        """(n,) bool: the rows with ``problem``."""
        return (self.problems & int(problem)) != 0


def verify(
    puzzles: Puzzles,
    solutions: Puzzles,
    *,
    unique: bool = True,
    threads: Optional[int] = None,
) -> VerifyResult:
    """Check each puzzle's listed solution (the same row of ``solutions``), as
    ``sudoku-batch verify`` does: the solution must be a complete valid grid keeping the
    clues and, with ``unique`` (the default), the puzzle must have no other solution."""
    fields = _native.verify(
        as_batch(puzzles), as_batch(solutions), unique=unique, threads=threads
    )
    return VerifyResult(fields, index_of(puzzles))


class CanonResult(_Result):
    """The result of :func:`canon`.

    Attributes:
        forms: (n, 81) uint8, each puzzle's canonical form up to the Sudoku symmetries
            (equal forms: equivalent puzzles); zeros for invalid and malformed rows.
        automorphisms: (n,) uint32, the symmetries mapping the puzzle to itself (>= 1; 0
            where there is no form).
        status: (n,) uint8 of :class:`CanonStatus` values.
        errors: ``{row: message}`` for invalid and malformed rows.
    """

    __slots__ = ("forms", "automorphisms", "status", "errors", "index")

    forms: np.ndarray
    automorphisms: np.ndarray
    status: np.ndarray
    errors: dict[int, str]
    index: Any

    def __repr__(self) -> str:
        return f"CanonResult(n={len(self)}: {_status_counts(self.status, CanonStatus)})"


def canon(puzzles: Puzzles, *, threads: Optional[int] = None) -> CanonResult:
    """The canonical form of each puzzle and its automorphism count, as ``sudoku-batch
    canon``: two puzzles are the same up to relabelling, row/column/band/stack permutations
    and transposition exactly when their forms are equal."""
    return CanonResult(_native.canon(as_batch(puzzles), threads=threads), index_of(puzzles))


class GenerateResult(_Result):
    """The result of :func:`generate`: ``puzzles`` and ``solutions`` (n, 81) uint8, and the
    ``attempts`` (n,) each puzzle took."""

    __slots__ = ("puzzles", "solutions", "attempts")

    puzzles: np.ndarray
    solutions: np.ndarray
    attempts: np.ndarray

    def __repr__(self) -> str:
        return f"GenerateResult(n={len(self)})"


def _bounds(value: Union[None, int, Sequence[int]], what: str) -> tuple[Any, Any]:
    """``(min, max)`` of a number or a pair, either end None for the default; the native
    call checks the numbers."""
    if value is None or isinstance(value, (int, np.integer)):
        return value, value
    try:
        low, high = value
    except (TypeError, ValueError):
        raise ValueError(f"{what} must be a number or a (min, max) pair; got {value!r}") from None
    return low, high


def generate(
    n: int,
    *,
    seed: int,
    clues: Union[None, int, Sequence[int]] = None,
    minimal: bool = False,
    guesses: Union[None, int, Sequence[int]] = None,
    max_attempts: int = 10_000,
    threads: Optional[int] = None,
) -> GenerateResult:
    """Puzzles ``0..n`` of a seeded run, each with a unique solution: the same puzzles as
    ``sudoku-batch generate --count n --seed SEED`` with the same bounds, at any thread
    count.

    Args:
        n: how many, 1 to 1,000,000,000 (as the CLI's ``--count``; for more, call again
            with another seed). The call holds them in memory, 166 bytes each: a
            ``MemoryError`` when the process cannot have that, never a crash.
        seed: the run's seed, 0 to 2**64 - 1.
        clues: a clue count or a ``(min, max)`` range within 17-80 (default 22-36, the range
            of typical published puzzles; with ``minimal``, any count).
        minimal: remove clues until none can go (ignores the target count).
        guesses: bounds on the guesses the ``jcz`` solver needs (a number or ``(min, max)``).
        max_attempts: attempts per puzzle before giving up, 1 to 2**32 - 1. A long search
            stops at Ctrl-C (``KeyboardInterrupt``) at any thread count.

    Raises:
        ValueError: a puzzle could not meet the bounds within ``max_attempts`` (the message
            says which bound failed and how close the attempts came).
    """
    low, high = _bounds(clues, "clues")
    gmin, gmax = _bounds(guesses, "guesses")
    fields = _native.generate(
        n,
        seed=seed,
        min_clues=low,
        max_clues=high,
        minimal=minimal,
        min_guesses=gmin,
        max_guesses=gmax,
        max_attempts=max_attempts,
        threads=threads,
    )
    return GenerateResult(fields)


class ShuffleResult(_Result):
    """The result of :func:`shuffle`.

    Attributes:
        puzzles: (n * copies, 81) uint8: copy ``j`` of puzzle ``i`` is row ``i * copies + j``
            (zeros for the copies of a malformed puzzle).
        solutions: the copies' solutions in the same layout (with ``solutions=True``), else
            None.
        source: (n * copies,) int64, the input row of each copy.
        ok: (n,) bool per input puzzle: False where it is malformed.
        errors: ``{row: message}`` for the malformed input rows.
    """

    __slots__ = ("puzzles", "solutions", "source", "ok", "errors")

    puzzles: np.ndarray
    solutions: Optional[np.ndarray]
    ok: np.ndarray
    errors: dict[int, str]
    source: np.ndarray

    def __repr__(self) -> str:
        return f"ShuffleResult(n={len(self)}, malformed inputs={len(self.errors)})"


def shuffle(
    puzzles: Puzzles,
    *,
    seed: int,
    copies: int = 1,
    solutions: bool = False,
    threads: Optional[int] = None,
) -> ShuffleResult:
    """``copies`` images of each puzzle under random Sudoku symmetries (same difficulty,
    same solution count, new look), the same as ``sudoku-batch shuffle --seed SEED
    --copies N`` makes of a file with one puzzle per line. With ``solutions``, each copy's
    solution too. ``copies`` is 1 to 10,000, as the CLI's ``--copies``."""
    fields = _native.shuffle(
        as_batch(puzzles), seed=seed, copies=copies, solutions=solutions, threads=threads
    )
    fields["source"] = np.repeat(np.arange(len(fields["ok"]), dtype=np.int64), copies)
    return ShuffleResult(fields)


class RateResult(_Result):
    """The result of :func:`rate`: Sudoku Explainer's ratings, arrays of length n.

    Attributes:
        er, ep, ed: (n,) float64, SE's ER (hardest step), EP (hardest up to the first
            placement) and ED (first step) in tenths as the CLI prints them (``1.2`` is the
            float nearest 1.2); 0.0 where the puzzle is not rated.
        hardest: (n,) uint8, index into ``techniques`` of the hardest step's technique
            (255: none).
        techniques: the technique names, in ladder order.
        steps: (n,) uint32 steps on the path.
        capped: (n,) bool: the path stopped early (no technique of the ladder applies, or
            the next step is above ``max_rating``): the ratings are a lower bound.
        status: (n,) uint8 of :class:`RateStatus` values, the CLI's statuses: only ``RATED``
            rows have ratings.
        errors: ``{row: message}`` for malformed, invalid and failed rows (the CLI's
            ``error`` column).
    """

    __slots__ = ("er", "ep", "ed", "hardest", "techniques", "steps", "capped", "status",
                 "errors", "index")

    er: np.ndarray
    ep: np.ndarray
    ed: np.ndarray
    hardest: np.ndarray
    techniques: list[str]
    steps: np.ndarray
    capped: np.ndarray
    status: np.ndarray
    errors: dict[int, str]
    index: Any

    def __repr__(self) -> str:
        rated = int((self.status == RateStatus.RATED).sum())
        return f"RateResult(n={len(self)}, rated={rated}, capped={int(self.capped.sum())})"

    def hardest_names(self) -> list:
        """The hardest step's technique name per row (None where there is none)."""
        names = self.techniques
        return [names[h] if h < len(names) else None for h in self.hardest.tolist()]

    def to_pandas(self) -> Any:
        """A DataFrame ``er, ep, ed, hardest, steps, capped, status, error`` on the input's
        index when it had one."""
        import pandas as pd

        return pd.DataFrame(
            {
                "er": self.er, "ep": self.ep, "ed": self.ed, "hardest": self.hardest_names(),
                "steps": self.steps, "capped": self.capped,
                "status": _status_column(self.status, RateStatus),
                "error": _error_column(len(self), self.errors),
            },
            index=self.index,
        )


def rate(
    puzzles: Puzzles,
    *,
    ladder: str = "se",
    max_rating: Union[None, float, int, str] = None,
    threads: Optional[int] = None,
) -> RateResult:
    """Rate each puzzle by human-style difficulty: Sudoku Explainer 1.2.1.3's ER/EP/ED,
    found by solving the puzzle step by step with SE's techniques in SE's order (the
    library's ``rate`` job, the work ``sudoku-batch rate`` does for each record). Each
    puzzle is proved unique first (solution limit 2); only unique puzzles are rated, the
    others get the CLI's :class:`RateStatus`; a puzzle the engine fails on is one ``FAILED``
    row, never an exception.

    Args:
        puzzles: as for :func:`solve`.
        ladder: ``se`` (Sudoku Explainer 1.2.1.3, the default), ``sukaku`` (the set that rated
            the Sudoku Exchange bank) or ``sukaku-default`` (with the UVWXYZ- and
            TUVWXYZ-Wings).
        max_rating: stop a path once its next step would be harder (the row is then
            ``capped``): a rating from 1.0 to 25.5 with one decimal at most, as the CLI's
            ``--max-rating`` (``6.2``, ``7`` or ``"6.2"``; ``8.95`` is a ``ValueError``).
        threads: worker threads, as for :func:`solve`.

    A ``capped`` puzzle's ratings are those of the path so far, never a wrong number.
    """
    fields = _native.rate(as_batch(puzzles), ladder=ladder, max_rating=max_rating,
                          threads=threads)
    return RateResult(fields, index_of(puzzles))


_UNREAD = object()


class StepRows(collections.abc.Sequence):
    """The rows' steps, each made of the library's JSON step bodies by ``json.loads`` when
    the row is first read, then kept: a call returns as soon as the steps are found, since
    making Python objects of every step of a large batch takes longer than finding them (a
    Kaggle puzzle's path is ~50 steps) and most uses read a few rows. ``list(rows)`` parses
    them all. Each step is the CLI's object: ``kind`` and ``line`` first. Equal to a list
    holding the same values."""

    __slots__ = ("_texts", "_read", "_paths")

    def __init__(self, texts: list, paths: Optional[np.ndarray] = None) -> None:
        self._texts = texts
        self._read = [_UNREAD] * len(texts)
        # Whole paths: True for the rows that have one (rated), whose empty text is [].
        self._paths = paths

    def __len__(self) -> int:
        return len(self._texts)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        value = self._read[i]
        if value is _UNREAD:
            value = self._parse(self._texts[i], (i if i >= 0 else len(self) + i) + 1)
            self._read[i] = value
        return value

    def _parse(self, text: bytes, line: int) -> Any:
        """Bodies ``"step":1,...}`` one a line: a step dict, or with paths their list."""
        if self._paths is None:
            return {"kind": "step", "line": line, **json.loads(b"{" + text)} if text else None
        if not text:
            return [] if self._paths[line - 1] else None
        bodies = json.loads(b"[{" + text[:-1].replace(b"\n", b",{") + b"]")
        return [{"kind": "step", "line": line, **body} for body in bodies]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, tuple, StepRows)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __repr__(self) -> str:
        return f"StepRows(n={len(self)})"


def _with_steps(fields: dict, paths: bool) -> dict:
    """A native call's fields, its JSON bodies as ``steps`` (:class:`StepRows`; with
    ``paths``, a list of steps a row)."""
    status = fields["status"]
    rated = status == RateStatus.RATED if paths else None
    return {"steps": StepRows(fields["json"], rated), "status": status,
            "errors": fields["errors"]}


class _StepsFields(_Result):
    """The fields :func:`hint` and :func:`steps` share: ``steps`` (a :class:`StepRows`),
    ``status`` and ``errors``."""

    __slots__ = ("steps", "status", "errors", "index")

    steps: StepRows
    status: np.ndarray
    errors: dict[int, str]
    index: Any


class HintResult(_StepsFields):
    """The result of :func:`hint`.

    Attributes:
        steps: n step dicts (``None`` where there is no step), a :class:`StepRows` (each
            row parsed when first read; ``list(steps)`` parses them all), each with the keys
            of the CLI's step object: ``kind`` (``"step"``), ``line`` (row + 1), ``step``
            (1), ``technique``, ``difficulty``, ``cells``, ``digits``, ``placements``
            (``"r1c2=5"``), ``eliminations`` (``"r3c4<>7"``), ``text``, for a chain ``chain``
            (Eureka notation), ``branches`` and ``nested`` (its chains as data: links with
            ``from``, ``to``, ``kind`` and ``why``), and for a chain or an aligned exclusion
            ``lines`` (one sentence per link); docs/step.schema.json is their JSON Schema.
        status: (n,) uint8 of :class:`HintStatus` values.
        errors: ``{row: message}`` for malformed, invalid, failed and multiple rows.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        found = int((self.status == HintStatus.STEP).sum())
        return f"HintResult(n={len(self)}, steps={found})"


class StepsResult(_StepsFields):
    """The result of :func:`steps`.

    Attributes:
        steps: n lists of step dicts (the keys of :class:`HintResult`'s, ``step`` counting
            from 1 along the path), a :class:`StepRows`; ``None`` where the puzzle is not
            rated.
        status: (n,) uint8 of :class:`RateStatus` values.
        errors: ``{row: message}`` as :class:`RateResult`'s.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        rated = int((self.status == RateStatus.RATED).sum())
        return f"StepsResult(n={len(self)}, rated={rated})"


def hint(
    positions: Puzzles,
    *,
    ladder: str = "se",
    max_rating: Union[None, float, int, str] = None,
    threads: Optional[int] = None,
) -> HintResult:
    """The next step from each position, exactly as :func:`rate` would take it there (the
    library's ``hint`` job, the work ``sudoku-batch hint`` does for each record): one step's
    work after a uniqueness solve, not a whole path.

    Args:
        positions: puzzles as for :func:`solve` (81 characters), 729-character candidate
            grids (nine per cell, the digit k+1 at place k where it is a candidate, ``.`` or
            ``0`` where not), or arrays of 0/1 candidate flags of shape (n, 729) or
            (n, 9, 9, 9) (cell row, cell column, digit).
        ladder, max_rating, threads: as for :func:`rate`.
    """
    fields = _native.hint(as_batch(positions), ladder=ladder, max_rating=max_rating,
                          threads=threads)
    return HintResult(_with_steps(fields, False), index_of(positions))


def steps(
    puzzles: Puzzles,
    *,
    ladder: str = "se",
    max_rating: Union[None, float, int, str] = None,
    threads: Optional[int] = None,
) -> StepsResult:
    """Each puzzle's whole path as ``sudoku-batch rate --steps`` writes it: a list of step
    dicts per puzzle. Arguments as for :func:`rate` (candidate grids too, as for
    :func:`hint`)."""
    fields = _native.steps(as_batch(puzzles), ladder=ladder, max_rating=max_rating,
                           threads=threads)
    return StepsResult(_with_steps(fields, True), index_of(puzzles))


def explain(
    puzzles: Puzzles,
    path: Union[None, str, "os.PathLike[str]"] = None,
    *,
    ladder: str = "se",
    max_rating: Union[None, float, int, str] = None,
    threads: Optional[int] = None,
) -> Optional[str]:
    """The page of ``sudoku-batch explain`` for these puzzles (or 729-character candidate
    grids, as for :func:`hint`): one self-contained HTML file with each puzzle's rating and
    solving path, step by step (the library's ``explain`` job; row ``i`` is the record of
    line ``i + 1``, so a list of a file's lines gives the CLI's very page). Written to
    ``path`` when given (then ``None`` is returned), else returned as a string. At most 1000
    puzzles a page (ValueError past that); other arguments as for :func:`rate`."""
    page = _native.explain(as_batch(puzzles), ladder=ladder, max_rating=max_rating,
                           threads=threads)
    if path is None:
        return page.decode("utf-8")
    _write_whole(path, page)
    return None


def _write_whole(path: Union[str, "os.PathLike[str]"], data: bytes) -> None:
    """Writes ``data`` to ``path`` as the CLI's ``-o`` does: what the path points at is looked
    at first (a symbolic link stays and its target is replaced; a device, FIFO or socket is
    written directly, never renamed over; a directory is refused), and a file is replaced
    whole, through a temporary file beside it, so it is complete or as it was."""
    import stat
    import tempfile

    target = os.path.realpath(os.fspath(path))
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and stat.S_ISDIR(mode):
        raise IsADirectoryError(f"{os.fspath(path)}: is a directory")
    if mode is not None and not stat.S_ISREG(mode):
        with open(target, "wb") as out:
            out.write(data)
        return
    folder = os.path.dirname(target) or "."
    fd, temp = tempfile.mkstemp(dir=folder, prefix=".sb-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        if mode is not None:
            os.chmod(temp, stat.S_IMODE(mode))
        os.replace(temp, target)
    except BaseException:
        if os.path.exists(temp):
            os.unlink(temp)
        raise


class ReadResult(_Result):
    """The records of a file read by :func:`read`, one row each, in file order.

    Attributes:
        puzzles: (n, 81) uint8 cell values; zeros for a malformed record (see ``errors``).
        solutions: (n, 81) uint8 of the solutions listed with the puzzles (a CSV solution
            column, a line's second grid), zeros where none; None when the file lists none.
        lines: (n,) uint64, the 1-based line where each record starts.
        ids: the ``id`` column (list of str or None), or None when there is none.
        errors: ``{row: message}`` for the malformed puzzles.
        solution_errors: ``{row: message}`` for the malformed listed solutions.

    Give it to the other calls as is (``solve(read(path))``): its malformed rows stay
    malformed there.
    """

    __slots__ = ("puzzles", "solutions", "lines", "ids", "errors", "solution_errors", "_batch")

    puzzles: np.ndarray
    solutions: Optional[np.ndarray]
    lines: np.ndarray
    ids: Optional[list]
    errors: dict[int, str]
    solution_errors: dict[int, str]
    _batch: _native.Batch

    @property
    def malformed(self) -> np.ndarray:
        """(n,) bool: the records whose puzzle is malformed."""
        mask = np.zeros(len(self.lines), dtype=bool)
        mask[list(self.errors)] = True
        return mask

    def __repr__(self) -> str:
        listed = "with" if self.solutions is not None else "without"
        return f"ReadResult(n={len(self)}, {listed} solutions, malformed={len(self.errors)})"


def read(
    path: Any,
    *,
    column: Union[None, str, int] = None,
    format: str = "auto",
    solutions: bool = True,
) -> ReadResult:
    """Read a puzzle file with the CLI's readers, straight into arrays.

    Takes every input the CLI takes: one puzzle per line (the first 81-cell field; a second
    one is the solution), CSV with a header (the puzzle and solution columns found by name:
    Kaggle's ``quizzes,solutions`` and ``puzzle,solution``, or ``column``), 9-line blocks,
    LeetCode boards; plain, gzip, zstd, xz, bzip2 or single-file zip, recognised by content;
    ``"-"`` for standard input. Every record gives one row; a malformed one is a row too.

    Args:
        path: the file.
        column: the CSV puzzle column, by header name or 0-based index.
        format: ``auto`` (default), ``lines``, ``csv``, ``block`` or ``board``.
        solutions: read the listed solutions (False skips them: faster).

    Raises:
        FileNotFoundError, OSError: the file cannot be opened or read.
        ValueError: the file cannot be read as puzzles at all (a CSV with no puzzle column).
    """
    import os

    return ReadResult(
        _native.read(os.fspath(path), column=column, format=format, solutions=solutions)
    )


def to_digits(puzzles: Puzzles, *, threads: Optional[int] = None) -> np.ndarray:
    """The puzzles as an (n, 81) uint8 array of cell values (0 empty).

    Raises:
        ValueError: a puzzle is malformed (the message names its row and the problem).
    """
    fields = _native.digits(as_batch(puzzles), threads=threads)
    if fields["errors"]:
        row = min(fields["errors"])
        raise ValueError(f"puzzle {row}: {fields['errors'][row]}")
    return fields["cells"]


def to_strings(puzzles: Puzzles, *, empty: str = ".") -> list:
    """The puzzles as 81-character strings, ``empty`` (``.`` or ``0``) for empty cells;
    None for a malformed row."""
    if len(empty) != 1 or not empty.isascii():
        raise ValueError(f"empty must be one ASCII character; got {empty!r}")
    return _native.strings(as_batch(puzzles), empty=ord(empty))


def register_accessor() -> None:
    """Register the ``.sudoku`` accessor on pandas Series (done on import when pandas is
    already imported): ``df["puzzle"].sudoku.solve()`` is ``solve_df(df["puzzle"])``."""
    import pandas as pd

    if "sudoku" in getattr(pd.Series, "_accessors", set()):
        return

    @pd.api.extensions.register_series_accessor("sudoku")
    class _SudokuAccessor:
        """Batch calls on a Series of puzzles, keeping its index."""

        def __init__(self, series: Any) -> None:
            self._series = series

        def solve(self, **kwargs: Any) -> Any:
            """:func:`sudoku_batch.solve_df` of the Series."""
            return solve_df(self._series, **kwargs)

        def verify(self, solutions: Any, **kwargs: Any) -> VerifyResult:
            """:func:`sudoku_batch.verify` of the Series against ``solutions``."""
            return verify(self._series, solutions, **kwargs)

        def canon(self, **kwargs: Any) -> Any:
            """The canonical forms as a Series of strings on the same index."""
            result = canon(self._series, **kwargs)
            forms = to_strings(result.forms)
            ok = (result.status == CanonStatus.OK).tolist()
            return pd.Series(
                [f if good else None for f, good in zip(forms, ok)], index=self._series.index
            )

        def digits(self) -> np.ndarray:
            """:func:`sudoku_batch.to_digits` of the Series."""
            return to_digits(self._series)


if "pandas" in sys.modules:
    register_accessor()
