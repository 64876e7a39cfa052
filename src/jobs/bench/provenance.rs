//! Where a measurement comes from: the build (version, git commit), the machine (CPU model,
//! OS), the date, and the dataset file (path, size, modification time, SHA-256), so two saved
//! results can be compared knowing what differs between them.
//!
//! The git commit is captured at build time by `build.rs` ("unknown" when the crate was built
//! outside a git work tree, e.g. from a crates.io tarball; `-dirty` when the sources differed
//! from the commit).

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::Serialize;
use sha2::{Digest, Sha256};

/// Files up to this size are hashed; larger ones are identified by size and modification
/// time only (hashing 10 GiB would take longer than the benchmark).
pub const HASH_LIMIT: u64 = 256 << 20;

/// The build and the machine a result was measured with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Provenance {
    /// The tool's version (`Cargo.toml`).
    pub version: String,
    /// The git commit the tool was built from (12 hex digits, maybe `-dirty`), or "unknown".
    pub git_commit: String,
    /// The CPU model as the OS names it, or "unknown".
    pub cpu: String,
    /// Logical CPUs the OS offers this process.
    pub cpus: usize,
    /// OS, architecture and kernel release, e.g. "linux x86_64 6.1.0-18-amd64".
    pub os: String,
    /// When the result was measured (UTC, RFC 3339, seconds).
    pub date: String,
}

impl Provenance {
    /// The provenance of a measurement made now by this process.
    pub fn current() -> Provenance {
        Provenance {
            version: env!("CARGO_PKG_VERSION").to_string(),
            git_commit: GIT_COMMIT.to_string(),
            cpu: cpu_model().unwrap_or_else(|| "unknown".to_string()),
            cpus: std::thread::available_parallelism().map_or(1, |n| n.get()),
            os: os_name(),
            date: utc_timestamp(SystemTime::now()),
        }
    }
}

/// The git commit this crate was built from (see the module doc).
pub const GIT_COMMIT: &str = env!("SUDOKU_BATCH_GIT_COMMIT");

/// The dataset file a result was measured on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DatasetInfo {
    /// The path as given on the command line.
    pub dataset_path: String,
    /// Size in bytes.
    pub dataset_bytes: u64,
    /// Last modification (UTC, RFC 3339), when the file system records it.
    pub dataset_mtime: Option<String>,
    /// SHA-256 of the file's bytes (hex), for files up to [`HASH_LIMIT`]; `None` above.
    pub dataset_sha256: Option<String>,
}

impl DatasetInfo {
    /// Describe the file at `path` (reads it once to hash it, when small enough).
    pub fn of(path: &Path) -> io::Result<DatasetInfo> {
        let meta = std::fs::metadata(path)?;
        let sha256 = if meta.len() <= HASH_LIMIT {
            Some(sha256_file(path)?)
        } else {
            None
        };
        Ok(DatasetInfo {
            dataset_path: path.display().to_string(),
            dataset_bytes: meta.len(),
            dataset_mtime: meta.modified().ok().map(utc_timestamp),
            dataset_sha256: sha256,
        })
    }

    /// The file name, the dataset's name in tables and charts.
    pub fn name(&self) -> String {
        let path = Path::new(&self.dataset_path);
        path.file_name().map_or_else(
            || self.dataset_path.clone(),
            |n| n.to_string_lossy().into_owned(),
        )
    }
}

/// The SHA-256 of a file, in lowercase hex.
pub fn sha256_file(path: &Path) -> io::Result<String> {
    let mut file = File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(format!("{:x}", hasher.finalize()))
}

/// The CPU's model name from `/proc/cpuinfo` (Linux; `None` elsewhere or when absent, e.g.
/// on many ARM kernels).
fn cpu_model() -> Option<String> {
    let text = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    text.lines()
        .filter_map(|l| l.split_once(':'))
        .find(|(key, _)| matches!(key.trim(), "model name" | "Model" | "cpu model"))
        .map(|(_, value)| value.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|v| !v.is_empty())
}

/// "linux x86_64 6.1.0" (the release only where the kernel says it).
fn os_name() -> String {
    let base = format!("{} {}", std::env::consts::OS, std::env::consts::ARCH);
    match std::fs::read_to_string("/proc/sys/kernel/osrelease") {
        Ok(release) if !release.trim().is_empty() => format!("{base} {}", release.trim()),
        _ => base,
    }
}

/// `time` as UTC RFC 3339 to the second ("2026-11-30T08:40:00Z"); times before 1970 clamp to
/// the epoch.
pub fn utc_timestamp(time: SystemTime) -> String {
    let secs = time
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// Days since 1970-01-01 to a proleptic Gregorian (year, month, day): Howard Hinnant's
/// `civil_from_days`, which needs no calendar tables.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn timestamps_are_utc_rfc3339() {
        let at = |s: u64| utc_timestamp(UNIX_EPOCH + Duration::from_secs(s));
        assert_eq!(at(0), "1970-01-01T00:00:00Z");
        assert_eq!(at(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(at(1_796_027_045), "2026-11-30T08:24:05Z");
    }

    #[test]
    fn a_dataset_is_hashed_and_named_by_its_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("abc.txt");
        std::fs::write(&path, "abc").unwrap();
        let info = DatasetInfo::of(&path).unwrap();
        assert_eq!(info.name(), "abc.txt");
        assert_eq!(info.dataset_bytes, 3);
        assert!(info.dataset_mtime.is_some());
        assert_eq!(
            info.dataset_sha256.as_deref(),
            Some("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        );
    }

    #[test]
    fn provenance_names_the_build_and_machine() {
        let p = Provenance::current();
        assert_eq!(p.version, env!("CARGO_PKG_VERSION"));
        assert!(!p.git_commit.is_empty() && !p.cpu.is_empty() && p.cpus >= 1);
        assert!(p.os.starts_with(std::env::consts::OS));
        assert_eq!(p.date.len(), "2026-11-30T08:24:05Z".len());
    }
}
