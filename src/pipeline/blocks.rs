//! One batch's work: its records fanned out to the workers, each result written into its own
//! slot (and, with a render, its bytes into its own region of the batch's buffer; with a fold,
//! counted on the worker instead of kept), and the kept results closed up in input order.

use std::io;
use std::mem::MaybeUninit;
use std::ptr;
use std::sync::Mutex;

use rayon::prelude::*;

use super::pace::Stretch;
use super::{Fold, Halt, Sink, Stages, Work};
use crate::io::reader::{Parsed, RawBatch, RawItem};

/// A worked batch: the results kept for the collect step (all of them, unless a fold took
/// some), and, when they were rendered, the bytes of all of them, item by item.
pub(super) struct Worked<T> {
    done: Vec<T>,
    /// The batch's records (after a halt: those before it).
    pub(super) records: usize,
    /// Each item's bytes at the start of its region of `max_len` bytes per record.
    pub(super) bytes: Vec<u8>,
    /// Per item: where its bytes start, how many there are, and its first record.
    spans: Vec<Span>,
    /// Rendered batches: per result in `done`, where it is in the batch.
    marks: Vec<Mark>,
    /// Rendered batches: bytes from here on are not written (a halt).
    end: usize,
}

#[derive(Clone, Copy)]
struct Span {
    start: usize,
    len: usize,
    first: usize,
}

/// Where a result kept from a rendered item is: the batch's records before it, and where its
/// bytes start.
#[derive(Clone, Copy)]
struct Mark {
    records: usize,
    byte: usize,
}

impl<T> Worked<T> {
    fn plain(done: Vec<T>) -> Worked<T> {
        Worked {
            records: done.len(),
            done,
            bytes: Vec::new(),
            spans: Vec::new(),
            marks: Vec::new(),
            end: usize::MAX,
        }
    }

    /// Run `collect` over the kept results in order; at the first [`Halt`], cut the batch
    /// before that record (only the records before it are written).
    pub(super) fn collect(
        mut self,
        collect: &mut impl FnMut(&mut T) -> Result<(), Halt>,
    ) -> (Worked<T>, Option<Halt>) {
        for (i, item) in self.done.iter_mut().enumerate() {
            if let Err(halt) = collect(item) {
                match self.marks.get(i) {
                    Some(mark) => (self.records, self.end) = (mark.records, mark.byte),
                    None => self.records = i,
                }
                self.done.truncate(i);
                return (self, Some(halt));
            }
        }
        (self, None)
    }

    /// Write the results (only those before a halt): rendered ones as their bytes, runs of
    /// adjacent regions in one piece; batches not rendered, result by result.
    pub(super) fn write(&self, sink: &mut (dyn Sink<T> + Send)) -> io::Result<()> {
        if self.spans.is_empty() {
            return self.done.iter().try_for_each(|r| sink.write(r));
        }
        let mut run = 0..0;
        for span in &self.spans {
            if span.start >= self.end {
                break;
            }
            if run.end != span.start {
                sink.write_rendered(&self.bytes[run.clone()])?;
                run = span.start..span.start;
            }
            run.end = (span.start + span.len).min(self.end);
        }
        sink.write_rendered(&self.bytes[run])
    }
}

/// A fold part lent to a worker for a stretch of items; it goes back to the stages' parts
/// when dropped. The stretch times the items worked on whole (see [`super::pace`]).
struct Lease<'p, P> {
    part: Option<P>,
    home: &'p Mutex<Vec<P>>,
    stretch: Stretch<'p>,
}

impl<P> Drop for Lease<'_, P> {
    fn drop(&mut self) {
        if let (Some(part), Ok(mut home)) = (self.part.take(), self.home.lock()) {
            home.push(part);
        }
    }
}

/// One item's place in a batch being worked on: its result slots, its bytes' region and its
/// marks (rendered runs), and where it starts.
type Place<'b, T> = (
    &'b mut [MaybeUninit<T>],
    &'b mut [u8],
    &'b mut [MaybeUninit<Mark>],
    Span,
);

impl<T: Send, W: Work<T>, F: Fold<T>> Stages<'_, T, W, F> {
    /// Parse and work on one batch, in parallel when there is a pool; results keep the input
    /// order.
    pub(super) fn work_batch(&self, batch: RawBatch) -> Worked<T> {
        if batch.has_blocks() {
            return self.work_blocks(batch);
        }
        let mut done = Vec::with_capacity(batch.len());
        let (bytes, items) = batch.into_parts();
        self.in_pieces(items, &mut done, |item| self.work.record(bytes.parse(item)));
        Worked::plain(done)
    }

    /// `work` on every item into `done`, in order: in pieces of at most [`Pace::piece`] items
    /// that the workers take as they come free (rayon splits a piece in two down to 16 items,
    /// or half a piece when that is fewer), each stretch of a worker's items timed and
    /// counted.
    ///
    /// [`Pace::piece`]: super::pace::Pace::piece
    fn in_pieces<I: Send>(&self, items: Vec<I>, done: &mut Vec<T>, work: impl Fn(I) -> T + Sync) {
        let one = |stretch: &mut Stretch<'_>, item| {
            let result = work(item);
            stretch.add(1);
            result
        };
        match &self.pool {
            Some(pool) => {
                let piece = self.pace.piece();
                pool.install(|| {
                    items
                        .into_par_iter()
                        .with_min_len((piece / 2).clamp(1, 16))
                        .with_max_len(piece)
                        .map_init(|| self.stretch(), one)
                        .collect_into_vec(done)
                })
            }
            None => {
                let mut stretch = self.stretch();
                done.extend(items.into_iter().map(|item| one(&mut stretch, item)));
            }
        }
    }

    /// A new stretch of one worker's records.
    fn stretch(&self) -> Stretch<'_> {
        Stretch::new(&self.pace, &self.tally)
    }

    /// One item's records (parsed) worked on in pieces shared out to the workers (records
    /// that take long: see [`super::pace`]), then kept in order as [`keep`](Self::keep) does.
    fn keep_shared(
        &self,
        f: &mut Filling<'_, T>,
        lease: &mut Lease<'_, F::Part>,
        parsed: Vec<Parsed>,
    ) {
        // The pieces time themselves: the lease's stretch ends before and starts again after.
        lease.stretch.end();
        let mut done = Vec::with_capacity(parsed.len());
        self.in_pieces(parsed, &mut done, |r| self.one(r));
        for result in done {
            self.keep(f, lease, result);
        }
        lease.stretch.end();
    }

    /// The result of one record as [`RawBytes::each`] gives it.
    #[inline]
    fn one(&self, r: Parsed) -> T {
        match r {
            Parsed::Puzzle { line, puzzle } => self.work.puzzle(line, puzzle),
            Parsed::Record(r) => self.work.record(r),
        }
    }

    /// [`work_batch`](Self::work_batch) for a batch whose items may stand for several records
    /// (blocks of lines): each item's records go straight into their own slots of the result,
    /// known from the item's record count, so no record is moved twice. With a render, each
    /// item's results are also rendered into its own region of the batch's bytes (`max_len`
    /// bytes per record), on the worker that made them; with a fold, the results it counts are
    /// dropped there, and the others close up at the front of the result after the work.
    fn work_blocks(&self, batch: RawBatch) -> Worked<T> {
        let total = batch.len();
        let width = self.render.map_or(0, |r| r.max_len());
        let rendered = self.render.is_some();
        // Results without a bound on their bytes go to a vector per item, put together after.
        let growing = rendered && width == 0;
        let mut done: Vec<T> = Vec::with_capacity(total);
        let mut marks: Vec<Mark> = Vec::with_capacity(if rendered { total } else { 0 });
        let mut out = self.spare_bytes(total * width);
        let (bytes, items) = batch.into_parts();
        let (mut spans, places) = lay_out(
            &items,
            &mut done.spare_capacity_mut()[..total],
            &mut marks.spare_capacity_mut()[..],
            &mut out[..total * width],
            width,
            rendered,
        );
        // Per item: its bytes (in its region, or its own vector when `growing`), and the
        // results kept (at the front of its slots) with their marks (see `Filling`). An item
        // whose records take long is shared out in pieces, its results then kept here.
        let fill = |lease: &mut Lease<'_, F::Part>, (item, place): (RawItem, Place<'_, T>)| {
            let mut filling = Filling::new(place, growing);
            let records = item.records();
            if self.pace.shares(records) {
                let mut parsed = Vec::with_capacity(records);
                bytes.each(item, |r| parsed.push(r));
                self.keep_shared(&mut filling, lease, parsed);
            } else {
                bytes.each(item, |r| self.keep(&mut filling, lease, self.one(r)));
                lease.stretch.add(records);
            }
            filling.finish()
        };
        let filled = self.fan_out(items, places, fill);
        if growing {
            out = self.gather(&mut spans, &filled);
        }
        // SAFETY: each item's worker wrote the first `kept` slots of its place (and their
        // marks when rendered), as `Filling` counts them; `finish` asserted that every item
        // gave exactly its records, so a panic leaves before this line.
        unsafe { close_up(&mut done, &mut marks, &mut spans, &filled, rendered) };
        if self.render.is_none() {
            return Worked::plain(done);
        }
        shift_marks(&mut marks, &spans, &filled);
        Worked {
            done,
            records: total,
            bytes: out,
            spans,
            marks,
            end: usize::MAX,
        }
    }

    /// Render `result` (into the item's region, or its own vector when growing), then count
    /// it into the worker's fold part, or keep it in the item's next slot with its mark.
    #[inline]
    fn keep(&self, f: &mut Filling<'_, T>, lease: &mut Lease<'_, F::Part>, result: T) {
        let byte = f.at;
        match self.render {
            Some(render) if f.growing => {
                render.render_into(&result, &mut f.own);
                f.at = f.own.len();
            }
            Some(render) => f.at += render.render(&result, &mut f.region[f.at..]),
            None => {}
        }
        let folded = match (self.fold, lease.part.as_mut()) {
            (Some(fold), Some(part)) => fold.fold(part, &result),
            _ => false,
        };
        if !folded {
            if let Some(mark) = f.marks.get_mut(f.kept) {
                mark.write(Mark {
                    records: f.span.first + f.filled,
                    byte,
                });
            }
            f.slots[f.kept].write(result);
            f.kept += 1;
        }
        f.filled += 1;
    }

    /// `fill` on every item with its place (in parallel when there is a pool), each worker
    /// with a fold part of its own, lent for its stretch of items.
    fn fan_out<'b>(
        &self,
        items: Vec<RawItem>,
        places: Vec<Place<'b, T>>,
        fill: impl Fn(&mut Lease<'_, F::Part>, (RawItem, Place<'b, T>)) -> Filled + Sync + Send,
    ) -> Vec<Filled> {
        let lease = || Lease {
            part: self.fold.map(|_| {
                let spare = self.parts.lock().ok().and_then(|mut parts| parts.pop());
                spare.unwrap_or_default()
            }),
            home: &self.parts,
            stretch: self.stretch(),
        };
        let mut filled = Vec::with_capacity(items.len());
        match &self.pool {
            Some(pool) => pool.install(|| {
                items
                    .into_par_iter()
                    .zip(places)
                    .map_init(lease, fill)
                    .collect_into_vec(&mut filled)
            }),
            None => {
                let mut lease = lease();
                filled.extend(items.into_iter().zip(places).map(|x| fill(&mut lease, x)));
            }
        }
        filled
    }

    /// The items' own byte vectors (growing renders) put together in one buffer, each span
    /// moved to where its bytes now start.
    fn gather(&self, spans: &mut [Span], filled: &[Filled]) -> Vec<u8> {
        let mut out = self.spare_bytes(filled.iter().map(|(len, _, _)| len).sum());
        let mut at = 0;
        for (span, (len, _, own)) in spans.iter_mut().zip(filled) {
            out[at..at + len].copy_from_slice(own);
            span.start = at;
            at += len;
        }
        out
    }

    /// A byte buffer of at least `len` bytes: one the writer gave back, or a new one.
    fn spare_bytes(&self, len: usize) -> Vec<u8> {
        if len == 0 {
            return Vec::new();
        }
        let mut bytes = self
            .spare
            .lock()
            .map(|mut spare| spare.pop())
            .ok()
            .flatten()
            .unwrap_or_default();
        if bytes.len() < len {
            bytes.resize(len, 0);
        }
        bytes
    }
}

/// What filling one item made: its bytes' length, the results it kept, and its own bytes
/// (growing renders; empty otherwise).
type Filled = (usize, usize, Vec<u8>);

/// An item being filled on a worker: its place, and how far its records have got.
struct Filling<'b, T> {
    slots: &'b mut [MaybeUninit<T>],
    region: &'b mut [u8],
    marks: &'b mut [MaybeUninit<Mark>],
    span: Span,
    /// Records worked on so far.
    filled: usize,
    /// Of them, kept for the collect step (at the front of `slots`).
    kept: usize,
    /// Bytes rendered so far, from the item's start (in `region`, or in `own`).
    at: usize,
    /// The item's bytes when the render has no bound on a result's length.
    own: Vec<u8>,
    growing: bool,
}

impl<'b, T> Filling<'b, T> {
    fn new((slots, region, marks, span): Place<'b, T>, growing: bool) -> Filling<'b, T> {
        let mut own = Vec::new();
        if growing {
            // A Kaggle record in csv is ~200 bytes: one reservation, no regrowth.
            own.reserve(slots.len() * 256);
        }
        Filling {
            slots,
            region,
            marks,
            span,
            filled: 0,
            kept: 0,
            at: 0,
            own,
            growing,
        }
    }

    fn finish(self) -> Filled {
        assert_eq!(
            self.filled,
            self.slots.len(),
            "an item gave other than its records"
        );
        (self.at, self.kept, self.own)
    }
}

/// Each kept result's mark, from its item's start to the batch's.
fn shift_marks(marks: &mut [Mark], spans: &[Span], filled: &[Filled]) {
    let mut at = 0;
    for (span, &(_, kept, _)) in spans.iter().zip(filled) {
        for mark in &mut marks[at..at + kept] {
            mark.byte += span.start;
        }
        at += kept;
    }
}

/// Each item's place in the batch: its result slots (from `slots`), its region of `width`
/// bytes per record (from `out`), its marks when rendered (from `marks`), and its span.
fn lay_out<'b, T>(
    items: &[RawItem],
    mut slots: &'b mut [MaybeUninit<T>],
    mut marks: &'b mut [MaybeUninit<Mark>],
    mut out: &'b mut [u8],
    width: usize,
    rendered: bool,
) -> (Vec<Span>, Vec<Place<'b, T>>) {
    let mut spans = Vec::with_capacity(items.len());
    let mut places: Vec<Place<'b, T>> = Vec::with_capacity(items.len());
    let mut first = 0;
    for item in items {
        let records = item.records();
        let (mine, after) = slots.split_at_mut(records);
        let (region, after_out) = out.split_at_mut(records * width);
        let (my_marks, after_marks) = marks.split_at_mut(if rendered { records } else { 0 });
        let span = Span {
            start: first * width,
            len: 0,
            first,
        };
        spans.push(span);
        places.push((mine, region, my_marks, span));
        slots = after;
        out = after_out;
        marks = after_marks;
        first += records;
    }
    (spans, places)
}

/// Close up the kept results (and their marks, when `rendered`) at the front of `done` and
/// `marks`, and give each span its bytes' length.
///
/// # Safety
///
/// For each item, the first `kept` slots of `done`'s spare capacity from `span.first` on (and
/// of `marks`' when `rendered`) were written, and the items' records add up to at most that
/// capacity.
unsafe fn close_up<T>(
    done: &mut Vec<T>,
    marks: &mut Vec<Mark>,
    spans: &mut [Span],
    filled: &[Filled],
    rendered: bool,
) {
    let mut kept_total = 0;
    for (span, &(len, kept, _)) in spans.iter_mut().zip(filled) {
        span.len = len;
        if span.first != kept_total {
            // SAFETY: the first `kept` slots of this item (from `span.first`) were written
            // by its worker, and `kept_total <= span.first`: the copy moves them (and their
            // marks, written for the same slots when there are marks) towards the front,
            // over slots already moved from or never written. `ptr::copy` allows overlap.
            unsafe {
                let results = done.as_mut_ptr();
                ptr::copy(results.add(span.first), results.add(kept_total), kept);
                if rendered {
                    let m = marks.as_mut_ptr();
                    ptr::copy(m.add(span.first), m.add(kept_total), kept);
                }
            }
        }
        kept_total += kept;
    }
    // SAFETY: the first `kept_total` places of `done` hold the kept results, moved there
    // above, each once; the places after them hold copies already moved (or nothing) and
    // are never read. Marks (when rendered) were written for the same slots. Why not safe
    // code: a vector of results per item, appended after, allocates once per ~60 records
    // (tests/pipeline_alloc.rs allows far less for line output) and moves every result once
    // more. (Csv and jsonl bytes do take a vector per item: their length has no bound, and
    // their formatting costs far more than that allocation.)
    unsafe {
        done.set_len(kept_total);
        if rendered {
            marks.set_len(kept_total);
        }
    }
}
