//! The basic rules dynamic forcing chains (+) (9.0 + length bonus, SE's `Chaining(true, true,
//! false, 1)`) apply inside a propagation: each time its links run dry, SE's
//! `getAdvancedPotentials` runs intersections, hidden pairs, naked pairs and X-Wings, in that
//! order, on the grid the assumption has reduced. Every hint of the first of those rules
//! that has one resting on the assumption's removals turns its removals "off", each with
//! those removals as parents, and the links go on from them.
//!
//! A hint's parents (SE's `getRuleParents`) are the candidates the assumption removed that
//! the rule needed gone:
//!
//! | rule | its hints, in SE's order | parents |
//! |---|---|---|
//! | intersections | (block, column), (block, row), (column, block), (row, block) pairs, each by first then second house, then digit | the digit's lost places in the first house outside the second |
//! | hidden pairs | blocks, columns, rows with more than four empty cells; digit pairs in increasing bit order | the two digits' lost places in the house |
//! | naked pairs | blocks, columns, rows with four empty cells or more; index pairs in increasing bit order | the other candidates the two cells lost |
//! | X-Wings | columns then rows as base lines; line pairs in increasing bit order, then digit; a digit placed five times or less | the digit's lost places in the base lines outside the cover lines |
//!
//! A hint counts only if it removes something from the reduced grid and has parents (one
//! with none would hold without the assumption). SE keeps a hint's removals in a hash map
//! of cells; here they come in cell order, then digit order.
//!
//! These rules run on every reduced grid a propagation runs dry on (thousands a step at
//! the nested levels), so each scan first marks what can take part: the digits of two
//! places in a house and the cells of two candidates (a pair is two of those, the same
//! two), the base lines of two places or more of an X-Wing's digit (callgrind on line 3 of
//! forum_hardest_1905_11+, 2026-12-06: 4.54 → 4.31 G instructions for the puzzle, the
//! rules 0.23 G cheaper). Kept per step, not across steps: running all four rules on a
//! grid of every candidate so that their hints hold for later steps (see
//! [`nested`](super::nested)'s memo) cost more than it saved (4.054 against 4.035 G, and
//! 9.150 against 9.120 on line 1,628). The pairs tried are then only those of marked
//! members, and an intersection's digits only those of two places or more in its first
//! house (3.87 → 3.70 → 3.69 G, 2026-12-06). A hint needs parents, so a scan passes over
//! what lost nothing: an intersection's digits that lost no place in the first house,
//! pairs of which neither member lost a place or a candidate, X-Wing base lines where the
//! digit lost no place (three puzzles of forum_hardest_1905_11+, 2026-12-06: 10.70 → 10.42
//! (intersections and pairs) → 9.92 (X-Wings' digits) → 9.83 G (their line pairs)).
//!
//! Layer: a producer's rules, over [`shared`](super::shared)'s [`CandSet`]; the nesting
//! driver ([`nested`](super::nested)) runs them and keeps what they give per reduced grid.

use super::shared::bits::CandSet;
use crate::engines::rater::board::{
    cells_of, digits_of, two_bits, two_cells, Board, BLOCK, CELLS, COL, HOUSE_CELLS, HOUSE_MASK,
    ROW,
};
use crate::engines::rater::chain::Rule;
use crate::engines::rater::Technique;

/// What a hint of the basic rules rests on: the rule, its houses (board numbering), digits
/// and cells. Handed with each hint (a few stores), made into a [`Rule`] only for
/// `--steps`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pattern {
    technique: Technique,
    houses: u32,
    digits: u16,
    cells: u128,
}

impl Pattern {
    /// The rule, as a step gives it.
    pub(crate) fn rule(&self) -> Rule {
        Rule::new(self.technique, self.houses, self.digits, self.cells)
    }
}

/// How the rules hand on their hints: `emit(parents, removals, pattern)`.
pub(crate) type EmitRule<'e> = dyn FnMut(&CandSet, &CandSet, &Pattern) + 'e;

/// The hints of the first rule with a hint that rests on the reduction from `b` to
/// (`cands`, `planes`), in SE's order: `emit(parents, removals, pattern)` for each. Whether
/// there was one.
pub(crate) fn rules(
    b: &Board,
    cands: &[u16; CELLS],
    planes: &[u128; 9],
    emit: &mut EmitRule<'_>,
) -> bool {
    intersections(b, planes, emit)
        || hidden_pairs(b, cands, planes, emit)
        || naked_pairs(b, cands, emit)
        || x_wings(b, planes, emit)
}

/// A hint of one digit: its `lost` places as parents, `removals` off. Emitted (`true`) when it
/// has both.
fn emit_digit(
    (d, lost, removals): (usize, u128, u128),
    pattern: &Pattern,
    emit: &mut EmitRule<'_>,
) -> bool {
    if removals == 0 || lost == 0 {
        return false;
    }
    let (mut parents, mut out) = (CandSet::EMPTY, CandSet::EMPTY);
    parents.add_cells(lost, d);
    out.add_cells(removals, d);
    emit(&parents, &out, pattern);
    true
}

/// The pairs of the members of `set` (of 0..9) in SE's `Permutations(2, 9)` order:
/// increasing as bit masks. The rules below try only pairs whose two members can take part
/// (the others would be tried and left), the order of those kept unchanged.
fn pairs_in(set: u16) -> impl Iterator<Item = (usize, usize)> {
    digits_of(set).flat_map(move |y| digits_of(set & ((1 << y) - 1)).map(move |x| (x, y)))
}

fn intersections(b: &Board, planes: &[u128; 9], emit: &mut EmitRule<'_>) -> bool {
    let mut any = false;
    for (t1, t2) in [(BLOCK, COL), (BLOCK, ROW), (COL, BLOCK), (ROW, BLOCK)] {
        for i1 in 0..9 {
            let m1 = HOUSE_MASK[t1 + i1];
            // The digits of two places or more in the first house that lost a place there:
            // the others never count (a hint needs a lost place for parent).
            let many = (0..9).fold(0u16, |t, d| {
                let lost = b.planes[d] & !planes[d] & m1 != 0;
                t | u16::from(lost && (planes[d] & m1).count_ones() >= 2) << d
            });
            if many == 0 {
                continue;
            }
            for i2 in 0..9 {
                let m2 = HOUSE_MASK[t2 + i2];
                if m1 & m2 == 0 {
                    continue;
                }
                for d in digits_of(many) {
                    let plane = planes[d];
                    let now = plane & m1;
                    if now & !m2 != 0 {
                        continue;
                    }
                    let lost = b.planes[d] & !plane & m1 & !m2;
                    let pattern = Pattern {
                        technique: if t1 == BLOCK {
                            Technique::Pointing
                        } else {
                            Technique::Claiming
                        },
                        houses: 1 << (t1 + i1) | 1 << (t2 + i2),
                        digits: 1 << d,
                        cells: now,
                    };
                    any |= emit_digit((d, lost, plane & m2 & !m1), &pattern, emit);
                }
            }
        }
    }
    any
}

fn hidden_pairs(
    b: &Board,
    cands: &[u16; CELLS],
    planes: &[u128; 9],
    emit: &mut EmitRule<'_>,
) -> bool {
    let mut any = false;
    for t in [BLOCK, COL, ROW] {
        for h in t..t + 9 {
            if b.empty[h] <= 4 {
                continue;
            }
            let m = HOUSE_MASK[h];
            // A hidden pair is two digits of two places each, the same two; a hint needs one
            // of them to have lost a place in the house.
            let two = (0..9).fold(0u16, |t, d| t | u16::from(two_cells(planes[d] & m)) << d);
            let lost = (0..9).fold(0u16, |t, d| {
                t | u16::from(b.planes[d] & !planes[d] & m != 0) << d
            });
            if two & lost == 0 {
                continue;
            }
            for (x, y) in pairs_in(two) {
                if (lost >> x | lost >> y) & 1 == 0 {
                    continue;
                }
                let both = planes[x] & m;
                if planes[y] & m != both {
                    continue;
                }
                let keep = 1 << x | 1 << y;
                let mut out = CandSet::EMPTY;
                for c in cells_of(both) {
                    out.add_digits(c, cands[c] & !keep);
                }
                let mut parents = CandSet::EMPTY;
                parents.add_cells(b.planes[x] & m & !both, x);
                parents.add_cells(b.planes[y] & m & !both, y);
                if out.is_empty() || parents.is_empty() {
                    continue;
                }
                let pattern = Pattern {
                    technique: Technique::HiddenPair,
                    houses: 1 << h,
                    digits: keep,
                    cells: both,
                };
                emit(&parents, &out, &pattern);
                any = true;
            }
        }
    }
    any
}

fn naked_pairs(b: &Board, cands: &[u16; CELLS], emit: &mut EmitRule<'_>) -> bool {
    let mut any = false;
    for t in [BLOCK, COL, ROW] {
        for h in t..t + 9 {
            if b.empty[h] < 4 {
                continue;
            }
            // A naked pair is two cells of two candidates each, the same two.
            let cells = &HOUSE_CELLS[h];
            let two = (0..9).fold(0u16, |t, i| {
                t | u16::from(two_bits(cands[cells[i] as usize])) << i
            });
            // A hint needs one of the two cells to have lost a candidate.
            let lost = (0..9).fold(0u16, |t, i| {
                let c = cells[i] as usize;
                t | u16::from(b.cands[c] != cands[c]) << i
            });
            if two & lost == 0 {
                continue;
            }
            for (i, j) in pairs_in(two) {
                if (lost >> i | lost >> j) & 1 == 0 {
                    continue;
                }
                let (ci, cj) = (cells[i] as usize, cells[j] as usize);
                let both = cands[ci];
                if cands[cj] != both {
                    continue;
                }
                let mut out = CandSet::EMPTY;
                for &o in &HOUSE_CELLS[h] {
                    let o = o as usize;
                    if o != ci && o != cj {
                        out.add_digits(o, cands[o] & both);
                    }
                }
                let mut parents = CandSet::EMPTY;
                parents.add_digits(ci, b.cands[ci] & !both);
                parents.add_digits(cj, b.cands[cj] & !both);
                if out.is_empty() || parents.is_empty() {
                    continue;
                }
                let pattern = Pattern {
                    technique: Technique::NakedPair,
                    houses: 1 << h,
                    digits: both,
                    cells: 1u128 << ci | 1u128 << cj,
                };
                emit(&parents, &out, &pattern);
                any = true;
            }
        }
    }
    any
}

fn x_wings(b: &Board, planes: &[u128; 9], emit: &mut EmitRule<'_>) -> bool {
    let mut any = false;
    for (base, cover) in [(COL, ROW), (ROW, COL)] {
        // A base line's index of a cell is the cover line through it.
        let line = |c: usize| if base == COL { c / 9 } else { c % 9 };
        // The base lines where each digit has two places or more, and those where it lost
        // a place (a hint needs one for parent).
        let many: [u16; 9] = std::array::from_fn(|d| {
            (0..9).fold(0u16, |t, k| {
                t | u16::from((planes[d] & HOUSE_MASK[base + k]).count_ones() >= 2) << k
            })
        });
        let lost: [u16; 9] = std::array::from_fn(|d| {
            let gone = b.planes[d] & !planes[d];
            (0..9).fold(0u16, |t, k| {
                t | u16::from(gone & HOUSE_MASK[base + k] != 0) << k
            })
        });
        // The base lines some digit (placed four times or less) has two places in or more.
        let open = (0..9)
            .filter(|&d| b.placed[d] + 4 <= 9)
            .fold(0u16, |m, d| m | many[d]);
        let any_lost = (0..9)
            .filter(|&d| b.placed[d] + 4 <= 9)
            .fold(0u16, |m, d| m | lost[d]);
        for (i, j) in pairs_in(open) {
            if (any_lost >> i | any_lost >> j) & 1 == 0 {
                continue;
            }
            let bases = HOUSE_MASK[base + i] | HOUSE_MASK[base + j];
            for (d, &plane) in planes.iter().enumerate() {
                if b.placed[d] + 4 > 9
                    || many[d] >> i & many[d] >> j & 1 == 0
                    || (lost[d] >> i | lost[d] >> j) & 1 == 0
                {
                    continue;
                }
                let (li, lj) = (plane & HOUSE_MASK[base + i], plane & HOUSE_MASK[base + j]);
                let lines = cells_of(li | lj).fold(0u16, |m, c| m | 1 << line(c));
                if lines.count_ones() != 2 {
                    continue;
                }
                let covers = digits_of(lines).fold(0u128, |m, k| m | HOUSE_MASK[cover + k]);
                let lost = b.planes[d] & !plane & bases & !covers;
                let pattern = Pattern {
                    technique: Technique::XWing,
                    houses: 1 << (base + i)
                        | 1 << (base + j)
                        | digits_of(lines).fold(0, |m, k| m | 1 << (cover + k)),
                    digits: 1 << d,
                    cells: li | lj,
                };
                any |= emit_digit((d, lost, plane & covers & !bases), &pattern, emit);
            }
        }
    }
    any
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pairs of a set come in SE's order of all pairs (`Permutations(2, 9)`: the
    /// greater member outside), those with a member out of the set left out.
    #[test]
    fn pairs_of_a_set_keep_se_order() {
        let all: Vec<_> = (1..9).flat_map(|y| (0..y).map(move |x| (x, y))).collect();
        assert_eq!(pairs_in(0x1ff).collect::<Vec<_>>(), all);
        for set in [0u16, 0b1, 0b101, 0b1_0010_0110, 0b1_1000_0001] {
            let kept: Vec<_> = all
                .iter()
                .copied()
                .filter(|&(x, y)| set >> x & set >> y & 1 == 1)
                .collect();
            assert_eq!(pairs_in(set).collect::<Vec<_>>(), kept, "{set:b}");
        }
    }

    /// The sets of a rule's hints, as `(parents, removals)` lists of candidates (the rule
    /// says whether it had one).
    fn emitted(rule: impl Fn(&mut EmitRule<'_>) -> bool) -> Vec<(Vec<usize>, Vec<usize>)> {
        let mut out = Vec::new();
        let any = rule(&mut |p, x, _| out.push((p.iter().collect(), x.iter().collect())));
        assert_eq!(any, !out.is_empty());
        out
    }

    /// Candidates `digits` (0-based) in `cells`, in candidate order.
    fn set(cells: &[usize], digits: &[usize]) -> Vec<usize> {
        let mut s = CandSet::EMPTY;
        for &c in cells {
            for &d in digits {
                s.insert(c * 9 + d);
            }
        }
        s.iter().collect()
    }

    #[test]
    fn pairs_need_two_of_the_same_two() {
        let mut b = Board::blank();
        b.load(&[0; CELLS]);
        let mut r = b.clone();
        // r1c1 holds 1 and 2 alone: no naked pair yet.
        r.remove_mask(0, 0b1_1111_1100);
        let naked = |r: &Board| emitted(|emit| naked_pairs(&b, &r.cands, emit));
        assert_eq!(naked(&r), []);
        // r1c2 too: a pair in block 1, then in row 1.
        r.remove_mask(1, 0b1_1111_1100);
        let lost = set(&[0, 1], &[2, 3, 4, 5, 6, 7, 8]);
        let block = set(&[2, 9, 10, 11, 18, 19, 20], &[0, 1]);
        let row = set(&[2, 3, 4, 5, 6, 7, 8], &[0, 1]);
        assert_eq!(naked(&r), [(lost.clone(), block), (lost, row)]);
        // Digits 1 and 2 of row 9 left in r9c8 and r9c9 alone: a hidden pair (one of
        // three places is not).
        for c in 72..79 {
            r.remove_mask(c, 0b11);
        }
        let hidden = |r: &Board| emitted(|emit| hidden_pairs(&b, &r.cands, &r.planes, emit));
        let removals = set(&[79, 80], &[2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(
            hidden(&r),
            [(set(&(72..79).collect::<Vec<_>>(), &[0, 1]), removals)]
        );
        r = b.clone();
        for c in 72..78 {
            r.remove_mask(c, 0b11);
        }
        assert_eq!(hidden(&r), []);
    }
}
