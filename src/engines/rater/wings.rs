//! XY-Wing and XYZ-Wing.

use super::board::{Board, HOUSE_ORDER, PEERS};
use super::hint::Hint;
use super::Technique;

/// XY-Wing (4.2): a pivot `xy` that sees two bivalue wings `xz` and `yz`; the cells that
/// see both wings lose `z`. XYZ-Wing (4.4): the pivot holds `xyz` and the cells must see it
/// too. Pivots row by row; wings in the order SE lists a cell's houses (block, row, column).
pub(crate) fn xy_wing(b: &Board, hint: &mut Hint, xyz: bool) -> bool {
    let target = if xyz { 3 } else { 2 };
    let mut bivalue = 0u128;
    for c in super::board::cells_of(b.open) {
        bivalue |= u128::from(b.cands[c].count_ones() == 2) << c;
    }
    for pivot in 0..81 {
        let xy = b.cands[pivot];
        if xy.count_ones() != target || (PEERS[pivot] & bivalue).count_ones() < 2 {
            continue;
        }
        for &w1 in &HOUSE_ORDER[pivot] {
            let xz = b.cands[w1 as usize];
            if xz.count_ones() != 2 || (xy & !xz).count_ones() != 1 {
                continue;
            }
            // The second wing's candidates are forced (XY: `xy ^ xz`; XYZ: another pair
            // inside `xyz`): skip the scan when no peer holds them.
            let union = xy | xz;
            let wanted = PEERS[pivot] & bivalue & b.planes[(union & !xz).trailing_zeros() as usize];
            if wanted == 0 {
                continue;
            }
            for &w2 in &HOUSE_ORDER[pivot] {
                let yz = b.cands[w2 as usize];
                if yz.count_ones() != 2 {
                    continue;
                }
                let union = (xy | xz | yz).count_ones();
                let inter = (xy & xz & yz).count_ones();
                if union != 3 || inter != u32::from(xyz) {
                    continue;
                }
                if try_wing(b, hint, xyz, pivot, w1 as usize, w2 as usize) {
                    return true;
                }
            }
        }
    }
    false
}

fn try_wing(b: &Board, hint: &mut Hint, xyz: bool, pivot: usize, w1: usize, w2: usize) -> bool {
    let z = (b.cands[w1] & b.cands[w2]).trailing_zeros() as usize;
    let mut victims = PEERS[w1] & PEERS[w2] & b.planes[z];
    if xyz {
        victims &= PEERS[pivot];
    }
    victims &= !(1u128 << pivot | 1u128 << w1 | 1u128 << w2);
    if victims == 0 {
        return false;
    }
    let (technique, difficulty) = if xyz {
        (Technique::XYZWing, 44)
    } else {
        (Technique::XYWing, 42)
    };
    hint.start(technique, difficulty);
    hint.add_cell(pivot);
    hint.add_cell(w1);
    hint.add_cell(w2);
    hint.digits = b.cands[pivot] | b.cands[w1] | b.cands[w2];
    for c in super::board::cells_of(victims) {
        hint.eliminate(c, 1 << z);
    }
    true
}
