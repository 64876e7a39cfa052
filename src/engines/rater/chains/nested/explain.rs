//! What a link of a dynamic chain (+) or nested chain rests on, told for `--steps`
//! ([`Nest::tell`]): the basic rule, or the nested chain, whose removal the link is.
//!
//! A propagation keeps, for each such removal, the hint's parents, its nested chain's
//! fingerprint and how far the propagation had got ([`Implied::rule_hint`]): the grid the
//! hint was found on is the step's less the "off" potentials implied until then. On that
//! grid the basic rules are run again (their hints in SE's order, numbered as the
//! propagation numbered them), or the producers the level nests, until the hint of the
//! same fingerprint comes; its chains are then recorded as a nested chain of the step, from
//! where its search found it ([`Origin`]), the links it rests on told in turn (level 5
//! nests chains of level 2, whose links rest on forcing chains).
//!
//! Nothing of this runs while rating: the searches are run again only for a reported step,
//! in the nesting driver's scratch (reserved once).
//!
//! Layer: the nesting driver's; it records dynamic chains through
//! [`dynamic`](super::super::dynamic), the one import circle.

use super::hint::{Nested, Origin};
use super::memo::{Producer, Reduced};
use super::{forcing, Nest};
use crate::engines::rater::board::{digits_of, Board, HOUSE_CELLS};
use crate::engines::rater::chain::{Record, Rule, Why};
// The circle SE's nesting has: nested chains of levels 4 and 5 are dynamic chains.
use crate::engines::rater::chains::dynamic::{self, How, Implied};
use crate::engines::rater::chains::forcing::{technique, Kind, Visit, PATH};
use crate::engines::rater::chains::nested::dynamic::Every;
use crate::engines::rater::chains::plus;
use crate::engines::rater::chains::shared::bits::PotSet;
use crate::engines::rater::chains::shared::links::{conjugate, potential};
use crate::engines::rater::chains::shared::record::{record_branch, record_path};
use crate::engines::rater::chains::PLUS_TECHNIQUES;
use crate::engines::rater::Technique;

/// A search that only grows its tree.
struct Grow;

impl Visit for Grow {}

impl Nest {
    /// Tells the links recorded since `mark` that rest on a basic rule or a nested chain of
    /// `x` (propagated on `b`, nested `level` deep: 0 for the step's own chains).
    pub(crate) fn tell(
        &mut self,
        rec: &mut Record,
        b: &Board,
        x: &Implied,
        mark: usize,
        level: u8,
    ) {
        let told = rec.told_mark();
        for i in 0..rec.pending_len(mark) {
            let Some((at, k)) = rec.pending_from(mark, i) else {
                continue;
            };
            let why = match rec.told(told, k) {
                Some(why) => why,
                None => {
                    let why = self.tell_one(rec, b, x, k as usize, level);
                    rec.keep_told(k, why);
                    why
                }
            };
            rec.tell(at, why);
        }
        rec.pending_done(mark, told);
    }

    /// What removal hint `k` of `x` (propagated on `b`) was.
    fn tell_one(&mut self, rec: &mut Record, b: &Board, x: &Implied, k: usize, level: u8) -> Why {
        let (_, chain, at) = x.rule_hint(k);
        let (cands, planes) = x.reduced_at(b, at);
        if chain.complexity == 0 {
            let rule = basic_rule(b, x, k, (&cands, &planes));
            debug_assert!(rule.is_some(), "a basic rule of (+) not found again");
            return Why::Rule(rec.rule(rule.unwrap_or(UNKNOWN)));
        }
        if let Some(j) = rec.nested_of(chain.print) {
            return Why::Nested(j);
        }
        let grid = Reduced {
            src: b,
            cands: &cands,
            planes: &planes,
        };
        self.build(grid);
        let producers: &[Producer] = match self.level {
            2 => &[Producer::Forcing],
            3 => &[Producer::Forcing, Producer::Multiple],
            4 => &[Producer::Dynamic],
            _ => &[Producer::Dynamic, Producer::Nested],
        };
        for &producer in producers {
            self.hints.clear();
            self.every_hint(b, producer);
            if let Some(&hint) = self.hints.iter().find(|h| h.chain == chain.print) {
                let technique = nested_technique(&hint, producer);
                let j = rec.open_nested(technique, level + 1, chain.print);
                if let Some(technique) = self.record_nested(rec, &hint, producer, level + 1) {
                    rec.name_nested(j, technique);
                }
                rec.close_nested();
                return Why::Nested(j);
            }
        }
        debug_assert!(false, "a nested chain not found again");
        Why::Rule(rec.rule(UNKNOWN))
    }

    /// Every hint of `producer` on the reduced grid built ([`Nest::build`]) from `src`, into
    /// `self.hints`.
    fn every_hint(&mut self, src: &Board, producer: Producer) {
        let (b, out) = (&self.board, &mut self.hints);
        match producer {
            Producer::Forcing => {
                let scratch = (&mut self.search, &mut *self.reach);
                forcing::every_hint(scratch, (src, b, &self.graph), None, out);
            }
            Producer::Multiple => {
                let every = self.every.as_mut().expect("level 3 has the scratch");
                every.hints((src, b), &mut self.graph, None, out);
            }
            Producer::Dynamic => {
                let every = self.dynamic.as_mut().expect("level 4 has the scratch");
                every.hints(src, b, out);
            }
            Producer::Nested => {
                let every = self.nested.as_mut().expect("level 5 has the scratch");
                every.hints(src, b, out);
            }
        }
    }

    /// Records the chains of `hint`, found by `producer` on the reduced grid built, as the
    /// nested chain opened last (`level` deep); a cycle's or forcing chain's technique, read
    /// off its path.
    fn record_nested(
        &mut self,
        rec: &mut Record,
        hint: &Nested,
        producer: Producer,
        level: u8,
    ) -> Option<Technique> {
        let b = &self.board;
        let (pass, root, end, extra) = match hint.origin {
            Origin::Cycle {
                pass,
                root,
                on,
                off,
            } => (pass, root, on, [off, root]),
            Origin::FromOn { pass, root, at } => (pass, root, at, [conjugate(root), 0]),
            Origin::FromOff { pass, root, at } => (pass, conjugate(root), at, [root, 0]),
            origin => {
                let how = how(origin)?;
                match producer {
                    Producer::Multiple => {
                        let every = self.every.as_mut().expect("level 3 has the scratch");
                        record_static(rec, b, &self.graph, every.scratch(), how);
                    }
                    Producer::Dynamic | Producer::Nested => {
                        let every: &mut Every = match producer {
                            Producer::Dynamic => self.dynamic.as_mut(),
                            _ => self.nested.as_mut(),
                        }
                        .expect("levels 4 and 5 have the scratch");
                        let (x, nest) = every.scratch();
                        dynamic::record(rec, b, (x, nest), how, level);
                    }
                    Producer::Forcing => {}
                }
                return None;
            }
        };
        // A cycle or forcing chain: the path of the search's tree, then what closes it.
        self.search
            .walk(&*self.graph, pass.rules(), root, &mut Grow);
        let mut path = [0u16; PATH];
        let n = self.search.path_to(end, &mut path, 0);
        let (kind, extra) = match hint.origin {
            Origin::Cycle { .. } => (Kind::Cycle(pass), &extra[..2]),
            _ => (Kind::Chain(pass), &extra[..1]),
        };
        path[n..n + extra.len()].copy_from_slice(extra);
        let path = &path[..n + extra.len()];
        record_path(rec, b, path);
        Some(technique(kind, path))
    }
}

/// A rule no search gave again (never seen: debug builds stop there).
const UNKNOWN: Rule = Rule::UNKNOWN;

/// The rule of removal hint `k` of `x` (propagated on `b`), found again on the grid it
/// reduced `b` to: the hints of the first basic rule with one, in SE's order, numbered as
/// the propagation numbered those that removed something new.
fn basic_rule(
    b: &Board,
    x: &Implied,
    k: usize,
    (cands, planes): (&[u16; 81], &[u128; 9]),
) -> Option<Rule> {
    let (_, _, at) = x.rule_hint(k);
    let mut implied = PotSet::EMPTY;
    for &p in &x.trail.found()[..at] {
        implied.insert(p);
    }
    let mut index = x.first_rule_with(k);
    let mut found = None;
    plus::rules(b, cands, planes, &mut |_, removals, pattern| {
        let mut new = false;
        for candidate in removals.iter() {
            let p = (candidate << 1) as u16;
            if !implied.has(p) {
                implied.insert(p);
                new = true;
            }
        }
        if new {
            if index == k && found.is_none() {
                found = Some(pattern.rule());
            }
            index += 1;
        }
    });
    found
}

/// The branches of a cell, region, contradiction or double forcing chain found at `origin`.
fn how(origin: Origin) -> Option<How> {
    Some(match origin {
        Origin::Cell { cell, target } => How::Cell { cell, target },
        Origin::Region {
            house,
            digit,
            target,
        } => How::Region {
            house,
            digit,
            target,
        },
        Origin::Contradiction { root } => How::Contradiction { root },
        Origin::Double {
            cell,
            digit,
            target,
        } => How::Double {
            cell,
            digit,
            target,
        },
        _ => return None,
    })
}

/// The technique of a nested hint of `producer`.
fn nested_technique(hint: &Nested, producer: Producer) -> Technique {
    let kind = match hint.origin {
        // Named once recorded, off their paths.
        Origin::Cycle { .. } => return Technique::BidirectionalCycle,
        Origin::FromOn { .. } | Origin::FromOff { .. } => return Technique::ForcingChain,
        Origin::Contradiction { .. } => 0,
        Origin::Double { .. } => 1,
        Origin::Cell { .. } => 2,
        Origin::Region { .. } => 3,
    };
    match producer {
        Producer::Multiple if kind == 2 => Technique::CellForcingChains,
        Producer::Multiple => Technique::RegionForcingChains,
        Producer::Dynamic => [
            Technique::DynamicContradictionForcingChains,
            Technique::DynamicDoubleForcingChains,
            Technique::DynamicCellForcingChains,
            Technique::DynamicRegionForcingChains,
        ][kind],
        _ => PLUS_TECHNIQUES[1][kind],
    }
}

/// Records a static cell or region forcing chain (`how`) on `b`, its links listed in
/// `graph`, propagating each assumption in `x`.
fn record_static(
    rec: &mut Record,
    b: &Board,
    graph: &crate::engines::rater::chains::shared::links::Graph,
    x: &mut crate::engines::rater::chains::multiple::Implied,
    how: How,
) {
    let mut one = |rec: &mut Record, root: u16, target: u16| {
        x.propagate(graph, root);
        record_branch(rec, b, &*x, target);
    };
    match how {
        How::Cell { cell, target } => {
            let c = cell as usize;
            for v in digits_of(b.cands[c]) {
                one(rec, potential(c, v, true), target);
            }
        }
        How::Region {
            house,
            digit,
            target,
        } => {
            let (h, d) = (house as usize, digit as usize);
            for i in digits_of(b.pos[h][d]) {
                one(rec, potential(HOUSE_CELLS[h][i] as usize, d, true), target);
            }
        }
        How::Contradiction { .. } | How::Double { .. } => {}
    }
}
