//! The techniques that place a digit: hidden singles, naked singles, and SE's "direct"
//! forms of intersections and hidden sets (an intersection or hidden set that leaves a hidden
//! single, which is placed; the set's own eliminations are not made).

use super::board::{Board, BLOCK, COL, HOUSE_CELLS, HOUSE_MASK, ROW, SE_ORDER_HOUSE};
use super::hint::Hint;
use super::Technique;

/// Houses in the order SE's hidden singles and hidden sets visit them: blocks, columns, rows.
pub(crate) const BLOCKS_COLUMNS_ROWS: [usize; 27] = {
    let mut t = [0usize; 27];
    let mut i = 0;
    while i < 9 {
        t[i] = BLOCK + i;
        t[9 + i] = COL + i;
        t[18 + i] = ROW + i;
        i += 1;
    }
    t
};

const fn build_combos<const N: usize>(k: u32) -> [u16; N] {
    let mut t = [0u16; N];
    let mut n = 0;
    let mut m = 0u16;
    while m < 512 {
        if m.count_ones() == k {
            t[n] = m;
            n += 1;
        }
        m += 1;
    }
    t
}

/// The `k`-subsets of 9 things in SE's order (`Permutations`: increasing as numbers).
pub(crate) const COMBOS2: [u16; 36] = build_combos::<36>(2);
/// Triples of 9 in SE's order.
pub(crate) const COMBOS3: [u16; 84] = build_combos::<84>(3);
/// Quadruples of 9 in SE's order.
pub(crate) const COMBOS4: [u16; 126] = build_combos::<126>(4);

/// The subsets of size `k` (2..=4) of 9 things, in SE's order.
pub(crate) fn combos(k: usize) -> &'static [u16] {
    match k {
        2 => &COMBOS2,
        3 => &COMBOS3,
        _ => &COMBOS4,
    }
}

const fn build_inter() -> [[u16; 27]; 27] {
    let mut t = [[0u16; 27]; 27];
    let mut a = 0;
    while a < 27 {
        let mut b = 0;
        while b < 27 {
            if a != b {
                let mut i = 0;
                while i < 9 {
                    if HOUSE_MASK[b] >> HOUSE_CELLS[a][i] & 1 != 0 {
                        t[a][b] |= 1 << i;
                    }
                    i += 1;
                }
            }
            b += 1;
        }
        a += 1;
    }
    t
}

/// `INTER[a][b]`: the indexes of house `a` that lie in house `b` (0 when they do not cross).
pub(crate) const INTER: [[u16; 27]; 27] = build_inter();

/// Hidden singles: first a house with one empty cell (1.0), then a digit with one place in a
/// block (1.2) or in a column or row (1.5); houses in the order blocks, columns, rows, digits
/// in increasing order.
pub(crate) fn hidden_single(b: &Board, hint: &mut Hint) -> bool {
    // Both passes take the first house in SE's order: the board keeps, per house, the digits
    // with one place left and whether one cell is left empty.
    let mut alone = b.one_empty;
    while alone != 0 {
        let h = SE_ORDER_HOUSE[alone.trailing_zeros() as usize] as usize;
        if b.single[h] != 0 {
            return single(b, hint, h, b.single[h].trailing_zeros() as usize, 10);
        }
        alone &= alone - 1;
    }
    if b.single_houses != 0 {
        let h = SE_ORDER_HOUSE[b.single_houses.trailing_zeros() as usize] as usize;
        let difficulty = if h < ROW { 12 } else { 15 };
        return single(
            b,
            hint,
            h,
            b.single[h].trailing_zeros() as usize,
            difficulty,
        );
    }
    false
}

fn single(b: &Board, hint: &mut Hint, h: usize, d: usize, difficulty: u8) -> bool {
    let cell = Board::cell(h, b.pos[h][d].trailing_zeros() as usize);
    hint.start(Technique::HiddenSingle, difficulty);
    hint.add_house(h);
    hint.add_cell(cell);
    hint.digits = 1 << d;
    hint.set_place(cell, d);
    true
}

/// Naked singles (2.3): the first cell, row by row, with one candidate.
pub(crate) fn naked_single(b: &Board, hint: &mut Hint) -> bool {
    if b.naked == 0 {
        return false;
    }
    let cell = b.naked.trailing_zeros() as usize;
    let d = b.cands[cell].trailing_zeros() as usize;
    hint.start(Technique::NakedSingle, 23);
    hint.add_cell(cell);
    hint.digits = 1 << d;
    hint.set_place(cell, d);
    true
}

/// Direct hidden pairs (2.0) and triplets (2.5): `degree` digits confined to `degree` cells
/// of a house leave another digit one place there. Houses blocks, columns, rows; digit sets
/// in SE's order; the first other digit left with one place is placed.
///
/// A house found without one stays known as such until one of its positions changes
/// ([`Board::direct_set_clean`]), so most steps look at a few houses only.
pub(crate) fn direct_hidden_set(b: &mut Board, hint: &mut Hint, degree: usize) -> bool {
    let cache = degree - 2;
    for &h in &BLOCKS_COLUMNS_ROWS {
        if b.direct_set_clean[cache] >> h & 1 != 0 {
            continue;
        }
        if direct_hidden_set_in(b, hint, degree, h) {
            return true;
        }
        b.direct_set_clean[cache] |= 1 << h;
    }
    false
}

fn direct_hidden_set_in(b: &Board, hint: &mut Hint, degree: usize, h: usize) -> bool {
    {
        if (b.empty[h] as usize) <= degree {
            return false;
        }
        let pos = &b.pos[h];
        let members = members_of(pos, degree);
        if (members.count_ones() as usize) < degree {
            return false;
        }
        for set in subsets_of(members, degree) {
            let Some(common) = common_tuple(pos, set, degree) else {
                continue;
            };
            for d in 0..9 {
                if set >> d & 1 != 0 || pos[d].count_ones() <= 1 {
                    continue;
                }
                let rest = pos[d] & !common;
                if rest.count_ones() == 1 {
                    let (technique, difficulty) = if degree == 2 {
                        (Technique::DirectHiddenPair, 20)
                    } else {
                        (Technique::DirectHiddenTriplet, 25)
                    };
                    hint.start(technique, difficulty);
                    for i in super::board::digits_of(common) {
                        hint.add_cell(Board::cell(h, i));
                    }
                    let cell = Board::cell(h, rest.trailing_zeros() as usize);
                    hint.add_cell(cell);
                    hint.digits = set;
                    hint.add_house(h);
                    hint.set_place(cell, d);
                    return true;
                }
            }
        }
    }
    false
}

/// The `k`-subsets of the bits of `members`, in SE's order (increasing as numbers): the
/// `k`-subsets of `n = |members|` things in that order, spread onto `members` (spreading keeps
/// the order), so only sets of members are visited.
#[inline]
pub(crate) fn subsets_of(members: u16, k: usize) -> impl Iterator<Item = u16> {
    let n = members.count_ones() as usize;
    super::uniqueness::subsets(k, n)
        .iter()
        .map(move |&compact| deposit(compact, members))
}

/// Software PDEP on 9 bits: bit `i` of `compact` goes to the `i`-th set bit of `mask`.
#[inline]
fn deposit(compact: u16, mask: u16) -> u16 {
    let mut out = 0u16;
    let mut m = mask;
    let mut c = compact;
    while c != 0 && m != 0 {
        let low = m & m.wrapping_neg();
        if c & 1 != 0 {
            out |= low;
        }
        c >>= 1;
        m &= m - 1;
    }
    out
}

/// The members (digits or cells) whose mask has 2 to `degree` bits: only they can be part of
/// a set of `degree` (SE's `searchCommonTuple` needs at least two bits each, `degree` in all).
#[inline]
pub(crate) fn members_of(masks: &[u16; 9], degree: usize) -> u16 {
    let mut members = 0u16;
    for (i, &m) in masks.iter().enumerate() {
        let n = m.count_ones() as usize;
        members |= u16::from(n >= 2 && n <= degree) << i;
    }
    members
}

/// SE's `searchCommonTuple` over the masks of the members of `set`: each has at least two
/// bits and together they have exactly `degree`; gives their union.
#[inline]
pub(crate) fn common_tuple(masks: &[u16; 9], set: u16, degree: usize) -> Option<u16> {
    let mut union = 0u16;
    for d in super::board::digits_of(set) {
        if masks[d].count_ones() <= 1 {
            return None;
        }
        union |= masks[d];
    }
    (union.count_ones() as usize == degree).then_some(union)
}

/// The region pairs of SE's intersections, in its order: block→column, block→row,
/// column→block, row→block (the first house holds the digit, the second loses it).
const LOCK_ORDER: [(usize, usize); 4] = [(BLOCK, COL), (BLOCK, ROW), (COL, BLOCK), (ROW, BLOCK)];

/// Intersections. `direct`: SE's direct pointing (1.7) and claiming (1.9), where the locked
/// digit leaves a hidden single in a third house crossing the second one, which is placed.
/// Otherwise pointing (2.6) and claiming (2.8), which remove the digit from the rest of the
/// second house.
///
/// A scan of one first house that finds nothing stays valid until a position changes in a
/// house it reads (`LOCK_DEPS`), so the board remembers those ([`Board::lock_clean`]).
pub(crate) fn locking(b: &mut Board, hint: &mut Hint, direct: bool) -> bool {
    let mode = usize::from(!direct);
    let touched = b.lock_touched[mode];
    b.lock_touched[mode] = 0;
    if touched != 0 {
        for entry in 0..36 {
            if LOCK_DEPS[entry] & touched != 0 {
                b.lock_clean[mode] &= !(1u64 << entry);
            }
        }
    }
    for (pair, &(kind1, kind2)) in LOCK_ORDER.iter().enumerate() {
        for i1 in 0..9 {
            let entry = pair * 9 + i1;
            if b.lock_clean[mode] >> entry & 1 != 0 {
                continue;
            }
            if lock_from(b, hint, direct, kind1, i1, kind2) {
                return true;
            }
            b.lock_clean[mode] |= 1u64 << entry;
        }
    }
    false
}

/// SE's intersections with first house `kind1 + i1`: the second house, then the digit.
fn lock_from(
    b: &Board,
    hint: &mut Hint,
    direct: bool,
    kind1: usize,
    i1: usize,
    kind2: usize,
) -> bool {
    let h1 = kind1 + i1;
    // A digit with two or more places in h1 all in one house of kind2: that house.
    let mut by_i2 = [0u16; 9];
    let mut any = 0u16;
    for d in 0..9 {
        let p = b.pos[h1][d];
        if p.count_ones() <= 1 {
            continue;
        }
        if let Some(i2) = crossing(kind1, i1, kind2, p) {
            by_i2[i2] |= 1 << d;
            any |= 1 << i2;
        }
    }
    for i2 in super::board::digits_of(any) {
        let h2 = kind2 + i2;
        for d in super::board::digits_of(by_i2[i2]) {
            if lock_hint(b, hint, direct, kind1, i1, h2, d) {
                return true;
            }
        }
    }
    false
}

const fn build_lock_deps() -> [u32; 36] {
    let mut t = [0u32; 36];
    let mut pair = 0;
    while pair < 4 {
        let (kind1, kind2) = LOCK_ORDER[pair];
        let mut i1 = 0;
        while i1 < 9 {
            let h1 = kind1 + i1;
            let mut dep = 1u32 << h1;
            let mut i2 = 0;
            while i2 < 9 {
                let h2 = kind2 + i2;
                if INTER[h1][h2] != 0 {
                    dep |= 1 << h2;
                    let mut i3 = 0;
                    while i3 < 9 {
                        if INTER[kind1 + i3][h2] != 0 {
                            dep |= 1 << (kind1 + i3);
                        }
                        i3 += 1;
                    }
                }
                i2 += 1;
            }
            t[pair * 9 + i1] = dep;
            i1 += 1;
        }
        pair += 1;
    }
    t
}

/// The houses an intersection scan from one first house reads: itself, the houses of the
/// other kind crossing it, and the houses of its own kind crossing those.
const LOCK_DEPS: [u32; 36] = build_lock_deps();

/// Intersections in Sukaku Explainer's order: for each pair of house kinds, the digit comes
/// first, then the first house, then the second (SE: the houses, then the digit).
pub(crate) fn locking_by_digit(b: &Board, hint: &mut Hint, direct: bool) -> bool {
    for &(kind1, kind2) in &LOCK_ORDER {
        for d in 0..9 {
            for i1 in 0..9 {
                let h1 = kind1 + i1;
                let p = b.pos[h1][d];
                if p.count_ones() <= 1 {
                    continue;
                }
                let Some(i2) = crossing(kind1, i1, kind2, p) else {
                    continue;
                };
                let h2 = kind2 + i2;
                if lock_hint(b, hint, direct, kind1, i1, h2, d) {
                    return true;
                }
            }
        }
    }
    false
}

/// The one house of kind `kind2` holding all the places `p` of a digit in house `i1` of kind
/// `kind1` (a block and a line), if there is one.
#[inline]
fn crossing(kind1: usize, i1: usize, kind2: usize, p: u16) -> Option<usize> {
    // Which thirds of the index range (0-2, 3-5, 6-8) hold a place.
    let thirds =
        u16::from(p & 0o7 != 0) | u16::from(p & 0o70 != 0) << 1 | u16::from(p & 0o700 != 0) << 2;
    let (groups, base) = match (kind1, kind2) {
        // Block indexes are 3 * row + column inside the block.
        (BLOCK, COL) => ((p | p >> 3 | p >> 6) & 7, i1 % 3 * 3),
        (BLOCK, _) => (thirds, i1 / 3 * 3),
        (COL, _) => (thirds, i1 / 3),
        _ => (thirds, i1 / 3 * 3),
    };
    if groups.count_ones() != 1 {
        return None;
    }
    let k = groups.trailing_zeros() as usize;
    Some(match (kind1, kind2) {
        (COL, _) => 3 * k + base,
        _ => base + k,
    })
}

/// The hint of a digit `d` of house `kind1 + i1` locked in house `h2`, if it gives one.
#[inline]
fn lock_hint(
    b: &Board,
    hint: &mut Hint,
    direct: bool,
    kind1: usize,
    i1: usize,
    h2: usize,
    d: usize,
) -> bool {
    if direct {
        direct_lock(b, hint, kind1, i1, h2, d)
    } else {
        indirect_lock(b, hint, kind1 + i1, h2, d)
    }
}

fn lock_cells(hint: &mut Hint, h1: usize, h2: usize, d: usize, b: &Board) {
    let p = b.pos[h1][d] & INTER[h1][h2];
    for i in super::board::digits_of(p) {
        hint.add_cell(Board::cell(h1, i));
    }
    hint.digits = 1 << d;
    hint.add_house(h1);
    hint.add_cover(h2);
}

fn direct_lock(b: &Board, hint: &mut Hint, kind1: usize, i1: usize, h2: usize, d: usize) -> bool {
    for i3 in 0..9 {
        let h3 = kind1 + i3;
        if i3 == i1 || INTER[h3][h2] == 0 {
            continue;
        }
        let p3 = b.pos[h3][d];
        if p3.count_ones() <= 1 {
            continue;
        }
        let rest = p3 & !INTER[h3][h2];
        if rest.count_ones() == 1 {
            let (technique, difficulty) = if kind1 == BLOCK {
                (Technique::DirectPointing, 17)
            } else {
                (Technique::DirectClaiming, 19)
            };
            hint.start(technique, difficulty);
            lock_cells(hint, kind1 + i1, h2, d, b);
            let cell = Board::cell(h3, rest.trailing_zeros() as usize);
            hint.add_cell(cell);
            hint.add_house(h3);
            hint.set_place(cell, d);
            return true;
        }
    }
    false
}

fn indirect_lock(b: &Board, hint: &mut Hint, h1: usize, h2: usize, d: usize) -> bool {
    let victims = b.pos[h2][d] & !INTER[h2][h1];
    if victims == 0 {
        return false;
    }
    let (technique, difficulty) = if h1 < ROW {
        (Technique::Pointing, 26)
    } else {
        (Technique::Claiming, 28)
    };
    hint.start(technique, difficulty);
    lock_cells(hint, h1, h2, d, b);
    for i in super::board::digits_of(victims) {
        hint.eliminate(Board::cell(h2, i), 1 << d);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combos_in_se_order() {
        assert_eq!(&COMBOS2[..4], &[0b11, 0b101, 0b110, 0b1001]);
        assert_eq!(COMBOS3[0], 0b111);
        assert_eq!(COMBOS4[125], 0b1_1110_0000);
    }

    #[test]
    fn intersections() {
        // Block 1 and column 2: block indexes 1, 4, 7.
        assert_eq!(INTER[BLOCK][COL + 1], 0b010_010_010);
        // Row 5 and block 5 (index 4): row indexes 3..6.
        assert_eq!(INTER[ROW + 4][BLOCK + 4], 0b000_111_000);
        assert_eq!(INTER[ROW][ROW + 1], 0);
        assert_eq!(INTER[ROW][COL + 3], 1 << 3);
    }
}
