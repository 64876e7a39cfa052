//! 9-row blocks: one puzzle per 9 lines of 9 cells, separator lines skipped.

use super::lines::{is_blank_or_comment, too_long, Line, LineReader};
use super::*;

/// The next 9-row block: rows are lines with 9 cells (`|`, `+` and spaces ignored); separator,
/// blank and comment lines between rows are skipped. A row that is not 9 cells ends the block
/// as a malformed record at that line.
pub(super) fn next_block(r: &mut LineReader, label: &str) -> Result<Option<Record>, InputError> {
    let mut cells = [0u8; CELLS];
    let mut rows = 0usize;
    let mut start = 0u64;
    loop {
        let Some(Line {
            number,
            text: line,
            len,
        }) = r.next_line(label)?
        else {
            if rows == 0 {
                return Ok(None);
            }
            let err = GridBlockError::Rows(rows);
            return Ok(Some(block_error(start, err)));
        };
        if len > MAX_LINE as u64 {
            if rows == 0 {
                start = number;
            }
            return Ok(Some(Record {
                position: None,
                line: start,
                ..too_long(&Line {
                    number,
                    text: line,
                    len,
                })
            }));
        }
        if is_blank_or_comment(line) || is_block_separator(line) {
            continue;
        }
        if rows == 0 {
            start = number;
        }
        match block_row(line) {
            Ok(values) => cells[rows * 9..rows * 9 + 9].copy_from_slice(&values),
            Err(e) => {
                let err = GridBlockError::Row(number - start + 1, e.chars);
                return Ok(Some(block_error(start, err)));
            }
        }
        rows += 1;
        if rows == 9 {
            let grid = Grid::from_cells(cells).expect("cells are 0..=9");
            return Ok(Some(Record {
                position: None,
                line: start,
                id: None,
                puzzle: Ok(grid),
                solution: None,
                text: RecordText::default(),
            }));
        }
    }
}

pub(super) enum GridBlockError {
    Rows(usize),
    Row(u64, usize),
}

pub(super) fn block_error(line: u64, e: GridBlockError) -> Record {
    let message = match e {
        GridBlockError::Rows(n) => format!("{n} rows at the end of the input, expected 9"),
        GridBlockError::Row(at, n) => {
            format!("line {at} of the block is not a row of 9 cells ({n} characters)")
        }
    };
    Record {
        position: None,
        line,
        id: None,
        puzzle: Err(RecordError::Grid(crate::error::GridError::Block {
            line: 0,
            message,
        })),
        solution: None,
        text: RecordText::default(),
    }
}
