//! The `sudoku-batch` binary: parse arguments, run the command, map the result to an exit code.

mod cli;
mod commands;
mod job;
mod output;
mod progress;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let long_version = format!(
        "{} (git commit {})\nsolver SIMD path: {} (chosen at run time; {}=portable|avx2|bmi2|auto)\ncompiled for CPU features: {}",
        env!("CARGO_PKG_VERSION"),
        sudoku_batch::jobs::bench::provenance::GIT_COMMIT,
        sudoku_batch::engines::solver::simd::SimdPath::active(),
        sudoku_batch::engines::solver::simd::ENV_VAR,
        cli::cpu_features()
    );
    let matches = cli::Cli::command()
        .long_version(long_version.leak() as &str)
        .get_matches();
    let args = match cli::Cli::from_arg_matches(&matches) {
        Ok(a) => a,
        Err(e) => e.exit(),
    };
    if let Err(err) = output::watch_signals() {
        eprintln!("sudoku-batch: {err:#}");
        return ExitCode::from(2);
    }
    match commands::run(args) {
        Ok(code) => code,
        Err(err) => {
            if commands::is_broken_pipe(&err) {
                return ExitCode::SUCCESS;
            }
            eprintln!("sudoku-batch: {err:#}");
            ExitCode::from(2)
        }
    }
}
