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
//! | a whole-number argument (`--threads`, `--copies`, `--count`, `--max-attempts`, `--limit`; the Python module's keywords) | [`WholeBound`]: [`max_threads`], [`MAX_COPIES`], [`MAX_COUNT`], `u32::MAX` | refused before any work starts (exit 2; a `ValueError` in Python) |
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

/// Puzzles one `generate` run makes (`--count`): a billion lines are 82 GB and days of
/// work, and the Python module holds a run's puzzles and solutions in memory (162 bytes
/// each).
pub const MAX_COUNT: u64 = 1_000_000_000;

/// The largest file `plot` reads (whole): a bench result or a run summary takes a few KiB.
pub const MAX_PLOT_INPUT: u64 = 16 << 20;

/// The most worker threads a command accepts on a machine with `cores` cores: 8 per core,
/// and at least 64. More only adds threads that wait (each with its own stack and
/// allocator heap), and past a few thousand the pool takes minutes to start.
pub fn max_threads(cores: usize) -> usize {
    cores.saturating_mul(8).max(64)
}

/// The machine's cores (1 when it cannot tell).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The bounds of a whole-number argument, checked the same way by the CLI (its option parsers)
/// and the Python module (its keyword arguments), with the same messages. The messages name
/// the bound but not the argument: each front end says which of its own it was.
#[derive(Clone, Copy, Debug)]
pub struct WholeBound {
    /// The unit counted, singular and plural (`thread`, `threads`).
    pub unit: (&'static str, &'static str),
    /// The largest value accepted (the smallest is 1).
    pub max: u64,
    /// Why the largest is that.
    pub over: Over,
}

/// Why a [`WholeBound`]'s largest value is what it is, as its message says past it.
#[derive(Clone, Copy, Debug)]
pub enum Over {
    /// A fixed limit: "N copies is more than the limit of 10000" and this text after it.
    Limit(&'static str),
    /// The machine's cores, given: "N threads is far more than this machine can run (2
    /// cores): at most 64".
    Machine(usize),
}

/// Shuffled copies per puzzle: 1 to [`MAX_COPIES`].
pub static COPIES: WholeBound = WholeBound {
    unit: ("copy", "copies"),
    max: MAX_COPIES,
    over: Over::Limit(" per puzzle (for more, run again with another seed)"),
};

/// Puzzles a `generate` run makes: 1 to [`MAX_COUNT`].
pub static COUNT: WholeBound = WholeBound {
    unit: ("puzzle", "puzzles"),
    max: MAX_COUNT,
    over: Over::Limit(" a run (for more, run again with another seed)"),
};

/// Attempts per generated puzzle: 1 to `u32::MAX`.
pub static ATTEMPTS: WholeBound = WholeBound {
    unit: ("attempt", "attempts"),
    max: u32::MAX as u64,
    over: Over::Limit(" per puzzle"),
};

/// Solutions a solve looks for: 1 finds one, 2 proves it unique, N counts up to N.
pub static SOLUTIONS: WholeBound = WholeBound {
    unit: ("solution", "solutions"),
    max: u32::MAX as u64,
    over: Over::Limit(" (1 finds one, 2 proves it unique, N counts up to N)"),
};

/// A whole number as written: its value (saturated at `u64::MAX`), or what it is instead.
enum Whole {
    Value(u64),
    BelowOne,
    NotANumber,
}

impl Whole {
    fn of(text: &str) -> Whole {
        let t = text.trim();
        let (negative, digits) = match t.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, t.strip_prefix('+').unwrap_or(t)),
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Whole::NotANumber;
        }
        if negative || digits.bytes().all(|b| b == b'0') {
            return Whole::BelowOne;
        }
        // All digits, not all zeros: only too many of them fails.
        Whole::Value(digits.parse().unwrap_or(u64::MAX))
    }
}

impl WholeBound {
    /// Worker threads: 1 to [`max_threads`] of this machine's [`cores`]. More only wait (each
    /// with its own stack and allocator heap), and past a few thousand the pool takes minutes
    /// to start.
    pub fn threads() -> WholeBound {
        let cores = cores();
        WholeBound {
            unit: ("thread", "threads"),
            max: max_threads(cores) as u64,
            over: Over::Machine(cores),
        }
    }

    /// `text` as a whole number within the bounds, or why not: `"0"`, `"-3"` and a number of
    /// any length are judged by their value (one too long for 64 bits is above every bound),
    /// anything else is not a whole number.
    pub fn parse(&self, text: &str) -> Result<u64, String> {
        match Whole::of(text) {
            Whole::Value(n) if n <= self.max => Ok(n),
            Whole::Value(_) => {
                let (n, units, max) = (
                    text.trim().trim_start_matches(['+', '0']),
                    self.unit.1,
                    self.max,
                );
                Err(match self.over {
                    Over::Limit(why) => format!("{n} {units} is more than the limit of {max}{why}"),
                    Over::Machine(cores) => format!(
                        "{n} {units} is far more than this machine can run ({cores} cores): at most {max}"
                    ),
                })
            }
            Whole::BelowOne => Err(format!("at least 1 {} is needed", self.unit.0)),
            Whole::NotANumber => Err(format!("{text:?} is not a whole number of {}", self.unit.1)),
        }
    }
}

/// The thread count when none is asked for: `RAYON_NUM_THREADS` when it is a count from 1 to
/// the limit, else every core; with the warning to show when the variable is set but not
/// taken as it is (past the limit, the limit is used).
pub fn default_threads() -> (usize, Option<String>) {
    let Ok(env) = std::env::var("RAYON_NUM_THREADS") else {
        return (cores(), None);
    };
    let bound = WholeBound::threads();
    match bound.parse(&env) {
        Ok(n) => (n as usize, None),
        Err(e) => {
            let n = match Whole::of(&env) {
                Whole::Value(_) => bound.max as usize,
                _ => cores(),
            };
            (n, Some(format!("RAYON_NUM_THREADS={env}: {e}; using {n}")))
        }
    }
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

    #[test]
    fn whole_numbers_are_judged_by_their_value() {
        assert_eq!(COPIES.parse("1"), Ok(1));
        assert_eq!(COPIES.parse(" 10000 "), Ok(10_000));
        assert_eq!(COPIES.parse("+7"), Ok(7));
        let over = "10001 copies is more than the limit of 10000 per puzzle (for more, run again with another seed)";
        assert_eq!(COPIES.parse("10001").unwrap_err(), over);
        assert_eq!(COPIES.parse("0010001").unwrap_err(), over);
        let huge = "1".repeat(40);
        assert!(COPIES
            .parse(&huge)
            .unwrap_err()
            .starts_with(&format!("{huge} copies is more")));
        for below in ["0", "000", "-1", "-99999999999999999999999"] {
            assert_eq!(
                COPIES.parse(below).unwrap_err(),
                "at least 1 copy is needed",
                "{below}"
            );
        }
        for bad in ["", "1.5", "x", "1e3", "--1", "0x10"] {
            assert_eq!(
                COUNT.parse(bad).unwrap_err(),
                format!("{bad:?} is not a whole number of puzzles")
            );
        }
        assert_eq!(COUNT.parse("1000000000"), Ok(MAX_COUNT));
        assert!(COUNT.parse("1000000001").is_err());
        assert_eq!(ATTEMPTS.parse("4294967295"), Ok(u64::from(u32::MAX)));
        assert!(ATTEMPTS.parse("4294967296").is_err());
        assert!(SOLUTIONS.parse("4294967296").is_err());
        let threads = WholeBound::threads();
        assert_eq!(threads.max, max_threads(cores()) as u64);
        assert!(threads.parse(&threads.max.to_string()).is_ok());
        let past = threads.parse(&(threads.max + 1).to_string()).unwrap_err();
        let machine = format!("can run ({} cores): at most {}", cores(), threads.max);
        assert!(past.ends_with(&machine), "{past}");
    }
}
