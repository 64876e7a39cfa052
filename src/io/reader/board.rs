//! LeetCode boards: one puzzle per input, `[["5","3",".",...],...]`, read whole.

use super::*;

/// The board of `src` as one record, on the line where the board starts. An input longer
/// than [`MAX_LINE`] bytes is one malformed record (read to its end, to say how long, but
/// not kept).
pub(super) fn read_board(src: &mut Source) -> io::Result<Record> {
    let mut bytes_in = Vec::new();
    src.take(MAX_LINE as u64 + 1).read_to_end(&mut bytes_in)?;
    if bytes_in.len() > MAX_LINE {
        let bytes = bytes_in.len() as u64 + io::copy(src, &mut io::sink())?;
        return Ok(Record {
            position: None,
            line: 1,
            id: None,
            puzzle: Err(RecordError::RecordTooLong {
                what: "LeetCode board",
                bytes,
                lines: 1,
                to_end: false,
            }),
            solution: None,
            text: RecordText::default(),
        });
    }
    let text = String::from_utf8_lossy(&bytes_in);
    let line = text
        .lines()
        .position(|l| !l.trim().is_empty())
        .map_or(1, |i| i as u64 + 1);
    let puzzle =
        Grid::from_leetcode(text.trim_start_matches('\u{feff}')).map_err(RecordError::Grid);
    Ok(Record {
        position: None,
        line,
        id: None,
        puzzle,
        solution: None,
        text: RecordText::default(),
    })
}
