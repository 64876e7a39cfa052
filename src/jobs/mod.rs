//! One module per command: a record's work, its statuses, writers and run summary. The
//! command line (`src/app/`) and the Python module both call these.

pub mod bench;
pub mod canon;
pub mod explain;
pub mod generate;
pub mod hint;
#[cfg(feature = "plot")]
pub mod plot;
pub mod rate;
pub mod records;
pub mod shuffle;
pub mod solve;
pub mod verify;
