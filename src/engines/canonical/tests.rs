use super::*;
use crate::jobs::generate::random_solution;
use crate::symmetry::{Rng, Symmetry};

const P: &str = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/// `count` clues of a random solution grid, at random cells.
fn random_clues(rng: &mut Rng, count: usize) -> Grid {
    let solution = random_solution(rng);
    let mut cells: [usize; CELLS] = std::array::from_fn(|i| i);
    rng.shuffle(&mut cells);
    let mut g = Grid::EMPTY;
    for &cell in &cells[..count] {
        g.set(cell, solution.get(cell));
    }
    g
}

/// A grid with valid givens that a symmetry maps to itself: clues added in pairs (a cell
/// and its image under transposition, the 180° turn or the swap of rows 1 and 2, with the
/// digit relabelled by an involution) as long as no rule breaks, so automorphisms are common.
fn symmetric_clues(rng: &mut Rng, pairs: usize) -> Grid {
    let kind = rng.below(3);
    let image = |cell: usize| {
        let (r, c) = (cell / 9, cell % 9);
        match kind {
            0 => c * 9 + r,
            1 => (8 - r) * 9 + (8 - c),
            _ => [0, 2, 1, 3, 4, 5, 6, 7, 8][r] * 9 + c,
        }
    };
    // The digit involution: identity, or swapping 1 and 2, 3 and 4, ... (9 fixed).
    let swap = rng.below(2) == 1;
    let relabel = |d: u8| {
        if swap && d < 9 {
            d + (d % 2) * 2 - 1
        } else {
            d
        }
    };
    let mut g = Grid::EMPTY;
    let mut added = 0;
    while added < pairs {
        let (cell, d) = (rng.below(CELLS), 1 + rng.below(9) as u8);
        let (other, e) = (image(cell), relabel(d));
        if g.get(cell) != 0 || g.get(other) != 0 || (cell == other && d != e) {
            continue;
        }
        let mut h = g;
        h.set(cell, d);
        h.set(other, e);
        if h.conflict().is_none() {
            g = h;
            added += 1;
        }
    }
    g
}

/// Position symmetries mapping `g` to itself up to relabelling, counted one by one.
fn brute_automorphisms(g: &Grid) -> u32 {
    let mut lines = [[[0u8; 9]; 9]; 2];
    for (i, &v) in g.cells().iter().enumerate() {
        lines[0][i / 9][i % 9] = v;
        lines[1][i % 9][i / 9] = v;
    }
    let mut perms = Vec::new();
    for outer in PERMS3 {
        for a in PERMS3 {
            for b in PERMS3 {
                for c in PERMS3 {
                    let inner = [a, b, c];
                    perms.push(std::array::from_fn::<usize, 9, _>(|i| {
                        outer[i / 3] * 3 + inner[i / 3][i % 3]
                    }));
                }
            }
        }
    }
    let mut count = 0;
    for rows in &lines {
        for rp in &perms {
            'cols: for cp in &perms {
                let (mut to, mut from) = ([0u8; 10], [0u8; 10]);
                for r in 0..9 {
                    for c in 0..9 {
                        let v = rows[rp[r]][cp[c]];
                        let w = g.get(r * 9 + c);
                        if (v == 0) != (w == 0) {
                            continue 'cols;
                        }
                        if v != 0 {
                            let (v, w) = (usize::from(v), usize::from(w));
                            if (to[v] != 0 && to[v] != w as u8)
                                || (from[w] != 0 && from[w] != v as u8)
                            {
                                continue 'cols;
                            }
                            to[v] = w as u8;
                            from[w] = v as u8;
                        }
                    }
                }
                count += 1;
            }
        }
    }
    count
}

fn check_against_reference(g: &Grid, search: &mut Canonicalizer) -> Canonical {
    let fast = search.canonicalize(g);
    let slow = reference::canonicalize(g);
    assert_eq!(fast, slow, "{g}");
    fast
}

#[test]
fn isomorphs_share_a_form_and_the_form_is_a_fixed_point() {
    let mut search = Canonicalizer::new();
    let p: Grid = P.parse().unwrap();
    let form = check_against_reference(&p, &mut search);
    assert_eq!(form.form.clues(), p.clues());
    assert_eq!(search.canonicalize(&form.form), form, "idempotent");
    for i in 0..200 {
        let q = Symmetry::random(&mut Rng::new(9, i)).apply(&p);
        assert_eq!(search.canonicalize(&q), form, "{q}");
    }
}

#[test]
fn one_more_clue_is_another_puzzle() {
    let p: Grid = P.parse().unwrap();
    let mut q = p;
    q.set(2, 4);
    assert_ne!(canonical(&p), canonical(&q));
}

#[test]
fn equals_the_exhaustive_search_on_sparse_symmetric_and_full_grids() {
    let mut search = Canonicalizer::new();
    let mut rng = Rng::new(21, 0);
    let mut symmetric = 0;
    for i in 0..60 {
        let g = match i % 3 {
            0 => {
                let n = 8 + rng.below(30);
                random_clues(&mut rng, n)
            }
            1 => {
                let n = 6 + rng.below(10);
                symmetric_clues(&mut rng, n)
            }
            _ => random_solution(&mut rng),
        };
        let c = check_against_reference(&g, &mut search);
        symmetric += usize::from(c.automorphisms > 1);
        let q = Symmetry::random(&mut rng).apply(&g);
        assert_eq!(search.canonicalize(&q), c, "isomorph of {g}");
    }
    assert!(symmetric >= 10, "only {symmetric} grids with automorphisms");
}

#[test]
fn degenerate_grids_fall_back_to_the_exhaustive_search() {
    let empty = canonicalize(&Grid::EMPTY);
    assert_eq!(empty.form, Grid::EMPTY);
    assert_eq!(empty.automorphisms, 3_359_232);
    let mut one = Grid::EMPTY;
    one.set(40, 7);
    let c = canonicalize(&one);
    assert_eq!(c.form.to_line().trim_start_matches('.'), "1");
    assert_eq!(c.automorphisms, brute_automorphisms(&one));
}

#[test]
fn lines_repeating_a_digit_are_canonicalised_too() {
    let mut search = Canonicalizer::new();
    let mut rng = Rng::new(5, 0);
    for _ in 0..20 {
        let n = 20 + rng.below(10);
        let mut g = random_clues(&mut rng, n);
        // Copy a clue along its row: the givens now break a rule.
        let cell = (0..CELLS).find(|&i| g.get(i) != 0).unwrap();
        let target = cell / 9 * 9 + (cell % 9 + 1 + rng.below(8)) % 9;
        g.set(target, g.get(cell));
        let c = check_against_reference(&g, &mut search);
        let q = Symmetry::random(&mut rng).apply(&g);
        assert_eq!(search.canonicalize(&q), c);
    }
}

#[test]
fn automorphisms_are_counted_exactly() {
    let mut rng = Rng::new(33, 0);
    let p: Grid = P.parse().unwrap();
    assert_eq!(canonicalize(&p).automorphisms, brute_automorphisms(&p));
    let mut checked = 0;
    while checked < 3 {
        let g = symmetric_clues(&mut rng, 8);
        let c = canonicalize(&g);
        if c.automorphisms > 1 {
            assert_eq!(c.automorphisms, brute_automorphisms(&g), "{g}");
            checked += 1;
        }
    }
}

#[test]
fn columns_empty_in_the_whole_grid_stay_free_and_are_counted() {
    // Clues only in rows and columns `first..9`: both orientations open with `first` empty
    // rows, and stack 0 (and with `first` = 5 two columns of stack 1) is empty in every row,
    // so the final candidates stand for several symmetries each.
    let mut search = Canonicalizer::new();
    let mut rng = Rng::new(46, 0);
    for first in [3, 5, 3, 5] {
        let solution = random_solution(&mut rng);
        let mut g = Grid::EMPTY;
        for cell in (0..CELLS).filter(|i| i / 9 >= first && i % 9 >= first) {
            if rng.below(3) > 0 {
                g.set(cell, solution.get(cell));
            }
        }
        let c = search.search(&g).expect("no fallback to the reference");
        assert_eq!(c, reference::canonicalize(&g), "{g}");
        assert_eq!(c.automorphisms, brute_automorphisms(&g), "{g}");
        assert!(c.automorphisms >= if first == 3 { 6 } else { 12 }, "{g}");
    }
}

/// A full grid with automorphisms: cell (band `i`, row `j`, stack `k`, column `l`) holds
/// `3 ((j + k + e[i][l]) mod 3) + (i + l) mod 3 + 1`, valid for any `e` (each row, column and
/// box meets every pair of the two base-3 digits), and mapped to itself by turning the rows
/// of every band and the stacks against each other. A random `e` varies the other symmetries.
fn structured_grid(rng: &mut Rng) -> Grid {
    let e: [[usize; 3]; 3] = std::array::from_fn(|_| std::array::from_fn(|_| rng.below(3)));
    Grid::from_cells(std::array::from_fn(|cell| {
        let (r, c) = (cell / 9, cell % 9);
        let (i, j, k, l) = (r / 3, r % 3, c / 3, c % 3);
        (3 * ((j + k + e[i][l]) % 3) + (i + l) % 3 + 1) as u8
    }))
    .expect("digits 1..=9")
}

#[test]
fn full_grids_equal_the_exhaustive_search_and_count_automorphisms_exactly() {
    let mut search = Canonicalizer::new();
    let mut rng = Rng::new(44, 0);
    // Row r is 123456789 turned left by 3 (r % 3) + r / 3: a grid with many automorphisms.
    let pattern = Grid::from_cells(std::array::from_fn(|i| {
        let (r, c) = (i / 9, i % 9);
        ((3 * (r % 3) + r / 3 + c) % 9 + 1) as u8
    }))
    .unwrap();
    let mut grids = vec![pattern];
    grids.extend((0..6).map(|_| structured_grid(&mut rng)));
    grids.extend((0..3).map(|_| random_solution(&mut rng)));
    let mut symmetric = 0;
    for g in &grids {
        let c = check_against_reference(g, &mut search);
        assert_eq!(c.automorphisms, brute_automorphisms(g), "{g}");
        symmetric += usize::from(c.automorphisms > 1);
        for _ in 0..3 {
            let q = Symmetry::random(&mut rng).apply(g);
            assert_eq!(search.canonicalize(&q), c, "isomorph {q} of {g}");
        }
    }
    assert!(symmetric >= 7, "only {symmetric} grids with automorphisms");
}

#[test]
fn random_full_grids_and_their_isomorphs_share_a_fixed_point_form() {
    // Many random full grids against the reference would take seconds each; the forms of a
    // grid and of its isomorphs must agree, and the form must be a fixed point.
    let mut search = Canonicalizer::new();
    let mut rng = Rng::new(45, 0);
    for _ in 0..200 {
        let g = random_solution(&mut rng);
        let c = search.canonicalize(&g);
        assert_eq!(search.canonicalize(&c.form), c, "{g}");
        let q = Symmetry::random(&mut rng).apply(&g);
        assert_eq!(search.canonicalize(&q), c, "isomorph {q} of {g}");
    }
}
