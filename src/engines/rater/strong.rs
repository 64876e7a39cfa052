//! Sukaku Explainer's strong-link fish: skyscraper, 2-string kite, turbot fish ("2 Strong
//! links") and their 3- and 4-link forms, plain or grouped, open chains or loops.
//!
//! A *strong link* of a digit is a house where it has two places (or two groups of places),
//! one of which must hold it. `k` strong links in `k` different houses, with no place of the
//! digit in two of them, chained end to end so that each link's far end shares a house with
//! the next link's near end (a weak link), prove that one of the chain's two outer ends holds
//! the digit: the cells seeing both outer ends lose it, except the cells of the base houses
//! and of the houses joining the links. When the outer ends share a house too (a loop), every
//! weak link holds the digit once: the cells seeing both ends of any weak link lose it.
//!
//! A *group* is up to three cells of a house: a block where the digit lies in one row and one
//! column of it (the "empty rectangle": the cells of the row, with the crossing cell, against
//! the cells of the column), or in two rows (columns) of it; a line where it lies in two of
//! its three blocks. The ends of a grouped link are the group's cells, and a weak link between
//! groups needs one house holding all their cells.
//!
//! Rating (Sukaku's `StrongLinksHint`): 4.0 / 5.4 / 5.8 for 2 / 3 / 4 links, +0.3 if any link
//! is grouped, else +0.0 if all links lie in lines of one kind (skyscrapers), +0.2 if they mix
//! blocks with both kinds of lines, +0.1 otherwise. Sukaku gathers every chain of the grid,
//! sorts them by rating, then by eliminations (more first, counted per weak link for loops, so
//! a cell may count twice), then by a suffix naming the link kinds; the first wins. The scan
//! below visits link kinds, digits, houses, groupings, link orders and directions as Sukaku
//! does, so equal keys resolve to its first hint too.

use super::board::{Board, CELLS, HOUSE_CELLS, HOUSE_MASK, PEERS};
use super::hint::Hint;
use super::Technique;

/// Cells at block index `i`: row `i / 3`, column `i % 3` of the block.
const fn block_shape(e: usize) -> (u16, u16, u16) {
    // (empty area, blade 1, blade 2) for the 15 shapes of a grouped block link: hearts 0-8
    // (blade 1 the heart's column, blade 2 its row, the heart excluded), then two rows or two
    // columns with the third empty.
    if e < 9 {
        let (r, c) = (e / 3, e % 3);
        let mut rect = 0u16;
        let mut col = 0u16;
        let mut row = 0u16;
        let mut i = 0;
        while i < 9 {
            let (ri, ci) = (i / 3, i % 3);
            if ri != r && ci != c {
                rect |= 1 << i;
            } else if ci == c && ri != r {
                col |= 1 << i;
            } else if ri == r && ci != c {
                row |= 1 << i;
            }
            i += 1;
        }
        return (rect, col, row);
    }
    const ROWS: [u16; 3] = [0o7, 0o70, 0o700];
    const COLS: [u16; 3] = [0b001_001_001, 0b010_010_010, 0b100_100_100];
    match e {
        9 => (ROWS[2], ROWS[0], ROWS[1]),
        10 => (ROWS[1], ROWS[0], ROWS[2]),
        11 => (ROWS[0], ROWS[1], ROWS[2]),
        12 => (COLS[2], COLS[0], COLS[1]),
        13 => (COLS[1], COLS[0], COLS[2]),
        _ => (COLS[0], COLS[1], COLS[2]),
    }
}

/// A line's shapes: the empty third, then the other two thirds in order.
const fn line_shape(e: usize) -> (u16, u16, u16) {
    const THIRDS: [u16; 3] = [0o7, 0o70, 0o700];
    match e {
        0 => (THIRDS[0], THIRDS[1], THIRDS[2]),
        1 => (THIRDS[1], THIRDS[0], THIRDS[2]),
        _ => (THIRDS[2], THIRDS[0], THIRDS[1]),
    }
}

/// One end of a link: its main cell, then the cells grouped with it (Sukaku's "supports").
#[derive(Clone, Copy, Default)]
struct Group {
    cells: [u8; 3],
    n: u8,
    mask: u128,
    /// The cells that see every cell of the group.
    peers: u128,
}

impl Group {
    fn of(h: usize, indexes: &[Option<usize>]) -> Group {
        let mut g = Group {
            peers: !0,
            ..Group::default()
        };
        for &i in indexes.iter().flatten() {
            let c = HOUSE_CELLS[h][i] as usize;
            g.cells[g.n as usize] = c as u8;
            g.n += 1;
            g.mask |= 1u128 << c;
            g.peers &= PEERS[c];
        }
        g
    }

    fn main(&self) -> usize {
        self.cells[0] as usize
    }
}

/// A strong link: a house, its two ends, whether it is grouped, the digit's places in it.
#[derive(Clone, Copy, Default)]
struct Link {
    house: u8,
    ends: [Group; 2],
    grouped: bool,
    places: u128,
}

/// The `n`-th set index of a 9-bit mask.
fn nth(mask: u16, n: usize) -> Option<usize> {
    let mut m = mask;
    for _ in 0..n {
        m &= m.wrapping_sub(1);
    }
    (m != 0).then(|| m.trailing_zeros() as usize)
}

fn same_line(a: usize, b: usize) -> bool {
    a % 9 == b % 9 || a / 9 == b / 9
}

/// The strong links of digit `d` in house `h` (none, one, or two groupings of the same
/// places), in the order Sukaku tries them.
fn links_of(b: &Board, h: usize, d: usize, out: &mut [Link; 2]) -> usize {
    let p = b.pos[h][d];
    let count = p.count_ones() as usize;
    if !(2..=6).contains(&count) {
        return 0;
    }
    let mut places = 0u128;
    for i in super::board::digits_of(p) {
        places |= 1u128 << HOUSE_CELLS[h][i];
    }
    let block = h < 9;
    if count == 2 {
        let (i0, i1) = (nth(p, 0), nth(p, 1));
        let g0 = Group::of(h, &[i0]);
        let g1 = Group::of(h, &[i1]);
        if block && same_line(g0.main(), g1.main()) {
            return 0;
        }
        out[0] = Link {
            house: h as u8,
            ends: [g0, g1],
            grouped: false,
            places,
        };
        return 1;
    }
    let Some((e, b1, b2)) = shape_of(p, count, block) else {
        return 0;
    };
    let heart = (block && e < 9).then_some(e);
    let n = grouped_links(h, p, e, b1, b2, heart, out);
    for link in &mut out[..n] {
        link.places = places;
    }
    n
}

/// The first shape whose empty area holds none of the places `p` (Sukaku stops there, even
/// when a blade is empty: then the house gives no link).
fn shape_of(p: u16, count: usize, block: bool) -> Option<(usize, u16, u16)> {
    let shapes = if block { 15 } else { 3 };
    for e in 0..shapes {
        if e > 8 && count < 4 {
            continue;
        }
        let (rect, b1, b2) = if block { block_shape(e) } else { line_shape(e) };
        if p & rect == 0 {
            let (b1, b2) = (p & b1, p & b2);
            return (b1 != 0 && b2 != 0).then_some((e, b1, b2));
        }
    }
    None
}

/// The groupings of a grouped link with blades `b1`, `b2` (places of `p`) in shape `e`.
fn grouped_links(
    h: usize,
    p: u16,
    e: usize,
    b1: u16,
    b2: u16,
    heart: Option<usize>,
    out: &mut [Link; 2],
) -> usize {
    let (n1, n2) = (b1.count_ones(), b2.count_ones());
    let link = |g0: Group, g1: Group| Link {
        house: h as u8,
        ends: [g0, g1],
        grouped: true,
        places: 0,
    };
    if n1 == 1 || n2 == 1 {
        // Sukaku tries blade 1 alone against the rest, then blade 2 alone; with both blades
        // single the second try overwrites the first.
        let (single, other) = if n2 == 1 { (b2, b1) } else { (b1, b2) };
        let g0 = Group::of(h, &[nth(single, 0)]);
        let g1 = if heart.is_some() {
            // The heart joins the longer blade's group, candidate or not.
            Group::of(h, &[nth(other, 0), heart, nth(other, 1)])
        } else {
            Group::of(h, &[nth(other, 0), nth(other, 1), nth(other, 2)])
        };
        out[0] = link(g0, g1);
        return 1;
    }
    let (a0, a1, a2) = (nth(b1, 0), nth(b1, 1), nth(b1, 2));
    let (c0, c1, c2) = (nth(b2, 0), nth(b2, 1), nth(b2, 2));
    let cell = |i: Option<usize>| HOUSE_CELLS[h][i.unwrap_or(0)] as usize;
    let rectangle = e > 8
        && p.count_ones() == 4
        && same_line(cell(a1), cell(c1))
        && same_line(cell(a0), cell(c0));
    if rectangle {
        // Two rows and two columns of the block: grouped by rows, then by columns.
        out[0] = link(Group::of(h, &[a0, a1, a2]), Group::of(h, &[c0, c1, c2]));
        out[1] = link(Group::of(h, &[a0, c0]), Group::of(h, &[a1, c1]));
        return 2;
    }
    let heart_place = heart.filter(|&i| p >> i & 1 != 0);
    let with_heart = |n: u32, third: Option<usize>| if n == 2 { heart_place } else { third };
    out[0] = link(
        Group::of(h, &[a0, a1, with_heart(n1, a2)]),
        Group::of(h, &[c0, c1, with_heart(n2, c2)]),
    );
    1
}

/// The house of the first kind (column, row, block) holding every cell of both groups.
fn shared_house(a: &Group, b: &Group) -> Option<usize> {
    let all = a.mask | b.mask;
    let c = a.main();
    [
        super::board::COL + c % 9,
        super::board::ROW + c / 9,
        (c / 27) * 3 + (c % 9) / 3,
    ]
    .into_iter()
    .find(|&h| all & !HOUSE_MASK[h] == 0)
}

/// The chain that wins so far, and its sort key.
#[derive(Clone, Copy, Default)]
struct Best {
    found: bool,
    difficulty: u8,
    total: u32,
    suffix: u32,
    technique: Option<Technique>,
    digit: usize,
    victims: u128,
    chain: [Group; 8],
    len: usize,
    /// The links' houses (bit `h`).
    houses: u32,
}

/// One search: the ladder's degree, the link kinds (0 block, 1 row, 2 column) of each base
/// house, the links chosen so far.
struct Search<'a> {
    b: &'a Board,
    degree: usize,
    kinds: [usize; 4],
    digit: usize,
    links: [[Link; 2]; 27],
    counts: [usize; 27],
    chosen: [Link; 4],
    places: u128,
    best: Best,
}

/// Strong-link fish with `degree` links (2: 4.0-4.3, 3: 5.4-5.7, 4: 5.8-6.1).
pub(crate) fn strong_links(b: &Board, hint: &mut Hint, degree: usize) -> bool {
    let mut s = Search {
        b,
        degree,
        kinds: [0; 4],
        digit: 0,
        links: [[Link::default(); 2]; 27],
        counts: [0; 27],
        chosen: [Link::default(); 4],
        places: 0,
        best: Best::default(),
    };
    // Sukaku's `Permutations(degree, 3 * degree)` keeps the bit sets whose i-th member is
    // i modulo `degree`: every non-decreasing sequence of kinds, in Gosper's order.
    let bits = 3 * degree;
    let mut set: u32 = (1 << degree) - 1;
    while set < 1 << bits {
        if kinds_of(set, degree, &mut s.kinds) {
            for d in 0..9 {
                s.digit = d;
                for h in 0..27 {
                    s.counts[h] = links_of(b, h, d, &mut s.links[h]);
                }
                s.build(0, 0);
            }
        }
        let smallest = set & set.wrapping_neg();
        let ripple = set + smallest;
        set = ripple | (((set ^ ripple) >> 2) / smallest);
    }
    s.best.found && s.write(hint)
}

/// The kinds of a Gosper set, if its i-th member is i modulo `degree`.
fn kinds_of(set: u32, degree: usize, kinds: &mut [usize; 4]) -> bool {
    let mut m = set;
    for i in 0..degree {
        let bit = m.trailing_zeros() as usize;
        m &= m - 1;
        if bit % degree != i {
            return false;
        }
        kinds[i] = bit / degree;
    }
    true
}

/// Whether a sequence reads no later than its reverse (Sukaku's `isLex`).
fn is_lex(seq: &[usize]) -> bool {
    seq.iter().le(seq.iter().rev())
}

impl Search<'_> {
    /// Picks the base house of link `depth` (a kind repeated takes later houses only).
    fn build(&mut self, depth: usize, from: usize) {
        let kind = self.kinds[depth];
        let first = if depth > 0 && self.kinds[depth - 1] == kind {
            from + 1
        } else {
            0
        };
        for i in first..9 {
            let h = kind * 9 + i;
            for o in 0..self.counts[h] {
                let link = self.links[h][o];
                if link.places & self.places != 0 {
                    continue;
                }
                self.chosen[depth] = link;
                if depth + 1 < self.degree {
                    self.places |= link.places;
                    self.build(depth + 1, i);
                    self.places &= !link.places;
                } else {
                    self.orders();
                }
            }
        }
    }

    /// Sukaku's QuickPerm over the link order, keeping orders no later than their reverse,
    /// and every direction of each link.
    fn orders(&mut self) {
        let n = self.degree;
        let mut q = [0usize, 1, 2, 3];
        let mut r = [0usize, 1, 2, 3, 4];
        r[n] = n;
        self.directions(&q[..n]);
        let mut s = 1;
        while s < n {
            r[s] -= 1;
            let t = if s % 2 == 1 { r[s] } else { 0 };
            q.swap(t, s);
            if is_lex(&q[..n]) {
                let order = q;
                self.directions(&order[..n]);
            }
            s = 1;
            while r[s] == 0 {
                r[s] = s;
                s += 1;
            }
        }
    }

    /// Every direction of the links in order `q` (the last link's direction fastest).
    fn directions(&mut self, q: &[usize]) {
        let n = q.len();
        for dirs in 0..1usize << n {
            let dir = |i: usize| dirs >> (n - 1 - i) & 1;
            let mut shared = 0u128;
            let mut joined = true;
            for w in 0..n - 1 {
                let a = &self.chosen[q[w]].ends[1 - dir(w)];
                let b = &self.chosen[q[w + 1]].ends[dir(w + 1)];
                match shared_house(a, b) {
                    Some(h) => shared |= HOUSE_MASK[h],
                    None => {
                        joined = false;
                        break;
                    }
                }
            }
            if !joined {
                continue;
            }
            let start = self.chosen[q[0]].ends[dir(0)];
            let end = self.chosen[q[n - 1]].ends[1 - dir(n - 1)];
            if shared_house(&start, &end).is_some() {
                let lowest = (0..n).all(|i| self.chosen[q[0]].house <= self.chosen[i].house);
                if lowest && dir(0) == 0 {
                    self.offer(q, dirs, None);
                }
            } else {
                self.offer(q, dirs, Some(shared));
            }
        }
    }
}

/// The techniques by degree (2, 3, 4), shape (skyscraper, kite, turbot-like, loop) and
/// grouping.
const TECHNIQUES: [[[Technique; 2]; 4]; 3] = {
    use Technique::*;
    [
        [
            [Skyscraper, GroupedSkyscraper],
            [TwoStringKite, GroupedTwoStringKite],
            [TwoStrongLinks, GroupedTwoStrongLinks],
            [TwoStrongLinksLoop, TwoStrongLinksGroupedLoop],
        ],
        [
            [ThreeSkyscrapers, GroupedThreeSkyscrapers],
            [ThreeStringKite, GroupedThreeStringKite],
            [ThreeStrongLinks, GroupedThreeStrongLinks],
            [ThreeStrongLinksLoop, ThreeStrongLinksGroupedLoop],
        ],
        [
            [FourSkyscrapers, GroupedFourSkyscrapers],
            [FourStrongLinks, GroupedFourStrongLinks],
            [FourStrongLinks, GroupedFourStrongLinks],
            [FourStrongLinksLoop, FourStrongLinksGroupedLoop],
        ],
    ]
};

/// Sukaku's suffix without its first digit (the number of grouped links): the kinds of the
/// links in chain order, read the lesser way round; with rows, rows and columns may swap
/// roles; without rows, columns are written as 1. As a number (equal lengths compare as
/// strings do) and whether it holds a block (0) and a second line kind (2).
fn kinds_name(kinds: &[usize]) -> (u32, bool, bool) {
    let n = kinds.len();
    let mut seq = [0usize; 4];
    seq[..n].copy_from_slice(kinds);
    if !is_lex(&seq[..n]) {
        seq[..n].reverse();
    }
    let swap = |k: usize| [0, 2, 1][k];
    let mut name = [0usize; 4];
    if seq[..n].contains(&1) {
        let mut swapped = [0usize; 4];
        let mut reversed = [0usize; 4];
        for i in 0..n {
            swapped[i] = swap(seq[i]);
            reversed[n - 1 - i] = swap(seq[i]);
        }
        let alt = if reversed[..n] <= swapped[..n] {
            reversed
        } else {
            swapped
        };
        name = if seq[..n] <= alt[..n] { seq } else { alt };
    } else {
        for i in 0..n {
            name[i] = if seq[i] == 2 { 1 } else { seq[i] };
        }
    }
    let number = name[..n].iter().fold(0u32, |acc, &k| acc * 10 + k as u32);
    (number, name[..n].contains(&0), name[..n].contains(&2))
}

impl Search<'_> {
    /// Rates a chain (`shared`: the houses joining its links, for an open chain; `None` for
    /// a loop) and keeps it if it sorts before the best so far.
    fn offer(&mut self, q: &[usize], dirs: usize, shared: Option<u128>) {
        let n = q.len();
        let dir = |i: usize| dirs >> (n - 1 - i) & 1;
        let (victims, total) = self.victims(q, dirs, shared);
        if victims == 0 {
            return;
        }
        let mut kinds = [0usize; 4];
        let mut grouped = 0;
        for i in 0..n {
            kinds[i] = self.chosen[q[i]].house as usize / 9;
            grouped += u32::from(self.chosen[i].grouped);
        }
        let (name, block, two_lines) = kinds_name(&kinds[..n]);
        let difficulty = [40, 54, 58][self.degree - 2]
            + match (grouped > 0, block, two_lines) {
                (true, _, _) => 3,
                (false, false, false) => 0,
                (false, true, true) => 2,
                _ => 1,
            };
        let suffix = grouped * 10u32.pow(n as u32) + name;
        let best = &self.best;
        if best.found
            && (difficulty, std::cmp::Reverse(total), suffix)
                >= (best.difficulty, std::cmp::Reverse(best.total), best.suffix)
        {
            return;
        }
        let shape = match (shared.is_none(), block, two_lines) {
            (true, _, _) => 3,
            (false, false, false) => 0,
            (false, false, true) if n < 4 => 1,
            _ => 2,
        };
        let mut chain = [Group::default(); 8];
        let mut houses = 0u32;
        for i in 0..n {
            let link = &self.chosen[q[i]];
            houses |= 1 << link.house;
            chain[2 * i] = link.ends[dir(i)];
            chain[2 * i + 1] = link.ends[1 - dir(i)];
        }
        self.best = Best {
            found: true,
            difficulty,
            total,
            suffix,
            technique: Some(TECHNIQUES[self.degree - 2][shape][usize::from(grouped > 0)]),
            digit: self.digit,
            victims,
            chain,
            len: 2 * n,
            houses,
        };
    }

    /// The cells a chain eliminates the digit from, and Sukaku's count of them (per weak
    /// link for a loop, so a cell may count twice).
    fn victims(&self, q: &[usize], dirs: usize, shared: Option<u128>) -> (u128, u32) {
        let n = q.len();
        let dir = |i: usize| dirs >> (n - 1 - i) & 1;
        let plane = self.b.planes[self.digit];
        let mut base = 0u128;
        for link in &self.chosen[..n] {
            base |= HOUSE_MASK[link.house as usize];
        }
        let start = self.chosen[q[0]].ends[dir(0)];
        let end = self.chosen[q[n - 1]].ends[1 - dir(n - 1)];
        let ends = start.peers & end.peers & !base & plane;
        if let Some(shared) = shared {
            let v = ends & !shared;
            return (v, v.count_ones());
        }
        let (mut v, mut total) = (ends, ends.count_ones());
        for w in 0..n - 1 {
            let a = &self.chosen[q[w]].ends[1 - dir(w)];
            let b = &self.chosen[q[w + 1]].ends[dir(w + 1)];
            let weak = a.peers & b.peers & !base & plane;
            v |= weak;
            total += weak.count_ones();
        }
        (v, total)
    }

    fn write(&self, hint: &mut Hint) -> bool {
        let best = &self.best;
        let Some(technique) = best.technique else {
            return false;
        };
        hint.start(technique, best.difficulty);
        let mut seen = 0u128;
        for g in &best.chain[..best.len] {
            for &c in &g.cells[..g.n as usize] {
                if seen >> c & 1 == 0 {
                    seen |= 1u128 << c;
                    hint.add_cell(c as usize);
                }
            }
        }
        hint.digits = 1 << best.digit;
        hint.houses = best.houses;
        for c in super::board::cells_of(best.victims) {
            hint.eliminate(c, 1 << best.digit);
        }
        debug_assert!(best.victims >> CELLS == 0);
        true
    }
}
