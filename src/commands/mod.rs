//! One module per subcommand; each turns validated arguments into library calls and output.

mod bench;
mod canon;
mod generate;
pub(crate) mod plot;
mod shuffle;
mod solve;
mod verify;

use std::io::Write;
use std::process::ExitCode;

use clap::CommandFactory;

use crate::cli::{Cli, Command};

/// Run the chosen subcommand.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Bench(args) => bench::run(&args),
        Command::Solve(args) => solve::run(&args),
        Command::Verify(args) => verify::run(&args),
        Command::Generate(args) => generate::run(&args),
        Command::Shuffle(args) => shuffle::run(&args),
        Command::Canon(args) => canon::run(&args),
        Command::Plot(args) => plot::run(&args),
        Command::Completions { shell } => {
            // clap_complete panics on a failed write, so render first and write ourselves: a
            // closed pipe (`| head -1`) then ends quietly like every other command.
            let mut text = Vec::new();
            let mut cmd = crate::cli::Cli::command();
            clap_complete::generate(shell, &mut cmd, "sudoku-batch", &mut text);
            write_stdout(&text)
        }
        Command::Man { command, dir } => man(command.as_deref(), dir.as_deref()),
    }
}

/// The man pages: the overview, then one per command (`sudoku-batch-solve`, ...).
fn man_pages() -> Vec<(String, clap::Command)> {
    let mut cli = Cli::command();
    cli.build();
    let mut pages = vec![("sudoku-batch".to_string(), cli.clone())];
    for sub in cli.get_subcommands().filter(|s| s.get_name() != "help") {
        let name = format!("sudoku-batch-{}", sub.get_name());
        // clap names are 'static; a handful of pages per process.
        let title: &'static str = Box::leak(name.clone().into_boxed_str());
        let usage = format!("sudoku-batch {}", sub.get_name());
        pages.push((
            name,
            sub.clone().name(title).display_name(title).bin_name(usage),
        ));
    }
    pages
}

/// `man`: one page on stdout, or every page into `dir` (each file complete or absent).
fn man(command: Option<&str>, dir: Option<&std::path::Path>) -> anyhow::Result<ExitCode> {
    let pages = man_pages();
    let render = |cmd: &clap::Command| -> anyhow::Result<Vec<u8>> {
        let mut text = Vec::new();
        clap_mangen::Man::new(cmd.clone()).render(&mut text)?;
        Ok(text)
    };
    if let Some(dir) = dir {
        if !dir.is_dir() {
            anyhow::bail!("{}: no such directory", dir.display());
        }
        for (name, cmd) in &pages {
            let path = dir.join(format!("{name}.1"));
            let text = render(cmd)?;
            let (output, mut sink) = crate::output::Output::create(Some(&path))?;
            sink.write_all(&text)
                .and_then(|()| sink.flush())
                .map_err(|e| {
                    anyhow::Error::new(e).context(format!("{}: cannot write", path.display()))
                })?;
            drop(sink);
            output.commit()?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let wanted = command.map_or("sudoku-batch".to_string(), |c| format!("sudoku-batch-{c}"));
    let Some((_, cmd)) = pages.iter().find(|(name, _)| *name == wanted) else {
        let names: Vec<&str> = pages[1..]
            .iter()
            .map(|(n, _)| n.trim_start_matches("sudoku-batch-"))
            .collect();
        anyhow::bail!(
            "no command {:?} (commands: {})",
            command.unwrap_or(""),
            names.join(", ")
        );
    };
    write_stdout(&render(cmd)?)
}

/// Write `bytes` to stdout (a closed pipe comes back as an error, which `main` ends quietly).
fn write_stdout(bytes: &[u8]) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// True when the error chain holds a closed-pipe write (`sudoku-batch ... | head`).
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// A pipeline error as the user should read it: write errors name the output.
pub fn output_error(
    e: sudoku_batch::pipeline::PipelineError,
    output: &crate::output::Output,
) -> anyhow::Error {
    match e {
        sudoku_batch::pipeline::PipelineError::Output(e) => {
            anyhow::Error::new(e).context(format!("{}: cannot write", output.label()))
        }
        e => e.into(),
    }
}
