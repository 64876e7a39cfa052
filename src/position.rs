//! `Position`: a grid in play, as its candidates (pencil marks): the 729-character form.
//!
//! Nine characters per cell, row by row: at position `9 * cell + k` the character is the
//! digit `k + 1` where that digit is still a candidate of the cell, and `.` or `0` where it
//! is not. A cell with exactly one candidate counts as placed.
//!
//! ```text
//!  cell r1c1          cell r1c2          ...   cell r9c9
//!  1.3......          ....5....                .2.....8.
//!  └ 1 and 3 left     └ 5 placed               └ 2 and 8 left
//! ```
//!
//! A puzzle is the position whose givens are single candidates and whose other cells hold
//! every digit no given of their houses holds ([`Position::from_grid`]): rating and solving
//! that position give what the puzzle gives.

use std::fmt;

use crate::error::GridError;
use crate::grid::{cell_name, Conflict, Grid, CELLS};

/// Characters of a candidate grid: nine per cell.
pub const POSITION_LEN: usize = 9 * CELLS;

/// Every digit as a candidate mask (bit `d - 1` for digit `d`).
const ALL: u16 = 0x1FF;

/// The candidates of the 81 cells: bit `d - 1` of cell `c` is set when digit `d` may still
/// go there. 162 bytes, `Copy`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position([u16; CELLS]);

/// Why a position breaks a rule (its status is `invalid`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fault {
    /// Two cells of one unit are placed (one candidate each) with the same digit.
    Conflict(Conflict),
    /// A cell has no candidate left (0-based, row-major).
    NoCandidate(u8),
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Conflict(c) => c.fmt(f),
            Fault::NoCandidate(cell) => write!(f, "cell {} has no candidate", cell_name(*cell)),
        }
    }
}

impl Position {
    /// The position of these candidate masks (bit `d - 1` for digit `d`; higher bits are
    /// dropped).
    pub fn from_masks(masks: [u16; CELLS]) -> Position {
        Position(masks.map(|m| m & ALL))
    }

    /// The candidate masks, one per cell.
    pub fn masks(&self) -> &[u16; CELLS] {
        &self.0
    }

    /// The position a puzzle starts from: each given its only candidate, every other cell
    /// the digits no given of its row, column and box holds.
    pub fn from_grid(grid: &Grid) -> Position {
        let mut used = [[0u16; 9]; 3];
        for (cell, &v) in grid.cells().iter().enumerate() {
            if v != 0 {
                let [r, c, b] = houses(cell);
                let bit = 1 << (v - 1);
                used[0][r] |= bit;
                used[1][c] |= bit;
                used[2][b] |= bit;
            }
        }
        Position(std::array::from_fn(|cell| match grid.get(cell) {
            0 => {
                let [r, c, b] = houses(cell);
                ALL & !(used[0][r] | used[1][c] | used[2][b])
            }
            v => 1 << (v - 1),
        }))
    }

    /// Parse the 729-character form (no surrounding whitespace): at position `9 * cell + k`
    /// the digit `k + 1` or `.`/`0`.
    pub fn from_bytes(text: &[u8]) -> Result<Position, GridError> {
        if text.len() != POSITION_LEN {
            return Err(GridError::Length { found: text.len() });
        }
        let mut masks = [0u16; CELLS];
        for (at, &byte) in text.iter().enumerate() {
            let k = (at % 9) as u8;
            if byte == b'1' + k {
                masks[at / 9] |= 1 << k;
            } else if byte != b'.' && byte != b'0' {
                return Err(bad_candidate(text, at, k + 1));
            }
        }
        Ok(Position(masks))
    }

    /// Writes the 729-character form, `.` where a digit is not a candidate.
    pub fn write_line(&self, out: &mut [u8; POSITION_LEN]) {
        for (at, b) in out.iter_mut().enumerate() {
            let k = (at % 9) as u8;
            *b = if self.0[at / 9] >> k & 1 == 1 {
                b'1' + k
            } else {
                b'.'
            };
        }
    }

    /// The 729-character form.
    pub fn to_line(&self) -> String {
        let mut out = [0u8; POSITION_LEN];
        self.write_line(&mut out);
        String::from_utf8(out.to_vec()).expect("ASCII")
    }

    /// The placed cells (those with one candidate) as a grid; the others are empty.
    pub fn placed(&self) -> Grid {
        let mut grid = Grid::EMPTY;
        for (cell, &m) in self.0.iter().enumerate() {
            if m.is_power_of_two() {
                grid.set(cell, m.trailing_zeros() as u8 + 1);
            }
        }
        grid
    }

    /// Whether every cell is placed (one candidate each).
    pub fn is_filled(&self) -> bool {
        self.0.iter().all(|m| m.is_power_of_two())
    }

    /// The first rule the position breaks: a cell with no candidate, else two placed cells
    /// of one unit with the same digit.
    pub fn fault(&self) -> Option<Fault> {
        if let Some(cell) = self.0.iter().position(|&m| m == 0) {
            return Some(Fault::NoCandidate(cell as u8));
        }
        self.placed().conflict().map(Fault::Conflict)
    }
}

/// The row, column and box (0-based) of a cell.
fn houses(cell: usize) -> [usize; 3] {
    let (r, c) = (cell / 9, cell % 9);
    [r, c, r / 3 * 3 + c / 3]
}

/// The error for byte `at` of a candidate grid, which is neither `digit` nor `.`/`0`.
#[cold]
fn bad_candidate(text: &[u8], at: usize, digit: u8) -> GridError {
    let rest = std::str::from_utf8(&text[at..]).unwrap_or_else(|e| {
        std::str::from_utf8(&text[at..at + e.valid_up_to()]).expect("valid prefix")
    });
    match rest.chars().next() {
        Some(found) => GridError::BadCandidate {
            position: at + 1,
            found,
            digit,
        },
        None => GridError::BadByte {
            position: at + 1,
            byte: text[at],
        },
    }
}

impl From<&Grid> for Position {
    fn from(grid: &Grid) -> Position {
        Position::from_grid(grid)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}

impl std::str::FromStr for Position {
    type Err = GridError;
    fn from_str(s: &str) -> Result<Position, GridError> {
        Position::from_bytes(s.trim().as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    #[test]
    fn round_trip_and_grid_form() {
        let grid: Grid = PUZZLE.parse().unwrap();
        let p = Position::from_grid(&grid);
        let text = p.to_line();
        assert_eq!(text.len(), POSITION_LEN);
        assert_eq!(&text[..9], "....5....");
        // r1c3: 5, 3 (row), 7 (row), 9, 8 (box), 6 (box) are taken.
        assert_eq!(&text[18..27], "12.4.....");
        assert_eq!(text.parse::<Position>().unwrap(), p);
        assert_eq!(text.replace('.', "0").parse::<Position>().unwrap(), p);
        // Givens are placed, and so are the empty cells with one candidate left (r5c5).
        assert!(p.placed().keeps_clues_of(&grid));
        assert_eq!(p.placed().get(40), 5);
        assert!(p.fault().is_none());
        assert!(!p.is_filled());
    }

    #[test]
    fn bad_characters_and_lengths_are_described() {
        let mut text = Position::from_grid(&Grid::EMPTY).to_line().into_bytes();
        text[10] = b'3'; // cell 2, place 1 holds only 2
        let e = Position::from_bytes(&text).unwrap_err();
        assert_eq!(
            e,
            GridError::BadCandidate {
                position: 11,
                found: '3',
                digit: 2
            }
        );
        assert!(e.to_string().contains("character 11 is '3'"), "{e}");
        assert_eq!(
            Position::from_bytes(&text[..728]),
            Err(GridError::Length { found: 728 })
        );
        text[10] = 0xE9;
        assert!(matches!(
            Position::from_bytes(&text),
            Err(GridError::BadByte { position: 11, .. })
        ));
    }

    #[test]
    fn faults() {
        let mut masks = [ALL; CELLS];
        masks[40] = 0;
        assert_eq!(
            Position::from_masks(masks).fault(),
            Some(Fault::NoCandidate(40))
        );
        let mut masks = [ALL; CELLS];
        masks[0] = 1;
        masks[8] = 1;
        let fault = Position::from_masks(masks).fault().unwrap();
        assert_eq!(
            fault.to_string(),
            "digit 1 appears twice in row 1 (r1c1 and r1c9)"
        );
    }
}
