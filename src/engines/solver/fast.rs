//! The bitboard solver: digit planes split into band words, in the style of JCZSolve, with
//! three branching rules (JCZSolve's first bivalue cell, tdoku-style band configurations, and
//! a hybrid of the two).
//!
//! ```text
//!  grid rows          band word for one digit (u32, 27 live bits)
//!  0 ┐                 bit:  26 ........ 18 | 17 ........ 9 | 8 ......... 0
//!  1 ├ band 0                row 2 of band  | row 1 of band | row 0 of band
//!  2 ┘                       c8 c7 ... c0   | c8 c7 ... c0  | c8 c7 ... c0
//!  3 ┐
//!  4 ├ band 1         state.cand[digit * 3 + band]: cells of `band` where `digit` may go
//!  5 ┘                (a placed digit keeps its one bit; other digits lose that bit)
//!  6 ┐                state.unsolved[band]: cells of `band` not placed yet
//!  7 ├ band 2         state.prev[..]: each word as last band-updated (change detection)
//!  8 ┘
//!
//!  mini-row = 3 cells where a row crosses a box; a band has 9 (row r, box k: bits r*9+3k..+2)
//! ```
//!
//! Techniques, per step of [`State::propagate`] (cheapest first):
//! - **band update** (per changed word; JCZSolve's "shrink/complex" step): the digit's 9
//!   mini-rows must form a permutation matrix (once per row, once per box), so one table
//!   lookup gives box-line reduction both ways and hidden singles in boxes (`COMPLEX`); a row
//!   left with one cell is a hidden single in that row and is placed: its cell leaves the
//!   other 8 digits' words. A box confined to one column locks that column for the digit, and
//!   the other two bands lose it (`KEEP_OTHER`), which also does the column elimination of a
//!   placed digit. Changed words are found by comparing with `prev` (vectorised) and
//!   visited as set bits; a node's first round takes them from the branch that made it,
//!   which knows what it changed ([`State::update_hinted`]).
//! - **naked singles**, once the band updates reach a fixed point: bit-sliced counting over
//!   the 9 digit words of a band finds cells with one candidate (`once = seen & !seen_twice`)
//!   and cells with none (contradiction), for the three bands at once (one SSE2 lane each,
//!   `lanes.rs`). The same pass notes the first bivalue cell.
//! - **stack update**, when both of the above are exhausted, for the digits they changed: the
//!   column-direction twin of the band update (mini-columns of a stack form a permutation
//!   matrix too: hidden singles in columns, column-box reductions). PEXT/PDEP with BMI2.
//!   Not in `HYBRID`'s cell phase (see below) before its switch to band configurations.
//! - **mini-row counting**, in the band rules only, when propagation has stopped and the
//!   search is about to branch (fused with the band choice, [`State::band_step`]): each
//!   mini-row holds exactly 3 digits (tdoku's cardinality constraint on box-row
//!   intersections). Per band, bit-sliced counts over the 9 digits of the mini-rows each digit
//!   may use (in some configuration left, `MINI_ROWS`) and must use (in all of them). Fewer
//!   than 3 possible or more than 3 certain digits is a contradiction; 3 possible digits go
//!   in, 3 certain ones push the others out; then propagation runs again.
//! - **branching**, by one of three rules (the `RULE` parameter; `--algorithm
//!   jcz|bands|hybrid`, `fast` = `hybrid`):
//!   - `JCZ`: on the first bivalue cell, else on the first unsolved cell of each band with the
//!     fewest candidates (JCZSolve's rule). Candidates are tried in increasing digit order.
//!     "First" depends on the cell order, so the tree's size depends on the orientation.
//!   - `BANDS` (the idea of T. Dillon's tdoku, on our digit planes): a digit's 9 mini-rows in a
//!     band can be true in 6 *configurations* (a permutation of the 3 boxes over the 3 rows;
//!     `MINI_ROWS[occupancy]` lists those still possible). Take the band with the fewest
//!     configurations summed over its digits that have 2 or more (ties: fewer candidate
//!     cells), and there the digit with the fewest configurations
//!     (ties: fewer candidate cells, then the lower digit); each child keeps one
//!     configuration's 3 mini-rows (`CONFIG_CELLS`) and the band update does the rest. A count
//!     does not depend on cell order, so the choice is robust to orientation. When every
//!     digit's configuration is fixed, cells as in `JCZ`.
//!   - `HYBRID` (the default): `BANDS` from the root when the root's propagation left 50 or
//!     more cells open (the hard sets leave 54-61), under a small work budget (2,048 nodes;
//!     the public sets need at most 1,329 that way); if that runs out, or when fewer cells
//!     are open, `JCZ` until the search has met 4 dead ends (states that propagation or
//!     counting refuted), then `BANDS`. Puzzles with many solutions (serg_benchmark: 31-47
//!     open) mostly finish before the switch on the cheaper cell branching; hard ones get the
//!     smaller tree from the first branch. The budget is there because band configurations
//!     from the root cannot refute some sparse grids that cells refute at once: Norvig's
//!     "impossible" puzzle takes `BANDS` 65,536 nodes, cells 51, so the default takes
//!     2,048 + 51.
//!
//!   Without mini-row counting, the band rules could not be the default: the fuzzer found
//!   nearly empty grids on which they pick configurations that cannot fit together (4 digits
//!   in one mini-row), which nothing detected until the cells ran out; they searched dead
//!   subtrees until the work budget restarted them (~65,600 nodes instead of ~40-50).
//!   Counting refutes such a state at once (`nearly_empty_grids_are_cheap` in the tests).
//!
//!   Every alternative but the last runs on a copy of the state (228 bytes, on the call stack:
//!   depth ≤ 81), the last one continues in place.
//! - **restarts** (robustness, never reached by the public puzzle sets): past a work budget
//!   the search restarts in a careful mode with failed-literal probing at every node, and the
//!   two modes alternate with a growing budget (see [`solve`]). Found by fuzzing: a grid
//!   whose row had three digits left for two cells took 7.4 million guesses without it.
//!
//! # Measured: what was kept and what was lost
//!
//! Each entry gives the date and the commit that made the change (kept) or recorded the
//! measurement (lost). "Shuffled" means symmetry-shuffled copies (`shuffle --seed 7`); sets
//! are tdoku's (17-clue, top1465, forum_hardest 1905_11+ and 1106, serg_benchmark) and the
//! Kaggle 25k sample. Until 2026-12-01 00:48 UTC the machine was an AMD EPYC family 0x17
//! (Zen 2, slow PEXT), after it family 0x19 (Zen 4). Comparisons with tdoku and the `sudoku`
//! crate are in `docs/performance.md`.
//!
//! - kept (2026-11-29, 88b1e9c): the stack update run last (13-37% fewer guesses on the hard
//!   sets; run eagerly after every band fixed point it cost more than it saved);
//!   unconditional elimination of placed cells (a branch there mispredicts); full peer
//!   elimination when placing a given or a single; givens iterated as set bits, conflicting
//!   givens detected while placing them.
//! - lost (2026-11-29, 88b1e9c): a global minimum-candidates cell when no bivalue cell exists
//!   (241 vs 174 guesses/puzzle on 1106); bivalue cells scored by the candidates of their
//!   digits (19% fewer guesses, slower overall); probing the fallback cells with propagation;
//!   branching on a digit with two places in a row; a pending-word bitmask updated on every
//!   elimination instead of comparing with `prev` (10-15% slower: one long dependency
//!   chain); the digit with more places tried first (fewer guesses on the unique sets,
//!   slower on serg).
//! - kept (2026-11-30, 57de228 and 1b80d0c; `solve --limit 2 --threads 1` user CPU, median of
//!   3, shuffled): band-configuration branching. 1905_11+ (first 10,000) 1.10 → 0.82 s,
//!   145.7 → 79.6 branch points (tdoku: 65); 1106 (×10) 0.77 → 0.51 s, 282.8 → 132.5
//!   (tdoku: 113); top1465 17.7 → 12.8; 17-clue 1.30 → 0.78. But serg got 17% slower (0.24
//!   → 0.28 s ×5; 6.4 → 7.2 branch points), hence the hybrid rule. A band's score over its
//!   open digits only (a digit with one configuration adds 0): 79.6 → 76.7 branch points on
//!   11+, 132.4 → 126.5 on 1106, speed within noise.
//! - lost (2026-11-30, 57de228 and 1b80d0c): the (band, digit) with the fewest
//!   configurations over the whole grid instead of the best band first (130 branch points on
//!   11+ against 80, half the speed); a bivalue cell first and band configurations only when
//!   there is none (95.8 branch points on 11+, serg still 8% slower), also with a digit of
//!   exactly two configurations before a bivalue cell (no better on serg); mini-row counting
//!   at every fixed point of propagation (79.6 → 72.3 branch points on 11+, but 5-18%
//!   slower: its per-node cost exceeded what the smaller tree saved).
//! - kept (2026-11-30, 0302fe1, eb9b74e, eeccd23; `bench --threads 1`, alternating runs):
//!   the filled cells found 16 at a time ([`Grid::given_mask`], SSE2 compare and movemask)
//!   instead of a shift per cell: Kaggle 772k → 909k puzzles/s, 17-clue 331k → 354k. The
//!   solved grid read out bit-sliced through a table (`State::solution`): Kaggle 905k →
//!   930-960k. The set-up digit by digit for puzzles with 24 givens or more
//!   (`State::new_by_digit`): Kaggle 950k → 1,005k; below 24 givens it was 2% slower on
//!   17-clue, hence the threshold. Lost before it: a first digit-by-digit set-up for every
//!   puzzle by shifts (Kaggle 909k → 855k, 17-clue 354k → 342k).
//! - kept (2026-11-30, 525d57e; CPU time of `solve --threads 1 --limit 2`, median of 3-5
//!   interleaved runs, shuffled: 1905_11+ first 10,000, 1106 ×10, serg ×5, top1465 ×20):
//!   mini-row counting run only when a band rule is about to branch, in one pass with the
//!   band choice (one `MINI_ROWS` lookup per word gives the configurations, their union and
//!   their intersection). It makes band branching robust on nearly empty grids (~65,600 →
//!   ~45 nodes) and shrinks the trees: `BANDS` on 11+ 79.6 → 67.4 branch points (tdoku 65),
//!   1106 132 → 117 (tdoku 113). The occupancy of all 27 words computed by shifts first (a
//!   loop that vectorises), then the lookups: `BANDS` 3-4% faster than one word at a time.
//!   Lost: counting at every branch point of `JCZ` too (cut nothing, cost 4-15% on serg);
//!   the tie-breaking candidate cells counted only for bands tied on configurations (no
//!   change beyond ±1%, a2530c1).
//! - kept (2026-11-30, 525d57e, same method): the switch of `HYBRID`:
//!
//!   | rule | 11+ | 1106 | serg | top1465 |
//!   |---|---:|---:|---:|---:|
//!   | `jcz` | 1,078 ms | 775 ms | 218 ms | 477 ms |
//!   | `bands` | 793 | 499 | 276 | 417 |
//!   | after 8 branch points | 870 | 559 | 228 | 440 |
//!   | after 4 dead ends (kept) | 865-873 | 561 | 223 | 441 |
//!   | restart as `bands` after 4 `jcz` dead ends | 869 | 535 | 219 | 544 |
//!
//!   (After 1, 2 or 8 dead ends: 11+ and 1106 within 1% of 4, serg 226 / 219 / 217 ms.)
//!   `bands` is the fastest on every hard set but 27% slower on serg, whose puzzles (all with
//!   several solutions) need ~7 branch points and pay for the band scan (a quarter of
//!   `bands`' time there, `perf`) at each; the hybrid keeps serg within 1-3% of `jcz` and is
//!   19-28% faster on the hard sets. Restarting wastes the `jcz` prefix on medium puzzles
//!   (top1465 +14%): lost. CPU time against the `jcz` default (159b7fd, median of 5), L1 /
//!   L2: 11+ −18% / −20%, 1106 −26% / −28%, top1465 −5% / −8%, 17-clue −3%, serg +1% / 0%.
//! - kept (2026-11-30, d78a5fd; 5 interleaved runs, limit 2): the digit of a naked single
//!   read from four bit-sliced words of its band instead of a loop over the digits (whose
//!   exit mispredicts): 11+ 808 → 794 ms, 1106 502 → 497, serg ×5 220 → 218 (1-2%, every
//!   run of each set; same trees). Lost (d78a5fd): the hidden singles in rows placed at the
//!   end of each round of band updates instead of after each word: 18% slower on 1106, 8% on
//!   serg.
//! - kept (2026-11-30, 2461c83; 5 interleaved runs, limit 1; now `bands` only): in searches
//!   on configurations from the root, the configuration with the fewest candidate cells
//!   tried first: branch points 11+ 38.1 → 37.1, 1106 64.5 → 61.2; CPU time 11+ 424 → 412
//!   ms, 1106 274 → 257 ms; limit 2 unchanged (the whole tree is searched). The most cells
//!   first: 39.3 and 64.4 branch points.
//! - lost (2026-11-30, 86d8c25, reverted in 03cef1b): `HYBRID` taking `BANDS` from the root
//!   when the root's propagation left ≥ 50 cells open, without a budget. 11+ 882 → 805 ms,
//!   1106 567 → 508 ms, but Norvig's "impossible" puzzle (no solution, 17 givens) went from
//!   51 guesses to 65,536: `BANDS` from the root does not refute it before the work budget
//!   restarts the search. `impossible_puzzle_is_refuted_quickly` bounds it since. Open
//!   cells at the root: 11+ 55-60, 1106 54-61, top1465 mostly 45-63, serg 31-47, 17-clue
//!   11-64; thresholds 40 / 45 cost serg 30% / 17%, 48 and 55 measured like 50. Lost with
//!   it (86d8c25): skipping `changed_words` when a round of band updates provably changed
//!   nothing (serg +6%, 11+ +2%), and the mini-row occupancy by shifts in the band update
//!   instead of 3 `SHRINK` lookups (a longer dependency chain: 11+ +2.5%, top1465 +8%).
//! - kept (2026-12-01, 4f9eb1f; `solve --threads 1` CPU time, 3 interleaved runs, shuffled,
//!   limit 2, against 15f4b9c): the root rule above within `WIDE_BUDGET` = 2,048 nodes
//!   before starting over on cells: 11+ 887 → 783 ms, 1106 553 → 503, top1465 ×5 110 →
//!   104, 17-clue 168 → 163, serg and Kaggle flat; Norvig's puzzle 51 → 2,099 guesses (a
//!   1 << 16 budget: 65,589 nodes).
//! - kept (2026-12-01, 2bb9b07; 5 interleaved runs): `changed_words` on the x86 paths as
//!   three AVX2 compares with one `movemask` each plus an overlapping load for words 24-26
//!   (the compiler's vectorisation reduced lanes with shifts and ORs; 19% of a `perf`
//!   profile of 1106 at limit 2): limit 2, 11+ 841 → 811 ms, 1106 523 → 511, serg 229 →
//!   222; limit 1, 11+ 407 → 393, 1106 255 → 245, top1465 ×5 80 → 70. Lost: a scalar loop
//!   with `read_volatile` (17% slower).
//! - kept (2026-12-01, d3192c5, Zen 4): `State::new` compiled inside each path's copy
//!   (`paths::new_state`), not for the baseline, where `count_ones` was a bit-twiddling
//!   sequence: Kaggle `bench --threads 1`, 7 alternating runs, 1.37M → 1.54M puzzles/s.
//!   Lost (0172619): `State::solution` inlined into the path copies too (median 0.99).
//! - lost (2026-12-01, 5a810d4, Zen 4): *stack* configurations beside the band ones (tdoku
//!   chooses among both orientations), counted like the mini-rows and offered to the branch
//!   choice. Branch points at limit 2, shuffled: 1106 116.9 → 109.0 (tdoku 113.2), 11+ 67.2 →
//!   60.9, top1465 10.65 → 9.06; but the second pass at every branch point cost more than
//!   the smaller trees saved: `bench --threads 1 --limit 2`, 15 alternating runs, 1106 0.96
//!   of before, 11+ 0.94-0.95. Only a much cheaper column view would make it pay. Lost too:
//!   the set-up's band words found by the path and the digit-by-digit set-up as shifts and
//!   masks (callgrind on Kaggle 6,640 → 6,080 instructions per record, but `bench` 1.005 of
//!   before in 25 alternating runs: the set-up's time is not its instruction count).
//! - lost (2026-12-01, ea845e2, Zen 4): the 9-digit clear of `update_word` made conditional
//!   (`placed != 0`): 0.96 of before on shuffled 1106 and 11+ (`bench`, 11 alternating runs).
//! - kept (2026-12-01, 53d3aa9, Zen 4): a branch hands the search the words it changed
//!   (`hint`: the configuration's word; or the cell's digits' words in its band and those
//!   of the assigned digit's other bands that lost the column), and the node's first round
//!   of band updates takes them ([`State::update_hinted`]) instead of comparing all 27 words
//!   with `prev`. Nodes and output identical; a debug assertion checks under `cargo test`
//!   that every changed word is in the hint (a wrong hint fails 11 solver tests). `bench
//!   --threads 1`, 21 alternating runs against d18f8bb, medians of the pairwise ratios:
//!   shuffled 1106 L2 1.028, 11+ L2 1.032, serg L1 1.021; 1106 as given L1 1.035. It saves
//!   one ~15-instruction comparison per node (callgrind totals about the same), yet 3% of the
//!   time: likely the comparison's 32-byte loads, issued right after the branch's 4-byte
//!   stores, cannot take their data from the store buffer (no hardware counters on these VMs
//!   to confirm). Lost (53d3aa9): the hint passed into `propagate`'s first `update_all` (the
//!   loop got peeled: +4% instructions on serg); the hint kept in `State` (serg 0.76, or
//!   0.97-0.98 with the cell's digits only); hints after naked singles and stack updates too
//!   (no better); every round's comparison replaced by a scalar check of the words each
//!   update may have touched (0.85), or 27 scalar `read_volatile` loads (0.84).
//! - lost (2026-12-01, b7e9791, d18f8bb and 53d3aa9): the band with the fewest open digits
//!   first, the digit of fewest cells, used only with limit ≥ 2: 11 alternating runs, 1106
//!   L2 1.011 shuffled and 1.019 as given, 11+ L2 1.010, top1465 L2 0.957, serg 0.994.
//!   Nodes per puzzle, shuffled, L2: 1106 245.4 → 236.0, 11+ (first 10,000) 147.0 → 130.7,
//!   top1465 22.5 → 23.2. Other keys (nodes only), all worse on 1106 or 11+: ties on more
//!   cells, the band's configurations net of its open digits, their average per open digit,
//!   configurations plus 1-4 per open digit, fixed digits' cells.
//! - lost (2026-12-01, 67a395b, Zen 4): dropping the `st.cand[d * 3 + band] &= !bit` after
//!   each digit a cell branch has tried (the next copy's `assign` clears the cell anyway):
//!   15 alternating runs, 1106 L2 0.996, 11+ L2 0.989, serg L1 1.031, top1465 L2 1.019.
//!   Nothing measurable.
//! - kept (2026-12-01, 787572d, Zen 4): on the `bmi2` path, the band update's mini-row
//!   occupancy as one PEXT of the word folded onto each mini-row's first cell
//!   (`occupancy_bmi2`) instead of three `SHRINK` lookups (Zen 2's slow PEXT keeps the
//!   lookups on the `avx2` path). Callgrind, output identical: shuffled 1106 L2 −4.0%
//!   instructions, Kaggle −4.2%, serg −3.7%. `bench --threads 1`, alternating runs, medians
//!   of the pairwise ratios: shuffled 1106 L2 1.037 (15 runs), 11+ L2 1.040 (15); 1106 as
//!   given L1 1.055 (15); top1465 L2 1.008, serg L1 1.028 (11 each). Lost (cc0bad0): a
//!   word's row singles found by `r & (r - 1)` per row instead of three `SINGLE9` lookups
//!   (0.972 on shuffled 1106 L2); the band update's 9-digit clear as three 8-word AVX2 ANDs
//!   (0.80: those 32-byte loads come right after the update's 4-byte stores to the same
//!   words, which supports the store-forwarding explanation above).
//! - lost (2026-12-02, measured against 0971467, Zen 4): three changes together, the band
//!   choice's counts for all three bands from one lookup per word bit-sliced in a `u64`,
//!   band updates with the band a constant, and an AVX-512 path (changed-word scan and
//!   the choice's per-word counts in 16 lanes). Callgrind (`bmi2` path, output identical):
//!   shuffled 1106 L2 −18.8% instructions, serg −9.6%, Kaggle −12%. `bench --threads 1`,
//!   11 alternating runs per cell pinned to one core on an idle machine, medians of the
//!   pairwise ratios (AVX-512 path): 1106 1.03-1.06 and 11+ 0.99-1.05 and top1465
//!   1.01-1.05 as given and on two shuffled seeds at both limits, but 17-clue 0.94-0.98
//!   and serg 0.94-1.00 (the `bmi2` path alone: 17-clue 0.93, serg 0.95). A few percent on
//!   the hard sets does not pay for a loss on the easy ones; the instructions saved are
//!   mostly not on the critical path.
//! - kept (2026-12-03, fbb15c4, Zen 4): naked singles and mini-row counting over the three
//!   bands at once, one SSE2 lane per band (`lanes.rs`: a digit's three band words are one
//!   unaligned load; SSE2 is in the x86-64 baseline, so every path has it), the counting's
//!   may/must sets as one 18-bit field, the band choice's configurations to choose from
//!   stored in `MINI_ROWS` (bits 24-27), and the stack updates' own result instead of a
//!   changed-word scan after them. Same trees and output. Callgrind (`solve --limit 2`):
//!   shuffled 1106 248.5M → 193.1M instructions, serg 199.4M → 182.5M, shuffled 17-clue
//!   782M → 746M. `ab-bench.sh`, 9 alternating runs against c2618ee, medians of the
//!   pairwise ratios: shuffled 1106 L2 1.078, serg L1 1.027, shuffled 17-clue L2 1.025.
//!   Paired with tdoku in the same rounds (5, 2026-12-03), fbb15c4 / c2618ee: 1106 L2
//!   1.094, shuffled 1106 L1 1.044, 11+ L2 1.016, serg L2 1.013, serg L1 0.997, top1465
//!   L2 1.040, shuffled 17-clue L2 0.999; Kaggle L1 1.028 (`scripts/results/paired-peers.txt`).
//! - lost (2026-12-03, against fbb15c4, Zen 4): the band update's column lock applied to the
//!   digit's three words by one loop over `cand[base..base + 3]` (its own word too, which is
//!   rewritten last) instead of two `OTHER_BANDS` lookups with bounds checks: −3.7%
//!   instructions on shuffled 1106, −3% on serg, but no faster (the same `ab-bench.sh`
//!   runs, against c2618ee: 1106 L2 1.026 where fbb15c4 measured 1.078, serg L1 1.012
//!   against 1.027, 17-clue L2 1.014 against 1.025): one more store per update,
//!   which already makes 14 (9-digit clear, column lock, the word, `prev`, `unsolved`); the
//!   update looks bound by its stores rather than by its instruction count. The same
//!   indices by selects (`if band == 2 { i - 2 } else { i + 1 }`): +3% instructions. The
//!   pending words of a round visited band by band: +6% instructions; highest first: ±0.
//! - lost (2026-12-04, against 77a6479, Zen 4, idle): `State::assign` inlined into the
//!   branch (`#[inline(always)]`; as its own function it held 3.9% of a `perf record` of
//!   serg as given at limit 1, whose hottest instruction, 8%, is `changed_words`' first
//!   32-byte load after a round of band updates): `ab-bench.sh` 11 rounds, serg L1 0.984,
//!   L2 0.992. On an idle machine serg as given is 0.93x tdoku at limit 1 and 0.89x at
//!   limit 2 with fewer guesses at limit 1 (5.95 against 6.40): the cost per node.
//! - kept (2026-12-05, measured against 30fa849, Intel Xeon family 6 model 207, idle, one
//!   core): no stack updates in `HYBRID`'s cell phase (root not wide, fewer than 4 dead
//!   ends; the root's own propagation keeps them). They barely shrink the trees of puzzles
//!   with many solutions: serg nodes per puzzle, L1, 6.951 → 6.953 as given, 7.665 → 7.675
//!   shuffled (seed 7); elsewhere 17-clue 1.993 → 2.021 (L1), top1465 13.865 → 13.935 (L1),
//!   1106 118.227 → 118.234 (L1). `ab-bench.sh`, 7 rounds, medians of the pairwise ratios:
//!   serg L1 1.045-1.047, L2 1.047, shuffled (seed 11) L1 1.044; shuffled 17-clue L2 0.995,
//!   17-clue L1 0.996, top1465 L1 0.997, shuffled top1465 L2 0.998; Kaggle (first 24,997) L1
//!   0.977-0.993 (9-11 rounds; the same number of instructions within 0.3% under
//!   callgrind, so layout), Kaggle (Vopani random 10,000) L1 0.990. Lost: the flag computed
//!   once per node and passed in (Kaggle 0.954-0.964), two copies of `propagate` by a const
//!   parameter (Kaggle 0.975, serg 1.029); no stack updates at all (serg 1.072, but shuffled
//!   17-clue L2 nodes 2.69 → 4.57, 1106 L2 238 → 374).
//! - lost (2026-12-05, against c644889, Intel Xeon family 6 model 207, idle, one core):
//!   no `prev` at all. Each band update returns the words it changed (the column lock's two
//!   words by `old & !keep != 0`, the placed cells' nine words by `old & placed != 0`), and
//!   so do placements, stack updates and mini-row counting; the pending set runs in rounds
//!   (the state shrinks to 120 bytes; trees identical; a debug assertion that the result is
//!   a fixed point of every band update failed a solver test when one source of changes was
//!   dropped). A `perf` profile of serg L1 had put 12-18% on `changed_words`' 32-byte
//!   loads. `ab-bench.sh`, 7-9 rounds, medians of the pairwise ratios: shuffled 1106 L2
//!   1.026-1.028, 1106 L1 1.023, 11+ L2 1.021, serg L1 1.014-1.024 (shuffled 1.019), serg
//!   L2 1.025, top1465 1.006-1.013; but 17-clue 0.923-0.939 and Kaggle L1 0.853-0.861. The
//!   nine flags, which the compiler vectorised lane by lane (`vpinsrd`), took 18% of the
//!   samples on serg and 33% on Kaggle, whose rounds are short, so the next round's set
//!   waits on them. Variants: the flags shifted in one scalar chain (serg 0.974, 1106 0.991,
//!   Kaggle 0.771, 17-clue 0.858); the nine words' clear behind `placed != 0` (1106 L2
//!   0.911); the band's nine words all made pending after a placement (0.59-0.64); one
//!   worklist without rounds (0.77: the next word's index waits on the update before it).
//! - lost (2026-12-05, against 8e57897, the same Intel Xeon, one core; `ab-bench.sh` 7
//!   rounds, medians of the pairwise ratios): `changed_words` on the `bmi2` copy compiled
//!   with `avx512f` as two 16-word compares into mask registers (words 0-15 and 11-26),
//!   serg L1 0.972, shuffled 1106 L2 0.986, Kaggle L1 1.000, shuffled 17-clue L2 1.002 (a
//!   run-time-dispatched path would not pay); the band update's bounds checks dropped
//!   (`get_unchecked` on the word, its two column-lock words, `COMPLEX` and the third
//!   `SINGLE9` lookup), serg L1 1.000, shuffled 1106 L2 1.007, shuffled 17-clue L2 1.005,
//!   Kaggle L1 1.031 (0.94-1.25): within the noise, so the checks stay.
//!   Also lost (against 30fa849, 7 rounds): `prev` kept, but a round of band updates that
//!   placed no cell hands the next round the words its column locks changed (each update
//!   reports them, `old & !keep != 0`) instead of a comparison: serg L1 0.986, shuffled
//!   1106 L2 1.008, Kaggle L1 0.911, shuffled 17-clue L2 1.044 (0.87-1.25). Any work added
//!   to the band update costs more than the comparisons it saves.
//! - not built (2026-12-05, counted at 874254a, the same Intel Xeon): an end game that counts
//!   the last few open cells' completions without branching. Its ceiling, as branch points
//!   (states propagation left open) with at most 8 open cells, of all branch points: serg L1
//!   5,613 of 57,963 (9.7%; at most 4 open: 2,951), L2 8,554 of 64,220 (13.3%; 5,027); 1106
//!   L1 0 of 25,275, L2 3 of 50,110; 11+ (first 20,000) L1 173 of 903,152, L2 325 of
//!   1,703,636; top1465 L1 3 of 12,075, L2 3 of 17,848; 17-clue (first 20,000) L1 5 of
//!   10,585. It could save those nodes and the leaves under them, which are cheaper than the
//!   average node: a few percent on serg at most, nothing on the sets that are short of 1.1x
//!   tdoku. tdoku has none either: it counts a solution once every band's configurations
//!   are fixed.

mod bands;
mod lanes;
mod paths;

use bands::{branch_on_configs, BandStep};
use lanes::Lanes;
use paths::{new_state, run, Isa};

use super::simd::SimdPath;
use super::tables::{BAND, COMPLEX, KEEP_OTHER, PEERS_IN_BAND, SHRINK, SINGLE9};
use super::{Root, Tally};
use crate::grid::{Grid, CELLS};

/// The two other bands of each band.
const OTHER_BANDS: [[usize; 2]; 3] = [[1, 2], [0, 2], [0, 1]];

/// The low `bits` bits of `m`, bit `i` moved to bit `i * stride` (for the tables below).
const fn spread_bits(m: usize, bits: usize, stride: usize) -> u64 {
    let mut out = 0u64;
    let mut i = 0;
    while i < bits {
        if m >> i & 1 == 1 {
            out |= 1 << (i * stride);
        }
        i += 1;
    }
    out
}

/// `SPREAD3[digits]`: bit `d` of the 9-bit set moved to bit `3 * d` (a set of digits as the
/// bits of their words in band 0).
const SPREAD3: [u32; 512] = {
    let mut t = [0; 512];
    let mut m = 0;
    while m < 512 {
        t[m] = spread_bits(m, 9, 3) as u32;
        m += 1;
    }
    t
};

/// The givens cannot be completed (from this state).
struct Contradiction;

/// The whole search state; `Copy`, so a branch is a plain copy.
#[derive(Clone, Copy)]
pub(super) struct State {
    cand: [u32; 27],
    prev: [u32; 27],
    unsolved: [u32; 3],
}

/// No hint for a search ([`State::update_hinted`]): its first round compares all 27 words
/// with `prev` to find the changed ones.
pub(super) const SCAN: u32 = u32::MAX;

impl State {
    /// The state with `grid`'s givens placed and their row, column and box peers removed;
    /// `None` when two givens conflict.
    #[inline(always)]
    fn new(grid: &Grid) -> Option<State> {
        let given = grid.given_mask();
        if given.count_ones() >= DIGITWISE_FROM {
            return State::new_by_digit(grid, given);
        }
        State::new_by_given(grid, given)
    }

    /// [`State::new`] digit by digit: each digit's givens as three band words (a compare per
    /// 16 cells), their rows, boxes and columns cleared by whole words. Its cost does not
    /// grow with the givens, and it has no dependency chain through memory, unlike
    /// [`State::new_by_given`], which is cheaper for few givens.
    #[inline(always)]
    fn new_by_digit(grid: &Grid, given: u128) -> Option<State> {
        let band_words = |m: u128| {
            [
                m as u32 & BAND,
                (m >> 27) as u32 & BAND,
                (m >> 54) as u32 & BAND,
            ]
        };
        let unsolved = band_words(given).map(|g| BAND & !g);
        let mut st = State {
            cand: [0; 27],
            prev: [0; 27],
            unsolved,
        };
        let mut conflict = false;
        for (d, m) in grid.digit_masks().into_iter().enumerate() {
            let w = band_words(m);
            // Per band: the columns (rows folded) and the occupied rows and boxes.
            let cols = w.map(|x| (x | x >> 9 | x >> 18) & 0x1FF);
            let rows = w.map(|x| {
                u32::from(x & 0x1FF != 0)
                    | u32::from(x & 0x3FE00 != 0) << 1
                    | u32::from(x >> 18 != 0) << 2
            });
            let boxes = cols.map(|c| u32::from(SHRINK[c as usize]));
            let all_cols = cols[0] | cols[1] | cols[2];
            // Givens of one digit in distinct rows, columns and boxes, or a conflict.
            let n = w.iter().map(|x| x.count_ones()).sum::<u32>();
            let distinct = |k: [u32; 3]| k.iter().map(|x| x.count_ones()).sum::<u32>();
            conflict |= all_cols.count_ones() != n || distinct(rows) != n || distinct(boxes) != n;
            let col_words = all_cols * 0o001001001;
            for b in 0..3 {
                let seen = ROW_WORDS[rows[b] as usize] | BOX_WORDS[boxes[b] as usize] | col_words;
                st.cand[d * 3 + b] = (BAND & !seen & unsolved[b]) | w[b];
            }
        }
        (!conflict).then_some(st)
    }

    /// [`State::new`] given by given.
    #[inline(always)]
    fn new_by_given(grid: &Grid, given: u128) -> Option<State> {
        let mut st = State {
            cand: [BAND; 27],
            prev: [0; 27],
            unsolved: [BAND; 3],
        };
        // Iterate the givens as set bits (no unpredictable branch per cell).
        let cells = grid.cells();
        let filled = [given as u64, (given >> 64) as u64];
        let mut mine = [0u32; 27];
        for (half, mut bits) in filled.into_iter().enumerate() {
            while bits != 0 {
                let cell = half * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let (band, pos) = (cell / 27, cell % 27);
                let digit = usize::from(cells[cell] - 1);
                let i = digit * 3 + band;
                if st.cand[i] & (1 << pos) == 0 {
                    return None; // an earlier equal given sees this cell
                }
                st.cand[i] &= PEERS_IN_BAND[pos];
                let keep = !(0o001001001 << (pos % 9));
                st.cand[digit * 3 + (band + 1) % 3] &= keep;
                st.cand[digit * 3 + (band + 2) % 3] &= keep;
                mine[i] |= 1 << pos;
                st.unsolved[band] &= !(1 << pos);
            }
        }
        for (i, w) in st.cand.iter_mut().enumerate() {
            *w = (*w & st.unsolved[i % 3]) | mine[i];
        }
        Some(st)
    }

    /// Put `digit` in the cell `bit` of `band`: its row keeps only that cell for the digit
    /// (the band update then places it), and the other digits lose the cell.
    #[inline]
    fn assign(&mut self, band: usize, bit: u32, digit: usize) {
        for d in 0..9 {
            self.cand[d * 3 + band] &= !bit;
        }
        self.cand[digit * 3 + band] |= bit;
        self.place(digit * 3 + band, bit);
    }

    /// Remove the row, box and column peers of cell `bit` from word `i` (keeping the cell)
    /// and the column from the digit's other two bands.
    #[inline(always)]
    fn place(&mut self, i: usize, bit: u32) {
        let pos = bit.trailing_zeros() as usize;
        let band = i % 3;
        self.cand[i] &= PEERS_IN_BAND[pos];
        let keep = !(0o001001001 << (pos % 9));
        self.cand[i - band + OTHER_BANDS[band][0]] &= keep;
        self.cand[i - band + OTHER_BANDS[band][1]] &= keep;
    }

    /// Band update of word `i` (digit `i / 3`, band `i % 3`; see the module docs).
    ///
    /// # Safety
    /// The CPU supports `P`'s path.
    #[inline(always)]
    unsafe fn update_word<P: Isa>(&mut self, i: usize) -> Result<(), Contradiction> {
        let band = i % 3;
        let mut a = self.cand[i];
        a &= COMPLEX[P::occupancy(a)];
        if a == 0 {
            return Err(Contradiction);
        }
        let keep = KEEP_OTHER[((a | a >> 9 | a >> 18) & 0x1FF) as usize];
        let base = i - band;
        self.cand[base + OTHER_BANDS[band][0]] &= keep;
        self.cand[base + OTHER_BANDS[band][1]] &= keep;
        let singles = u32::from(SINGLE9[(a & 0x1FF) as usize])
            | u32::from(SINGLE9[((a >> 9) & 0x1FF) as usize]) << 9
            | u32::from(SINGLE9[(a >> 18) as usize]) << 18;
        // Unconditional: a branch here mispredicts more often than 9 ANDs cost (measured).
        let placed = singles & self.unsolved[band];
        self.unsolved[band] &= !placed;
        for d in 0..9 {
            self.cand[d * 3 + band] &= !placed;
        }
        self.cand[i] = a;
        self.prev[i] = a;
        Ok(())
    }

    /// Stack update of digit `d`: the column-direction twin of the band update. In each stack
    /// the digit's 9 *mini-columns* (band × column) form a permutation matrix too; filtering
    /// them finds hidden singles in columns and column-box reductions. True if a word changed.
    ///
    /// # Safety
    /// The CPU supports `P`'s path.
    #[inline(always)]
    unsafe fn stack_update<P: Isa>(&mut self, d: usize) -> bool {
        let w = &mut self.cand[d * 3..d * 3 + 3];
        let cols = |a: u32| (a | a >> 9 | a >> 18) & 0x1FF;
        let x = cols(w[0]) | cols(w[1]) << 9 | cols(w[2]) << 18;
        let allowed = P::stack_filter(x);
        if allowed == x {
            return false;
        }
        for (b, word) in w.iter_mut().enumerate() {
            let c = (allowed >> (9 * b)) & 0x1FF;
            *word &= c | c << 9 | c << 18;
        }
        true
    }

    /// Band updates to a fixed point.
    ///
    /// # Safety
    /// The CPU supports `P`'s path.
    #[inline(always)]
    unsafe fn update_all<P: Isa>(&mut self) -> Result<u32, Contradiction> {
        // Digits whose words were updated (for the stack updates).
        let mut dirty = 0u32;
        loop {
            let mut pending = self.changed_words::<P>();
            if pending == 0 {
                return Ok(dirty);
            }
            while pending != 0 {
                let i = pending.trailing_zeros() as usize;
                pending &= pending - 1;
                dirty |= 1 << (i / 3);
                self.update_word::<P>(i)?;
            }
        }
    }

    /// The band updates of the words in `hint`, a set that holds every word changed since
    /// its last update (from a branch, which knows what it changed): the first round of
    /// [`State::update_all`] without comparing all 27 words with `prev` to find them.
    /// Returns the digits updated. Extra words in the hint cost an update each (an update
    /// of an unchanged word changes nothing), so hints are kept tight.
    ///
    /// It saves one comparison per node, and more time than its instructions (3% on
    /// forum_hardest_1106): likely the comparison's wide loads, right after the branch's
    /// narrow stores, wait for those stores to reach the cache (no hardware counters here
    /// to confirm it).
    ///
    /// # Safety
    /// The CPU supports `P`'s path.
    #[inline(always)]
    unsafe fn update_hinted<P: Isa>(&mut self, mut hint: u32) -> Result<u32, Contradiction> {
        debug_assert_eq!(
            self.changed_words::<P>() & !hint,
            0,
            "a changed word not hinted"
        );
        // The same loop as a round of `update_all`, written twice on purpose: one shared
        // `update_words` for both compiled to 0.4-0.75% more instructions (callgrind, 1106
        // and serg at limit 1).
        let mut dirty = 0u32;
        while hint != 0 {
            let i = hint.trailing_zeros() as usize;
            hint &= hint - 1;
            dirty |= 1 << (i / 3);
            self.update_word::<P>(i)?;
        }
        Ok(dirty)
    }

    /// Bit `i` set when word `i` changed since its last band update.
    ///
    /// # Safety
    /// The CPU supports `P`'s path.
    #[inline(always)]
    unsafe fn changed_words<P: Isa>(&self) -> u32 {
        P::changed_words(&self.cand, &self.prev)
    }

    /// Place every naked single; true if any was found. Also notes the first bivalue cell
    /// seen (valid for branching when no single was found).
    ///
    /// All three bands at once, one lane each ([`Lanes`]): bit-sliced counts of each cell's
    /// candidates over the 9 digits (at least 1, 2, 3). The counts are taken before any
    /// single is placed: a single that an earlier one emptied (a cell of its column, in
    /// another band) gets a stale digit, which no longer fits its cell; the emptied cell is a
    /// contradiction at the next pass either way.
    #[inline(always)]
    fn naked_singles(&mut self, bivalue: &mut Option<(usize, u32)>) -> Result<bool, Contradiction> {
        let words: [Lanes; 9] = std::array::from_fn(|d| Lanes::digit(&self.cand, d));
        let (mut one, mut two, mut three) = (Lanes::ZERO, Lanes::ZERO, Lanes::ZERO);
        for w in words {
            three = three.or(two.and(w));
            two = two.or(one.and(w));
            one = one.or(w);
        }
        let unsolved = Lanes::bands(self.unsolved);
        let [e0, e1, e2, _] = unsolved.and_not(one).get();
        if e0 | e1 | e2 != 0 {
            return Err(Contradiction);
        }
        let pairs = unsolved.and(two).and_not(three).get();
        if bivalue.is_none() {
            if let Some(band) = (0..3).find(|&b| pairs[b] != 0) {
                *bivalue = Some((band, pairs[band] & pairs[band].wrapping_neg()));
            }
        }
        let singles = unsolved.and_not(two).get();
        if singles[0] | singles[1] | singles[2] == 0 {
            return Ok(false);
        }
        // Bit k of each cell's digit index, bit-sliced (as in [`State::solution`]): the digit
        // of a single without a loop whose exit mispredicts.
        let w = |d: usize| words[d];
        let bits = [
            w(1).or(w(3)).or(w(5)).or(w(7)).get(),
            w(2).or(w(3)).or(w(6)).or(w(7)).get(),
            w(4).or(w(5)).or(w(6)).or(w(7)).get(),
            w(8).get(),
        ];
        for (band, &found) in singles.iter().take(3).enumerate() {
            let mut left = found;
            while left != 0 {
                let bit = left & left.wrapping_neg();
                left ^= bit;
                let d = bits
                    .iter()
                    .enumerate()
                    .map(|(k, w)| usize::from(w[band] & bit != 0) << k)
                    .sum::<usize>();
                self.place(d * 3 + band, bit);
            }
        }
        Ok(true)
    }

    /// Propagate to a fixed point of band updates and naked singles. Returns the first
    /// bivalue cell of the final state, if it has one (and is not solved). `dirty`: digits
    /// whose words were band-updated before the call (by [`State::update_hinted`]), due a
    /// stack update like those updated here (when [`stack_updates`] allows them, from
    /// `tally` and the branching rule).
    ///
    /// # Safety
    /// The CPU supports `P`'s path.
    #[inline(always)]
    unsafe fn propagate<P: Isa, const RULE: u8>(
        &mut self,
        mut dirty: u32,
        tally: &Tally,
    ) -> Result<Option<(usize, u32)>, Contradiction> {
        // Cheap rules first: the stack updates (the costliest) run only when band updates
        // and naked singles are exhausted, on the digits changed since they last ran.
        loop {
            dirty |= self.update_all::<P>()?;
            if self.is_solved() {
                return Ok(None);
            }
            let mut bivalue = None;
            if self.naked_singles(&mut bivalue)? {
                continue;
            }
            if dirty != 0 && stack_updates::<RULE>(tally) {
                // Every word equals `prev` here (band updates at a fixed point, no single
                // placed), so a word changed exactly when a stack update changed it.
                let mut changed = false;
                while dirty != 0 {
                    let d = dirty.trailing_zeros() as usize;
                    dirty &= dirty - 1;
                    changed |= self.stack_update::<P>(d);
                }
                if changed {
                    continue;
                }
            }
            return Ok(bivalue);
        }
    }

    #[inline]
    fn is_solved(&self) -> bool {
        self.unsolved[0] | self.unsolved[1] | self.unsolved[2] == 0
    }

    /// The cell to branch on when there is no bivalue cell: of the first unsolved cell of
    /// each band, the one with fewest candidates (as JCZSolve's successors do; a global
    /// minimum measured worse on the hardest sets).
    #[cold]
    fn fallback_cell(&self) -> (usize, u32) {
        let mut best = (0, 0, u32::MAX);
        for band in 0..3 {
            let mut cells = self.unsolved[band];
            cells &= cells.wrapping_neg();
            while cells != 0 {
                let bit = cells & cells.wrapping_neg();
                cells ^= bit;
                let n = (0..9)
                    .filter(|d| self.cand[d * 3 + band] & bit != 0)
                    .count() as u32;
                if n < best.2 {
                    best = (band, bit, n);
                }
            }
        }
        (best.0, best.1)
    }

    /// The grid of a solved state. Bit-sliced and branch-free: per band, four words hold
    /// bit k of each cell's digit (1..=9), and a table spreads 8 cells at a time into bytes.
    /// (Visiting each digit's set bits mispredicted at the end of each of the 27 loops: 9% of
    /// a run on easy puzzles.)
    fn solution(&self) -> Grid {
        let mut out = [0u8; CELLS + 7];
        for band in 0..3 {
            let p = |d: usize| self.cand[d * 3 + band];
            let bits = [
                p(0) | p(2) | p(4) | p(6) | p(8),
                p(1) | p(2) | p(5) | p(6),
                p(3) | p(4) | p(5) | p(6),
                p(7) | p(8),
            ];
            // Bands in order: a band's last chunk spills zeros into the next band's first
            // cells, which that band then writes.
            for chunk in 0..4 {
                let mut v = 0u64;
                for (k, w) in bits.iter().enumerate() {
                    v |= SPREAD8[(w >> (8 * chunk) & 0xff) as usize] << k;
                }
                let at = band * 27 + chunk * 8;
                out[at..at + 8].copy_from_slice(&v.to_le_bytes());
            }
        }
        let cells: [u8; CELLS] = out[..CELLS].try_into().expect("81 cells");
        Grid::from_cells(cells).expect("cells are 1..=9")
    }
}

/// Givens from which [`State::new`] goes digit by digit.
const DIGITWISE_FROM: u32 = 24;

/// `ROW_WORDS[rows]`: the band cells of the rows in the 3-bit set `rows`.
const ROW_WORDS: [u32; 8] = {
    let mut t = [0; 8];
    let mut r = 0;
    while r < 8 {
        // Each row's bit to its first cell, then filled to its 9 cells.
        t[r] = spread_bits(r, 3, 9) as u32 * 0x1FF;
        r += 1;
    }
    t
};

/// `BOX_WORDS[boxes]`: the band cells of the boxes in the 3-bit set `boxes`.
const BOX_WORDS: [u32; 8] = {
    let mut t = [0; 8];
    let mut b = 0;
    while b < 8 {
        let mut k = 0;
        while k < 3 {
            if b >> k & 1 == 1 {
                t[b] |= 0o007007007 << (3 * k);
            }
            k += 1;
        }
        b += 1;
    }
    t
};

/// Each bit of a byte spread to the low bit of its own byte (bit i → byte i).
const SPREAD8: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut m = 0;
    while m < 256 {
        table[m] = spread_bits(m, 8, 8);
        m += 1;
    }
    table
};

/// Depth-first search from `st`, counting into `tally`. `CAREFUL` adds failed-literal
/// probing at every node (see [`solve`]). `hint`: the words changed since `st` was last at a
/// fixed point (from the branch that made it; [`State::update_hinted`]), or [`SCAN`].
/// Inlined into each path's `#[target_feature]` copy.
///
/// # Safety
/// The CPU supports `P`'s path.
#[inline(always)]
unsafe fn search_body<P: Isa, const CAREFUL: bool, const RULE: u8>(
    mut st: State,
    tally: &mut Tally,
    mut hint: u32,
) {
    loop {
        let mut dirty = 0;
        if hint != SCAN {
            let Ok(digits) = st.update_hinted::<P>(hint) else {
                tally.dead_ends += 1;
                return;
            };
            dirty = digits;
            hint = SCAN;
        }
        let Ok(bivalue) = st.propagate::<P, RULE>(dirty, tally) else {
            tally.dead_ends += 1;
            return;
        };
        if st.is_solved() {
            tally.found(|| st.solution());
            return;
        }
        if RULE == HYBRID && tally.root == Root::Undecided {
            decide_root(&st, tally);
        }
        if !CAREFUL && branches_on_bands::<RULE>(tally) {
            let Ok(step) = st.band_step() else {
                tally.dead_ends += 1;
                return;
            };
            match step {
                BandStep::Changed => continue,
                BandStep::Branch(i, configs) => {
                    match branch_on_configs::<P, CAREFUL, RULE>(&mut st, tally, i, configs) {
                        Some(changed) => hint = changed,
                        None => return,
                    }
                    continue;
                }
                BandStep::Fixed => {}
            }
        }
        let (band, bit) = if CAREFUL {
            match st.probe::<P>(tally) {
                Err(Contradiction) => return,
                Ok(Probed::Changed) => continue,
                Ok(Probed::Stable(b)) => b.unwrap_or_else(|| st.fallback_cell()),
            }
        } else {
            bivalue.unwrap_or_else(|| st.fallback_cell())
        };
        match branch_on_cell::<P, CAREFUL, RULE>(&mut st, tally, band, bit) {
            Some(changed) => hint = changed,
            None => return,
        }
    }
}

/// At the root's fixed point (`HYBRID`): a wide-open grid takes band configurations from
/// here, under a small budget (see `solve_on`).
#[inline(always)]
fn decide_root(st: &State, tally: &mut Tally) {
    let open: u32 = st.unsolved.iter().map(|u| u.count_ones()).sum();
    tally.root = if open >= HYBRID_WIDE {
        tally.budget = tally.budget.min(WIDE_BUDGET);
        Root::Wide
    } else {
        Root::Narrow
    };
}

/// Whether propagation runs the stack updates: not in a hybrid search on cells that has met
/// few dead ends (mostly puzzles with many solutions, whose trees they do not shrink).
#[inline(always)]
fn stack_updates<const RULE: u8>(tally: &Tally) -> bool {
    RULE != HYBRID || tally.root != Root::Narrow || tally.dead_ends >= HYBRID_AFTER
}

/// Whether the search branches on band configurations here. Hybrid: from the root of a
/// wide-open grid; else cells while the search has met few dead ends (most puzzles with many
/// solutions never meet more), band configurations after.
#[inline(always)]
fn branches_on_bands<const RULE: u8>(tally: &Tally) -> bool {
    RULE == BANDS
        || (RULE == HYBRID && (tally.root == Root::Wide || tally.dead_ends >= HYBRID_AFTER))
}

/// Branch on the candidates of the cell `bit` of `band`: every digit but the last is searched
/// on a copy (and then removed from `st`); the last is assigned in `st` itself. `None` when
/// the search is done, else the words of `st` the branch changed (the hint for its search,
/// [`State::update_hinted`]).
///
/// # Safety
/// The CPU supports `P`'s path.
#[inline(always)]
unsafe fn branch_on_cell<P: Isa, const CAREFUL: bool, const RULE: u8>(
    st: &mut State,
    tally: &mut Tally,
    band: usize,
    bit: u32,
) -> Option<u32> {
    let mut digits = 0u32;
    for d in 0..9 {
        if st.cand[d * 3 + band] & bit != 0 {
            digits |= 1 << d;
        }
    }
    tally.branch_points += 1;
    // The words an assignment changes: the band's words of the cell's digits (the others
    // lose the cell; the assigned digit's loses the cell's peers in the band), and those of
    // the assigned digit's other two bands that lose the column (the state is at a fixed
    // point: no other word differs from `prev`).
    let words = SPREAD3[digits as usize] << band;
    let [b1, b2] = OTHER_BANDS[band];
    let changed = |st: &State, d: usize| {
        let (j1, j2) = (d * 3 + b1, d * 3 + b2);
        words
            | u32::from(st.cand[j1] != st.prev[j1]) << j1
            | u32::from(st.cand[j2] != st.prev[j2]) << j2
    };
    while digits & (digits - 1) != 0 {
        let d = digits.trailing_zeros() as usize;
        digits &= digits - 1;
        let mut child = *st;
        child.assign(band, bit, d);
        tally.guess();
        let hint = changed(&child, d);
        P::search::<CAREFUL, RULE>(child, tally, hint);
        if tally.done() {
            return None;
        }
        st.cand[d * 3 + band] &= !bit;
    }
    let last = digits.trailing_zeros() as usize;
    st.assign(band, bit, last);
    tally.guess();
    Some(changed(st, last))
}

/// What one round of probing did.
enum Probed {
    /// Some candidates were removed: propagate again.
    Changed,
    /// Nothing to remove; the first bivalue cell, if any.
    Stable(Option<(usize, u32)>),
}

impl State {
    /// Failed-literal probing: try every candidate of every unsolved cell on a copy and
    /// propagate; a candidate that leads to a contradiction is removed. Finds what the
    /// per-digit filters cannot see, such as three digits confined to two cells of a row.
    ///
    /// # Safety
    /// The CPU supports `P`'s path.
    #[cold]
    unsafe fn probe<P: Isa>(&mut self, tally: &mut Tally) -> Result<Probed, Contradiction> {
        let mut changed = false;
        let mut bivalue = None;
        for band in 0..3 {
            let mut cells = self.unsolved[band];
            while cells != 0 {
                let bit = cells & cells.wrapping_neg();
                cells ^= bit;
                let mut left = 0;
                for d in 0..9 {
                    if self.cand[d * 3 + band] & bit == 0 {
                        continue;
                    }
                    let mut child = *self;
                    child.assign(band, bit, d);
                    tally.work += 1;
                    if child.propagate::<P, JCZ>(0, tally).is_err() {
                        self.cand[d * 3 + band] &= !bit;
                        changed = true;
                    } else {
                        left += 1;
                    }
                }
                match left {
                    0 => return Err(Contradiction),
                    2 if bivalue.is_none() => bivalue = Some((band, bit)),
                    _ => {}
                }
            }
        }
        Ok(if changed {
            Probed::Changed
        } else {
            Probed::Stable(bivalue)
        })
    }
}

/// Branching rule: the first bivalue cell, else JCZSolve's fallback cell.
pub(super) const JCZ: u8 = 0;
/// Branching rule: band configurations ([`State::band_step`], with mini-row counting), cells
/// once every digit's configuration is fixed.
pub(super) const BANDS: u8 = 1;
/// Branching rule: [`BANDS`] from the root when it left [`HYBRID_WIDE`] cells open or more
/// (within [`WIDE_BUDGET`]); else [`JCZ`] until the search has met [`HYBRID_AFTER`] dead
/// ends, then [`BANDS`] (the default).
pub(super) const HYBRID: u8 = 2;
/// Dead ends after which [`HYBRID`] switches to band configurations: puzzles with many
/// solutions (serg_benchmark, 6-7 branch points each) mostly finish before, with the cheaper
/// cell branching.
const HYBRID_AFTER: u64 = 4;
/// Open cells after the root's propagation from which [`HYBRID`] branches on band
/// configurations from the start: the hard sets leave 54-61 open, serg_benchmark's puzzles
/// (several solutions each, small trees where cells are cheaper) 31-47.
const HYBRID_WIDE: u32 = 50;
/// Work allowed to [`HYBRID`]'s search from the root on band configurations before it gives
/// way to the search that starts on cells. The public sets need at most 1,329 nodes that way
/// (forum_hardest_1905_11+ shuffled, limit 2); Norvig's impossible puzzle would need 65,536
/// (cells: 51).
const WIDE_BUDGET: u64 = 1 << 11;

/// Work allowed to the first attempt: 24 times the most nodes any puzzle of the public hard
/// sets needs (2,750 on forum_hardest_1106 with limit 2), so real puzzles never restart.
pub(super) const FIRST_BUDGET: u64 = 1 << 16;

/// Solve `grid`, stopping after `limit` solutions; `None` when givens conflict.
///
/// Branching on the first bivalue cell is fast on real puzzles, but a contradiction the
/// filters cannot see (say three digits left for two cells of a row) may then be found only
/// after the rest of the grid is enumerated: seconds, on grids the fuzzer made. So the plain
/// search runs with a work budget; when it runs out, a careful search (failed-literal
/// probing at every node) gets the same budget, and the two alternate with the budget
/// growing fourfold, so the answer costs at most a small factor more than the better of the
/// two strategies would. Before all that, [`HYBRID`] may first try band configurations from
/// the root of a wide-open grid within [`WIDE_BUDGET`]. Counts (`nodes`, `guesses`,
/// `branch_points`) add up every attempt.
pub(super) fn solve<const RULE: u8>(grid: &Grid, limit: u32) -> Option<super::Outcome> {
    solve_on::<RULE>(SimdPath::active(), grid, limit)
}

/// [`solve`] on the given path, which the CPU must support (tests run every path this way).
pub(super) fn solve_on<const RULE: u8>(
    path: SimdPath,
    grid: &Grid,
    limit: u32,
) -> Option<super::Outcome> {
    assert!(path.supported(), "the CPU cannot run the {path} path");
    let start = new_state(path, grid)?;
    Some(search_from::<RULE>(path, start, limit))
}

/// [`solve`] from a position's candidates (`masks[cell]`, bit `d` for digit `d + 1`): every
/// cell starts unsolved with its candidates, so a cell of one candidate is a naked single of
/// the first propagation, placed there with its peers cleared. The caller has checked that
/// no cell is empty and no two placed cells clash.
pub(super) fn solve_masks<const RULE: u8>(masks: &[u16; 81], limit: u32) -> super::Outcome {
    let mut cand = [0u32; 27];
    for (cell, &m) in masks.iter().enumerate() {
        let (band, pos) = (cell / 27, cell % 27);
        for d in 0..9 {
            cand[d * 3 + band] |= u32::from(m >> d & 1) << pos;
        }
    }
    let start = State {
        cand,
        prev: [0; 27],
        unsolved: [BAND; 3],
    };
    search_from::<RULE>(SimdPath::active(), start, limit)
}

/// The search of [`solve_on`] from its first state.
fn search_from<const RULE: u8>(path: SimdPath, start: State, limit: u32) -> super::Outcome {
    let (mut nodes, mut guesses, mut branch_points) = (0, 0, 0);
    let mut budget = FIRST_BUDGET;
    // The hybrid rule's first attempt may branch on band configurations from the root.
    let mut wide = RULE == HYBRID;
    let mut attempt = 0u32;
    loop {
        let careful = attempt % 2 == 1;
        let mut tally = Tally::new(limit);
        tally.budget = budget;
        if careful {
            run::<true, RULE>(path, start, &mut tally);
        } else {
            tally.root = if wide { Root::Undecided } else { Root::Narrow };
            run::<false, RULE>(path, start, &mut tally);
        }
        nodes += tally.nodes;
        guesses += tally.guesses;
        branch_points += tally.branch_points;
        if !tally.out_of_budget() {
            tally.nodes = nodes;
            tally.guesses = guesses;
            tally.branch_points = branch_points;
            return tally.outcome();
        }
        if tally.root == Root::Wide {
            // Band configurations from the root did not finish within their small budget
            // (they cannot refute some sparse grids that cells refute at once): start over
            // on cells, as the first attempt.
            wide = false;
            continue;
        }
        if careful {
            budget = budget.saturating_mul(4);
        }
        attempt += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symmetry::Rng;

    /// Both set-ups agree: the same state, or both find a conflict.
    fn same_setup(grid: &Grid) {
        let given = grid.given_mask();
        let (a, b) = (
            State::new_by_digit(grid, given),
            State::new_by_given(grid, given),
        );
        match (a, b) {
            (Some(a), Some(b)) => {
                assert_eq!((a.cand, a.unsolved), (b.cand, b.unsolved), "{grid:?}");
                assert_eq!((a.prev, b.prev), ([0; 27], [0; 27]));
            }
            (None, None) => {}
            (a, b) => panic!(
                "{grid:?}: by digit {}, by given {}",
                a.map_or("conflict", |_| "fine"),
                b.map_or("conflict", |_| "fine")
            ),
        }
    }

    #[test]
    fn set_up_by_digit_equals_set_up_by_given() {
        let solved = crate::engines::solver::solve_with_limit(
            &Grid::from_cells([0; CELLS]).expect("empty"),
            1,
        )
        .solution
        .expect("the empty grid has a solution");
        let mut rng = Rng::new(16, 0);
        let (mut fine, mut conflicting) = (0, 0);
        for _ in 0..20_000 {
            // Keep each cell of a solution with a random probability, then write a few
            // random digits over random cells (which makes most such grids conflict).
            let keep = rng.below(101);
            let mut cells = *solved.cells();
            for c in cells.iter_mut() {
                if rng.below(100) >= keep {
                    *c = 0;
                }
            }
            for _ in 0..rng.below(3) {
                cells[rng.below(CELLS)] = rng.below(10) as u8;
            }
            let grid = Grid::from_cells(cells).expect("digits");
            same_setup(&grid);
            match State::new_by_given(&grid, grid.given_mask()) {
                Some(_) => fine += 1,
                None => conflicting += 1,
            }
        }
        assert!(
            fine > 5_000 && conflicting > 5_000,
            "{fine} fine, {conflicting} conflicting"
        );
    }
}
