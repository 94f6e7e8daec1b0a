//! Atomic file replacement: write a temporary file beside the target, fsync it, rename it
//! over the target and fsync the directory, so readers see the old or the new file, never
//! a half-written one, even across a crash or a kill -9.

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Replaces `path` with what `fill` writes, atomically. The temporary file
/// (`.<name>.<pid>.tmp` in the same directory) is removed when anything fails.
pub fn write_atomically<F>(path: &Path, fill: F) -> io::Result<()>
where
    F: FnOnce(&mut BufWriter<&File>) -> io::Result<()>,
{
    let tmp = temp_path(path);
    let result = (|| {
        let file = File::create(&tmp)?;
        {
            let mut w = BufWriter::with_capacity(1 << 20, &file);
            fill(&mut w)?;
            w.flush()?;
        }
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, path)?;
        sync_dir(path);
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "book".to_string());
    let tmp_name = format!(".{name}.{}.tmp", std::process::id());
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.join(tmp_name),
        _ => PathBuf::from(tmp_name),
    }
}

/// Makes the rename durable (best effort: not every platform can fsync a directory).
fn sync_dir(path: &Path) {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_and_cleans_up() {
        let scratch = testkit::scratch::dir("atomic");
        let dir = scratch.path();
        let target = dir.join("x.bin");
        write_atomically(&target, |w| w.write_all(b"one")).expect("write");
        write_atomically(&target, |w| w.write_all(b"two")).expect("write");
        assert_eq!(fs::read(&target).expect("read"), b"two");
        let failed = write_atomically(&target, |w| {
            w.write_all(b"partial")?;
            Err(io::Error::other("boom"))
        });
        assert!(failed.is_err());
        assert_eq!(fs::read(&target).expect("read"), b"two");
        let leftovers = fs::read_dir(dir).expect("ls").count();
        assert_eq!(leftovers, 1);
    }
}
