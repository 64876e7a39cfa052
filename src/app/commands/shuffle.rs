//! `sudoku-batch shuffle`: random Sudoku symmetries applied to existing puzzles, so a set of
//! known difficulty becomes a large distinct-looking set of the same difficulty.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;
use std::time::Instant;

use sudoku_batch::generate::{Rng, Symmetry};
use sudoku_batch::grid::{Grid, CELLS};
use sudoku_batch::io::{RecordReader, Sink};
use sudoku_batch::pipeline::{self, NoProgress};

use clap::Args;

use crate::cli::{self, InputArgs, RunArgs};
use crate::commands::output_error;
use crate::output::{Diagnostics, Output};

pub const HELP: &str = "\
Each output puzzle is the input puzzle under a random symmetry (digit relabelling, row and
column swaps within bands and stacks, band and stack swaps, transposition): the same
difficulty and solution count. Deterministic for a seed, whatever --threads.

Examples:
  sudoku-batch shuffle --copies 100 --seed 7 top1465.txt > top146500.txt
  sudoku-batch shuffle --with-solutions kaggle.csv -o shuffled.csv";

/// `sudoku-batch shuffle`.
#[derive(Debug, Args)]
pub struct ShuffleArgs {
    /// Input files; `-` or none reads stdin.
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<String>,

    /// Shuffled copies per input puzzle.
    #[arg(long, short = 'n', default_value_t = 1)]
    pub copies: u64,

    /// Seed: the same seed gives the same output, byte for byte.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Write `puzzle,solution` CSV (solutions carried from the input or solved).
    #[arg(long)]
    pub with_solutions: bool,

    #[command(flatten)]
    pub run: RunArgs,

    #[command(flatten)]
    pub input: InputArgs,
}

/// The copies made of one record, or why it is not a puzzle.
struct Shuffled {
    line: u64,
    copies: Result<Vec<(Grid, Option<Grid>)>, String>,
}

struct LineSink<W: Write> {
    out: W,
    with_solutions: bool,
    header: bool,
}

impl<W: Write + Send> Sink<Shuffled> for LineSink<W> {
    fn start(&mut self) -> io::Result<()> {
        if std::mem::take(&mut self.header) {
            self.out.write_all(b"puzzle,solution\n")?;
        }
        Ok(())
    }
    fn write(&mut self, item: &Shuffled) -> io::Result<()> {
        let Ok(copies) = &item.copies else {
            return self.out.write_all(b"malformed\n");
        };
        let mut line = [0u8; CELLS];
        for (puzzle, solution) in copies {
            puzzle.write_line(b'.', &mut line);
            self.out.write_all(&line)?;
            if self.with_solutions {
                self.out.write_all(b",")?;
                if let Some(s) = solution {
                    s.write_line(b'0', &mut line);
                    self.out.write_all(&line)?;
                }
            }
            self.out.write_all(b"\n")?;
        }
        Ok(())
    }
    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

pub fn run(args: &ShuffleArgs) -> anyhow::Result<ExitCode> {
    let inputs = cli::inputs(&args.inputs)?;
    let options = args.input.reader_options();
    let (output, sink) = Output::create(args.run.output.as_deref())?;
    let mut diagnostics = Diagnostics::new(args.run.quiet);
    let mut sink = LineSink {
        out: BufWriter::with_capacity(1 << 16, sink),
        with_solutions: args.with_solutions,
        header: args.with_solutions,
    };
    let (seed, copies) = (args.seed, args.copies.max(1));
    let start = Instant::now();
    let (mut records, mut malformed) = (0u64, 0u64);
    for (n, input) in inputs.iter().enumerate() {
        let label = input.label();
        let reader = RecordReader::open(input, &options)?;
        let stream = (n as u64) << 40; // distinct random streams per input file
        let work = |r: sudoku_batch::io::Record| {
            let puzzle = match r.puzzle {
                Ok(p) => p,
                Err(e) => {
                    return Shuffled {
                        line: r.line,
                        copies: Err(format!("malformed: {e}")),
                    }
                }
            };
            let solution = match r.solution {
                Some(Ok(s)) => Some(s),
                _ if args.with_solutions => {
                    sudoku_batch::solver::solve_with_limit(&puzzle, 1).solution
                }
                _ => None,
            };
            let made = (0..copies)
                .map(|j| {
                    let mut rng = Rng::new(seed, stream + r.line * copies + j);
                    let sym = Symmetry::random(&mut rng);
                    (sym.apply(&puzzle), solution.map(|s| sym.apply(&s)))
                })
                .collect();
            Shuffled {
                line: r.line,
                copies: Ok(made),
            }
        };
        pipeline::run_stages(
            reader,
            args.run.threads.count(),
            4096,
            &work,
            |s| {
                records += 1;
                if let Err(e) = &s.copies {
                    malformed += 1;
                    diagnostics.report(|m| eprintln!("{m}"), &label, s.line, e);
                }
                Ok(())
            },
            &mut sink,
            &NoProgress,
        )
        .map_err(|e| output_error(e, &output))?;
    }
    drop(sink);
    output.commit()?;
    diagnostics.finish("the output has a malformed line for each");
    if !args.run.quiet {
        let secs = start.elapsed().as_secs_f64();
        eprintln!(
            "sudoku-batch: shuffled {records} records into {} puzzles in {secs:.2} s ({:.0} puzzles/s), {malformed} malformed",
            (records - malformed) * copies,
            ((records - malformed) * copies) as f64 / secs.max(1e-9)
        );
    }
    Ok(if malformed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
