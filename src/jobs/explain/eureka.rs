//! The links of a step's chains, read back from the Eureka notation the rating engine writes
//! (`rate --steps`' `chain`): each link from one candidate to the next, strong or weak, for
//! drawing.
//!
//! ```text
//!  (5)r1c2-r1c7=(5=3)r2c8~(3)r3c9 [(5)r1c2-r4c2]
//!   │      │  │   │       │         └ a bracketed chain starts at a node already written
//!   │      │  │   │       └ a rule link: off, so the next is off too (dynamic chains)
//!   │      │  │   └ a strong link inside the cell, 5 to 3
//!   │      │  └ strong: the node before off, this one on
//!   │      └ weak: the node before on, this one off (the digit is the previous node's)
//!   └ the first node, its digit in brackets
//! ```
//!
//! Only the engine's own output is read: a node is one candidate (`(d)rRcC` or `rRcC` with
//! the previous node's last digit), a cell's strong link `(d=e)rRcC`; anything else is an
//! error naming the offset, so that a change of the notation shows up in the tests rather
//! than as a drawing that silently misses links.

use std::fmt;

/// A candidate: cell 0..81 (row-major) and digit 1..=9.
pub type Candidate = (u8, u8);

/// How a link is drawn: its class in the drawing (`link strong`, `link weak`, `link rule`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkKind {
    /// `=`: the node before is off, so this one is on.
    Strong,
    /// `-`: the node before is on, so this one is off.
    Weak,
    /// `~`: off, so the next is off too, by a basic rule (dynamic forcing chains).
    Rule,
}

impl LinkKind {
    /// The kind's class name in the drawing.
    pub fn class(self) -> &'static str {
        match self {
            LinkKind::Strong => "strong",
            LinkKind::Weak => "weak",
            LinkKind::Rule => "rule",
        }
    }

    fn of(symbol: u8) -> Option<LinkKind> {
        match symbol {
            b'=' => Some(LinkKind::Strong),
            b'-' => Some(LinkKind::Weak),
            b'~' => Some(LinkKind::Rule),
            _ => None,
        }
    }
}

/// One link of a chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    /// Where it starts.
    pub from: Candidate,
    /// Where it ends.
    pub to: Candidate,
    /// Strong, weak or a rule.
    pub kind: LinkKind,
}

/// Why a chain text could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EurekaError {
    /// Byte offset in the text.
    pub at: usize,
    /// What was expected there.
    pub expected: &'static str,
}

impl fmt::Display for EurekaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "chain text: {} expected at byte {}",
            self.expected, self.at
        )
    }
}

impl std::error::Error for EurekaError {}

/// A cursor over one chain text.
struct Cursor<'a> {
    text: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn eat(&mut self, b: u8) -> bool {
        let hit = self.peek() == Some(b);
        self.at += usize::from(hit);
        hit
    }

    fn expect(&mut self, b: u8, expected: &'static str) -> Result<(), EurekaError> {
        if self.eat(b) {
            Ok(())
        } else {
            Err(self.error(expected))
        }
    }

    fn error(&self, expected: &'static str) -> EurekaError {
        EurekaError {
            at: self.at,
            expected,
        }
    }

    /// A digit 1..=9.
    fn digit(&mut self) -> Result<u8, EurekaError> {
        match self.peek() {
            Some(b @ b'1'..=b'9') => {
                self.at += 1;
                Ok(b - b'0')
            }
            _ => Err(self.error("a digit 1-9")),
        }
    }

    /// `rRcC` as a cell 0..81.
    fn cell(&mut self) -> Result<u8, EurekaError> {
        self.expect(b'r', "a cell (rRcC)")?;
        let row = self.digit()?;
        self.expect(b'c', "a column (cC)")?;
        let column = self.digit()?;
        Ok((row - 1) * 9 + column - 1)
    }

    /// A node: its first and last candidate (they differ for `(d=e)rRcC`); `digit` is the
    /// previous node's last, for a node written without one.
    fn node(&mut self, digit: Option<u8>) -> Result<(Candidate, Candidate), EurekaError> {
        let (first, last) = if self.eat(b'(') {
            let first = self.digit()?;
            let last = if self.eat(b'=') { self.digit()? } else { first };
            self.expect(b')', "a closing bracket")?;
            (first, last)
        } else {
            let d = digit.ok_or_else(|| self.error("a digit in brackets"))?;
            (d, d)
        };
        let cell = self.cell()?;
        Ok(((cell, first), (cell, last)))
    }

    /// One chain, from its first node to the end of the text, a space or a closing square
    /// bracket, its links into `links`.
    fn chain(&mut self, links: &mut Vec<Link>) -> Result<(), EurekaError> {
        let (first, mut last) = self.node(None)?;
        if first != last {
            links.push(Link {
                from: first,
                to: last,
                kind: LinkKind::Strong,
            });
        }
        while let Some(kind) = self.peek().and_then(LinkKind::of) {
            self.at += 1;
            let (to, end) = self.node(Some(last.1))?;
            links.push(Link {
                from: last,
                to,
                kind,
            });
            if to != end {
                links.push(Link {
                    from: to,
                    to: end,
                    kind: LinkKind::Strong,
                });
            }
            last = end;
        }
        Ok(())
    }
}

/// The links of one chain text (one branch: a main chain and its bracketed chains), in the
/// order written.
pub fn links(text: &str) -> Result<Vec<Link>, EurekaError> {
    let mut links = Vec::new();
    let mut c = Cursor {
        text: text.as_bytes(),
        at: 0,
    };
    c.chain(&mut links)?;
    while c.eat(b' ') {
        c.expect(b'[', "an opening square bracket")?;
        c.chain(&mut links)?;
        c.expect(b']', "a closing square bracket")?;
    }
    if c.at != c.text.len() {
        return Err(c.error("a link (-, = or ~) or the end"));
    }
    Ok(links)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(from: (u8, u8), to: (u8, u8), kind: LinkKind) -> Link {
        Link { from, to, kind }
    }

    #[test]
    fn a_chain_with_a_cell_link_and_an_omitted_digit() {
        use LinkKind::*;
        // r1c2 = 1, r1c7 = 6, r2c8 = 16, r3c9 = 26.
        let got = links("(5)r1c2-r1c7=(5=3)r2c8-(3)r3c9").unwrap();
        assert_eq!(
            got,
            vec![
                link((1, 5), (6, 5), Weak),
                link((6, 5), (16, 5), Strong),
                link((16, 5), (16, 3), Strong),
                link((16, 3), (26, 3), Weak),
            ]
        );
    }

    #[test]
    fn bracketed_chains_and_rule_links() {
        use LinkKind::*;
        let got = links("(5)r1c2~(4)r1c3 [(5)r1c2-r4c2] [(4)r1c3=r2c3]").unwrap();
        assert_eq!(
            got,
            vec![
                link((1, 5), (2, 4), Rule),
                link((1, 5), (28, 5), Weak),
                link((2, 4), (11, 4), Strong),
            ]
        );
    }

    #[test]
    fn a_starting_cell_link() {
        let got = links("(2=5)r1c7-r1c2").unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!(got[0], link((6, 2), (6, 5), LinkKind::Strong));
        assert_eq!(got[1], link((6, 5), (1, 5), LinkKind::Weak));
    }

    #[test]
    fn errors_name_the_offset() {
        assert_eq!(links("r1c2-r1c3").unwrap_err().at, 0);
        assert_eq!(links("(5)r1c2-r1x3").unwrap_err().at, 10);
        assert_eq!(
            links("(5)r1c2 r1c3").unwrap_err().expected,
            "an opening square bracket"
        );
        assert_eq!(links("(5)r1c2-r1c3]").unwrap_err().at, 12);
        assert_eq!(links("(0)r1c2").unwrap_err().at, 1);
    }
}
