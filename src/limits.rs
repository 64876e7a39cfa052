//! Every limit on what one input can make the tool hold in memory, in one place: whatever a
//! file holds (a quote that never closes, a header of millions of columns, gigabytes without a
//! line break, a board of gigabytes, a zip that lists a million files), memory stays bounded.
//! The commands' `--help` and `docs/limits.md` list them for users.
//!
//! | kind | limit | over it |
//! |---|---|---|
//! | a line (line files, 9-line blocks) | [`MAX_RECORD`] bytes | one `malformed` record at that line; the run goes on |
//! | a CSV record (its quoted fields may span lines) | [`MAX_RECORD`] bytes, [`MAX_FIELDS`] fields | one `malformed` record at the line it starts on; the run goes on after its end |
//! | a CSV header | [`MAX_RECORD`] bytes, [`MAX_FIELDS`] fields | the input is refused: an error naming file and line 1, exit 2 |
//! | a LeetCode board (the whole input) | [`MAX_RECORD`] bytes | one `malformed` record |
//! | a batch of records in flight | [`BATCH_BYTES`] (and [`crate::pipeline::BATCH`] records) | the batch ends there |
//! | a zip archive's index | [`MAX_ZIP_INDEX`] bytes, [`MAX_ZIP_ENTRIES`] entries | the input is refused (exit 2) |
//! | a zstd or xz stream's window | [`MAX_DECODER_WINDOW`] bytes | the input is refused (exit 2), with the fix |
//! | a JSON file `plot` reads | [`MAX_PLOT_INPUT`] bytes | refused (exit 2) |
//!
//! What stays proportional to the input by design: `verify --duplicates` (24 bytes per
//! distinct puzzle) and `bench`, which preloads its puzzles (81 bytes each).

/// The longest record kept in memory, in bytes: a line, a CSV record with all its lines, a
/// CSV header, a LeetCode board. No puzzle record comes near it (a Kaggle row is ~170
/// bytes); the rest of a longer one is read past (and counted), never stored. Each batch in
/// flight may hold one record this long besides its [`BATCH_BYTES`], and a dozen batches are
/// in flight at 4 workers or more: at 1 MiB, passthrough runs of such records peaked at
/// 65-83 MiB with 4-8 workers (36-46 MiB with 2); at 256 KiB, see `docs/limits.md`.
pub const MAX_RECORD: usize = 256 << 10;

/// The most fields a CSV record or header may have (a Sudoku dataset has a handful; one
/// with a column per cell has 81 or 162). Only rows longer than this many bytes can reach
/// it, so the common row is never counted.
pub const MAX_FIELDS: usize = 4096;

/// The bytes of input text a batch holds before it ends (besides the record that takes it
/// over): with a few batches in flight per worker, records near [`MAX_RECORD`] keep memory
/// as flat as Kaggle rows (1,600 of those take 256 KiB; line files of 82-byte lines still
/// fill batches of 3,200).
pub const BATCH_BYTES: usize = 256 << 10;

/// The largest index (central directory) of a zip input, in bytes: the archive must hold
/// one puzzle file, and the zip reader keeps every entry of the index in memory.
pub const MAX_ZIP_INDEX: u64 = 1 << 20;

/// The most entries a zip input's index may list.
pub const MAX_ZIP_ENTRIES: u64 = 10_000;

/// The largest window (dictionary) of a zstd or xz input: 32 MiB covers `zstd` up to level
/// 19 and `xz -8`; `zstd --ultra -22`, `zstd --long` and `xz -9` make larger ones, which a
/// decoder must hold in memory in full.
pub const MAX_DECODER_WINDOW: u64 = 32 << 20;

/// Shuffled copies per input puzzle (`shuffle --copies`): a record's copies are made in
/// one piece, 162 bytes each.
pub const MAX_COPIES: u64 = 10_000;

/// The largest file `plot` reads (whole): a bench result or a run summary takes a few KiB.
pub const MAX_PLOT_INPUT: u64 = 16 << 20;

/// The most worker threads a command accepts on a machine with `cores` cores: 8 per core,
/// and at least 64. More only adds threads that wait (each with its own stack and
/// allocator heap), and past a few thousand the pool takes minutes to start.
pub fn max_threads(cores: usize) -> usize {
    cores.saturating_mul(8).max(64)
}

/// A size in bytes as the limits are written: `1 MiB`, `32 MiB`, or bytes below 1 KiB.
pub fn show_bytes(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_read_as_documented() {
        assert_eq!(show_bytes(MAX_RECORD as u64), "256 KiB");
        assert_eq!(show_bytes(1 << 20), "1 MiB");
        assert_eq!(show_bytes(MAX_DECODER_WINDOW), "32 MiB");
        assert_eq!(show_bytes(5 << 10), "5 KiB");
        assert_eq!(show_bytes(1000), "1000 bytes");
        assert_eq!(max_threads(2), 64);
        assert_eq!(max_threads(32), 256);
    }
}
