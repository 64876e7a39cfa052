//! The record a step's chains are kept in while the producers fill it ([`Record`]): buffers
//! reserved once, so that a rating with steps allocates nothing; the views of
//! [`chain`](super) read it.

use super::{Branches, Lines, Link, Potential, Rule, Why};
use crate::engines::rater::Technique;

/// One branch as recorded: its assumption, its links' range, and the next branch of its
/// chain (branches of a chain are recorded apart when a nested chain's come between).
#[derive(Clone, Copy, Debug)]
pub(crate) struct BranchAt {
    pub(super) start: Potential,
    pub(super) links: (u32, u32),
    pub(super) next: u32,
}

/// No next branch.
pub(super) const END: u32 = u32::MAX;

/// The branches of one chain as recorded: the first, the last, how many.
#[derive(Clone, Copy, Debug)]
pub(super) struct ChainAt {
    pub(super) first: u32,
    pub(super) last: u32,
    pub(super) len: u32,
}

impl ChainAt {
    pub(super) const EMPTY: ChainAt = ChainAt {
        first: END,
        last: END,
        len: 0,
    };
}

/// One nested chain as recorded.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NestedAt {
    pub(super) technique: Technique,
    pub(super) level: u8,
    pub(super) branches: ChainAt,
    /// The producers' fingerprint of the chain, to hold each once.
    print: u64,
    /// Its sentences' range in [`Record::lines`].
    pub(super) lines: (u32, u32),
}

/// Room reserved for a step's links: the longest step seen (a nested chain of 11.5 of
/// forum_hardest_1106 with its nested chains) has a few thousand.
const LINKS: usize = 1 << 16;
/// Room reserved for a step's branches, nested chains' included.
const BRANCHES: usize = 1 << 12;
/// Room reserved for a step's nested chains and basic rules.
const NESTED: usize = 1 << 11;
/// Bytes reserved for a step's sentences, one a link.
const LINES: usize = 1 << 20;

/// A step's chains as the producers record them, in buffers reserved once: branches (each
/// with its links together), the basic rules and the nested chains they rest on.
pub(crate) struct Record {
    pub(super) branches: Vec<BranchAt>,
    pub(super) links: Vec<Link>,
    pub(super) rules: Vec<Rule>,
    pub(super) nested: Vec<NestedAt>,
    /// The step's own branches.
    top: ChainAt,
    /// The chains being recorded, innermost last: 0 the step's, `j + 1` nested chain `j`.
    open: Vec<u32>,
    /// Links whose rule a producer has still to tell ([`Record::pending_from`]), by index.
    pending: Vec<u32>,
    /// The reasons told so far, by the producer's rule index ([`Record::told`]).
    told: Vec<(u16, Why)>,
    /// The sentences of the step's links, one a line, then each nested chain's.
    pub(super) lines: String,
    top_lines: (u32, u32),
}

impl Record {
    pub(crate) fn new() -> Record {
        Record {
            branches: Vec::with_capacity(BRANCHES),
            links: Vec::with_capacity(LINKS),
            rules: Vec::with_capacity(NESTED),
            nested: Vec::with_capacity(NESTED),
            top: ChainAt::EMPTY,
            open: Vec::with_capacity(8),
            pending: Vec::with_capacity(LINKS),
            told: Vec::with_capacity(NESTED),
            lines: String::with_capacity(LINES),
            top_lines: (0, 0),
        }
    }

    /// Forgets the last step's chains.
    pub(crate) fn clear(&mut self) {
        self.branches.clear();
        self.links.clear();
        self.rules.clear();
        self.nested.clear();
        self.pending.clear();
        self.told.clear();
        self.open.clear();
        self.lines.clear();
        self.top = ChainAt::EMPTY;
        self.top_lines = (0, 0);
    }

    /// The chain being recorded.
    fn chain_mut(&mut self) -> &mut ChainAt {
        match self.open.last() {
            Some(&j) if j > 0 => &mut self.nested[j as usize - 1].branches,
            _ => &mut self.top,
        }
    }

    /// Starts a branch, from potential `start` (a producer's id), of the chain being
    /// recorded.
    pub(crate) fn open(&mut self, start: u16) {
        let at = self.links.len() as u32;
        let i = self.branches.len() as u32;
        self.branches.push(BranchAt {
            start: Potential::of_id(start),
            links: (at, at),
            next: END,
        });
        let chain = *self.chain_mut();
        if chain.last != END {
            self.branches[chain.last as usize].next = i;
        }
        let chain = self.chain_mut();
        if chain.first == END {
            chain.first = i;
        }
        chain.last = i;
        chain.len += 1;
    }

    /// Adds a link to the branch started last; `Why::Rule(k)` with `pending` is a rule the
    /// producer tells later (its own index `k`, [`Record::pending_from`]).
    pub(crate) fn link(&mut self, from: u16, to: u16, why: Why, opens: bool, pending: bool) {
        if pending {
            self.pending.push(self.links.len() as u32);
        }
        self.links.push(Link {
            from: Potential::of_id(from),
            to: Potential::of_id(to),
            why,
            opens,
        });
        if let Some(b) = self.branches.last_mut() {
            b.links.1 = self.links.len() as u32;
        }
    }

    /// Where the pending links start now: a producer's mark before it records a
    /// propagation's branches.
    pub(crate) fn pending_mark(&self) -> usize {
        self.pending.len()
    }

    /// Pending link `i` from `mark` on: (its index, the producer's rule index).
    pub(crate) fn pending_from(&self, mark: usize, i: usize) -> Option<(usize, u16)> {
        let at = *self.pending.get(mark + i)? as usize;
        match self.links[at].why {
            Why::Rule(k) => Some((at, k)),
            _ => None,
        }
    }

    /// How many links are pending from `mark` on.
    pub(crate) fn pending_len(&self, mark: usize) -> usize {
        self.pending.len() - mark
    }

    /// Tells link `at` its reason.
    pub(crate) fn tell(&mut self, at: usize, why: Why) {
        self.links[at].why = why;
    }

    /// Forgets the pending links from `mark` on (all told), and the reasons told since
    /// `told` ([`Record::told_mark`]).
    pub(crate) fn pending_done(&mut self, mark: usize, told: usize) {
        self.pending.truncate(mark);
        self.told.truncate(told);
    }

    /// Where the reasons told for one propagation start.
    pub(crate) fn told_mark(&self) -> usize {
        self.told.len()
    }

    /// The reason told since `mark` for the producer's rule `k`.
    pub(crate) fn told(&self, mark: usize, k: u16) -> Option<Why> {
        self.told[mark..]
            .iter()
            .find(|t| t.0 == k)
            .map(|&(_, why)| why)
    }

    /// Keeps the reason told for the producer's rule `k`.
    pub(crate) fn keep_told(&mut self, k: u16, why: Why) {
        self.told.push((k, why));
    }

    /// The index of `rule`, added unless the step has it.
    pub(crate) fn rule(&mut self, rule: Rule) -> u16 {
        if let Some(i) = self.rules.iter().position(|r| *r == rule) {
            return i as u16;
        }
        self.rules.push(rule);
        (self.rules.len() - 1) as u16
    }

    /// The index of the nested chain of fingerprint `print`, if the step has it.
    pub(crate) fn nested_of(&self, print: u64) -> Option<u16> {
        self.nested
            .iter()
            .position(|n| n.print == print)
            .map(|i| i as u16)
    }

    /// Starts nested chain `technique` (at `level`, 1 for one the step's links rest on),
    /// whose branches are recorded next, until [`Record::close_nested`]; its index.
    pub(crate) fn open_nested(&mut self, technique: Technique, level: u8, print: u64) -> u16 {
        self.nested.push(NestedAt {
            technique,
            level,
            branches: ChainAt::EMPTY,
            print,
            lines: (0, 0),
        });
        self.open.push(self.nested.len() as u32);
        (self.nested.len() - 1) as u16
    }

    /// Names nested chain `j` (a cycle or forcing chain is named off its path).
    pub(crate) fn name_nested(&mut self, j: u16, technique: Technique) {
        self.nested[j as usize].technique = technique;
    }

    /// Ends the nested chain opened last.
    pub(crate) fn close_nested(&mut self) {
        self.open.pop();
    }

    /// The step's chains, as the step gives them.
    pub(crate) fn view(&self) -> Branches<'_> {
        Branches {
            record: Some(self),
            chain: self.top,
        }
    }

    /// Writes the step's sentences with `write` (one a line): its own (`true`), then each
    /// nested chain's.
    pub(crate) fn write_lines(&mut self, mut write: impl FnMut(Branches<'_>, bool, &mut String)) {
        let mut lines = std::mem::take(&mut self.lines);
        lines.clear();
        write(self.view(), true, &mut lines);
        self.top_lines = (0, lines.len() as u32);
        for j in 0..self.nested.len() {
            let start = lines.len();
            let view = Branches {
                record: Some(self),
                chain: self.nested[j].branches,
            };
            write(view, false, &mut lines);
            self.nested[j].lines = (start as u32, lines.len() as u32);
        }
        self.lines = lines;
    }

    /// The sentences of the step's links.
    pub(crate) fn lines(&self) -> Lines<'_> {
        let (a, b) = self.top_lines;
        Lines(&self.lines[a as usize..b as usize])
    }

    /// Writes the step's own branches in Eureka notation, one a line.
    pub(crate) fn write_eureka(&self, out: &mut String) {
        for (i, branch) in self.view().iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            branch.write_eureka(out);
        }
    }
}
