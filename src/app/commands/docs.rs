//! `sudoku-batch completions` and `sudoku-batch man`: the CLI documented for shells and `man`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, CommandFactory};

use crate::cli::Cli;
use crate::commands::write_stdout;

pub const COMPLETIONS_HELP: &str =
    "Example:\n  sudoku-batch completions bash > /etc/bash_completion.d/sudoku-batch";

/// `sudoku-batch completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell.
    pub shell: clap_complete::Shell,
}

pub const MAN_HELP: &str = "\
Examples:
  sudoku-batch man > sudoku-batch.1 && man ./sudoku-batch.1
  sudoku-batch man solve | man -l -
  sudoku-batch man --dir /usr/local/share/man/man1   # sudoku-batch.1, sudoku-batch-solve.1, ...";

/// `sudoku-batch man`.
#[derive(Debug, Args)]
pub struct ManArgs {
    /// The command whose page to print (default: the overview page).
    pub command: Option<String>,
    /// Write every page to DIR instead (sudoku-batch.1 and sudoku-batch-COMMAND.1).
    #[arg(long, value_name = "DIR", conflicts_with = "command")]
    pub dir: Option<PathBuf>,
}

/// `completions`: clap_complete panics on a failed write, so render first and write ourselves:
/// a closed pipe (`| head -1`) then ends quietly like every other command.
pub fn completions(args: &CompletionsArgs) -> anyhow::Result<ExitCode> {
    let mut text = Vec::new();
    let mut cmd = Cli::command();
    clap_complete::generate(args.shell, &mut cmd, "sudoku-batch", &mut text);
    write_stdout(&text)
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
pub fn man(args: &ManArgs) -> anyhow::Result<ExitCode> {
    let (command, dir) = (args.command.as_deref(), args.dir.as_deref());
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
