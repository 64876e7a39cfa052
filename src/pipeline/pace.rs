//! How finely a batch's records are shared out among the workers, from the time they take.
//!
//! The reader hands a batch over as blocks of ~5 KiB of lines (about 60 puzzles), and a block
//! is worked on by one worker: for easy puzzles (a Kaggle record takes about a microsecond,
//! a block well under a millisecond) that costs nothing per record and shares a batch's 60-odd
//! blocks evenly. A hard puzzle takes up to seconds, though, and a file of 40 of them is one
//! block: one core worked while the others idled, and the progress bar read 0 records until
//! the end. So the pieces of work are sized by time, not by lines:
//!
//! ```text
//!  per record, measured ──▶ estimate (moving average) ──▶ piece = TARGET / estimate records
//!      ▲                                                       │
//!      └──────── each stretch a worker ends: records, time ◀───┘
//! ```
//!
//! A block whose records would take longer than [`TARGET`] is shared out: its records are
//! parsed first, then worked on in pieces of [`Pace::piece`] records that idle workers take
//! (rayon's work stealing), so a file of 40 hard puzzles keeps every core busy. Until a first
//! piece is measured the estimate is unknown and a piece is one record ("start small"); the
//! first stretch of easy records makes pieces larger than a block at once, and blocks then go
//! to the workers whole, as before (their bulk path has one clock read per stretch of records
//! more, and no other cost).
//!
//! Kept/lost: pieces of one record at all times cost ~1 µs of scheduling each, as much as an
//! easy puzzle; a fixed piece of a few records left the hardest files unbalanced at the end of
//! the run (one record of 40 takes 5 s). Reading smaller blocks when records are slow would
//! need the reader to know the workers' pace before the first batch is worked on.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use super::Progress;

/// The time a piece of work should take: long enough that handing it to a worker costs
/// nothing (~1-2 µs with its clock reads and counting), short enough that at the end of a
/// run no worker waits long for the others.
pub(super) const TARGET_NANOS: f64 = 2e6;

/// The largest piece, in records: a batch's worth (the bulk path never asks for more).
const MAX_PIECE: usize = super::BATCH;

/// The progress sink hears of the records worked on at most this often from the workers
/// (besides once per batch collected): a bar redraws a few times a second anyway.
const REPORT_MILLIS: u64 = 100;

/// The measured time per record, shared by a run's workers.
#[derive(Debug, Default)]
pub(super) struct Pace {
    /// Nanoseconds per record (an `f64`'s bits); 0: nothing measured yet.
    nanos: AtomicU64,
    /// Records measured so far: a piece is at most four times as many (see [`Pace::piece`]).
    measured: AtomicU64,
}

impl Pace {
    /// The estimate in nanoseconds per record, if any.
    fn estimate(&self) -> Option<f64> {
        let bits = self.nanos.load(Ordering::Relaxed);
        (bits != 0).then(|| f64::from_bits(bits))
    }

    /// Take `records` worked on in `nanos` into the estimate: a moving average in which a
    /// stretch of many records weighs more than one of a few (a stray fast record among hard
    /// ones barely moves it; a block of easy ones takes it down at once). Two workers noting at
    /// once may lose one sample: harmless.
    pub(super) fn note(&self, records: u64, nanos: u64) {
        if records == 0 {
            return;
        }
        self.measured.fetch_add(records, Ordering::Relaxed);
        let sample = (nanos as f64 / records as f64).max(1.0);
        let next = match self.estimate() {
            None => sample,
            Some(old) => {
                let weight = records as f64 / (records as f64 + 7.0);
                old + (sample - old) * weight
            }
        };
        self.nanos.store(next.to_bits(), Ordering::Relaxed);
    }

    /// Records per piece at the pace measured: [`TARGET_NANOS`] worth, from 1 (nothing measured
    /// yet, or records slower than the target) to a batch, and at most four times the records
    /// measured so far: pieces grow from one record as the estimate firms up, so that a quick
    /// first record (a malformed line, an easy puzzle) does not send a block of hard ones to
    /// one worker whole.
    pub(super) fn piece(&self) -> usize {
        let Some(nanos) = self.estimate() else {
            return 1;
        };
        let firm = self.measured.load(Ordering::Relaxed).saturating_mul(4);
        ((TARGET_NANOS / nanos) as usize)
            .min(usize::try_from(firm).unwrap_or(usize::MAX))
            .clamp(1, MAX_PIECE)
    }

    /// Whether an item of `records` records is shared out in pieces (it would take longer
    /// than a piece should) rather than worked on whole by one worker.
    pub(super) fn shares(&self, records: usize) -> bool {
        records > 1 && self.piece() < records
    }
}

/// The records worked on in one input, told to the progress sink as they finish.
pub(super) struct Tally<'a> {
    progress: &'a dyn Progress,
    worked: AtomicU64,
    start: Instant,
    /// Milliseconds from `start` before which no worker reports again.
    quiet_until: AtomicU64,
}

impl<'a> Tally<'a> {
    pub(super) fn new(progress: &'a dyn Progress) -> Tally<'a> {
        Tally {
            progress,
            worked: AtomicU64::new(0),
            start: Instant::now(),
            quiet_until: AtomicU64::new(0),
        }
    }

    /// Count `records` more worked on by `now`, and tell the sink unless it was told less
    /// than [`REPORT_MILLIS`] ago (one worker reports at a time).
    pub(super) fn add(&self, records: u64, now: Instant) {
        let worked = self.worked.fetch_add(records, Ordering::Relaxed) + records;
        let now = now.saturating_duration_since(self.start).as_millis() as u64;
        let until = self.quiet_until.load(Ordering::Relaxed);
        if now >= until
            && self
                .quiet_until
                .compare_exchange(
                    until,
                    now + REPORT_MILLIS,
                    Ordering::Relaxed,
                    Ordering::Relaxed,
                )
                .is_ok()
        {
            self.progress.update(worked);
        }
    }

    /// Tell the sink the records worked on so far (once per batch collected: at least as many
    /// as were collected).
    pub(super) fn report(&self) {
        self.progress.update(self.worked.load(Ordering::Relaxed));
    }
}

/// One worker's records since it last told the [`Pace`] and the [`Tally`], and since when;
/// it tells them when [`end`](Stretch::end)ed or dropped.
pub(super) struct Stretch<'s> {
    pace: &'s Pace,
    tally: &'s Tally<'s>,
    records: u64,
    /// The records after which it ends: a piece at the pace known when it started.
    piece: u64,
    since: Instant,
}

impl<'s> Stretch<'s> {
    pub(super) fn new(pace: &'s Pace, tally: &'s Tally<'s>) -> Stretch<'s> {
        Stretch {
            pace,
            tally,
            records: 0,
            piece: pace.piece() as u64,
            since: Instant::now(),
        }
    }

    /// Count `records` more, and end the stretch once it holds a piece's worth.
    #[inline]
    pub(super) fn add(&mut self, records: usize) {
        self.records += records as u64;
        if self.records >= self.piece {
            self.end();
        }
    }

    /// Tell the pace and the tally of the records so far, and start a new stretch.
    pub(super) fn end(&mut self) {
        let now = Instant::now();
        if self.records > 0 {
            let nanos = now.duration_since(self.since).as_nanos() as u64;
            self.pace.note(self.records, nanos);
            self.tally.add(self.records, now);
            self.records = 0;
        }
        self.piece = self.pace.piece() as u64;
        self.since = now;
    }
}

impl Drop for Stretch<'_> {
    fn drop(&mut self) {
        self.end();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// A block of Kaggle lines: ~5 KiB of 82-byte lines.
    const BLOCK_RECORDS: usize = 62;

    #[test]
    fn pieces_start_at_one_record() {
        let pace = Pace::default();
        assert_eq!(pace.piece(), 1);
        // A file of two records or more is shared out before anything is measured.
        assert!(pace.shares(2));
        assert!(pace.shares(BLOCK_RECORDS));
        assert!(!pace.shares(1));
    }

    #[test]
    fn pieces_grow_as_records_are_measured() {
        let pace = Pace::default();
        // One quick record is not yet a pace: a block after it is still shared out.
        pace.note(1, 1_000);
        assert_eq!(pace.piece(), 4);
        assert!(pace.shares(BLOCK_RECORDS));
        pace.note(4, 4_000);
        assert_eq!(pace.piece(), 20);
        pace.note(20, 20_000);
        assert_eq!(pace.piece(), 100);
        assert!(!pace.shares(BLOCK_RECORDS));
    }

    #[test]
    fn hard_records_are_shared_out_one_by_one() {
        let pace = Pace::default();
        // Forum's hardest puzzles, rated: about a second each.
        pace.note(1, 1_000_000_000);
        assert_eq!(pace.piece(), 1);
        assert!(pace.shares(2));
        // A stray fast record (a malformed line) barely moves the estimate.
        pace.note(1, 1_000);
        assert_eq!(pace.piece(), 1);
        assert!(pace.shares(40));
    }

    #[test]
    fn easy_records_go_in_whole_blocks() {
        let pace = Pace::default();
        // The first record measured is slow (cold caches), then stretches of easy ones.
        pace.note(1, 50_000);
        pace.note(BLOCK_RECORDS as u64, BLOCK_RECORDS as u64 * 1_000);
        assert!(pace.piece() >= BLOCK_RECORDS, "{}", pace.piece());
        assert!(!pace.shares(BLOCK_RECORDS));
        pace.note(1000, 1_000_000);
        assert!((1900..=2000).contains(&pace.piece()), "{}", pace.piece());
        // Nothing measurable (a clock that did not move) still gives a bounded piece.
        pace.note(1000, 0);
        assert_eq!(pace.piece(), MAX_PIECE);
    }

    #[test]
    fn pieces_grow_and_shrink_with_the_pace() {
        let pace = Pace::default();
        // 100 µs a record: pieces of 20, a block shared out in three.
        pace.note(20, 2_000_000);
        assert_eq!(pace.piece(), 20);
        assert!(pace.shares(BLOCK_RECORDS));
        // Records turn easy: a stretch of a whole block brings the piece above a block.
        pace.note(BLOCK_RECORDS as u64, BLOCK_RECORDS as u64 * 2_000);
        assert!(!pace.shares(BLOCK_RECORDS), "{}", pace.piece());
        // And slow again.
        for _ in 0..4 {
            pace.note(4, 4 * 500_000);
        }
        assert!(pace.piece() < 8, "{}", pace.piece());
    }

    struct Seen(Mutex<Vec<u64>>);
    impl Progress for Seen {
        fn update(&self, records: u64) {
            self.0.lock().unwrap().push(records);
        }
    }

    #[test]
    fn stretches_count_every_record_once() {
        let seen = Seen(Mutex::new(Vec::new()));
        let (pace, tally) = (Pace::default(), Tally::new(&seen));
        {
            let mut stretch = Stretch::new(&pace, &tally);
            // Unknown pace: a piece is one record, so the first record ends a stretch and
            // its report goes out at once (the first report has no wait).
            stretch.add(1);
            assert_eq!(*seen.0.lock().unwrap(), [1]);
            stretch.add(5);
        }
        // The drop ended the stretch: all six are in, reported at the next batch.
        tally.report();
        assert_eq!(seen.0.lock().unwrap().last(), Some(&6));
        assert!(pace.estimate().is_some());
    }
}
