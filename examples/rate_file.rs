//! Rates every puzzle of a file and prints one line per puzzle, `PUZZLE ER/EP/ED HARDEST
//! STEPS [capped]`, then the rate on stderr (puzzles per second on one thread, the solve
//! that proves uniqueness included). For comparing with reference raters and for measuring;
//! `--steps` prints each step before its puzzle's line (`N<TAB>DIFFICULTY<TAB>TECHNIQUE<TAB>EFFECTS<TAB>CELLS`):
//!
//! ```text
//! cargo run --release --example rate_file -- [--ladder sukaku] [--max-rating X] [--repeat N] [--steps] FILE
//! ```
//!
//! `--each` prints `PUZZLE MICROSECONDS` instead: each puzzle's CPU time (its solve and
//! rating, the mean of `--repeat` runs of that puzzle in a row).

use std::path::PathBuf;
use std::time::Instant;

use sudoku_batch::engines::rater::{Difficulty, Ladder, RateOptions, Rater, Rating, Step};
use sudoku_batch::engines::solver::{solve_with_limit, Status};
use sudoku_batch::io::{load_puzzles, ReaderOptions};
use sudoku_batch::Grid;

fn main() {
    let args = parse_args();
    let path = &args.path;
    let (puzzles, malformed) =
        load_puzzles(path, &ReaderOptions::default()).expect("read the file");
    if malformed > 0 {
        eprintln!("{}: {malformed} malformed records skipped", path.display());
    }
    let mut rater = Rater::new(args.options);
    if args.each {
        time_each(&puzzles, &mut rater, args.repeat.max(1));
        return;
    }
    let cpu_start = thread_cpu_ns();
    let start = Instant::now();
    let mut out = String::new();
    let mut rated = 0usize;
    for round in 0..args.repeat {
        for p in &puzzles {
            let outcome = solve_with_limit(p, 2);
            if outcome.status != Status::Solved {
                if round == 0 && !args.quiet {
                    out.push_str(&format!("{} {}\n", p.to_line(), outcome.status));
                }
                continue;
            }
            if args.solve_only {
                rated += 1;
                continue;
            }
            let solution = outcome.solution.expect("solved");
            let r = if args.steps && round == 0 {
                let mut n = 0;
                rater.rate_with_steps(p, &solution, &mut |step: &Step<'_>| {
                    n += 1;
                    push_step(&mut out, n, step);
                })
            } else {
                rater.rate(p, &solution)
            };
            rated += 1;
            if round == 0 && !args.quiet {
                push_rating(&mut out, p, &r);
            }
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    let cpu = match (cpu_start, thread_cpu_ns()) {
        // The scheduler's clock moves at scheduling points: a very short run may not see it.
        (Some(a), Some(b)) if b > a => (b - a) as f64 / 1e9,
        _ => seconds,
    };
    print!("{out}");
    eprintln!(
        "{}: {rated} ratings in {seconds:.3} s wall, {cpu:.3} s CPU: {:.0} puzzles/s, {:.2} us/puzzle CPU (one thread, solve included)",
        path.display(),
        rated as f64 / cpu,
        cpu * 1e6 / rated.max(1) as f64
    );
}

/// Prints each puzzle's CPU time in microseconds, the mean of `repeat` runs in a row.
fn time_each(puzzles: &[Grid], rater: &mut Rater, repeat: usize) {
    let mut out = String::new();
    for p in puzzles {
        let start = thread_cpu_clock();
        for _ in 0..repeat {
            let outcome = solve_with_limit(p, 2);
            if let Some(solution) = outcome
                .solution
                .filter(|_| outcome.status == Status::Solved)
            {
                std::hint::black_box(rater.rate(p, &solution));
            }
        }
        let us = (thread_cpu_clock() - start) as f64 / 1e3 / repeat as f64;
        out.push_str(&format!("{} {us:.1}\n", p.to_line()));
    }
    print!("{out}");
}

/// The command line.
struct Args {
    options: RateOptions,
    repeat: usize,
    quiet: bool,
    solve_only: bool,
    steps: bool,
    each: bool,
    path: PathBuf,
}

fn parse_args() -> Args {
    let mut options = RateOptions::default();
    let mut repeat = 1usize;
    let mut quiet = false;
    let mut solve_only = false;
    let mut steps = false;
    let mut each = false;
    let mut path = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--ladder" => {
                options.ladder = args.next().expect("--ladder NAME").parse().expect("ladder")
            }
            "--max-rating" => {
                let max: Difficulty = args
                    .next()
                    .expect("--max-rating X")
                    .parse()
                    .expect("rating");
                options.max_rating = Some(max);
            }
            "--repeat" => repeat = args.next().expect("--repeat N").parse().expect("count"),
            "--quiet" => quiet = true,
            "--solve-only" => solve_only = true,
            "--steps" => steps = true,
            "--each" => each = true,
            _ => path = Some(PathBuf::from(arg)),
        }
    }
    let _ = Ladder::Se;
    let path =
        path.expect("usage: rate_file [--ladder L] [--max-rating X] [--repeat N] [--quiet] FILE");
    Args {
        options,
        repeat,
        quiet,
        solve_only,
        steps,
        each,
        path,
    }
}

/// Step `n` of a path: `N<TAB>DIFFICULTY<TAB>TECHNIQUE<TAB>EFFECTS<TAB>CELLS`.
fn push_step(out: &mut String, n: usize, step: &Step<'_>) {
    out.push_str(&format!("{n}\t{}\t{}\t", step.difficulty, step.technique));
    for pl in step.placements {
        out.push_str(&format!("{pl} "));
    }
    for e in step.eliminations {
        out.push_str(&format!("{e} "));
    }
    out.push('\t');
    for &c in step.cells {
        out.push_str(&format!("r{}c{} ", c / 9 + 1, c % 9 + 1));
    }
    out.push('\n');
}

/// A puzzle's line: `PUZZLE ER/EP/ED HARDEST STEPS [capped]`.
fn push_rating(out: &mut String, p: &Grid, r: &Rating) {
    let hardest = r.hardest.map_or("-", |t| t.name());
    let capped = if r.capped { " capped" } else { "" };
    out.push_str(&format!(
        "{} {}/{}/{} {} {}{}\n",
        p.to_line(),
        r.er,
        r.ep,
        r.ed,
        hardest.replace(' ', "_"),
        r.steps,
        capped
    ));
}

/// This thread's CPU time in nanoseconds (Linux `schedstat`), which a loaded machine does
/// not inflate the way it inflates wall time.
fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// This thread's CPU clock in nanoseconds, exact (`CLOCK_THREAD_CPUTIME_ID`).
fn thread_cpu_clock() -> u64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to write.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}
