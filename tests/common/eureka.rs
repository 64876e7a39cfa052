//! A checker of the chains `rate --steps` writes (`"chain"`, Eureka notation): each is
//! parsed, every link is proved on the candidate grid the step was found on, and the chains'
//! ends are proved to justify the step's placements and eliminations. It knows nothing of
//! the engine: only the notation (`sudoku_batch::engines::rater::StepChain`) and the rules of sudoku.
//!
//! - A chain alternates weak links `-` (the node before is on, the next off) and strong links
//!   `=` (off, then on); its first link tells its first node's state.
//! - A weak link joins two candidates of one cell, or of one digit in two cells that share a
//!   house. A strong link joins the two candidates of a bivalue cell, or the two places of a
//!   digit in a house. In a dynamic chain (Nishio, dynamic forcing chains) a strong link may
//!   also join two candidates whose cell (house) has others, when each of those is off by a
//!   node already proved from the same assumption (on the chain, or on a bracketed chain of
//!   its branch).
//! - Dynamic forcing chains (+) also have rule links `~` (off, then off): the next node is
//!   removed by an intersection, a hidden or naked pair or an X-Wing on the grid that the
//!   removals proved so far from the same assumption leave. In nested forcing chains ("(+
//!   Forcing Chains)", "(+ Multiple Forcing Chains)", "(+ Dynamic Forcing Chains)") a rule
//!   link may also stand for a cycle, a forcing chain, a multiple or a dynamic forcing chain
//!   on that grid:
//!   it holds when that grid has no completion with the next node placed (what any sound
//!   chain on it proves; the checker does not rebuild the nested chain).
//! - Cycles: the chain closes on its first node in the same state, so its "on" nodes are all
//!   true or all false, its "off" nodes the opposite; each elimination sees an "on" and an
//!   "off" node of its digit (or lies in a cell holding an "on" and an "off" node).
//! - Forcing chains: a candidate assumed on leads to its removal (it is eliminated), or
//!   assumed off to its placement (it is placed); Nishio and contradiction chains: the
//!   assumption leads to a candidate on and off (or to its own negation); double forcing: the
//!   digit on and off lead to one conclusion; cell (region) forcing chains: every candidate
//!   of a cell (every place of a digit in a house) leads to one conclusion, which is the
//!   step's: a placement (with the cell's other candidates eliminated) or one elimination.

use std::collections::HashMap;

use serde_json::Value;

/// A candidate: cell 0..81 and digit 1..=9.
pub type Candidate = (usize, u8);

/// A candidate and a state (`true`: on).
type Potential = (Candidate, bool);

/// A link between neighbours of a chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Link {
    /// `-`: on, then off.
    Weak,
    /// `=`: off, then on.
    Strong,
    /// `~`: off, then off by a basic rule.
    Rule,
}

/// A chain parsed: its candidates and the links between neighbours.
#[derive(Debug)]
struct Chain {
    nodes: Vec<Candidate>,
    links: Vec<Link>,
}

impl Chain {
    /// The state (`true`: on) of node `i`, from the link before it (the first node's from
    /// the link after it).
    fn state(&self, i: usize) -> bool {
        if i == 0 {
            self.links[0] == Link::Weak
        } else {
            self.links[i - 1] == Link::Strong
        }
    }

    fn last(&self) -> Potential {
        let n = self.nodes.len() - 1;
        (self.nodes[n], self.state(n))
    }
}

fn shares_house(a: usize, b: usize) -> bool {
    a / 9 == b / 9 || a % 9 == b % 9 || (a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3)
}

fn sees(a: usize, b: usize) -> bool {
    a != b && shares_house(a, b)
}

/// The 27 houses' cells: rows, columns, blocks.
fn houses() -> Vec<Vec<usize>> {
    let mut hs = Vec::new();
    for i in 0..9 {
        hs.push((0..9).map(|k| i * 9 + k).collect());
        hs.push((0..9).map(|k| k * 9 + i).collect());
        hs.push(
            (0..9)
                .map(|k| (i / 3 * 3 + k / 3) * 9 + i % 3 * 3 + k % 3)
                .collect(),
        );
    }
    hs
}

/// Parses one chain: `(5)r1c2-r1c7=(5=3)r2c8-r3c9`.
fn parse_chain(text: &str) -> Result<Chain, String> {
    let b = text.as_bytes();
    let mut i = 0;
    let mut nodes: Vec<Candidate> = Vec::new();
    let mut links = Vec::new();
    let digit = |c: u8| (b'1'..=b'9').contains(&c).then(|| c - b'0');
    loop {
        // A node: [(d) | (d=e)] rXcY.
        let mut digits = Vec::new();
        if b.get(i) == Some(&b'(') {
            let d = b
                .get(i + 1)
                .and_then(|&c| digit(c))
                .ok_or("digit expected")?;
            digits.push(d);
            i += 2;
            if b.get(i) == Some(&b'=') {
                let e = b
                    .get(i + 1)
                    .and_then(|&c| digit(c))
                    .ok_or("digit expected")?;
                if e == d {
                    return Err(format!("({d}={e}) links a candidate to itself"));
                }
                digits.push(e);
                i += 2;
            }
            if b.get(i) != Some(&b')') {
                return Err(format!("')' expected at {i}"));
            }
            i += 1;
        } else {
            let &(_, last) = nodes.last().ok_or("the first node has no digit")?;
            digits.push(last);
        }
        let cell = match (b.get(i), b.get(i + 1), b.get(i + 2), b.get(i + 3)) {
            (Some(b'r'), Some(&r), Some(b'c'), Some(&c)) => {
                let (r, c) = (digit(r).ok_or("row")?, digit(c).ok_or("column")?);
                usize::from(r - 1) * 9 + usize::from(c - 1)
            }
            _ => return Err(format!("a cell rXcY expected at {i}")),
        };
        i += 4;
        if digits.len() == 2 {
            nodes.push((cell, digits[0]));
            links.push(Link::Strong);
        }
        nodes.push((cell, *digits.last().unwrap()));
        match b.get(i) {
            None => break,
            Some(b'-') => links.push(Link::Weak),
            Some(b'=') => links.push(Link::Strong),
            Some(b'~') => links.push(Link::Rule),
            Some(&c) => return Err(format!("a link expected at {i}, found {:?}", c as char)),
        }
        i += 1;
    }
    if links.is_empty() {
        return Err("a chain of one node".into());
    }
    // An "on" node (after `=`) is followed by `-`; an "off" one (after `-` or `~`) by `=`
    // or `~`.
    if links
        .windows(2)
        .any(|w| (w[0] == Link::Strong) != (w[1] == Link::Weak))
    {
        return Err("links do not alternate".into());
    }
    Ok(Chain { nodes, links })
}

/// Parses a branch: its main chain, then ` [chain]` for each supporting one.
fn parse_branch(text: &str) -> Result<Vec<Chain>, String> {
    let (main, mut rest) = match text.find(" [") {
        Some(i) => (&text[..i], &text[i..]),
        None => (text, ""),
    };
    let mut chains = vec![parse_chain(main).map_err(|e| format!("{e}: {main}"))?];
    while !rest.is_empty() {
        let inner = rest
            .strip_prefix(" [")
            .and_then(|r| r.split_once(']'))
            .ok_or_else(|| format!("a bracketed chain expected: {rest}"))?;
        chains.push(parse_chain(inner.0).map_err(|e| format!("{e}: {}", inner.0))?);
        rest = inner.1;
    }
    Ok(chains)
}

/// The candidate grid of a step and what a branch has proved so far.
struct Proof<'a> {
    candidates: &'a [u16; 81],
    houses: &'a [Vec<usize>],
    /// Whether links may read removals proved earlier from the same assumption.
    dynamic: bool,
    /// Whether rule links may (dynamic forcing chains (+)).
    plus: bool,
    /// Rule links may also stand for nested chains.
    nested: bool,
    proved: HashMap<Candidate, bool>,
    /// The one candidate that may be proved both on and off: the end of a chain to a
    /// contradiction.
    clash_at: Option<Candidate>,
}

impl Proof<'_> {
    fn has(&self, (cell, d): Candidate) -> bool {
        self.candidates[cell] >> (d - 1) & 1 == 1
    }

    /// The step's candidates less those proved off.
    fn reduced(&self) -> [u16; 81] {
        let mut grid = *self.candidates;
        for (&(cell, d), &on) in &self.proved {
            if !on {
                grid[cell] &= !(1 << (d - 1));
            }
        }
        grid
    }

    /// Whether every candidate of `others` is proved off.
    fn all_off(&self, mut others: impl Iterator<Item = Candidate>) -> bool {
        others.all(|x| self.proved.get(&x) == Some(&false))
    }

    /// Whether the link from `a` to `b` holds.
    fn link(&self, a: Candidate, b: Candidate, link: Link) -> Result<(), String> {
        if !self.has(a) || !self.has(b) || a == b {
            return Err("a node is not a candidate, or links to itself".into());
        }
        if link == Link::Rule {
            let grid = self.reduced();
            return if !self.plus {
                Err("a rule link outside dynamic forcing chains (+)".into())
            } else if basic_rules_remove(&grid, self.houses, b)
                || (self.nested && !completes(&grid, self.houses, b))
            {
                Ok(())
            } else {
                Err("no basic rule removes the candidate from the reduced grid".into())
            };
        }
        let strong = link == Link::Strong;
        let others_in_cell = || {
            (1..=9u8)
                .filter(move |&e| e != a.1 && e != b.1)
                .map(move |e| (a.0, e))
                .filter(|&x| self.has(x))
        };
        if !strong {
            return if a.0 == b.0 || (a.1 == b.1 && shares_house(a.0, b.0)) {
                Ok(())
            } else {
                Err("a weak link between candidates that do not see each other".into())
            };
        }
        if a.0 == b.0 {
            let free = others_in_cell().next().is_none();
            return if free || (self.dynamic && self.all_off(others_in_cell())) {
                Ok(())
            } else {
                Err("a strong link in a cell with other candidates".into())
            };
        }
        if a.1 != b.1 {
            return Err("a strong link between two digits of two cells".into());
        }
        let d = a.1;
        let ok = self.houses.iter().any(|h| {
            if !h.contains(&a.0) || !h.contains(&b.0) {
                return false;
            }
            let others = || {
                h.iter()
                    .map(move |&o| (o, d))
                    .filter(move |&x| x.0 != a.0 && x.0 != b.0 && self.has(x))
            };
            others().next().is_none() || (self.dynamic && self.all_off(others()))
        });
        if ok {
            Ok(())
        } else {
            Err("a strong link in houses with other places of the digit".into())
        }
    }

    /// Proves the nodes of a chain from node `from` on (the first node must be proved in
    /// its state; a node proved in both states is an error but at `clash_at`). Returns how
    /// many links held. A walk resumes where the last one stopped: a rule link, proved on
    /// the grid of its time, stays proved (more removals may hide the rule, never undo it).
    fn walk(&mut self, chain: &Chain, from: usize) -> Result<usize, String> {
        let start = (chain.nodes[0], chain.state(0));
        if from == 0 && self.proved.get(&start.0) != Some(&start.1) {
            return Ok(0);
        }
        for i in from..chain.links.len() {
            let (a, b) = (chain.nodes[i], chain.nodes[i + 1]);
            if self.link(a, b, chain.links[i]).is_err() {
                return Ok(i);
            }
            let state = chain.state(i + 1);
            match self.proved.get(&b) {
                Some(&s) if s != state => {
                    if self.clash_at != Some(b) {
                        return Err(format!("{b:?} is proved both on and off"));
                    }
                }
                _ => {
                    self.proved.insert(b, state);
                }
            }
        }
        Ok(chain.links.len())
    }
}

/// Proves a branch on `candidates`; returns its assumption and its conclusion (candidates
/// and states). With `clash_ok`, its conclusion may clash with what it proved before.
fn prove_branch(
    candidates: &[u16; 81],
    houses: &[Vec<usize>],
    text: &str,
    (dynamic, plus, nested): (bool, bool, bool),
    clash_ok: bool,
) -> Result<(Potential, Potential), String> {
    let chains = parse_branch(text)?;
    if !dynamic && chains.len() > 1 {
        return Err(format!("bracketed chains in a static branch: {text}"));
    }
    let mut proof = Proof {
        candidates,
        houses,
        dynamic,
        plus,
        nested,
        proved: HashMap::new(),
        clash_at: clash_ok.then(|| chains[0].last().0),
    };
    let premise = (chains[0].nodes[0], chains[0].state(0));
    if !proof.has(premise.0) {
        return Err(format!("the assumption is not a candidate: {text}"));
    }
    proof.proved.insert(premise.0, premise.1);
    // Supporting chains may need one another: walk them all until none gets further.
    let mut held = vec![0usize; chains.len()];
    loop {
        let mut progress = false;
        for (k, chain) in chains.iter().enumerate() {
            if held[k] == chain.links.len() {
                continue;
            }
            let n = proof.walk(chain, held[k])?;
            if n > held[k] {
                held[k] = n;
                progress = true;
            }
        }
        if !progress {
            break;
        }
    }
    for (k, chain) in chains.iter().enumerate() {
        let i = held[k];
        if i < chain.links.len() {
            let (a, b) = (chain.nodes[i], chain.nodes[i + 1]);
            let why = proof
                .link(a, b, chain.links[i])
                .err()
                .unwrap_or_else(|| "its first node is never proved".into());
            return Err(format!("link {} of chain {k} fails ({why}): {text}", i + 1));
        }
    }
    Ok((premise, chains[0].last()))
}

/// The chain field's strings: one (`"chain":"..."`) or several (`"chain":[...]`).
fn strings(v: &Value) -> Result<(bool, Vec<&str>), String> {
    match v {
        Value::String(s) => Ok((false, vec![s.as_str()])),
        Value::Array(a) if !a.is_empty() => a
            .iter()
            .map(|x| x.as_str().ok_or("a branch is not a string".to_string()))
            .collect::<Result<_, _>>()
            .map(|v| (true, v)),
        _ => Err(format!(
            "a chain field that is neither a string nor branches: {v}"
        )),
    }
}

fn candidate(text: &str, op: &str) -> Candidate {
    let (cell, digit) = text.split_once(op).unwrap();
    let b = cell.as_bytes();
    let cell = usize::from(b[1] - b'1') * 9 + usize::from(b[3] - b'1');
    (cell, digit.parse().unwrap())
}

/// The step's effect: what it places and what it eliminates.
fn effects(step: &Value) -> (Vec<Candidate>, Vec<Candidate>) {
    let list = |key: &str, op: &str| -> Vec<Candidate> {
        step[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| candidate(x.as_str().unwrap(), op))
            .collect()
    };
    (list("placements", "="), list("eliminations", "<>"))
}

/// Whether the step's effect is what concluding `c` in `state` gives: a placement of it
/// (and the cell's other candidates eliminated), or its one elimination.
fn concludes(step: &Value, candidates: &[u16; 81], c: Candidate, on: bool) -> Result<(), String> {
    let (placements, mut eliminations) = effects(step);
    eliminations.sort_unstable();
    let (want_p, want_e) = if on {
        let others = (1..=9u8)
            .filter(|&e| e != c.1 && candidates[c.0] >> (e - 1) & 1 == 1)
            .map(|e| (c.0, e))
            .collect();
        (vec![c], others)
    } else {
        (vec![], vec![c])
    };
    if placements == want_p && eliminations == want_e {
        Ok(())
    } else {
        Err(format!(
            "the chains conclude {c:?} {}, the step places {placements:?} and eliminates \
             {eliminations:?}",
            if on { "on" } else { "off" }
        ))
    }
}

/// What kind of chain a technique rests on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Family {
    Cycle,
    Forcing,
    Nishio,
    Contradiction,
    Double,
    Cell { dynamic: bool },
    Region { dynamic: bool },
}

/// The family of a technique's chains, `None` for a technique without chains.
pub fn family(technique: &str) -> Option<Family> {
    Some(match technique {
        "Bidirectional X-Cycle"
        | "Generalized X-Wing"
        | "Bidirectional Y-Cycle"
        | "Bidirectional Cycle" => Family::Cycle,
        "Forcing X-Chain" | "Turbot Fish" | "Forcing Chain" => Family::Forcing,
        "Nishio Forcing Chains" => Family::Nishio,
        "Dynamic Contradiction Forcing Chains" => Family::Contradiction,
        "Dynamic Double Forcing Chains" => Family::Double,
        "Cell Forcing Chains" => Family::Cell { dynamic: false },
        "Dynamic Cell Forcing Chains" => Family::Cell { dynamic: true },
        "Region Forcing Chains" => Family::Region { dynamic: false },
        "Dynamic Region Forcing Chains" => Family::Region { dynamic: true },
        _ => return None,
    })
}

/// Checks the chains of one step (a `"kind":"step"` object) found on `candidates` (bit
/// `d - 1` of each cell for digit `d`, 0 for a placed cell). Returns the step's family, or
/// `None` for a step that has (and must have) no chain.
pub fn check_step(candidates: &[u16; 81], step: &Value) -> Result<Option<Family>, String> {
    let technique = step["technique"].as_str().unwrap_or_default();
    let nested = technique.ends_with(" (+ Forcing Chains)")
        || technique.ends_with(" (+ Multiple Forcing Chains)")
        || technique.ends_with(" (+ Dynamic Forcing Chains)");
    let plus = nested || technique.ends_with(" (+)");
    let base = technique
        .trim_end_matches(" (+)")
        .trim_end_matches(" (+ Forcing Chains)")
        .trim_end_matches(" (+ Multiple Forcing Chains)")
        .trim_end_matches(" (+ Dynamic Forcing Chains)");
    let Some(family) = family(base) else {
        return match step.get("chain") {
            None => Ok(None),
            Some(_) => Err(format!("{technique} has a chain")),
        };
    };
    let field = step
        .get("chain")
        .ok_or_else(|| format!("{technique} has no chain"))?;
    let (branched, texts) = strings(field)?;
    let single = matches!(family, Family::Cycle | Family::Forcing);
    if branched == single || (single && texts.len() != 1) {
        return Err(format!(
            "{technique}: the wrong shape of chain field: {field}"
        ));
    }
    let houses = houses();
    let dynamic = !matches!(
        family,
        Family::Cycle
            | Family::Forcing
            | Family::Cell { dynamic: false }
            | Family::Region { dynamic: false }
    );
    let clash_ok = matches!(
        family,
        Family::Forcing | Family::Nishio | Family::Contradiction
    );
    let mut ends = Vec::new();
    for text in &texts {
        ends.push(prove_branch(
            candidates,
            &houses,
            text,
            (dynamic, plus, nested),
            clash_ok,
        )?);
    }
    if family == Family::Cycle {
        check_cycle(step, technique, texts[0])?;
        return Ok(Some(family));
    }
    let (c, on) = conclusion(family, candidates, &houses, &ends)
        .map_err(|e| format!("{technique}: {e}: {texts:?}"))?;
    if family == Family::Nishio {
        let digit = (ends[0].0 .0).1;
        for text in &texts {
            for chain in parse_branch(text)? {
                if chain.nodes.iter().any(|n| n.1 != digit) {
                    return Err(format!("a Nishio chain off its digit: {text}"));
                }
            }
        }
    }
    concludes(step, candidates, c, on)?;
    Ok(Some(family))
}

/// Whether `grid` (candidates; 0 for a placed cell) has a completion with `target` placed:
/// every open cell gets one of its candidates, no digit twice in a house.
fn completes(grid: &[u16; 81], houses: &[Vec<usize>], target: Candidate) -> bool {
    let (tc, td) = target;
    if grid[tc] >> (td - 1) & 1 == 0 {
        return false;
    }
    let mut g = *grid;
    g[tc] = 1 << (td - 1);
    search(&mut g, houses)
}

/// Depth-first search for a completion of `g`, the cell of fewest candidates first, each
/// single's digit removed from its peers.
fn search(g: &mut [u16; 81], houses: &[Vec<usize>]) -> bool {
    let mut done = [false; 81];
    loop {
        let mut changed = false;
        for c in 0..81 {
            if g[c] == 0 && !done[c] {
                // A placed cell of the grid, or an open one emptied: the latter fails below.
                done[c] = true;
            }
        }
        for c in 0..81 {
            if done[c] || g[c].count_ones() != 1 {
                continue;
            }
            done[c] = true;
            let bit = g[c];
            for h in houses.iter().filter(|h| h.contains(&c)) {
                for &o in h {
                    if o != c && g[o] & bit != 0 {
                        if done[o] {
                            return false;
                        }
                        g[o] &= !bit;
                        if g[o] == 0 {
                            return false;
                        }
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    let open = (0..81)
        .filter(|&c| !done[c])
        .min_by_key(|&c| g[c].count_ones());
    let Some(c) = open else {
        return true;
    };
    let mut m = g[c];
    while m != 0 {
        let bit = m & m.wrapping_neg();
        m &= m - 1;
        let mut next = *g;
        next[c] = bit;
        if search(&mut next, houses) {
            return true;
        }
    }
    false
}

/// Whether an intersection, a hidden or naked pair or an X-Wing on `grid` removes `target`.
fn basic_rules_remove(grid: &[u16; 81], houses: &[Vec<usize>], target: Candidate) -> bool {
    let (tc, td) = target;
    let bit = |cell: usize, d: u8| grid[cell] >> (d - 1) & 1 == 1;
    let count = |h: &[usize], d: u8| h.iter().filter(|&&c| bit(c, d)).count();
    // Intersections: every place of `td` in one house lies in another.
    let locked = houses.iter().any(|h1| {
        count(h1, td) > 0
            && !h1.contains(&tc)
            && houses
                .iter()
                .any(|h2| h2.contains(&tc) && h1.iter().all(|&c| !bit(c, td) || h2.contains(&c)))
    });
    // Hidden pairs: two digits with two places between them in a house, one the target's
    // cell, which holds the target's digit besides them.
    let hidden = houses.iter().filter(|h| h.contains(&tc)).any(|h| {
        (1..=9u8).any(|x| {
            (x + 1..=9).any(|y| {
                if x == td || y == td {
                    return false;
                }
                let cells: Vec<usize> = h
                    .iter()
                    .copied()
                    .filter(|&c| bit(c, x) || bit(c, y))
                    .collect();
                cells.len() == 2
                    && cells.contains(&tc)
                    && cells.iter().all(|&c| bit(c, x) || bit(c, y))
                    && count(h, x) > 0
                    && count(h, y) > 0
            })
        })
    });
    // Naked pairs: two other cells of a house of the target with two digits between them,
    // one the target's.
    let naked = houses.iter().filter(|h| h.contains(&tc)).any(|h| {
        h.iter().any(|&a| {
            h.iter().any(|&b| {
                a < b
                    && a != tc
                    && b != tc
                    && grid[a] != 0
                    && grid[b] != 0
                    && (grid[a] | grid[b]).count_ones() == 2
                    && (grid[a] | grid[b]) >> (td - 1) & 1 == 1
            })
        })
    });
    // X-Wings: two rows (columns) whose places of the digit lie in two columns (rows), the
    // target in one of those outside the two.
    let line = |rows: bool, i: usize, k: usize| if rows { i * 9 + k } else { k * 9 + i };
    let wing = [true, false].iter().any(|&rows| {
        (0..9).any(|i| {
            (i + 1..9).any(|j| {
                let across = |l: usize| (0..9).filter(move |&k| bit(line(rows, l, k), td));
                let mut covers: Vec<usize> = across(i).chain(across(j)).collect();
                covers.sort_unstable();
                covers.dedup();
                let own = if rows { tc / 9 } else { tc % 9 };
                let cross = if rows { tc % 9 } else { tc / 9 };
                covers.len() == 2
                    && across(i).count() > 0
                    && across(j).count() > 0
                    && own != i
                    && own != j
                    && covers.contains(&cross)
            })
        })
    });
    bit(tc, td) && (locked || hidden || naked || wing)
}

/// A cycle closes on its first node in its state, and each elimination sees an "on" and an
/// "off" node of its digit (or lies in a cell holding both).
fn check_cycle(step: &Value, technique: &str, text: &str) -> Result<(), String> {
    let chain = parse_chain(text)?;
    let (last, state) = chain.last();
    if last != chain.nodes[0] || state != chain.state(0) {
        return Err(format!("the cycle does not close: {text}"));
    }
    let (placements, eliminations) = effects(step);
    if !placements.is_empty() || eliminations.is_empty() {
        return Err(format!("a cycle places or eliminates nothing: {step}"));
    }
    let loop_nodes: Vec<Potential> = (0..chain.nodes.len() - 1)
        .map(|i| (chain.nodes[i], chain.state(i)))
        .collect();
    for &(cell, d) in &eliminations {
        let on_off = |on: bool| {
            loop_nodes
                .iter()
                .any(|&((c, e), s)| s == on && e == d && sees(cell, c))
        };
        let in_cell = |on: bool| {
            loop_nodes
                .iter()
                .any(|&((c, e), s)| s == on && c == cell && e != d)
        };
        let seen = on_off(true) && on_off(false);
        let within = in_cell(true) && in_cell(false);
        if !seen && !within {
            let name = format!("r{}c{}<>{d}", cell / 9 + 1, cell % 9 + 1);
            return Err(format!("{name} sees no pair of the cycle: {text}"));
        }
    }
    let x_cycle = matches!(technique, "Bidirectional X-Cycle" | "Generalized X-Wing");
    if x_cycle && chain.nodes.iter().any(|n| n.1 != chain.nodes[0].1) {
        return Err(format!("an X-cycle of several digits: {text}"));
    }
    Ok(())
}

/// What forcing chains conclude, once their branches' assumptions are proved to cover every
/// case (`ends`: each branch's assumption and conclusion).
fn conclusion(
    family: Family,
    candidates: &[u16; 81],
    houses: &[Vec<usize>],
    ends: &[(Potential, Potential)],
) -> Result<Potential, String> {
    let premises: Vec<Potential> = ends.iter().map(|e| e.0).collect();
    let conclusions: Vec<Potential> = ends.iter().map(|e| e.1).collect();
    let agreed = || {
        if conclusions.iter().all(|&c| c == conclusions[0]) {
            Ok(conclusions[0])
        } else {
            Err("the branches conclude apart".to_string())
        }
    };
    match family {
        Family::Cycle => unreachable!("a cycle concludes nothing"),
        Family::Forcing => {
            let (premise, end) = ends[0];
            if premise.0 != end.0 || premise.1 == end.1 {
                return Err("a forcing chain not to its assumption's negation".into());
            }
            Ok(end)
        }
        Family::Nishio | Family::Contradiction => {
            let premise = premises[0];
            if premises.iter().any(|&p| p != premise) {
                return Err("branches from several assumptions".into());
            }
            let clash = match conclusions[..] {
                [a] => a.0 == premise.0 && a.1 != premise.1,
                [a, b] => a.0 == b.0 && a.1 && !b.1,
                _ => false,
            };
            if !clash {
                return Err("no clash".into());
            }
            Ok((premise.0, !premise.1))
        }
        Family::Double => {
            if !matches!(premises[..], [a, b] if a.0 == b.0 && a.1 && !b.1) {
                return Err("not a digit on, then off".into());
            }
            agreed()
        }
        Family::Cell { .. } => {
            let cell = (premises[0].0).0;
            let mut want: Vec<Potential> = (1..=9u8)
                .filter(|&d| candidates[cell] >> (d - 1) & 1 == 1)
                .map(|d| ((cell, d), true))
                .collect();
            want.sort_unstable();
            let mut got = premises.clone();
            got.sort_unstable();
            if got != want {
                return Err("not every candidate of a cell".into());
            }
            agreed()
        }
        Family::Region { .. } => {
            let digit = (premises[0].0).1;
            let mut got: Vec<usize> = premises.iter().map(|p| (p.0).0).collect();
            got.sort_unstable();
            let all_on = premises.iter().all(|p| p.1 && (p.0).1 == digit);
            let covers = houses.iter().any(|h| {
                let mut places: Vec<usize> = h
                    .iter()
                    .copied()
                    .filter(|&o| candidates[o] >> (digit - 1) & 1 == 1)
                    .collect();
                places.sort_unstable();
                places == got
            });
            if !all_on || !covers {
                return Err("not every place of a digit in a house".into());
            }
            agreed()
        }
    }
}

/// Broken copies of a chain step found on `candidates`, each of which the checker must
/// refuse: every link of the first chain swapped (`-` and `=`), its last node moved to the
/// next row, its bracketed chains dropped (when it has some), one elimination more.
pub fn broken(step: &Value, candidates: &[u16; 81]) -> Vec<Value> {
    let with_first = |text: String| {
        let mut s = step.clone();
        match &mut s["chain"] {
            Value::Array(a) => a[0] = Value::String(text),
            v => *v = Value::String(text),
        }
        s
    };
    let chain = match &step["chain"] {
        Value::Array(a) => a[0].as_str().unwrap().to_string(),
        v => v.as_str().unwrap().to_string(),
    };
    let (main, brackets) = chain.split_at(chain.find(" [").unwrap_or(chain.len()));
    let b = main.as_bytes();
    // A link between nodes follows a cell (`...c5-`); one inside a node follows a digit.
    let swapped: String = main
        .char_indices()
        .map(|(i, c)| match c {
            '-' if b[i - 2] == b'c' => '=',
            '=' if b[i - 2] == b'c' => '-',
            c => c,
        })
        .collect();
    let mut out = vec![with_first(format!("{swapped}{brackets}"))];
    let mut moved = main.as_bytes().to_vec();
    let row = moved.len() - 3;
    moved[row] = b'1' + (moved[row] - b'1' + 1) % 9;
    out.push(with_first(format!(
        "{}{brackets}",
        String::from_utf8(moved).unwrap()
    )));
    if !brackets.is_empty() {
        out.push(with_first(main.to_string()));
    }
    let listed = step["eliminations"].as_array().unwrap();
    let extra = (0..81usize)
        .flat_map(|c| (1..=9u8).map(move |d| (c, d)))
        .filter(|&(c, d)| candidates[c] >> (d - 1) & 1 == 1)
        .map(|(c, d)| format!("r{}c{}<>{d}", c / 9 + 1, c % 9 + 1))
        .find(|e| !listed.iter().any(|x| x.as_str() == Some(e.as_str())))
        .unwrap();
    let mut more = step.clone();
    more["eliminations"]
        .as_array_mut()
        .unwrap()
        .push(Value::String(extra));
    out.push(more);
    out
}
