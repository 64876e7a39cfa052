//! One step drawn as SVG: the grid it is taken on with its candidates, its houses shaded, its
//! cells marked, its placements and eliminations as coloured discs under their candidates,
//! its chains' links as arrows. The page's script draws the very same elements, in the same
//! order, with the same classes and `data-` attributes (`tests/explain_browser.py` compares
//! the two); sizes, colours and classes come from [`super::layout`].
//!
//! Elements, in drawing order (each carries what it shows in `data-` attributes):
//!
//! | element | class | data |
//! |---|---|---|
//! | `rect` | `bg` | |
//! | `rect` per house of the step | `house` | `data-house` (0-8 boxes, 9-17 rows, 18-26 columns) |
//! | `rect` per cell (81) | `cell`, `cell mark` for the step's | `data-cell` (0-80) |
//! | `path` | `grid-thin`, `grid-thick` | |
//! | `text` per row and column | `label` | |
//! | `circle` under a candidate | `place`, `elim` | `data-cell`, `data-digit` |
//! | `text` per candidate | `cand` | `data-cell`, `data-digit` |
//! | `text` per placed cell | `given`, `solved` | `data-cell` |
//! | `path` per link | `link strong`, `link weak`, `link rule` | `data-from`, `data-to` (`cell:digit`) |

use std::fmt::Write;

use super::layout::{self, Sizes, SIZES};
use super::{Board, ExplainStep};

/// The step `step` on `board` (the grid before it) as a standalone SVG document: an XML
/// declaration, the SVG namespace, the drawing's CSS and the step's sentence as its title.
pub fn standalone(board: &Board, step: &ExplainStep) -> String {
    let side = SIZES.side();
    let mut out = String::with_capacity(16 * 1024);
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {side} {side}\" \
         width=\"{side}\" height=\"{side}\">"
    );
    out.push_str("<title>");
    escape_into(
        &mut out,
        &format!("{} ({}): {}", step.technique, step.difficulty, step.text),
    );
    out.push_str("</title>\n<style>\n");
    out.push_str(&layout::drawing_css());
    out.push_str("</style>\n");
    body(&mut out, &SIZES, board, step);
    out.push_str("</svg>\n");
    out
}

/// The drawing's elements (see the module doc), without the enclosing `svg` element.
pub fn body(out: &mut String, s: &Sizes, board: &Board, step: &ExplainStep) {
    let side = s.side();
    out.push_str(
        "<defs><marker id=\"sb-arrow\" viewBox=\"0 0 10 10\" refX=\"8\" refY=\"5\" \
         markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\">\
         <path class=\"arrowhead\" d=\"M0 0L10 5L0 10z\"/></marker></defs>\n",
    );
    let _ = writeln!(
        out,
        "<rect class=\"bg\" width=\"{side}\" height=\"{side}\"/>"
    );
    for &h in &step.houses {
        let (x, y, w, hgt) = house_rect(s, h);
        let _ = writeln!(
            out,
            "<rect class=\"house\" data-house=\"{h}\" x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{hgt}\"/>"
        );
    }
    for cell in 0..81u8 {
        let (x, y) = layout::cell_corner(s, cell);
        let mark = if step.cells.contains(&cell) {
            " mark"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "<rect class=\"cell{mark}\" data-cell=\"{cell}\" x=\"{x}\" y=\"{y}\" width=\"{c}\" height=\"{c}\"/>",
            c = s.cell
        );
    }
    grid_lines(out, s);
    labels(out, s);
    candidates(out, s, board, step);
    placed(out, s, board);
    links(out, s, step);
}

/// A house's rectangle: x, y, width, height.
fn house_rect(s: &Sizes, h: u8) -> (u32, u32, u32, u32) {
    let (m, c, h) = (s.margin, s.cell, u32::from(h));
    match h / 9 {
        0 => (m + h % 3 * 3 * c, m + h / 3 * 3 * c, 3 * c, 3 * c),
        1 => (m, m + (h - 9) * c, 9 * c, c),
        _ => (m + (h - 18) * c, m, c, 9 * c),
    }
}

/// The grid's lines: thin between cells, thick around boxes.
fn grid_lines(out: &mut String, s: &Sizes) {
    let (m, c) = (s.margin, s.cell);
    let end = m + 9 * c;
    for (class, thick) in [("grid-thin", false), ("grid-thick", true)] {
        let _ = write!(out, "<path class=\"{class}\" d=\"");
        for i in (0..=9u32).filter(|i| (i % 3 == 0) == thick) {
            let at = m + i * c;
            let _ = write!(out, "M{m} {at}H{end}M{at} {m}V{end}");
        }
        out.push_str("\"/>\n");
    }
}

/// Row labels r1..r9 left of the grid, column labels c1..c9 above it.
fn labels(out: &mut String, s: &Sizes) {
    let (m, c) = (f64::from(s.margin), f64::from(s.cell));
    for i in 0..9u32 {
        let along = m + (f64::from(i) + 0.5) * c;
        let (half, n) = (m / 2.0, i + 1);
        let _ = writeln!(
            out,
            "<text class=\"label\" x=\"{half}\" y=\"{along}\">r{n}</text>\
             <text class=\"label\" x=\"{along}\" y=\"{half}\">c{n}</text>"
        );
    }
}

/// Every candidate of the cells not placed, a disc under those the step places or removes.
fn candidates(out: &mut String, s: &Sizes, board: &Board, step: &ExplainStep) {
    for cell in 0..81u8 {
        if board.placed[usize::from(cell)] != 0 {
            continue;
        }
        let mask = board.masks[usize::from(cell)];
        for digit in (1..=9u8).filter(|d| mask & (1 << (d - 1)) != 0) {
            let (x, y) = layout::candidate_centre(s, cell, digit);
            let disc = if step.placements.contains(&(cell, digit)) {
                Some("place")
            } else if step.eliminations.contains(&(cell, digit)) {
                Some("elim")
            } else {
                None
            };
            if let Some(class) = disc {
                let _ = write!(
                    out,
                    "<circle class=\"{class}\" data-cell=\"{cell}\" data-digit=\"{digit}\" \
                     cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{}\"/>",
                    s.disc
                );
            }
            let _ = writeln!(
                out,
                "<text class=\"cand\" data-cell=\"{cell}\" data-digit=\"{digit}\" x=\"{x:.1}\" y=\"{y:.1}\">{digit}</text>"
            );
        }
    }
}

/// The placed digits: the record's own (`given`) and the path's (`solved`).
fn placed(out: &mut String, s: &Sizes, board: &Board) {
    for cell in 0..81u8 {
        let digit = board.placed[usize::from(cell)];
        if digit == 0 {
            continue;
        }
        let class = if board.given >> cell & 1 == 1 {
            "given"
        } else {
            "solved"
        };
        let (x, y) = layout::cell_corner(s, cell);
        let half = f64::from(s.cell) / 2.0;
        let _ = writeln!(
            out,
            "<text class=\"{class}\" data-cell=\"{cell}\" x=\"{:.1}\" y=\"{:.1}\">{digit}</text>",
            x + half,
            y + half
        );
    }
}

/// The step's links, each an arrow from its first candidate to its second.
fn links(out: &mut String, s: &Sizes, step: &ExplainStep) {
    for link in &step.links {
        let a = layout::candidate_centre(s, link.from.0, link.from.1);
        let b = layout::candidate_centre(s, link.to.0, link.to.1);
        let _ = writeln!(
            out,
            "<path class=\"link {}\" data-from=\"{}:{}\" data-to=\"{}:{}\" d=\"{}\" marker-end=\"url(#sb-arrow)\"/>",
            link.kind.class(),
            link.from.0,
            link.from.1,
            link.to.0,
            link.to.1,
            layout::link_path(s, a, b)
        );
    }
}

/// `text` with XML's special characters escaped.
pub fn escape_into(out: &mut String, text: &str) {
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}
