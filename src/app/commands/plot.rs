//! `sudoku-batch plot`: SVG charts of saved JSON (bench results, `--stats-json` summaries).

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};
use clap::Args;

use sudoku_batch::jobs::plot::{self, PlotInput, Scale};

use crate::output::Output;

const PLOT_HELP: &str = "\
Inputs (the kind is recognised from the JSON):
  bench --export-json FILE or bench --json lines: puzzles/s per dataset × algorithm, with
      error bars (± σ of the runs); several files are drawn side by side, one colour per
      file, labelled with the commit, CPU, threads and date they record
  solve --stats-json FILE: the share of puzzles per guesses bucket (0, 1, 2-3, 4-7, ...):
      how hard a dataset is at a glance; several files side by side
  verify --stats-json FILE: records that passed, and records per problem
  rate --stats-json FILE: the share of rated puzzles per ER value (0.1 apart), capped ones
      noted; several files side by side

Examples:
  sudoku-batch bench --export-json new.json data.txt && sudoku-batch plot old.json new.json -o cmp.svg
  sudoku-batch solve --stats-json top1465.json -o /dev/null top1465 && sudoku-batch plot top1465.json -o hard.svg
  sudoku-batch rate --stats-json er.json -o /dev/null puzzles.txt && sudoku-batch plot er.json -o er.svg";

/// `sudoku-batch plot`.
#[derive(Debug, Args)]
#[command(after_help = PLOT_HELP)]
pub struct PlotArgs {
    /// JSON files to draw (`-`: stdin), all of one kind.
    #[arg(required = true, value_name = "JSON")]
    pub inputs: Vec<String>,

    /// The SVG file to write (default stdout; complete or absent, like solve -o).
    #[arg(short, long, value_name = "FILE.svg")]
    pub output: Option<PathBuf>,

    /// Value axis: auto (logarithmic when values differ by more than 30x), linear or log.
    #[arg(long, default_value = "auto", value_parser = ["auto", "linear", "log"])]
    pub scale: String,

    /// Replace the chart's title.
    #[arg(long)]
    pub title: Option<String>,
}

/// Each input's name (its file name) and contents.
fn read_inputs(inputs: &[String]) -> anyhow::Result<Vec<(String, PlotInput)>> {
    let mut out = Vec::with_capacity(inputs.len());
    // Read whole, so at most this much: a bench JSON or a summary takes a few KiB.
    let max = sudoku_batch::limits::MAX_PLOT_INPUT;
    let read = |src: &mut dyn Read, shown: &str| -> anyhow::Result<String> {
        let mut text = String::new();
        src.take(max + 1)
            .read_to_string(&mut text)
            .with_context(|| format!("{shown}: cannot read"))?;
        if text.len() as u64 > max {
            let max = sudoku_batch::limits::show_bytes(max);
            anyhow::bail!("{shown}: longer than {max}: not a bench result or a run summary");
        }
        Ok(text)
    };
    for arg in inputs {
        let (name, text) = if arg == "-" {
            ("stdin".to_string(), read(&mut std::io::stdin(), "stdin")?)
        } else {
            let path = std::path::Path::new(arg);
            let mut file =
                std::fs::File::open(path).with_context(|| format!("{arg}: cannot read"))?;
            let text = read(&mut file, arg)?;
            let name = path
                .file_name()
                .map_or(arg.clone(), |n| n.to_string_lossy().into_owned());
            (name, text)
        };
        let input = plot::parse_input(&text).with_context(|| arg.clone())?;
        out.push((name, input));
    }
    Ok(out)
}

/// The chart for inputs all of one kind.
fn chart(inputs: Vec<(String, PlotInput)>, scale: Scale) -> anyhow::Result<plot::BarChart> {
    let mut bench = Vec::new();
    let mut guesses = Vec::new();
    let mut problems = Vec::new();
    let mut ratings = Vec::new();
    for (name, input) in inputs {
        match input {
            PlotInput::Bench(points) => bench.push((name, points)),
            PlotInput::Guesses { dataset, buckets } => {
                guesses.push((dataset.unwrap_or(name), buckets));
            }
            PlotInput::Problems(counts) => problems.push((name, counts)),
            PlotInput::Ratings { dataset, buckets } => {
                ratings.push((dataset.unwrap_or(name), buckets));
            }
        }
    }
    let kinds = [
        !bench.is_empty(),
        !guesses.is_empty(),
        !problems.is_empty(),
        !ratings.is_empty(),
    ];
    if kinds.iter().filter(|&&k| k).count() > 1 {
        bail!("the inputs are of different kinds (bench results, solve, verify or rate summaries): draw each kind on its own");
    }
    let mut chart = if bench.len() == 1 {
        plot::bench_chart(&bench[0].1, scale)
    } else if !bench.is_empty() {
        plot::compare_chart(&bench, scale)
    } else if !guesses.is_empty() {
        plot::histogram_chart(&guesses)
    } else if !ratings.is_empty() {
        plot::rating_chart(&ratings)
    } else {
        plot::problems_chart(&problems)
    };
    // The histogram's own choice (linear) stands unless the user chose.
    if scale != Scale::Auto {
        chart.scale = scale;
    }
    Ok(chart)
}

pub fn run(args: &PlotArgs) -> anyhow::Result<ExitCode> {
    let scale = match args.scale.as_str() {
        "linear" => Scale::Linear,
        "log" => Scale::Log,
        _ => Scale::Auto,
    };
    // Opened first, so a bad -o path is reported before the inputs are read.
    let (output, mut sink) = Output::create(args.output.as_deref())?;
    let inputs = read_inputs(&args.inputs)?;
    let mut chart = chart(inputs, scale)?;
    if let Some(title) = &args.title {
        chart.title.clone_from(title);
    }
    let svg = plot::render_svg(&chart).context("cannot draw the chart")?;
    sink.write_all(svg.as_bytes())
        .and_then(|()| sink.flush())
        .with_context(|| format!("{}: cannot write", output.label()))?;
    drop(sink);
    output.commit()?;
    Ok(ExitCode::SUCCESS)
}
