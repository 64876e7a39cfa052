//! Lookup tables for the fast solver, built at compile time by `const fn`.
//!
//! They all work on one *band word*: the 27 cells of a band (3 rows × 9 columns) for one digit,
//! bit `row_in_band * 9 + column`. See the diagram at the top of `fast.rs`.

use crate::grid::PERMS3;

/// The 27 cells of a band.
pub const BAND: u32 = (1 << 27) - 1;

/// `SHRINK[row9]`: which of the three boxes a 9-bit row still touches (3 bits, bit = box).
pub static SHRINK: [u8; 512] = build_shrink();

/// `COMPLEX[occupancy]`: the band cells a digit may keep, given which *mini-rows* (the 3-cell
/// intersections of a row and a box; bit `row * 3 + box`) can still hold it.
///
/// A digit sits exactly once in each row and exactly once in each box of a band, so its
/// mini-rows form a 3×3 permutation matrix. The table is the union of the 6 permutation
/// matrices that fit in the occupancy, expanded to cells; 0 means none fits (contradiction).
/// This one lookup applies box-line reduction in both directions (pointing and claiming) and
/// finds hidden singles in boxes: a box with one mini-row forces that row.
pub static COMPLEX: [u32; 512] = build_complex();

/// `PERM9[occupancy]`: like [`COMPLEX`] but not expanded: the 9-bit union of the 3×3
/// permutation matrices that fit in `occupancy` (used on the band × column matrix of a stack).
pub static PERM9: [u32; 512] = build_perm9();

/// `CONFIGS[occupancy]`: which of the 6 *band configurations* fit in a digit's mini-row
/// occupancy (bit `p` for the permutation `PERMS3[p]`: row `r` of the band holds the digit in
/// box `PERMS3[p][r]`). Its popcount is the digit's number of configurations left in the band.
/// (The solver reads them from [`MINI_ROWS`]; this table checks that one.)
#[cfg(test)]
pub static CONFIGS: [u8; 512] = build_configs();

/// `CONFIG_CELLS[p]`: the band cells of the 3 mini-rows of configuration `p` (see [`CONFIGS`]).
pub static CONFIG_CELLS: [u32; 6] = build_config_cells();

/// `MINI_ROWS[occupancy]`: what a digit's mini-row occupancy (bit `row * 3 + box`) says about
/// its mini-rows: bits 0-8 the union of the configurations that fit (where it may be),
/// bits 9-17 their intersection (where it must be), bits 18-23 the configurations
/// themselves ([`CONFIGS`]), bits 24-27 their number when it is 2 or more (0 when the
/// digit's configuration is fixed: it offers no choice).
pub static MINI_ROWS: [u32; 512] = build_mini_rows();

/// `MINI_ROW_CELLS[mini_rows]`: the band cells of the mini-rows in the 9-bit set (bit
/// `row * 3 + box`).
pub static MINI_ROW_CELLS: [u32; 512] = build_mini_row_cells();

/// `KEEP_OTHER[columns]`: the mask to apply to the *other two* bands of a digit, given the 9-bit
/// set of columns this band can still use for it. When a box of this band can only use one
/// column, that column's digit lies in this band, so the other bands lose the column.
pub static KEEP_OTHER: [u32; 512] = build_keep_other();

/// `PEERS_IN_BAND[pos]`: the band cells that do *not* see cell `pos` of the same band (its row,
/// box and column removed), with `pos` itself kept: the mask that places a digit there.
pub static PEERS_IN_BAND: [u32; 27] = build_peers_in_band();

/// `SINGLE9[row9]`: the row itself when it holds exactly one cell, else 0.
pub static SINGLE9: [u16; 512] = build_single9();

const fn build_shrink() -> [u8; 512] {
    let mut t = [0u8; 512];
    let mut v = 0;
    while v < 512 {
        let mut k = 0;
        while k < 3 {
            if (v >> (3 * k)) & 7 != 0 {
                t[v] |= 1 << k;
            }
            k += 1;
        }
        v += 1;
    }
    t
}

const fn build_perm9() -> [u32; 512] {
    let mut t = [0u32; 512];
    let mut occ = 0;
    while occ < 512 {
        t[occ] = perm_union(occ);
        occ += 1;
    }
    t
}

/// The union of the 3×3 permutation matrices (bit `row * 3 + column`) inside `occ`.
const fn perm_union(occ: usize) -> u32 {
    let mut allowed = 0u32;
    let mut p = 0;
    while p < 6 {
        let mut mask = 0usize;
        let mut r = 0;
        while r < 3 {
            mask |= 1 << (r * 3 + PERMS3[p][r]);
            r += 1;
        }
        if mask & !occ == 0 {
            allowed |= mask as u32;
        }
        p += 1;
    }
    allowed
}

/// The 9-bit mini-row mask (bit `row * 3 + box`) of configuration `p`.
const fn config_mask(p: usize) -> usize {
    let mut mask = 0usize;
    let mut r = 0;
    while r < 3 {
        mask |= 1 << (r * 3 + PERMS3[p][r]);
        r += 1;
    }
    mask
}

#[cfg(test)]
const fn build_configs() -> [u8; 512] {
    let mut t = [0u8; 512];
    let mut occ = 0;
    while occ < 512 {
        let mut p = 0;
        while p < 6 {
            if config_mask(p) & !occ == 0 {
                t[occ] |= 1 << p;
            }
            p += 1;
        }
        occ += 1;
    }
    t
}

const fn build_mini_rows() -> [u32; 512] {
    let mut t = [0u32; 512];
    let mut occ = 0;
    while occ < 512 {
        let (mut union, mut meet) = (0usize, 0x1FFusize);
        let mut configs = 0u32;
        let mut p = 0;
        while p < 6 {
            let mask = config_mask(p);
            if mask & !occ == 0 {
                union |= mask;
                meet &= mask;
                configs |= 1 << p;
            }
            p += 1;
        }
        if configs == 0 {
            meet = 0;
        }
        let n = configs.count_ones();
        let choices = if n > 1 { n } else { 0 };
        t[occ] = union as u32 | (meet as u32) << 9 | configs << 18 | choices << 24;
        occ += 1;
    }
    t
}

const fn build_mini_row_cells() -> [u32; 512] {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut bit = 0;
        while bit < 9 {
            if m & (1 << bit) != 0 {
                t[m] |= 0b111 << ((bit / 3) * 9 + (bit % 3) * 3);
            }
            bit += 1;
        }
        m += 1;
    }
    t
}

const fn build_config_cells() -> [u32; 6] {
    let mut t = [0u32; 6];
    let mut p = 0;
    while p < 6 {
        let mut r = 0;
        while r < 3 {
            t[p] |= 0b111 << (r * 9 + PERMS3[p][r] * 3);
            r += 1;
        }
        p += 1;
    }
    t
}

const fn build_complex() -> [u32; 512] {
    let mut t = [0u32; 512];
    let mut occ = 0;
    while occ < 512 {
        let allowed = perm_union(occ);
        let mut cells = 0u32;
        let mut bit = 0;
        while bit < 9 {
            if allowed & (1 << bit) != 0 {
                let (r, k) = (bit / 3, bit % 3);
                cells |= 0b111 << (r * 9 + k * 3);
            }
            bit += 1;
        }
        t[occ] = cells;
        occ += 1;
    }
    t
}

const fn build_keep_other() -> [u32; 512] {
    let mut t = [0u32; 512];
    let mut cols = 0;
    while cols < 512 {
        let mut locked = 0u32;
        let mut k = 0;
        while k < 3 {
            let stack = (cols >> (3 * k)) & 7;
            if stack != 0 && stack & (stack - 1) == 0 {
                locked |= (stack as u32) << (3 * k);
            }
            k += 1;
        }
        t[cols] = !(locked | locked << 9 | locked << 18) & BAND;
        cols += 1;
    }
    t
}

const fn build_peers_in_band() -> [u32; 27] {
    let mut t = [0u32; 27];
    let mut pos = 0;
    while pos < 27 {
        let (r, c) = (pos / 9, pos % 9);
        let mut mask = BAND;
        let mut other = 0;
        while other < 27 {
            let (r2, c2) = (other / 9, other % 9);
            if r2 == r || c2 == c || c2 / 3 == c / 3 {
                mask &= !(1 << other);
            }
            other += 1;
        }
        t[pos] = mask | 1 << pos;
        pos += 1;
    }
    t
}

const fn build_single9() -> [u16; 512] {
    let mut t = [0u16; 512];
    let mut v = 1;
    while v < 512 {
        if v & (v - 1) == 0 {
            t[v] = v as u16;
        }
        v += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complex_keeps_full_band_and_rejects_empty_rows() {
        assert_eq!(COMPLEX[0x1FF], BAND);
        assert_eq!(COMPLEX[0], 0);
        // Row 0 may only use box 0 and row 1 only box 0: no permutation fits.
        assert_eq!(COMPLEX[0b111_001_001], 0);
        // Row 0 only in box 1: the other rows lose box 1.
        let t = COMPLEX[0b111_111_010];
        assert_eq!(t & 0x1FF, 0b111 << 3);
        assert_eq!(t & (0x1FF << 9), (0b111_000_111) << 9);
    }

    #[test]
    fn configs_are_the_permutations_inside_the_occupancy() {
        assert_eq!(CONFIGS[0x1FF], 0b111111);
        assert_eq!(CONFIGS[0], 0);
        // The identity (row r in box r) only.
        assert_eq!(CONFIGS[0b100_010_001], 1);
        for occ in 0..512 {
            let union = CONFIG_CELLS
                .iter()
                .enumerate()
                .filter(|(p, _)| CONFIGS[occ] & (1 << p) != 0)
                .fold(0, |a, (_, c)| a | c);
            assert_eq!(union, COMPLEX[occ], "occupancy {occ:#o}");
        }
        assert_eq!(CONFIG_CELLS.iter().fold(0, |a, c| a | c), BAND);
    }

    #[test]
    fn mini_rows_are_union_intersection_and_configs() {
        for occ in 0..512 {
            let info = MINI_ROWS[occ];
            assert_eq!(info >> 18 & 0x3F, u32::from(CONFIGS[occ]), "{occ:#o}");
            let n = CONFIGS[occ].count_ones();
            assert_eq!(info >> 24, if n > 1 { n } else { 0 }, "{occ:#o}");
            assert_eq!(
                MINI_ROW_CELLS[(info & 0x1FF) as usize],
                COMPLEX[occ],
                "{occ:#o}"
            );
            let meet = CONFIG_CELLS
                .iter()
                .enumerate()
                .filter(|(p, _)| CONFIGS[occ] & (1 << p) != 0)
                .fold(BAND, |a, (_, c)| a & c);
            let meet = if CONFIGS[occ] == 0 { 0 } else { meet };
            assert_eq!(
                MINI_ROW_CELLS[(info >> 9 & 0x1FF) as usize],
                meet,
                "{occ:#o}"
            );
        }
        // Row 0 only in box 1: that mini-row is certain, and no other of row 0 or box 1.
        let info = MINI_ROWS[0b111_111_010];
        assert_eq!(info >> 9 & 0x1FF, 0b010);
    }

    #[test]
    fn keep_other_locks_single_columns() {
        // Box 0 uses only column 1: the other bands lose column 1 in all three rows.
        let keep = KEEP_OTHER[0b111_111_010];
        assert_eq!(!keep & BAND, 0b010 | 0b010 << 9 | 0b010 << 18);
        assert_eq!(KEEP_OTHER[0x1FF], BAND);
    }
}
