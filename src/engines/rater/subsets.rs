//! Naked and hidden subsets in one house, and fish (X-Wing, Swordfish, Jellyfish).

use super::board::{digits_of, Board, COL, ROW};
use super::hint::Hint;
use super::singles::{combos, common_tuple, members_of, subsets_of, BLOCKS_COLUMNS_ROWS};
use super::Technique;

/// Naked pair (3.0), triplet (3.6), quad (5.0): `degree` cells of a house whose candidates
/// are `degree` digits; the rest of the house loses those digits. Houses blocks, columns,
/// rows (with at least `2 * degree` empty cells), cell sets in SE's order.
pub(crate) fn naked_set(b: &Board, hint: &mut Hint, degree: usize) -> bool {
    for &h in &BLOCKS_COLUMNS_ROWS {
        if (b.empty[h] as usize) < degree * 2 {
            continue;
        }
        let mut masks = [0u16; 9];
        for (i, m) in masks.iter_mut().enumerate() {
            *m = b.cands[Board::cell(h, i)];
        }
        let members = members_of(&masks, degree);
        if (members.count_ones() as usize) < degree {
            continue;
        }
        for set in subsets_of(members, degree) {
            let Some(digits) = common_tuple(&masks, set, degree) else {
                continue;
            };
            let mut worth = false;
            for i in 0..9 {
                worth |= set >> i & 1 == 0 && masks[i] & digits != 0;
            }
            if !worth {
                continue;
            }
            let (technique, difficulty) = match degree {
                2 => (Technique::NakedPair, 30),
                3 => (Technique::NakedTriplet, 36),
                _ => (Technique::NakedQuad, 50),
            };
            hint.start(technique, difficulty);
            hint.digits = digits;
            hint.add_house(h);
            for i in 0..9 {
                let c = Board::cell(h, i);
                if set >> i & 1 != 0 {
                    hint.add_cell(c);
                } else {
                    hint.eliminate(c, masks[i] & digits);
                }
            }
            return true;
        }
    }
    false
}

/// Hidden pair (3.4), triplet (4.0), quad (5.4): `degree` digits confined to `degree` cells
/// of a house; those cells lose their other candidates. Houses blocks, columns, rows (with
/// more than `2 * degree` empty cells), digit sets in SE's order.
pub(crate) fn hidden_set(b: &Board, hint: &mut Hint, degree: usize) -> bool {
    for &h in &BLOCKS_COLUMNS_ROWS {
        if (b.empty[h] as usize) <= degree * 2 {
            continue;
        }
        let pos = &b.pos[h];
        let members = members_of(pos, degree);
        if (members.count_ones() as usize) < degree {
            continue;
        }
        for set in subsets_of(members, degree) {
            let Some(cells) = common_tuple(pos, set, degree) else {
                continue;
            };
            if digits_of(cells).all(|i| b.cands[Board::cell(h, i)] & !set == 0) {
                continue;
            }
            let (technique, difficulty) = match degree {
                2 => (Technique::HiddenPair, 34),
                3 => (Technique::HiddenTriplet, 40),
                _ => (Technique::HiddenQuad, 54),
            };
            hint.start(technique, difficulty);
            hint.digits = set;
            hint.add_house(h);
            for i in digits_of(cells) {
                let c = Board::cell(h, i);
                hint.add_cell(c);
                hint.eliminate(c, b.cands[c] & !set);
            }
            return true;
        }
    }
    false
}

/// X-Wing (3.2), Swordfish (3.8), Jellyfish (5.2): a digit whose places in `degree` base
/// lines lie in `degree` cross lines; the cross lines lose it elsewhere. SE looks at columns
/// as base lines first, then rows; line sets in SE's order, then digits in increasing
/// order; a digit placed more than `9 - 2 * degree` times is skipped. Only `digits` are
/// searched: the others' places are known to hold no fish of this degree.
pub(crate) fn fish(b: &Board, hint: &mut Hint, degree: usize, digits: u16) -> bool {
    for (base, cover) in [(COL, ROW), (ROW, COL)] {
        // The base lines where each digit has 2 to `degree` places.
        let mut eligible = [0u16; 9];
        for d in 0..9 {
            for i in 0..9 {
                let n = b.pos[base + i][d].count_ones() as usize;
                eligible[d] |= u16::from(n >= 2 && n <= degree) << i;
            }
        }
        for &lines in combos(degree) {
            for d in digits_of(digits) {
                if b.placed[d] as usize + degree * 2 > 9 || lines & !eligible[d] != 0 {
                    continue;
                }
                let mut masks = [0u16; 9];
                for i in digits_of(lines) {
                    masks[i] = b.pos[base + i][d];
                }
                let Some(crosses) = common_tuple(&masks, lines, degree) else {
                    continue;
                };
                let worth = digits_of(crosses).any(|j| b.pos[cover + j][d] & !lines != 0);
                if !worth {
                    continue;
                }
                let (technique, difficulty) = match degree {
                    2 => (Technique::XWing, 32),
                    3 => (Technique::Swordfish, 38),
                    _ => (Technique::Jellyfish, 52),
                };
                hint.start(technique, difficulty);
                hint.digits = 1 << d;
                for i in digits_of(lines) {
                    hint.add_house(base + i);
                }
                for j in digits_of(crosses) {
                    hint.add_cover(cover + j);
                    let p = b.pos[cover + j][d];
                    for i in digits_of(p) {
                        let c = Board::cell(cover + j, i);
                        if lines >> i & 1 != 0 {
                            hint.add_cell(c);
                        } else {
                            hint.eliminate(c, 1 << d);
                        }
                    }
                }
                return true;
            }
        }
    }
    false
}
