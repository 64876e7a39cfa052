//! The one layout of a step's drawing, shared by the SVG files ([`super::svg`]) and the page's
//! script ([`super::page`]): sizes in [`SIZES`] (written into the page as JSON, read by the
//! script), colours and strokes in [`drawing_css`] (the `<style>` of every SVG file and of the
//! page), the class names in the constants below. A change here changes both drawings.
//!
//! ```text
//!   margin  9 cells of CELL units, each a 3x3 block of candidates
//!   ┌──┬────────────────────────┐
//!   │  │ c1 c2 ...              │   bg      the white ground
//!   ├──┼────────────────────────┤   house   a step's house, shaded
//!   │r1│ 1 2 3 │      │        │   cell    every cell (81); "cell mark" a step's cell
//!   │  │ 4 5 6 │  7   │        │   cand    a candidate; under it "place"/"elim" discs
//!   │  │ 7 8 9 │      │        │   given / solved   a placed digit
//!   │r2│ ...                    │   link strong|weak|rule   a chain's link, an arrow
//! ```

/// Sizes of the drawing in SVG user units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sizes {
    /// A cell's side.
    pub cell: u32,
    /// The margin around the grid (row and column labels sit in it).
    pub margin: u32,
    /// The radius of the disc under a placed or eliminated candidate.
    pub disc: u32,
    /// How far a link's ends stop short of the candidates' centres.
    pub inset: u32,
}

/// The drawing's sizes.
pub const SIZES: Sizes = Sizes {
    cell: 54,
    margin: 22,
    disc: 8,
    inset: 7,
};

impl Sizes {
    /// The side of the whole drawing.
    pub fn side(&self) -> u32 {
        9 * self.cell + 2 * self.margin
    }

    /// The sizes as the JSON object the page's script reads.
    pub fn json(&self) -> String {
        format!(
            "{{\"cell\":{},\"margin\":{},\"disc\":{},\"inset\":{}}}",
            self.cell, self.margin, self.disc, self.inset
        )
    }
}

/// Colours of the drawing: (name, value), each a CSS variable `--sb-NAME` of
/// [`drawing_css`], so that the page's legend shows the very colours the drawing uses.
pub const COLOURS: [(&str, &str); 10] = [
    ("ground", "#ffffff"),
    ("house", "#fff0b3"),
    ("cell", "#c9defa"),
    ("grid", "#1f2933"),
    ("candidate", "#52606d"),
    ("given", "#1f2933"),
    ("solved", "#1a56db"),
    ("place", "#34a853"),
    ("elim", "#e0484d"),
    ("link", "#7e3ab8"),
];

/// The CSS of the drawing (every class the drawing uses), the same in the page and in each
/// SVG file.
pub fn drawing_css() -> String {
    let mut css = String::from(":root,svg{");
    for (name, value) in COLOURS {
        css.push_str(&format!("--sb-{name}:{value};"));
    }
    css.push_str("}\n");
    css.push_str(DRAWING_RULES);
    css
}

/// The rules of [`drawing_css`], by class.
const DRAWING_RULES: &str = "\
.bg{fill:var(--sb-ground)}
.house{fill:var(--sb-house)}
.cell{fill:transparent}
.cell.mark{fill:var(--sb-cell)}
.grid-thin{stroke:var(--sb-grid);stroke-width:0.6;stroke-opacity:0.45;fill:none}
.grid-thick{stroke:var(--sb-grid);stroke-width:2.4;fill:none}
.label{fill:var(--sb-candidate);font:12px sans-serif;text-anchor:middle;dominant-baseline:central}
.cand{fill:var(--sb-candidate);font:14px sans-serif;text-anchor:middle;dominant-baseline:central}
.given,.solved{font:bold 32px sans-serif;text-anchor:middle;dominant-baseline:central}
.given{fill:var(--sb-given)}
.solved{fill:var(--sb-solved)}
.place{fill:var(--sb-place)}
.elim{fill:var(--sb-elim)}
.place+.cand,.elim+.cand{fill:#fff;font-weight:bold}
.link{stroke:var(--sb-link);stroke-width:1.8;fill:none}
.link.weak{stroke-dasharray:5 3.5}
.link.rule{stroke-dasharray:1.5 3}
.arrowhead{fill:var(--sb-link)}
";

/// A candidate's centre: cell 0..81 and digit 1..=9.
pub fn candidate_centre(s: &Sizes, cell: u8, digit: u8) -> (f64, f64) {
    let third = f64::from(s.cell) / 3.0;
    let (x0, y0) = cell_corner(s, cell);
    let k = f64::from(digit - 1);
    (
        x0 + (k % 3.0 + 0.5) * third,
        y0 + ((k / 3.0).floor() + 0.5) * third,
    )
}

/// A cell's top-left corner.
pub fn cell_corner(s: &Sizes, cell: u8) -> (f64, f64) {
    let (row, column) = (u32::from(cell / 9), u32::from(cell % 9));
    (
        f64::from(s.margin + column * s.cell),
        f64::from(s.margin + row * s.cell),
    )
}

/// A link's path from `a` to `b` (candidate centres): a quadratic curve bowed to the left
/// of its direction by a fifth of its length (so that two links between the same
/// candidates, one each way, stay apart), its ends `inset` short of the centres.
pub fn link_path(s: &Sizes, a: (f64, f64), b: (f64, f64)) -> String {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / len, dy / len);
    let inset = f64::from(s.inset).min(len / 3.0);
    let (x1, y1) = (a.0 + ux * inset, a.1 + uy * inset);
    let (x2, y2) = (b.0 - ux * inset, b.1 - uy * inset);
    let bow = len / 5.0;
    let (cx, cy) = ((a.0 + b.0) / 2.0 + uy * bow, (a.1 + b.1) / 2.0 - ux * bow);
    format!("M{x1:.1} {y1:.1}Q{cx:.1} {cy:.1} {x2:.1} {y2:.1}")
}
