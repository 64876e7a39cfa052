//! Chains written out in Eureka notation, for the steps of `--steps` (never while rating
//! alone: the producers keep parent pointers, and a step's chains are rebuilt from them only
//! when a step is reported).
//!
//! ```text
//!  (5)r1c2-r1c7=(5=3)r2c8-(3)r3c9=r3c1 ...
//!   │      │  │   │          └ a digit is written when it changes: r3c1 holds 3 too
//!   │      │  │   └ a strong link inside a cell: 5 off there, so 3 on
//!   │      │  └ a strong link ("="): the node before is off, so this one is on
//!   │      └ a weak link ("-"): the node before is on, so this one is off
//!   └ the first node, whose state the first link tells: "-" after it, assumed on; "=", off
//! ```
//!
//! Dynamic forcing chains (+) have a third link, `~`: the node before is off, and so is the
//! next one, removed by a basic rule (an intersection, a hidden or naked pair, an X-Wing) on
//! the grid the removals proved so far have reduced: `(5)r1c2-r1c7~(5)r4c7=...`.
//!
//! A chain is a path of potentials, "on" and "off" in turn (an "on" implies only "off"s and
//! an "off" only "on"s, [`links`](super::links)): each "on ⇒ off" is written `-`, each "off ⇒
//! on" `=`, so the text reads as an alternating inference chain, left to right. An "off ⇒ on"
//! pair in one cell is written as one node, `(5=3)r2c8`; a weak link inside a cell keeps two
//! nodes, `(5)r2c8-(3)r2c8`. A node's digit is left out when it is the previous node's last
//! digit (and its cell differs).
//!
//! The dynamic producers ([`nishio`](super::super::nishio), [`dynamic`](super::super::dynamic)) also have
//! links that read removals made earlier on other paths from the same assumption (SE's
//! *hidden parents*: a house left with two places, a cell with two candidates). A branch of
//! theirs is its main chain, from the assumption to the conclusion, followed by one bracketed
//! chain for each removal such a link reads that the text has not shown yet, each from a node
//! already written to that removal: `(5)r1c2-r1c7=r3c8 [(5)r1c2-r3c1]`. Every link of a
//! branch then holds on the step's grid once the removals written before or beside it are
//! made, which `tests/rate_cli.rs` checks step by step.
//!
//! Layer: shared, over [`links`](super::links): the producers' `explain` write with it.

use std::fmt::Write;

use super::bits::PotSet;
use super::links::{cell_of, digit_of, is_on, POTENTIALS};

/// No parent: the assumption a branch starts from.
pub(crate) const ROOT: u16 = u16::MAX;

/// A propagation's implication tree, as its producer kept it.
pub(crate) trait Tree {
    /// The potential `p` was implied from (its first parent), [`ROOT`] for the assumption.
    fn parent(&self, p: u16) -> u16;
    /// The removals ("off" potentials) `p`'s link reads besides its first parent.
    fn hidden(&self, p: u16, visit: &mut dyn FnMut(u16));
}

/// A tree with other parents for one potential: the new potential of a clash, which the
/// producer stopped at before it stored it.
pub(crate) struct WithClash<'t, T: Tree> {
    pub tree: &'t T,
    pub potential: u16,
    pub parent: u16,
    /// The clash potential's hidden parents.
    pub hidden: &'t [u16],
}

impl<T: Tree> Tree for WithClash<'_, T> {
    fn parent(&self, p: u16) -> u16 {
        if p == self.potential {
            self.parent
        } else {
            self.tree.parent(p)
        }
    }
    fn hidden(&self, p: u16, visit: &mut dyn FnMut(u16)) {
        if p == self.potential {
            self.hidden.iter().for_each(|&h| visit(h));
        } else {
            self.tree.hidden(p, visit);
        }
    }
}

/// Appends `path` (potentials, the first one's state given by its link) in Eureka notation.
pub(crate) fn write_path(out: &mut String, path: &[u16]) {
    let mut last: Option<(usize, usize)> = None;
    let mut i = 0;
    while i < path.len() {
        let p = path[i];
        let (c, d) = (cell_of(p), digit_of(p));
        if i > 0 {
            out.push(match (is_on(path[i - 1]), is_on(p)) {
                (true, _) => '-',
                (false, true) => '=',
                (false, false) => '~',
            });
        }
        let merged = path
            .get(i + 1)
            .filter(|&&q| !is_on(p) && is_on(q) && cell_of(q) == c)
            .copied();
        let end = match merged {
            Some(q) => {
                let _ = write!(out, "({}={})", d + 1, digit_of(q) + 1);
                i += 2;
                digit_of(q)
            }
            None => {
                if last.is_none_or(|(lc, ld)| ld != d || lc == c) {
                    let _ = write!(out, "({})", d + 1);
                }
                i += 1;
                d
            }
        };
        let _ = write!(out, "r{}c{}", c / 9 + 1, c % 9 + 1);
        last = Some((c, end));
    }
}

/// Appends the branch of `tree` that ends at `target`: its main chain from the assumption,
/// then a bracketed chain for each hidden parent not written yet (see the module header).
pub(crate) fn write_branch(out: &mut String, tree: &impl Tree, target: u16) {
    let mut written = PotSet::EMPTY;
    let mut work = [0u16; POTENTIALS];
    let mut path = [0u16; POTENTIALS];
    // The main chain: the first parents back to the assumption.
    let (n, _) = back(tree, target, &mut path, |_| false);
    path[..n].reverse();
    write_path(out, &path[..n]);
    let mut queued = 0;
    for &q in &path[..n] {
        written.insert(q);
        work[queued] = q;
        queued += 1;
    }
    let mut next = 0;
    while next < queued {
        let q = work[next];
        next += 1;
        let mut hidden = [0u16; 32];
        let k = collect(&mut hidden, |visit| tree.hidden(q, visit));
        for &h in &hidden[..k] {
            if written.has(h) {
                continue;
            }
            // Back from the removal to the first node already written.
            let (n, x) = back(tree, h, &mut path, |x| written.has(x));
            if x == ROOT {
                // Unreachable: the assumption is on the main chain.
                continue;
            }
            path[n] = x;
            path[..=n].reverse();
            out.push_str(" [");
            write_path(out, &path[..=n]);
            out.push(']');
            for &y in &path[1..=n] {
                written.insert(y);
                if queued < POTENTIALS {
                    work[queued] = y;
                    queued += 1;
                }
            }
        }
    }
}

/// The potentials `each` visits into `buf`, those past its room left out; how many.
pub(crate) fn collect(buf: &mut [u16], each: impl FnOnce(&mut dyn FnMut(u16))) -> usize {
    let mut n = 0;
    each(&mut |p| {
        if n < buf.len() {
            buf[n] = p;
            n += 1;
        }
    });
    n
}

/// The first parents from `from` back to the assumption or to the first node that `stop`s,
/// into `path` (nearest first): their number, and the node the walk stopped at (`ROOT` at
/// the assumption).
fn back(
    tree: &impl Tree,
    from: u16,
    path: &mut [u16; POTENTIALS],
    stop: impl Fn(u16) -> bool,
) -> (usize, u16) {
    let mut n = 0;
    let mut x = from;
    while x != ROOT && !stop(x) && n < POTENTIALS {
        path[n] = x;
        n += 1;
        x = tree.parent(x);
    }
    (n, x)
}

/// The cells `text` (chains in this notation, any number of lines and brackets) names, in
/// the order it names them, each time it does.
pub(crate) fn cells_named(text: &str) -> impl Iterator<Item = usize> + '_ {
    let digit = |b: u8| (b'1'..=b'9').contains(&b).then(|| usize::from(b - b'1'));
    text.as_bytes().windows(4).filter_map(move |w| match w {
        [b'r', r, b'c', c] => Some(digit(*r)? * 9 + digit(*c)?),
        _ => None,
    })
}

/// One candidate of a chain as the text reads: cell, digit - 1, true or false.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Node {
    pub cell: usize,
    pub digit: usize,
    pub on: bool,
}

/// The first and the last candidate of a branch's main chain (the text before its first
/// bracket): its assumption and what it concludes. `None` for text that is no chain.
pub(crate) fn ends(branch: &str) -> Option<(Node, Node)> {
    let main = branch.split(" [").next()?.as_bytes();
    let digit_at = |i: usize| match main.get(i) {
        Some(&b @ b'1'..=b'9') => Some(usize::from(b - b'1')),
        _ => None,
    };
    let (mut digit, mut first_digit, mut merged) = (0, None, false);
    let (mut first, mut last): (Option<Node>, Option<Node>) = (None, None);
    let (mut link, mut first_merged) = (None, false);
    let mut i = 0;
    while i < main.len() {
        match main[i] {
            b'(' => {
                let a = digit_at(i + 1)?;
                merged = main.get(i + 2) == Some(&b'=');
                digit = if merged { digit_at(i + 3)? } else { a };
                first_digit.get_or_insert(a);
                i += if merged { 5 } else { 3 };
            }
            b'r' => {
                let cell = digit_at(i + 1)? * 9 + digit_at(i + 3)?;
                let on = merged || link == Some(b'=');
                if first.is_none() {
                    // A merged first node is its first digit false; else the next link tells.
                    first = Some(Node {
                        cell,
                        digit: first_digit?,
                        on: false,
                    });
                    first_merged = merged;
                }
                last = Some(Node { cell, digit, on });
                merged = false;
                i += 4;
            }
            l @ (b'-' | b'=' | b'~') => {
                if let Some(f) = first.as_mut().filter(|_| link.is_none() && !first_merged) {
                    f.on = l == b'-';
                }
                link = Some(l);
                i += 1;
            }
            _ => i += 1,
        }
    }
    Some((first?, last?))
}

#[cfg(test)]
mod tests {
    use super::super::links::potential;
    use super::*;

    fn text(path: &[u16]) -> String {
        let mut s = String::new();
        write_path(&mut s, path);
        s
    }

    #[test]
    fn links_and_nodes_are_written_as_eureka_writes_them() {
        // 5 on in r1c2, off in r1c7, on in r1c8, off in r2c8 (bivalue: so 3 on there), 3 off
        // in r3c9, on in r3c1.
        let path = [
            potential(1, 4, true),
            potential(6, 4, false),
            potential(7, 4, true),
            potential(16, 4, false),
            potential(16, 2, true),
            potential(26, 2, false),
            potential(18, 2, true),
        ];
        assert_eq!(text(&path), "(5)r1c2-r1c7=r1c8-(5=3)r2c8-r3c9=r3c1");
        // A weak link inside a cell keeps its two nodes; an assumption "off" starts with "=".
        let path = [
            potential(0, 0, false),
            potential(0, 1, true),
            potential(0, 2, false),
            potential(9, 2, true),
        ];
        assert_eq!(text(&path), "(1=2)r1c1-(3)r1c1=r2c1");
        let path = [potential(0, 0, false), potential(9, 0, true)];
        assert_eq!(text(&path), "(1)r1c1=r2c1");
    }

    /// A tree of parent pointers with hidden parents, as a map.
    struct Map(Vec<(u16, u16, Vec<u16>)>);

    impl Tree for Map {
        fn parent(&self, p: u16) -> u16 {
            self.0.iter().find(|e| e.0 == p).map_or(ROOT, |e| e.1)
        }
        fn hidden(&self, p: u16, visit: &mut dyn FnMut(u16)) {
            if let Some(e) = self.0.iter().find(|e| e.0 == p) {
                e.2.iter().for_each(|&h| visit(h));
            }
        }
    }

    #[test]
    fn cells_and_ends_are_read_back() {
        let text = "(2)r9c2-r1c2=(2=7)r1c9-r3c7 [(2)r9c2-r9c7]";
        let cells: Vec<usize> = cells_named(text).collect();
        assert_eq!(cells, [73, 1, 8, 24, 73, 78]);
        let node = |cell, digit, on| Node { cell, digit, on };
        assert_eq!(ends(text), Some((node(73, 1, true), node(24, 6, false))));
        // A merged first node is false; a strong link ends on a true candidate.
        let text = "(1=2)r1c1-(3)r1c1=r2c1";
        assert_eq!(ends(text), Some((node(0, 0, false), node(9, 2, true))));
        assert_eq!(
            ends("(4)r5c9=r6c9"),
            Some((node(44, 3, false), node(53, 3, true)))
        );
        assert_eq!(
            ends("(8)r1c9~(8=5)r1c8"),
            Some((node(8, 7, false), node(7, 4, true)))
        );
        assert_eq!(ends(""), None);
    }

    #[test]
    fn hidden_parents_follow_in_brackets_from_a_written_node() {
        // r1c1=1 on: r1c2 off, r2c1 off; r2c1 off and (hidden) r1c2 off: r3c3=1 on (box).
        let root = potential(0, 0, true);
        let a = potential(1, 0, false);
        let b = potential(9, 0, false);
        let c = potential(20, 0, true);
        let tree = Map(vec![(a, root, vec![]), (b, root, vec![]), (c, b, vec![a])]);
        let mut s = String::new();
        write_branch(&mut s, &tree, c);
        assert_eq!(s, "(1)r1c1-r2c1=r3c3 [(1)r1c1-r1c2]");
        // The clash override gives the new potential its parents.
        let d = potential(21, 0, false);
        let clash = WithClash {
            tree: &tree,
            potential: d,
            parent: c,
            hidden: &[],
        };
        let mut s = String::new();
        write_branch(&mut s, &clash, d);
        assert_eq!(s, "(1)r1c1-r2c1=r3c3-r3c4 [(1)r1c1-r1c2]");
    }
}
