//! LeetCode boards: one puzzle per input, `[["5","3",".",...],...]`, read whole.

use super::*;

/// The board of `src` as one record, on the line where the board starts.
pub(super) fn read_board(src: &mut Source) -> io::Result<Record> {
    let mut bytes_in = Vec::new();
    src.read_to_end(&mut bytes_in)?;
    let text = String::from_utf8_lossy(&bytes_in);
    let line = text
        .lines()
        .position(|l| !l.trim().is_empty())
        .map_or(1, |i| i as u64 + 1);
    let puzzle =
        Grid::from_leetcode(text.trim_start_matches('\u{feff}')).map_err(RecordError::Grid);
    Ok(Record {
        line,
        id: None,
        puzzle,
        solution: None,
        text: RecordText::default(),
    })
}
