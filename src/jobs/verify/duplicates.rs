//! Duplicate and leakage detection with bounded memory: every distinct puzzle (or canonical
//! form) is remembered as a 128-bit hash and where it first appeared, 24 bytes per entry.
//!
//! The hash is two SipHash-1-3 digests of the 81 cells (std's `DefaultHasher`, told apart by a
//! leading byte), so the chance that two different puzzles collide among `n` distinct ones is
//! about n² / 2¹²⁹: 1.5 × 10⁻²⁵ for 10 million puzzles, far below the odds of a memory error.
//! A collision would report two different puzzles as duplicates; nothing else can go wrong.
//! The table stores `([u64; 2], u64)` entries (24 bytes, alignment 8) plus hashbrown's control
//! byte, at a load of 44-88%: 10 million distinct puzzles take about 420 MB, with ~630 MB at
//! the peak while the table grows (measured figures in `docs/verify.md`).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, DefaultHasher, Hasher};

use crate::grid::Grid;
use crate::jobs::verify::{Checked, Problem};

/// The 128-bit key of a grid.
pub fn grid_key(grid: &Grid) -> [u64; 2] {
    let digest = |salt: u8| {
        let mut h = DefaultHasher::new();
        h.write_u8(salt);
        h.write(grid.cells());
        h.finish()
    };
    [digest(0), digest(1)]
}

/// The table's hasher: the key is already a uniform hash, so its first word is the bucket hash.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // Only reached for keys other than [u64; 2] (not used); fold them in anyway.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        if self.0 == 0 {
            self.0 = n;
        }
    }
    fn write_usize(&mut self, _: usize) {} // the array length prefix
}

type Table = HashMap<[u64; 2], u64, BuildHasherDefault<KeyHasher>>;

/// Where a record is: a file number (into [`Duplicates`]'s file list) and a line, in one word.
fn place(file: usize, line: u64) -> u64 {
    (file as u64) << 48 | (line & ((1 << 48) - 1))
}

/// Duplicates within the inputs and matches against reference files, in input order.
pub struct Duplicates {
    canonical: bool,
    seen: Table,
    reference: Table,
    files: Vec<String>,
    file: usize,
}

impl Duplicates {
    /// Exact duplicates (the puzzle text), or with `canonical` puzzles equal up to symmetry
    /// (through [`Checked::canonical`], which must then be set).
    pub fn new(canonical: bool) -> Duplicates {
        Duplicates {
            canonical,
            seen: Table::default(),
            reference: Table::default(),
            files: Vec::new(),
            file: 0,
        }
    }

    /// Records from now on come from the file called `label` (named in reports when a
    /// duplicate's first occurrence is in another file).
    pub fn start_file(&mut self, label: &str) {
        self.files.push(label.to_string());
        self.file = self.files.len() - 1;
    }

    /// Remember a reference record (`--against`): its puzzle, or its canonical form.
    pub fn add_reference(&mut self, key_grid: &Grid, line: u64) {
        let at = place(self.file, line);
        self.reference.entry(grid_key(key_grid)).or_insert(at);
    }

    /// Distinct puzzles remembered so far (inputs and references).
    pub fn len(&self) -> usize {
        self.seen.len() + self.reference.len()
    }

    /// Whether nothing is remembered yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn describe(&self, at: u64) -> String {
        let (file, line) = ((at >> 48) as usize, at & ((1 << 48) - 1));
        if file == self.file {
            format!("line {line}")
        } else {
            format!("{}:{line}", self.files[file])
        }
    }

    /// Note `checked`'s puzzle (its canonical form in canonical mode); adds an `in-reference`
    /// finding when a reference file has it, and a `duplicate` finding when an earlier input
    /// record had it.
    pub fn note(&mut self, checked: &mut Checked) {
        let grid = if self.canonical {
            checked.canonical
        } else {
            checked.puzzle
        };
        let Some(grid) = grid else { return };
        let how = if self.canonical {
            "equivalent to"
        } else {
            "same puzzle as"
        };
        let key = grid_key(&grid);
        if let Some(&at) = self.reference.get(&key) {
            let detail = format!("{how} {}", self.describe(at));
            checked.add(Problem::InReference, detail);
        }
        let here = place(self.file, checked.line);
        let first = *self.seen.entry(key).or_insert(here);
        if first != here {
            let detail = format!("{how} {}", self.describe(first));
            checked.add(Problem::Duplicate, detail);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checked(line: u64, grid: Grid) -> Checked {
        Checked {
            line,
            id: None,
            puzzle: Some(grid),
            canonical: None,
            findings: Vec::new(),
        }
    }

    #[test]
    fn duplicates_and_references_name_file_and_line() {
        let mut a = Grid::EMPTY;
        a.set(0, 1);
        let mut b = Grid::EMPTY;
        b.set(1, 1);
        let mut d = Duplicates::new(false);
        d.start_file("ref.txt");
        d.add_reference(&a, 7);
        d.start_file("in.txt");
        let mut first = checked(1, b);
        d.note(&mut first);
        assert!(first.findings.is_empty());
        let mut leak = checked(2, a);
        d.note(&mut leak);
        assert_eq!(leak.findings.len(), 1);
        assert_eq!(leak.findings[0].problem, Problem::InReference);
        assert_eq!(leak.findings[0].detail, "same puzzle as ref.txt:7");
        let mut again = checked(3, b);
        d.note(&mut again);
        assert_eq!(again.findings[0].detail, "same puzzle as line 1");
        d.start_file("other.txt");
        let mut elsewhere = checked(1, b);
        d.note(&mut elsewhere);
        assert_eq!(elsewhere.findings[0].detail, "same puzzle as in.txt:1");
        assert_eq!(d.len(), 3);
    }

    #[test]
    fn keys_differ_for_grids_one_cell_apart() {
        let mut g = Grid::EMPTY;
        let mut keys = std::collections::HashSet::new();
        for cell in 0..81 {
            for v in 1..=9 {
                g.set(cell, v);
                assert!(keys.insert(grid_key(&g)));
            }
            g.set(cell, 0);
        }
    }
}
