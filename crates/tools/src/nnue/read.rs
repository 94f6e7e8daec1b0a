//! Reading position files for training: plain `.wpos` files and `.wpos.xz` files,
//! decompressed as they are read (the shared data is shipped compressed), with damaged
//! records skipped and counted rather than fatal.

use super::data::{parse_records, Record};
use std::fs::File;
use std::io::Read;
use std::path::Path;

/// The bytes of a position file, decompressed when its name ends in `.xz`.
pub fn read_file(path: &Path) -> Result<Vec<u8>, String> {
    let err = |e: std::io::Error| format!("{}: {e}", path.display());
    if path.extension().is_some_and(|e| e == "xz") {
        let f = File::open(path).map_err(err)?;
        let mut out = Vec::new();
        liblzma::read::XzDecoder::new(std::io::BufReader::new(f))
            .read_to_end(&mut out)
            .map_err(|e| format!("{}: not a readable xz file ({e})", path.display()))?;
        Ok(out)
    } else {
        std::fs::read(path).map_err(err)
    }
}

/// Every good record of `path` (`.wpos` or `.wpos.xz`) and how many damaged ones were
/// skipped. A file without the header is an error.
pub fn read_records_lenient(path: &Path) -> Result<(Vec<Record>, usize), String> {
    parse_records(&read_file(path)?, path)
}
