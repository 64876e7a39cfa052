//! Errors of the library. A bad puzzle is data (a status in its output row), not an `Err`;
//! these types describe *why* a text is not a puzzle, for the messages users read.

use thiserror::Error;

/// Why a text could not be read as a grid.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GridError {
    /// A character that is neither a digit 1-9 nor an empty-cell mark (`.`, `0`, `_`, `-`).
    #[error("character {position} is {found:?}, not a digit 1-9 or an empty-cell mark (. 0 _ -){}",
        if *found == '\0' { " (a NUL byte: is the file UTF-16 or binary?)" } else { "" })]
    BadChar {
        /// 1-based character position in the puzzle field.
        position: usize,
        /// The offending character.
        found: char,
    },
    /// A byte that is not UTF-8 text where a cell should be.
    #[error("character {position} is byte 0x{byte:02X}, which is not UTF-8 text (is the file in another encoding, such as Latin-1?)")]
    BadByte {
        /// 1-based byte position in the puzzle field.
        position: usize,
        /// The offending byte.
        byte: u8,
    },
    /// A character of a 729-character candidate grid that is neither the digit its place
    /// stands for nor `.`/`0`.
    #[error("character {position} is {found:?}, not {digit} (a candidate) or . or 0 (not one): a candidate grid has digit k at place k of each cell's nine")]
    BadCandidate {
        /// 1-based character position in the puzzle field.
        position: usize,
        /// The offending character.
        found: char,
        /// The digit that place stands for.
        digit: u8,
    },
    /// The puzzle field does not have 81 cells.
    #[error("{found} cells, expected 81")]
    Length {
        /// How many cells were found.
        found: usize,
    },
    /// A cell value outside 0-9 in a grid given as 81 numbers (an array row, not text).
    #[error("cell {position} holds {value}, not 0 (empty) or a digit 1-9")]
    Value {
        /// 1-based cell position.
        position: usize,
        /// The offending value, as the array held it (wide enough for any integer type
        /// numpy has, negative ones included).
        value: i128,
    },
    /// A LeetCode-style board that is not 9 lists of 9 one-character strings.
    #[error("LeetCode board: {message}")]
    Board {
        /// What is wrong, with row/column where known.
        message: String,
    },
    /// A 9-line block that is not 9 rows of 9 cells.
    #[error("block{}: {message}", if *line > 0 { format!(" line {line}") } else { String::new() })]
    Block {
        /// 1-based line within the block (0 when the whole block is at fault).
        line: usize,
        /// What is wrong.
        message: String,
    },
}

/// Why one input record is not a usable puzzle (the record is still reported).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RecordError {
    /// The puzzle text does not parse.
    #[error(transparent)]
    Grid(#[from] GridError),
    /// The record is a candidate grid (729 characters), which the command does not take; the
    /// grid itself is in [`Record::position`](crate::io::reader::Record::position).
    #[error("a candidate grid (729 characters): this command takes only 81-cell puzzles")]
    Candidates,
    /// A line far longer than any puzzle record (its text is not kept).
    #[error("line of {bytes} bytes, far longer than a puzzle record: is this a puzzle file?")]
    TooLong {
        /// The line's length.
        bytes: u64,
    },
    /// A record longer than [`MAX_RECORD`](crate::limits::MAX_RECORD) bytes other than a
    /// line: a CSV record (whose quoted fields may span lines) or a LeetCode board. Its text
    /// is not kept; a CSV input goes on after its end.
    #[error("{what} of {bytes} bytes{}, longer than the limit of {} for one record{}",
        if *lines > 1 { format!(" over {lines} lines") } else { String::new() },
        crate::limits::show_bytes(crate::limits::MAX_RECORD as u64),
        if *to_end { " (it runs to the end of the input: a quote that never closes?)" } else { "" })]
    RecordTooLong {
        /// What the record is: `CSV record`, `LeetCode board`.
        what: &'static str,
        /// Its length (for a board, what was read of it).
        bytes: u64,
        /// The lines it spans.
        lines: u64,
        /// It ended only with the input.
        to_end: bool,
    },
    /// A CSV record with more than [`MAX_FIELDS`](crate::limits::MAX_FIELDS) fields.
    #[error(
        "CSV record of {fields} fields, more than the limit of {}",
        crate::limits::MAX_FIELDS
    )]
    TooManyFields {
        /// How many it has.
        fields: u64,
    },
    /// A CSV row too short to have the puzzle column.
    #[error("no {column:?} field: the row has {fields} field(s)")]
    MissingField {
        /// The puzzle column's header name.
        column: String,
        /// How many fields the row has.
        fields: usize,
    },
}

/// Problems that stop reading an input: the file cannot be opened or read, or it has no
/// puzzle column. Each names the input.
#[derive(Debug, Error)]
pub enum InputError {
    /// The input cannot be opened.
    #[error("{path}: cannot open: {cause}")]
    Open {
        /// The input's name.
        path: String,
        /// The OS error (in the message, not repeated as a source).
        cause: std::io::Error,
    },
    /// The input is a directory.
    #[error("{path}: is a directory, not a puzzle file")]
    IsDirectory {
        /// The input's name.
        path: String,
    },
    /// Reading failed part-way (includes a truncated or corrupt compressed file).
    #[error("{path}: read error {}: {cause}{}", after_line(*line), corrupt_hint(cause))]
    Read {
        /// The input's name.
        path: String,
        /// The last line read completely (0: none).
        line: u64,
        /// The OS or decoder error (in the message, not repeated as a source).
        cause: std::io::Error,
    },
    /// The input is UTF-16 text (it starts with a UTF-16 byte-order mark).
    #[error("{path}: looks like UTF-16 text; convert it to UTF-8 first, e.g. iconv -f UTF-16 -t UTF-8 {path} > {path}.utf8")]
    Utf16 {
        /// The input's name.
        path: String,
    },
    /// `--solutions FILE` holds a different number of records than the input.
    #[error("{solutions} has {listed} solution records, but {path} has {records} records: they must pair up one to one, in order")]
    SolutionCount {
        /// The input's name.
        path: String,
        /// Its record count.
        records: u64,
        /// The solutions file's name.
        solutions: String,
        /// Its record count.
        listed: u64,
    },
    /// A zip archive that cannot be read as one puzzle file.
    #[error("{path}: {message}")]
    Archive {
        /// The input's name.
        path: String,
        /// What is wrong, and what to do instead.
        message: String,
    },
    /// `--shard` cannot be applied to this input.
    #[error("{path}: --shard {message}")]
    Shard {
        /// The input's name.
        path: String,
        /// Why.
        message: String,
    },
    /// The input passes one of the limits that keep memory bounded ([`crate::limits`]) where
    /// no record can stand for it (a CSV header, a zip archive's index, a decoder's window).
    #[error("{path}{}: {message}", if *line > 0 { format!(":{line}") } else { String::new() })]
    Limit {
        /// The input's name.
        path: String,
        /// The line it is on (0: not a line).
        line: u64,
        /// Which limit, and what to do.
        message: String,
    },
    /// A CSV input whose header has no puzzle column.
    #[error("{path}: CSV header has no puzzle column: wanted {wanted}; found {found} (choose one with --column NAME|INDEX)")]
    NoPuzzleColumn {
        /// The input's name.
        path: String,
        /// What was looked for.
        wanted: String,
        /// The header's column names.
        found: String,
    },
}

fn after_line(line: u64) -> String {
    if line == 0 {
        "before the first line".to_string()
    } else {
        format!("after line {line}")
    }
}

/// Decoder errors mean a damaged file, not a bad disk: say so.
fn corrupt_hint(e: &std::io::Error) -> &'static str {
    use std::io::ErrorKind::*;
    match e.kind() {
        InvalidInput | InvalidData | UnexpectedEof | Other => {
            " (the file looks truncated or corrupt; the records before this point were written)"
        }
        _ => "",
    }
}
