//! Reading and writing `npm pack` tarballs (gzip-compressed tar, every entry under
//! `package/`) with hard limits, so that an upload can never make the server write
//! outside a package, hold unbounded memory, or store something npm would unpack
//! differently from what we checked.
//!
//! Reading refuses: data that is not gzip, a gzip stream that expands past the unpacked
//! limit (a "bomb": checked while inflating, never after), truncated or corrupt tar data,
//! absolute paths, `..` or `.` segments, backslashes and control characters, entries
//! outside `package/`, links whose target leaves the package, device and FIFO entries,
//! duplicate paths, and too many or too large files. Links that stay inside the package
//! are skipped (npm does not install them either) and reported as an anomaly, as are
//! set-uid bits and executable bits, for the security scan.

use std::collections::BTreeSet;
use std::io::Read as _;

use flate2::Compression;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;

/// Size limits applied while reading a tarball.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Most bytes of the tar stream after decompression.
    pub max_tar_bytes: u64,
    /// Most bytes of all regular files together.
    pub max_unpacked_bytes: u64,
    /// Most regular files.
    pub max_files: usize,
    /// Most times the tar stream may be larger than the upload (beyond
    /// [`RATIO_FLOOR_BYTES`]): a small upload that inflates far past its size is a bomb even
    /// below the absolute limits.
    pub max_ratio: u64,
}

/// Output every tarball may inflate to whatever its ratio: tar headers and block padding
/// make a tiny package expand many times over without being a bomb.
pub const RATIO_FLOOR_BYTES: u64 = 1024 * 1024;

/// Default archive ratio limit: source and minified code compress 3-10 times, data files
/// rarely past 50; the zeros of a bomb compress about 1000 times.
pub const DEFAULT_MAX_RATIO: u64 = 100;

impl Default for Limits {
    /// The reference registry's limits: 64 MB of tar, 50 MB unpacked, 10 000 files; and
    /// an archive ratio of [`DEFAULT_MAX_RATIO`].
    fn default() -> Self {
        Self {
            max_tar_bytes: 64 * 1024 * 1024,
            max_unpacked_bytes: 50 * 1024 * 1024,
            max_files: 10_000,
            max_ratio: DEFAULT_MAX_RATIO,
        }
    }
}

/// One regular file of a package, its path relative to `package/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackFile {
    /// Relative path, e.g. `dist/index.js`.
    pub path: String,
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// Unix permission bits from the tar header.
    pub mode: u32,
}

/// Something unusual about an archive that is not a reason to refuse it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Anomaly {
    /// Stable code, e.g. `archive.link`.
    pub code: &'static str,
    /// Path of the entry concerned.
    pub path: String,
    /// What was seen, in a sentence.
    pub message: String,
}

/// The contents of a tarball that passed every check.
#[derive(Debug, Clone)]
pub struct Unpacked {
    /// Regular files in archive order.
    pub files: Vec<PackFile>,
    /// Bytes of all files together.
    pub unpacked_size: u64,
    /// Oddities the security scan reports.
    pub anomalies: Vec<Anomaly>,
}

impl Unpacked {
    /// The file at `path`, if any.
    pub fn file(&self, path: &str) -> Option<&PackFile> {
        self.files.iter().find(|file| file.path == path)
    }
}

/// Why a tarball was refused; the message is answered to the publisher.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TarballError {
    /// The bytes are not gzip.
    #[error(
        "the package tarball is not gzip-compressed (expected the `.tgz` that `npm pack` writes)"
    )]
    NotGzip,
    /// The gzip or tar stream is damaged.
    #[error("the package tarball is corrupt: {0}")]
    Corrupt(String),
    /// Decompression would exceed the limit.
    #[error("the package tarball expands past the {limit_mb} MB unpacked limit")]
    Bomb {
        /// The limit in MB.
        limit_mb: u64,
    },
    /// Decompression would exceed the archive ratio limit.
    #[error(
        "the package tarball expands more than {ratio} times its compressed size (the archive ratio limit)"
    )]
    Ratio {
        /// The ratio limit.
        ratio: u64,
    },
    /// Files together exceed the unpacked limit.
    #[error("the package's files exceed the {limit_mb} MB unpacked limit")]
    TooLarge {
        /// The limit in MB.
        limit_mb: u64,
    },
    /// Too many regular files.
    #[error("the package tarball holds more than {0} files")]
    TooManyFiles(usize),
    /// An entry path that could write outside the package or is ambiguous.
    #[error("the package tarball has an unsafe path `{path}`: {reason}")]
    UnsafePath {
        /// The path as stored in the archive.
        path: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A link pointing outside the package.
    #[error("the package tarball has a link `{path}` pointing outside the package (`{target}`)")]
    LinkOutside {
        /// The link's path.
        path: String,
        /// Where it points.
        target: String,
    },
    /// An entry type that has no place in a package.
    #[error("the package tarball has `{path}`, which is not a file, directory or link")]
    SpecialEntry {
        /// The entry's path.
        path: String,
    },
    /// The same path twice.
    #[error("the package tarball holds `{0}` twice")]
    Duplicate(String),
    /// No regular files at all.
    #[error("the package tarball holds no files")]
    Empty,
}

/// Reads an `npm pack` tarball, enforcing `limits` and the safety rules of this module.
pub fn read(bytes: &[u8], limits: &Limits) -> Result<Unpacked, TarballError> {
    if !bytes.starts_with(&[0x1f, 0x8b]) {
        return Err(TarballError::NotGzip);
    }
    let tar = inflate(bytes, limits)?;
    let mut archive = tar::Archive::new(tar.as_slice());
    let entries = archive
        .entries()
        .map_err(|error| TarballError::Corrupt(error.to_string()))?;
    let mut files = Vec::new();
    let mut seen = BTreeSet::new();
    let mut anomalies = Vec::new();
    let mut unpacked_size = 0u64;
    for entry in entries {
        let mut entry = entry.map_err(|error| TarballError::Corrupt(error.to_string()))?;
        let entry_type = entry.header().entry_type();
        // Extension headers carry metadata for the next entry; the tar crate applies the
        // per-entry ones itself.
        if entry_type.is_pax_global_extensions()
            || entry_type.is_pax_local_extensions()
            || entry_type.is_gnu_longname()
            || entry_type.is_gnu_longlink()
        {
            continue;
        }
        let raw_path = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        let relative = package_relative(&raw_path)?;
        if entry_type.is_dir() {
            continue;
        }
        if entry_type.is_symlink() || entry_type.is_hard_link() {
            let target = entry
                .link_name_bytes()
                .map(|target| String::from_utf8_lossy(&target).into_owned())
                .unwrap_or_default();
            let inside = if entry_type.is_hard_link() {
                // Hard-link targets are archive paths, like entry names.
                package_relative(&target).is_ok()
            } else {
                symlink_stays_inside(&relative, &target)
            };
            if !inside {
                return Err(TarballError::LinkOutside {
                    path: raw_path,
                    target,
                });
            }
            anomalies.push(Anomaly {
                code: "archive.link",
                path: relative,
                message: format!("link to `{target}` is skipped: npm does not install links"),
            });
            continue;
        }
        if !(entry_type.is_file() || entry_type.is_contiguous()) {
            return Err(TarballError::SpecialEntry { path: raw_path });
        }
        if !seen.insert(relative.clone()) {
            return Err(TarballError::Duplicate(relative));
        }
        if files.len() >= limits.max_files {
            return Err(TarballError::TooManyFiles(limits.max_files));
        }
        let size = entry.header().size().unwrap_or(0);
        unpacked_size += size;
        if unpacked_size > limits.max_unpacked_bytes {
            return Err(TarballError::TooLarge {
                limit_mb: limits.max_unpacked_bytes / (1024 * 1024),
            });
        }
        let mode = entry.header().mode().unwrap_or(0o644);
        let mut content = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
        entry
            .read_to_end(&mut content)
            .map_err(|error| TarballError::Corrupt(error.to_string()))?;
        if mode & 0o6000 != 0 {
            anomalies.push(Anomaly {
                code: "archive.setuid",
                path: relative.clone(),
                message: "file has the set-uid or set-gid bit".to_owned(),
            });
        }
        files.push(PackFile {
            path: relative,
            bytes: content,
            mode,
        });
    }
    if files.is_empty() {
        return Err(TarballError::Empty);
    }
    if let Some(conflict) = file_directory_conflict(&files) {
        return Err(TarballError::UnsafePath {
            path: format!("package/{conflict}"),
            reason: "it is both a file and a directory",
        });
    }
    Ok(Unpacked {
        files,
        unpacked_size,
        anomalies,
    })
}

/// Inflates gzip data, failing as soon as the output passes the tar limit or the ratio
/// limit, whichever is lower.
fn inflate(bytes: &[u8], limits: &Limits) -> Result<Vec<u8>, TarballError> {
    let by_ratio = (bytes.len() as u64)
        .saturating_mul(limits.max_ratio)
        .max(RATIO_FLOOR_BYTES);
    let max_bytes = limits.max_tar_bytes.min(by_ratio);
    let mut decoder = GzDecoder::new(bytes).take(max_bytes + 1);
    let mut tar = Vec::new();
    decoder
        .read_to_end(&mut tar)
        .map_err(|error| TarballError::Corrupt(format!("gzip: {error}")))?;
    if tar.len() as u64 > max_bytes {
        return Err(if max_bytes < limits.max_tar_bytes {
            TarballError::Ratio {
                ratio: limits.max_ratio,
            }
        } else {
            TarballError::Bomb {
                limit_mb: max_bytes / (1024 * 1024),
            }
        });
    }
    Ok(tar)
}

/// Checks an archive path and returns it relative to `package/`.
fn package_relative(path: &str) -> Result<String, TarballError> {
    let unsafe_path = |reason| TarballError::UnsafePath {
        path: path.to_owned(),
        reason,
    };
    if path.starts_with('/') {
        return Err(unsafe_path("absolute paths are not allowed"));
    }
    if path.contains('\\') {
        return Err(unsafe_path("backslashes are not allowed"));
    }
    if path.chars().any(char::is_control) {
        return Err(unsafe_path("control characters are not allowed"));
    }
    let trimmed = path.trim_end_matches('/');
    let mut segments = trimmed.split('/');
    if segments.any(|segment| segment == ".." || segment == "." || segment.is_empty()) {
        return Err(unsafe_path("`.`, `..` and empty segments are not allowed"));
    }
    match trimmed.strip_prefix("package/") {
        Some(relative) if !relative.is_empty() => Ok(relative.to_owned()),
        _ if trimmed == "package" => Ok(String::new()),
        _ => Err(unsafe_path("every entry must be under `package/`")),
    }
}

/// True when a symlink at `link` (relative to the package root) with `target` resolves
/// to a place inside the package.
fn symlink_stays_inside(link: &str, target: &str) -> bool {
    if target.starts_with('/') || target.contains('\\') || target.is_empty() {
        return false;
    }
    let mut depth: Vec<&str> = link.split('/').collect();
    depth.pop();
    for segment in target.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                if depth.pop().is_none() {
                    return false;
                }
            }
            other => depth.push(other),
        }
    }
    true
}

/// A path that is a file and also the ancestor of another file.
fn file_directory_conflict(files: &[PackFile]) -> Option<String> {
    let paths: BTreeSet<&str> = files.iter().map(|file| file.path.as_str()).collect();
    files.iter().find_map(|file| {
        let mut prefix = file.path.as_str();
        while let Some((parent, _)) = prefix.rsplit_once('/') {
            if paths.contains(parent) {
                return Some(parent.to_owned());
            }
            prefix = parent;
        }
        None
    })
}

/// npm's fixed mtime for packed files (1985-10-26T08:15:00Z), so a tarball built twice
/// from the same files is byte-identical.
const NPM_PACK_MTIME: u64 = 499_162_500;

/// Packs files into a deterministic `npm pack`-style tarball (sorted paths under
/// `package/`, fixed mtime and owner, mode 0644 or 0755 as given).
pub fn build(files: &[PackFile]) -> std::io::Result<Vec<u8>> {
    let mut sorted: Vec<&PackFile> = files.iter().collect();
    sorted.sort_by(|a, b| a.path.cmp(&b.path));
    let encoder = GzEncoder::new(Vec::new(), Compression::default());
    let mut builder = tar::Builder::new(encoder);
    builder.mode(tar::HeaderMode::Deterministic);
    for file in sorted {
        let mut header = tar::Header::new_ustar();
        header.set_size(file.bytes.len() as u64);
        header.set_mode(if file.mode & 0o111 != 0 { 0o755 } else { 0o644 });
        header.set_mtime(NPM_PACK_MTIME);
        header.set_entry_type(tar::EntryType::Regular);
        builder.append_data(
            &mut header,
            format!("package/{}", file.path),
            file.bytes.as_slice(),
        )?;
    }
    builder.into_inner()?.finish()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::io::Write as _;

    /// A raw tar entry for hand-made hostile archives the `tar` builder refuses to write.
    pub(crate) struct RawEntry<'a> {
        pub path: &'a str,
        pub kind: u8,
        pub link: &'a str,
        pub bytes: &'a [u8],
    }

    /// Builds a gzip tarball from raw entries without any of the builder's path checks.
    pub(crate) fn raw_tgz(entries: &[RawEntry<'_>]) -> Vec<u8> {
        let mut tar = Vec::new();
        for entry in entries {
            let mut header = [0u8; 512];
            header[..entry.path.len()].copy_from_slice(entry.path.as_bytes());
            header[100..107].copy_from_slice(b"0000644");
            header[108..115].copy_from_slice(b"0000000");
            header[116..123].copy_from_slice(b"0000000");
            let size = format!("{:011o}", entry.bytes.len());
            header[124..135].copy_from_slice(size.as_bytes());
            header[136..147].copy_from_slice(b"00000000000");
            header[156] = entry.kind;
            header[157..157 + entry.link.len()].copy_from_slice(entry.link.as_bytes());
            header[257..263].copy_from_slice(b"ustar\0");
            header[263..265].copy_from_slice(b"00");
            header[148..156].copy_from_slice(b"        ");
            let checksum: u32 = header.iter().map(|&b| u32::from(b)).sum();
            header[148..155].copy_from_slice(format!("{checksum:06o}\0").as_bytes());
            tar.extend_from_slice(&header);
            tar.extend_from_slice(entry.bytes);
            tar.resize(tar.len().div_ceil(512) * 512, 0);
        }
        tar.resize(tar.len() + 1024, 0);
        gzip(&tar)
    }

    pub(crate) fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
        encoder.write_all(bytes).expect("gzip");
        encoder.finish().expect("gzip")
    }

    fn file(path: &str, bytes: &[u8]) -> PackFile {
        PackFile {
            path: path.to_owned(),
            bytes: bytes.to_vec(),
            mode: 0o644,
        }
    }

    #[test]
    fn built_tarballs_read_back_and_are_deterministic() {
        let files = vec![
            file("package.json", br#"{"name":"a","version":"1.0.0"}"#),
            file("dist/index.js", b"module.exports = 1;\n"),
        ];
        let first = build(&files).expect("build");
        assert_eq!(first, build(&files).expect("build again"));
        let unpacked = read(&first, &Limits::default()).expect("read");
        let paths: Vec<&str> = unpacked.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["dist/index.js", "package.json"]);
        assert_eq!(unpacked.unpacked_size, 50);
        assert!(unpacked.anomalies.is_empty());
    }

    #[test]
    fn refuses_data_that_is_not_gzip() {
        assert_eq!(
            read(b"PK\x03\x04 not a tarball", &Limits::default()).unwrap_err(),
            TarballError::NotGzip
        );
        let error = read(&[0x1f, 0x8b, 8, 0, 0], &Limits::default()).unwrap_err();
        assert!(matches!(error, TarballError::Corrupt(_)), "{error}");
    }

    #[test]
    fn refuses_unsafe_paths() {
        for path in [
            "package/../../etc/passwd",
            "/etc/passwd",
            "package/./x",
            "other/file.js",
            "package\\x.js",
        ] {
            let tgz = raw_tgz(&[RawEntry {
                path,
                kind: b'0',
                link: "",
                bytes: b"x",
            }]);
            let error = read(&tgz, &Limits::default()).unwrap_err();
            assert!(
                matches!(error, TarballError::UnsafePath { .. }),
                "{path}: {error}"
            );
        }
    }

    #[test]
    fn links_inside_are_skipped_and_links_outside_refused() {
        let inside = raw_tgz(&[
            RawEntry {
                path: "package/package.json",
                kind: b'0',
                link: "",
                bytes: b"{}",
            },
            RawEntry {
                path: "package/lib/alias.js",
                kind: b'2',
                link: "../package.json",
                bytes: b"",
            },
        ]);
        let unpacked = read(&inside, &Limits::default()).expect("inside link is fine");
        assert_eq!(unpacked.files.len(), 1);
        assert_eq!(unpacked.anomalies[0].code, "archive.link");
        for (kind, link) in [
            (b'2', "../../etc/passwd"),
            (b'2', "/etc/passwd"),
            (b'1', "../outside"),
        ] {
            let tgz = raw_tgz(&[
                RawEntry {
                    path: "package/package.json",
                    kind: b'0',
                    link: "",
                    bytes: b"{}",
                },
                RawEntry {
                    path: "package/evil",
                    kind,
                    link,
                    bytes: b"",
                },
            ]);
            let error = read(&tgz, &Limits::default()).unwrap_err();
            assert!(
                matches!(error, TarballError::LinkOutside { .. }),
                "{link}: {error}"
            );
        }
    }

    #[test]
    fn refuses_devices_duplicates_and_empty_archives() {
        let device = raw_tgz(&[RawEntry {
            path: "package/dev",
            kind: b'3',
            link: "",
            bytes: b"",
        }]);
        assert!(matches!(
            read(&device, &Limits::default()).unwrap_err(),
            TarballError::SpecialEntry { .. }
        ));
        let twice = raw_tgz(&[
            RawEntry {
                path: "package/a",
                kind: b'0',
                link: "",
                bytes: b"1",
            },
            RawEntry {
                path: "package/a",
                kind: b'0',
                link: "",
                bytes: b"2",
            },
        ]);
        assert_eq!(
            read(&twice, &Limits::default()).unwrap_err(),
            TarballError::Duplicate("a".to_owned())
        );
        let empty = raw_tgz(&[RawEntry {
            path: "package/",
            kind: b'5',
            link: "",
            bytes: b"",
        }]);
        assert_eq!(
            read(&empty, &Limits::default()).unwrap_err(),
            TarballError::Empty
        );
    }

    #[test]
    fn stops_a_gzip_bomb_while_inflating() {
        // 8 MB of zeros compress to a few KB; the limit is 1 MB of tar.
        let bomb = build(&[file("zeros.bin", &vec![0u8; 8 * 1024 * 1024])]).expect("build");
        assert!(bomb.len() < 64 * 1024, "bomb is {} bytes", bomb.len());
        let limits = Limits {
            max_tar_bytes: 1024 * 1024,
            ..Limits::default()
        };
        assert_eq!(
            read(&bomb, &limits).unwrap_err(),
            TarballError::Bomb { limit_mb: 1 }
        );
    }

    #[test]
    fn stops_a_small_upload_that_expands_past_the_ratio() {
        // 8 MB of zeros in a few KB: far below the 64 MB tar limit, far above 100 times.
        let bomb = build(&[file("zeros.bin", &vec![0u8; 8 * 1024 * 1024])]).expect("build");
        assert_eq!(
            read(&bomb, &Limits::default()).unwrap_err(),
            TarballError::Ratio { ratio: 100 }
        );
        let lenient = Limits {
            max_ratio: 10_000,
            ..Limits::default()
        };
        assert!(read(&bomb, &lenient).is_ok());
        // Tiny packages expand many times (headers, padding) and stay under the floor.
        let tiny = build(&[file("index.js", b"module.exports = 1;\n")]).expect("build");
        let strict = Limits {
            max_ratio: 1,
            ..Limits::default()
        };
        assert!(read(&tiny, &strict).is_ok());
    }

    #[test]
    fn enforces_file_count_and_unpacked_size() {
        let files: Vec<PackFile> = (0..5).map(|i| file(&format!("f{i}"), b"12345")).collect();
        let tgz = build(&files).expect("build");
        let few = Limits {
            max_files: 4,
            ..Limits::default()
        };
        assert_eq!(read(&tgz, &few).unwrap_err(), TarballError::TooManyFiles(4));
        let small = Limits {
            max_unpacked_bytes: 20,
            ..Limits::default()
        };
        assert!(matches!(
            read(&tgz, &small).unwrap_err(),
            TarballError::TooLarge { .. }
        ));
    }

    #[test]
    fn refuses_a_path_that_is_file_and_directory() {
        let tgz = raw_tgz(&[
            RawEntry {
                path: "package/lib",
                kind: b'0',
                link: "",
                bytes: b"x",
            },
            RawEntry {
                path: "package/lib/a.js",
                kind: b'0',
                link: "",
                bytes: b"y",
            },
        ]);
        assert!(matches!(
            read(&tgz, &Limits::default()).unwrap_err(),
            TarballError::UnsafePath { .. }
        ));
    }
}
