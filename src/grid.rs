//! `Grid`: the 81 cells of a puzzle or a solution, and the text formats people write them in.
//!
//! Three input forms are understood:
//! - an 81-character line (`1`-`9` are clues; `.`, `0`, `_` and `-` are empty cells),
//! - a LeetCode board (`[["5","3",".",...],...]`, 9 lists of 9 one-character strings),
//! - a 9-line block (9 rows of 9 cells; `|`, `+`, spaces and separator lines are ignored).
//!
//! Cells are stored as `0` (empty) or `1..=9`, row-major: cell `r * 9 + c`.

use std::fmt;

use crate::error::GridError;

/// Number of cells in a grid.
pub const CELLS: usize = 81;

/// The 6 permutations of 3 things: the orders of rows in a band, bands in a grid, and so on.
pub(crate) const PERMS3: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// A 9x9 Sudoku grid: `0` is an empty cell, `1..=9` a digit. Row-major, 81 bytes, `Copy`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Grid([u8; CELLS]);

/// A unit of the grid: a row, a column or a box, numbered from 1 as people count them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// Row 1..=9, top to bottom.
    Row(u8),
    /// Column 1..=9, left to right.
    Column(u8),
    /// Box 1..=9, left to right then top to bottom.
    Box(u8),
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unit::Row(n) => write!(f, "row {n}"),
            Unit::Column(n) => write!(f, "column {n}"),
            Unit::Box(n) => write!(f, "box {n}"),
        }
    }
}

/// Two equal digits in one unit: the givens of a puzzle break a rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Conflict {
    /// The unit holding the digit twice.
    pub unit: Unit,
    /// The repeated digit, `1..=9`.
    pub digit: u8,
    /// The two cells (0-based, row-major) that hold it.
    pub cells: [u8; 2],
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b] = self.cells.map(cell_name);
        write!(
            f,
            "digit {} appears twice in {} ({a} and {b})",
            self.digit, self.unit
        )
    }
}

/// `r3c7` style name of a 0-based cell index, as Sudoku players write it.
#[inline]
pub fn cell_name(cell: u8) -> CellName {
    CellName([b'r', b'1' + cell / 9, b'c', b'1' + cell % 9])
}

/// A cell's name, `r3c7` ([`cell_name`]): four ASCII bytes, written without allocating.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellName([u8; 4]);

impl CellName {
    /// The name's bytes.
    pub fn as_bytes(&self) -> &[u8; 4] {
        &self.0
    }
}

impl fmt::Display for CellName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(std::str::from_utf8(&self.0).expect("ASCII"))
    }
}

/// The value of one input character as a cell: `Some(0)` empty, `Some(1..=9)` digit, `None` not a cell.
#[inline]
pub fn cell_value(byte: u8) -> Option<u8> {
    match byte {
        b'1'..=b'9' => Some(byte - b'0'),
        b'.' | b'0' | b'_' | b'-' => Some(0),
        _ => None,
    }
}

/// The character at byte offset `at` of `text`, for error messages (handles non-ASCII text).
/// The character starting at byte `at`, or `None` when the bytes there are not UTF-8.
fn char_at(text: &[u8], at: usize) -> Option<char> {
    let rest = &text[at..];
    let valid = match std::str::from_utf8(rest) {
        Ok(s) => s,
        Err(e) => std::str::from_utf8(&rest[..e.valid_up_to()]).ok()?,
    };
    valid.chars().next()
}

impl Grid {
    /// The grid with every cell empty.
    pub const EMPTY: Grid = Grid([0; CELLS]);

    /// A grid from cell values (`0` empty, `1..=9` digits); `None` if a value is above 9.
    #[inline]
    pub fn from_cells(cells: [u8; CELLS]) -> Option<Grid> {
        // A fold without early exit, so the compiler checks 16 cells per vector compare (the
        // byte loop of `all` was 40% of the solver's read-out of a solution).
        let above = cells.iter().fold(0u8, |acc, &v| acc | u8::from(v > 9));
        (above == 0).then_some(Grid(cells))
    }

    /// A grid from 81 cell values (`0` empty, `1..=9` digits) as arrays hold them, with the
    /// first value above 9 described when there is one.
    #[inline]
    pub fn from_values(cells: &[u8; CELLS]) -> Result<Grid, GridError> {
        Grid::from_cells(*cells).ok_or_else(|| {
            let at = cells.iter().position(|&v| v > 9).unwrap_or(0);
            GridError::Value {
                position: at + 1,
                value: i128::from(cells[at]),
            }
        })
    }

    /// The cell values, row-major (`0` empty).
    #[inline]
    pub fn cells(&self) -> &[u8; CELLS] {
        &self.0
    }

    /// The filled cells as bits: bit `i` is set when cell `i` holds a digit.
    #[inline]
    pub fn given_mask(&self) -> u128 {
        #[cfg(target_arch = "x86_64")]
        {
            // 16 cells per compare and movemask instead of 81 shifts: on easy puzzles the
            // scalar loop was a third of the solver's set-up time.
            // SAFETY: SSE2 is part of the x86_64 baseline, so these intrinsics are always
            // available; every load reads 16 bytes within the 81-byte array (offsets 0..=64).
            unsafe {
                use std::arch::x86_64::{
                    __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_setzero_si128,
                };
                let zero = _mm_setzero_si128();
                let mut mask = 0u128;
                for k in 0..5 {
                    let v = _mm_loadu_si128(self.0.as_ptr().add(16 * k) as *const __m128i);
                    let empty = _mm_movemask_epi8(_mm_cmpeq_epi8(v, zero)) as u32;
                    mask |= u128::from(!empty & 0xffff) << (16 * k);
                }
                mask | u128::from(self.0[80] != 0) << 80
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self.0
                .iter()
                .enumerate()
                .fold(0u128, |m, (i, &v)| m | u128::from(v != 0) << i)
        }
    }

    /// Each digit's cells as bits: `masks[d]` has bit `i` set when cell `i` holds `d + 1`.
    #[inline]
    pub fn digit_masks(&self) -> [u128; 9] {
        let mut masks = [0u128; 9];
        #[cfg(target_arch = "x86_64")]
        {
            // The 81 cells loaded once into five registers (the last byte apart), then a
            // compare and movemask per digit and register.
            // SAFETY: SSE2 is part of the x86_64 baseline, so these intrinsics are always
            // available; every load reads 16 bytes within the 81-byte array (offsets 0..=64).
            unsafe {
                use std::arch::x86_64::{
                    __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
                };
                let p = self.0.as_ptr();
                let v: [__m128i; 5] =
                    std::array::from_fn(|k| _mm_loadu_si128(p.add(16 * k) as *const __m128i));
                for (d, mask) in masks.iter_mut().enumerate() {
                    let digit = _mm_set1_epi8(d as i8 + 1);
                    for (k, &chunk) in v.iter().enumerate() {
                        let hit = _mm_movemask_epi8(_mm_cmpeq_epi8(chunk, digit)) as u32;
                        *mask |= u128::from(hit & 0xffff) << (16 * k);
                    }
                    *mask |= u128::from(self.0[80] == d as u8 + 1) << 80;
                }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        for (i, &v) in self.0.iter().enumerate() {
            if v != 0 {
                masks[usize::from(v - 1)] |= 1 << i;
            }
        }
        masks
    }

    /// The value of cell `index` (0-based, row-major): `0` empty or `1..=9`.
    #[inline]
    pub fn get(&self, index: usize) -> u8 {
        self.0[index]
    }

    /// Set cell `index` to `value` (`0` empties it). Panics if `value > 9`.
    #[inline]
    pub fn set(&mut self, index: usize, value: u8) {
        assert!(value <= 9, "cell value {value} is not 0..=9");
        self.0[index] = value;
    }

    /// Parse an 81-cell line given as bytes (no surrounding whitespace is allowed).
    pub fn from_line_bytes(line: &[u8]) -> Result<Grid, GridError> {
        if let Some(grid) = line.try_into().ok().and_then(Grid::from_cell_bytes) {
            return Ok(grid);
        }
        let mut cells = [0u8; CELLS];
        let mut n = 0usize;
        for (at, &byte) in line.iter().enumerate() {
            let Some(v) = cell_value(byte) else {
                return Err(match char_at(line, at) {
                    Some(found) => GridError::BadChar {
                        position: at + 1,
                        found,
                    },
                    None => GridError::BadByte {
                        position: at + 1,
                        byte,
                    },
                });
            };
            if n < CELLS {
                cells[n] = v;
            }
            n += 1;
        }
        if n != CELLS {
            return Err(GridError::Length { found: n });
        }
        Ok(Grid(cells))
    }

    /// The grid of exactly 81 cell characters, or `None` when one is not a cell. The fast
    /// path of every line parser: no early exit and no error bookkeeping, so the loop compiles
    /// to a few SIMD instructions per 16 bytes (with baseline SSE2); errors are described by
    /// the slow path.
    #[inline]
    pub fn from_cell_bytes(line: &[u8; CELLS]) -> Option<Grid> {
        let mut cells = [0u8; CELLS];
        let mut bad = false;
        for (cell, &b) in cells.iter_mut().zip(line) {
            let digit = b.wrapping_sub(b'1') < 9;
            let empty = b == b'.' || b == b'0' || b == b'_' || b == b'-';
            bad |= !(digit | empty);
            *cell = if digit { b - b'0' } else { 0 };
        }
        (!bad).then_some(Grid(cells))
    }

    /// Parse an 81-character line (`1`-`9` clues; `.`, `0`, `_`, `-` empty). Surrounding
    /// whitespace is ignored.
    pub fn from_line(line: &str) -> Result<Grid, GridError> {
        Grid::from_line_bytes(line.trim().as_bytes())
    }

    /// Parse a LeetCode board: `[["5","3",".",...],...]`, 9 lists of 9 one-character strings
    /// (double or single quotes; whitespace and newlines anywhere).
    pub fn from_leetcode(text: &str) -> Result<Grid, GridError> {
        let mut board = Board {
            cells: [0; CELLS],
            depth: 0,
            row: 0,
            col: 0,
        };
        let mut chars = text.char_indices().peekable();
        while let Some((at, ch)) = chars.next() {
            match ch {
                '[' => board.open(at)?,
                ']' => {
                    board.close()?;
                    if board.depth == 0 {
                        if let Some((at, c)) = chars.find(|(_, c)| !c.is_whitespace()) {
                            return Err(board_error(format!(
                                "unexpected '{c}' after the board at offset {at}"
                            )));
                        }
                    }
                }
                '"' | '\'' if board.depth == 2 => {
                    let value: String = chars
                        .by_ref()
                        .map(|(_, c)| c)
                        .take_while(|&c| c != ch)
                        .collect();
                    board.cell(&value)?;
                }
                ',' if board.depth >= 1 => {}
                c if c.is_whitespace() => {}
                c => return Err(board_error(format!("unexpected '{c}' at offset {at}"))),
            }
        }
        if board.depth != 0 {
            return Err(board_error("the board is not closed with ']'".into()));
        }
        if board.row != 9 {
            return Err(board_error(format!("{} rows, expected 9", board.row)));
        }
        Ok(Grid(board.cells))
    }

    /// Parse a 9-line block: 9 rows of 9 cells. Spaces, `|` and `+` are ignored, as are
    /// separator lines made only of `-`, `+`, `|`, `=` and spaces, and blank lines.
    pub fn from_block(text: &str) -> Result<Grid, GridError> {
        let mut cells = [0u8; CELLS];
        let mut row = 0usize;
        for (line_no, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || is_block_separator(line.as_bytes()) {
                continue;
            }
            let err = |message: String| GridError::Block {
                line: line_no + 1,
                message,
            };
            if row >= 9 {
                return Err(err("more than 9 rows".into()));
            }
            match block_row(line.as_bytes()) {
                Ok(values) => cells[row * 9..row * 9 + 9].copy_from_slice(&values),
                Err(e) => return Err(err(e.describe(line))),
            }
            row += 1;
        }
        if row != 9 {
            return Err(GridError::Block {
                line: 0,
                message: format!("{row} rows, expected 9"),
            });
        }
        Ok(Grid(cells))
    }

    /// Parse any of the three forms, chosen by shape: `[` starts a LeetCode board, several
    /// non-blank lines make a block, anything else is an 81-character line.
    pub fn parse(text: &str) -> Result<Grid, GridError> {
        let t = text.trim_start_matches('\u{feff}').trim();
        if t.starts_with('[') {
            Grid::from_leetcode(t)
        } else if t.lines().filter(|l| !l.trim().is_empty()).count() > 1 {
            Grid::from_block(t)
        } else {
            Grid::from_line(t)
        }
    }

    /// Write the grid as 81 ASCII characters, `empty` for empty cells.
    #[inline]
    pub fn write_line(&self, empty: u8, out: &mut [u8; CELLS]) {
        for (o, &v) in out.iter_mut().zip(self.0.iter()) {
            *o = if v == 0 { empty } else { b'0' + v };
        }
    }

    /// The grid as an 81-character line with `.` for empty cells.
    pub fn to_line(&self) -> String {
        let mut out = [0u8; CELLS];
        self.write_line(b'.', &mut out);
        out.iter().map(|&b| b as char).collect()
    }

    /// A readable 11-line block with box separators.
    pub fn to_block(&self) -> String {
        let mut s = String::with_capacity(256);
        for r in 0..9 {
            if r == 3 || r == 6 {
                s.push_str("------+-------+------\n");
            }
            for c in 0..9 {
                if c == 3 || c == 6 {
                    s.push_str("| ");
                }
                let v = self.0[r * 9 + c];
                s.push(if v == 0 { '.' } else { (b'0' + v) as char });
                s.push(if c == 8 { '\n' } else { ' ' });
            }
        }
        s
    }

    /// Number of filled cells.
    pub fn clues(&self) -> usize {
        self.0.iter().filter(|&&v| v != 0).count()
    }

    /// The first pair of equal digits in a row, column or box, if any.
    pub fn conflict(&self) -> Option<Conflict> {
        // Fast path (every solve starts here): one pass of used-digit bitmasks.
        let (mut rows, mut cols, mut boxes) = ([0u16; 9], [0u16; 9], [0u16; 9]);
        let mut clash = false;
        for (cell, &v) in self.0.iter().enumerate() {
            if v != 0 {
                let bit = 1u16 << v;
                let (r, c, b) = (cell / 9, cell % 9, (cell / 27) * 3 + (cell % 9) / 3);
                clash |= (rows[r] | cols[c] | boxes[b]) & bit != 0;
                rows[r] |= bit;
                cols[c] |= bit;
                boxes[b] |= bit;
            }
        }
        if clash {
            self.first_conflict()
        } else {
            None
        }
    }

    /// The first conflict in cell order, with both cells named.
    #[cold]
    fn first_conflict(&self) -> Option<Conflict> {
        // For each unit kind, unit and digit: the first cell seen.
        let mut seen = [[[u8::MAX; 10]; 9]; 3];
        for (cell, &v) in self.0.iter().enumerate() {
            if v == 0 {
                continue;
            }
            let (r, c) = (cell / 9, cell % 9);
            let b = (r / 3) * 3 + c / 3;
            let units = [
                (0, r, Unit::Row(r as u8 + 1)),
                (1, c, Unit::Column(c as u8 + 1)),
                (2, b, Unit::Box(b as u8 + 1)),
            ];
            for (kind, idx, unit) in units {
                let first = &mut seen[kind][idx][v as usize];
                if *first != u8::MAX {
                    return Some(Conflict {
                        unit,
                        digit: v,
                        cells: [*first, cell as u8],
                    });
                }
                *first = cell as u8;
            }
        }
        None
    }

    /// True when every cell is filled and no unit repeats a digit.
    pub fn is_complete_valid(&self) -> bool {
        self.0.iter().all(|&v| v != 0) && self.conflict().is_none()
    }

    /// True when `self` is a complete valid grid that keeps every clue of `puzzle`.
    pub fn is_solution_of(&self, puzzle: &Grid) -> bool {
        self.is_complete_valid() && self.keeps_clues_of(puzzle)
    }

    /// True when every clue of `puzzle` has the same value here.
    pub fn keeps_clues_of(&self, puzzle: &Grid) -> bool {
        puzzle
            .0
            .iter()
            .zip(self.0.iter())
            .all(|(&p, &s)| p == 0 || p == s)
    }
}

impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({})", self.to_line())
    }
}

impl std::str::FromStr for Grid {
    type Err = GridError;
    fn from_str(s: &str) -> Result<Grid, GridError> {
        Grid::parse(s)
    }
}

fn board_error(message: String) -> GridError {
    GridError::Board { message }
}

/// Where a LeetCode board parse stands: list depth (1 the board, 2 a row), row and column.
struct Board {
    cells: [u8; CELLS],
    depth: usize,
    row: usize,
    col: usize,
}

impl Board {
    /// A `[` at byte `at`.
    fn open(&mut self, at: usize) -> Result<(), GridError> {
        self.depth += 1;
        if self.depth > 2 {
            return Err(board_error(format!("nested list too deep at offset {at}")));
        }
        if self.depth == 2 {
            if self.row >= 9 {
                return Err(board_error("more than 9 rows".into()));
            }
            self.col = 0;
        }
        Ok(())
    }

    /// A `]`: the end of a row (which must have 9 cells) or of the board.
    fn close(&mut self) -> Result<(), GridError> {
        if self.depth == 2 {
            if self.col != 9 {
                let (row, col) = (self.row + 1, self.col);
                return Err(board_error(format!(
                    "row {row} has {col} cells, expected 9"
                )));
            }
            self.row += 1;
        }
        self.depth = self
            .depth
            .checked_sub(1)
            .ok_or_else(|| board_error("unbalanced ']'".into()))?;
        Ok(())
    }

    /// A quoted cell value of the current row.
    fn cell(&mut self, value: &str) -> Result<(), GridError> {
        let mut vs = value.chars();
        let cell = match (vs.next(), vs.next()) {
            (Some(c), None) if c.is_ascii() => cell_value(c as u8),
            _ => None,
        };
        let (row, col) = (self.row + 1, self.col + 1);
        let Some(v) = cell else {
            return Err(board_error(format!(
                "row {row} column {col}: {value:?} is not a digit 1-9 or an empty-cell mark"
            )));
        };
        if self.col >= 9 {
            return Err(board_error(format!("row {row} has more than 9 cells")));
        }
        self.cells[self.row * 9 + self.col] = v;
        self.col += 1;
        Ok(())
    }
}

/// Whether a line of a 9-row block is a separator (`-`, `+`, `|`, `=`, `*` and blanks only).
pub(crate) fn is_block_separator(line: &[u8]) -> bool {
    line.iter().all(|b| b"-+|=* \t".contains(b))
}

/// What is wrong with a row of a 9-row block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BlockRowError {
    /// Characters other than the ignored `|`, `+` and blanks (cells or not).
    pub chars: usize,
    /// The first byte that is not a cell (its offset), if one comes before a tenth cell.
    pub not_a_cell: Option<usize>,
    /// Cells before the first problem (10: too many).
    pub cells: usize,
}

impl BlockRowError {
    /// The message for the row `line`.
    fn describe(&self, line: &str) -> String {
        match self.not_a_cell {
            Some(at) => {
                let ch = line[at..].chars().next().unwrap_or('?');
                format!("'{ch}' at column {} is not a cell", at + 1)
            }
            None if self.cells > 9 => "more than 9 cells in the row".into(),
            None => format!("{} cells in the row, expected 9", self.cells),
        }
    }
}

/// One row of a 9-row block: 9 cells, with `|`, `+` and blanks ignored. The one row parser of
/// [`Grid::from_block`] and the block reader.
pub(crate) fn block_row(line: &[u8]) -> Result<[u8; 9], BlockRowError> {
    let mut values = [0u8; 9];
    let mut e = BlockRowError {
        chars: 0,
        not_a_cell: None,
        cells: 0,
    };
    let mut failed = false;
    for (at, &b) in line.iter().enumerate() {
        if matches!(b, b'|' | b'+') || b.is_ascii_whitespace() {
            continue;
        }
        e.chars += 1;
        if failed {
            continue;
        }
        match cell_value(b) {
            None => (e.not_a_cell, failed) = (Some(at), true),
            Some(_) if e.cells == 9 => (e.cells, failed) = (10, true),
            Some(v) => {
                values[e.cells] = v;
                e.cells += 1;
            }
        }
    }
    if failed || e.cells != 9 {
        return Err(e);
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_named_row_then_column() {
        assert_eq!(cell_name(0).as_bytes(), b"r1c1");
        assert_eq!(cell_name(80).to_string(), "r9c9");
        assert_eq!(cell_name(11).to_string(), "r2c3");
    }

    #[test]
    fn given_mask_marks_exactly_the_filled_cells() {
        let puzzle: Grid =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
                .parse()
                .unwrap();
        for grid in [puzzle, Grid::EMPTY] {
            let expected = (0..CELLS).fold(0u128, |m, i| m | u128::from(grid.get(i) != 0) << i);
            assert_eq!(grid.given_mask(), expected);
        }
        let mut last = Grid::EMPTY;
        last.set(80, 9);
        last.set(0, 1);
        assert_eq!(last.given_mask(), 1 | 1 << 80);
    }

    const LEETCODE: &str = r#"[["5","3",".",".","7",".",".",".","."],["6",".",".","1","9","5",".",".","."],[".","9","8",".",".",".",".","6","."],["8",".",".",".","6",".",".",".","3"],["4",".",".","8",".","3",".",".","1"],["7",".",".",".","2",".",".",".","6"],[".","6",".",".",".",".","2","8","."],[".",".",".","4","1","9",".",".","5"],[".",".",".",".","8",".",".","7","9"]]"#;
    const LEETCODE_LINE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    #[test]
    fn values_above_nine_are_named_by_cell() {
        let mut cells = *Grid::from_line(LEETCODE_LINE).unwrap().cells();
        assert_eq!(Grid::from_values(&cells), Grid::from_line(LEETCODE_LINE));
        cells[40] = 10;
        cells[80] = 255;
        let err = Grid::from_values(&cells).unwrap_err();
        assert_eq!(
            err,
            GridError::Value {
                position: 41,
                value: 10
            }
        );
        assert_eq!(
            err.to_string(),
            "cell 41 holds 10, not 0 (empty) or a digit 1-9"
        );
    }

    #[test]
    fn line_round_trip_and_empty_marks() {
        let g = Grid::from_line(LEETCODE_LINE).unwrap();
        assert_eq!(g.to_line(), LEETCODE_LINE);
        let zeros = LEETCODE_LINE.replace('.', "0");
        assert_eq!(Grid::from_line(&zeros).unwrap(), g);
        let mixed = LEETCODE_LINE.replacen('.', "_", 3).replacen('.', "-", 3);
        assert_eq!(Grid::from_line(&mixed).unwrap(), g);
        assert_eq!(g.clues(), 30);
    }

    #[test]
    fn digit_masks_mark_each_digits_cells() {
        let lines = [
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
            ".................................................................................",
            "................................................................................9",
        ];
        for line in lines {
            let g = Grid::from_line(line).unwrap();
            let masks = g.digit_masks();
            for (d, mask) in masks.iter().enumerate() {
                for (i, &v) in g.cells().iter().enumerate() {
                    assert_eq!(
                        mask >> i & 1 == 1,
                        usize::from(v) == d + 1,
                        "{line} cell {i}"
                    );
                }
            }
            assert_eq!(masks.iter().fold(0, |a, m| a | m), g.given_mask());
        }
    }

    #[test]
    fn line_errors_name_position_and_char() {
        let mut bad = LEETCODE_LINE.to_string();
        bad.replace_range(10..11, "x");
        assert_eq!(
            Grid::from_line(&bad),
            Err(GridError::BadChar {
                position: 11,
                found: 'x'
            })
        );
        assert_eq!(
            Grid::from_line(&LEETCODE_LINE[..80]),
            Err(GridError::Length { found: 80 })
        );
        let long = format!("{LEETCODE_LINE}1");
        assert_eq!(Grid::from_line(&long), Err(GridError::Length { found: 82 }));
        let unicode = format!("{}é{}", &LEETCODE_LINE[..5], &LEETCODE_LINE[6..]);
        assert_eq!(
            Grid::from_line(&unicode),
            Err(GridError::BadChar {
                position: 6,
                found: 'é'
            })
        );
        let mut latin1 = LEETCODE_LINE.as_bytes().to_vec();
        latin1[5] = 0xE9;
        assert_eq!(
            Grid::from_line_bytes(&latin1),
            Err(GridError::BadByte {
                position: 6,
                byte: 0xE9
            })
        );
    }

    #[test]
    fn leetcode_board() {
        let g = Grid::from_leetcode(LEETCODE).unwrap();
        assert_eq!(g.to_line(), LEETCODE_LINE);
        assert_eq!(Grid::parse(&LEETCODE.replace('"', "'")).unwrap(), g);
        let short = LEETCODE.replacen("\"5\",", "", 1);
        assert!(Grid::from_leetcode(&short)
            .unwrap_err()
            .to_string()
            .contains("row 1"));
        let bad = LEETCODE.replacen("\"3\"", "\"x\"", 1);
        let msg = Grid::from_leetcode(&bad).unwrap_err().to_string();
        assert!(msg.contains("row 1 column 2"), "{msg}");
    }

    #[test]
    fn block_round_trip() {
        let g = Grid::from_line(LEETCODE_LINE).unwrap();
        let block = g.to_block();
        assert_eq!(Grid::from_block(&block).unwrap(), g);
        assert_eq!(Grid::parse(&block).unwrap(), g);
        let plain: String = LEETCODE_LINE
            .as_bytes()
            .chunks(9)
            .map(|r| format!("{}\n", std::str::from_utf8(r).unwrap()))
            .collect();
        assert_eq!(Grid::parse(&plain).unwrap(), g);
        let missing = plain.lines().take(8).collect::<Vec<_>>().join("\n");
        assert!(Grid::from_block(&missing).is_err());
    }

    #[test]
    fn conflicts_name_unit_and_digit() {
        let g = Grid::from_line(LEETCODE_LINE).unwrap();
        assert_eq!(g.conflict(), None);
        let mut row = g;
        row.set(2, 5); // row 1 already has 5 at r1c1
        let c = row.conflict().unwrap();
        assert_eq!((c.unit, c.digit), (Unit::Row(1), 5));
        assert_eq!(
            c.to_string(),
            "digit 5 appears twice in row 1 (r1c1 and r1c3)"
        );
        let mut col = Grid::EMPTY;
        col.set(4, 7);
        col.set(76, 7);
        assert_eq!(col.conflict().unwrap().unit, Unit::Column(5));
        let mut bx = Grid::EMPTY;
        bx.set(0, 2);
        bx.set(20, 2);
        assert_eq!(bx.conflict().unwrap().unit, Unit::Box(1));
    }
}
