//! The table file format (version 1), all integers little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `JUNGLETB` |
//! | 2 | format version (1) |
//! | 1 | bytes per value: 1 or 2 |
//! | 1 | metric: 0 distances to the end (`KEY.jtb`), 1 distances to the next capture (`KEY.jtz`); see [`Metric`] |
//! | 2 + n | material key (length, UTF-8), e.g. `LR-e` |
//! | 2 + n | canonical rules string (`Rules` Display, e.g. `standard`; without the draw options) |
//! | 8 | number of indices |
//! | 8 | FNV-1a 64 checksum of the uncompressed values |
//! | 8 | length of the compressed values |
//! | … | the values, zstd-compressed |
//!
//! Values are the codes of [`crate::value`]: with one byte per value (when every distance fits) the invalid
//! code is stored as 255. Files are written to a temporary name and renamed, so an interrupted generation
//! never leaves a half-written table under the real name.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use jungle_rules::Rules;
use jungle_rules::rules::RuleOptions;

use crate::value::{Code, INVALID};
use crate::{Indexer, Material, Metric, Table, TbError};

pub const MAGIC: &[u8; 8] = b"JUNGLETB";
pub const FORMAT_VERSION: u16 = 1;
/// The file extension of tables of distances to the end (the tables every directory has).
pub const EXTENSION: &str = Metric::End.extension();
const ZSTD_LEVEL: i32 = 9;
const BYTE_INVALID: u8 = u8::MAX;

/// The rules a table depends on: `rules` without the draw options (`repetition-draw`, `quiet-ply-limit`),
/// which are about a game's history and never change a table. Headers record these, and tables are compared
/// by them, so tables made under the standard rules serve a game with `quiet-ply-limit=100` too.
pub fn table_rules(rules: &Rules) -> Rules {
    let defaults = RuleOptions::default();
    let mut options = *rules.options();
    options.repetition_draw = defaults.repetition_draw;
    options.quiet_ply_limit = defaults.quiet_ply_limit;
    Rules::new(options).expect("valid rules with default draw options stay valid")
}

/// What a file's header says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub material: Material,
    pub rules: String,
    pub width: u8,
    pub metric: Metric,
    pub indices: u64,
    pub checksum: u64,
    pub compressed_len: u64,
    /// Bytes of the header itself (the payload follows).
    pub header_len: u64,
}

/// The file name of a material's table: `LR-e.jtb` (or `LR-e.jtz` for distances to the next capture).
pub fn file_name(material: Material, metric: Metric) -> String {
    format!("{material}.{}", metric.extension())
}

pub fn table_path(dir: &Path, material: Material, metric: Metric) -> PathBuf {
    dir.join(file_name(material, metric))
}

/// Writes a table made under `rules`; returns the file's size in bytes.
///
/// # Errors
/// [`TbError::Io`] naming the file.
pub fn write_table(path: &Path, table: &Table, rules: &Rules) -> Result<u64, TbError> {
    let codes = table.codes();
    let narrow = codes
        .iter()
        .all(|&c| c == INVALID || c < Code::from(BYTE_INVALID));
    let raw: Vec<u8> = if narrow {
        codes
            .iter()
            .map(|&c| if c == INVALID { BYTE_INVALID } else { c as u8 })
            .collect()
    } else {
        codes.iter().flat_map(|c| c.to_le_bytes()).collect()
    };
    let checksum = fnv1a(&raw);
    let payload = zstd::bulk::compress(&raw, ZSTD_LEVEL).map_err(|e| TbError::io(path, e))?;
    let key = table.material().to_string();
    let rules_text = table_rules(rules).to_string();
    let mut out = Vec::with_capacity(payload.len() + 64);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.push(if narrow { 1 } else { 2 });
    out.push(table.metric().byte());
    for text in [&key, &rules_text] {
        out.extend_from_slice(&(text.len() as u16).to_le_bytes());
        out.extend_from_slice(text.as_bytes());
    }
    out.extend_from_slice(&(codes.len() as u64).to_le_bytes());
    out.extend_from_slice(&checksum.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&payload);

    let tmp = path.with_extension(format!("{}.tmp", table.metric().extension()));
    let mut file = fs::File::create(&tmp).map_err(|e| TbError::io(&tmp, e))?;
    file.write_all(&out).map_err(|e| TbError::io(&tmp, e))?;
    file.sync_all().map_err(|e| TbError::io(&tmp, e))?;
    fs::rename(&tmp, path).map_err(|e| TbError::io(path, e))?;
    Ok(out.len() as u64)
}

/// The longest header: magic, version, width, metric, material, rules, counts.
const MAX_HEADER_LEN: u64 = 8 + 2 + 2 + 2 + 255 + 2 + 4096 + 24;

/// Opens a regular file. Anything else (a device such as `/dev/zero`, a pipe, a directory) is refused before
/// it is opened, so a bad path can neither be read without end nor hang the reader.
fn open_regular(path: &Path) -> Result<fs::File, TbError> {
    let metadata = fs::metadata(path).map_err(|e| TbError::io(path, e))?;
    if !metadata.is_file() {
        return Err(TbError::corrupt(path, "not a regular file"));
    }
    fs::File::open(path).map_err(|e| TbError::io(path, e))
}

/// Reads a regular file of at most `limit` bytes; a longer one is refused.
fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, TbError> {
    use std::io::Read;
    let file = open_regular(path)?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| TbError::io(path, e))?;
    if bytes.len() as u64 > limit {
        return Err(TbError::corrupt(
            path,
            format!("longer than the {limit} bytes its header allows"),
        ));
    }
    Ok(bytes)
}

/// Reads a file's header (not the values).
///
/// # Errors
/// [`TbError::BadMagic`], [`TbError::Version`], [`TbError::Corrupt`] or [`TbError::Io`], naming the file.
pub fn read_header(path: &Path) -> Result<Header, TbError> {
    use std::io::Read;
    let file = open_regular(path)?;
    let mut head = Vec::with_capacity(1024);
    file.take(MAX_HEADER_LEN)
        .read_to_end(&mut head)
        .map_err(|e| TbError::io(path, e))?;
    parse_header(path, &head)
}

fn parse_header(path: &Path, bytes: &[u8]) -> Result<Header, TbError> {
    if !bytes.starts_with(MAGIC) {
        return Err(TbError::BadMagic {
            path: path.to_path_buf(),
        });
    }
    let mut r = Reader {
        bytes,
        at: MAGIC.len(),
        path,
    };
    let version = u16::from_le_bytes(r.array()?);
    if version != FORMAT_VERSION {
        return Err(TbError::Version {
            path: path.to_path_buf(),
            found: version,
            supported: FORMAT_VERSION,
        });
    }
    let width = r.take(1)?[0];
    if width != 1 && width != 2 {
        return Err(TbError::corrupt(path, format!("value width {width}")));
    }
    let metric_byte = r.take(1)?[0];
    let metric = Metric::from_byte(metric_byte)
        .ok_or_else(|| TbError::corrupt(path, format!("metric {metric_byte}")))?;
    let key = r.text()?;
    let material: Material = key
        .parse()
        .map_err(|e| TbError::corrupt(path, format!("{e}")))?;
    if !material.is_canonical() {
        return Err(TbError::corrupt(
            path,
            format!("material {key} is not canonical"),
        ));
    }
    let rules = r.text()?;
    let indices = u64::from_le_bytes(r.array()?);
    let checksum = u64::from_le_bytes(r.array()?);
    let compressed_len = u64::from_le_bytes(r.array()?);
    Ok(Header {
        material,
        rules,
        width,
        metric,
        indices,
        checksum,
        compressed_len,
        header_len: r.at as u64,
    })
}

/// Checks that a header's rules are `rules`.
///
/// # Errors
/// [`TbError::RulesMismatch`].
pub fn check_rules(path: &Path, header: &Header, rules: &Rules) -> Result<(), TbError> {
    let wanted = table_rules(rules);
    let same = header
        .rules
        .parse::<Rules>()
        .is_ok_and(|made_under| table_rules(&made_under) == wanted);
    let wanted = wanted.to_string();
    if same {
        Ok(())
    } else {
        Err(TbError::RulesMismatch {
            path: path.to_path_buf(),
            table: header.rules.clone(),
            wanted,
        })
    }
}

/// Reads and checks a whole table made under `rules`, of the metric its extension names.
///
/// # Errors
/// Any [`TbError`] about the file: wrong rules, bad header, metric, size or checksum.
pub fn read_table(path: &Path, rules: &Rules) -> Result<Table, TbError> {
    let header = read_header(path)?;
    check_rules(path, &header, rules)?;
    if path
        .extension()
        .is_some_and(|e| *e != *header.metric.extension())
    {
        return Err(TbError::corrupt(
            path,
            format!("it holds {}", header.metric),
        ));
    }
    let indexer = Indexer::new(header.material, rules);
    if indexer.size() != header.indices {
        return Err(TbError::corrupt(
            path,
            format!(
                "{} indices, but material {} has {} under these rules",
                header.indices,
                header.material,
                indexer.size()
            ),
        ));
    }
    let raw_len = header.indices as usize * usize::from(header.width);
    // Compressed values are never longer than zstd's bound for their length: a header claiming more is
    // damaged, and its file is not read.
    let most_compressed = zstd::zstd_safe::compress_bound(raw_len) as u64;
    if header.compressed_len > most_compressed {
        return Err(TbError::corrupt(
            path,
            format!(
                "header says {} bytes of values, more than {most_compressed}",
                header.compressed_len
            ),
        ));
    }
    let bytes = read_bounded(
        path,
        header.header_len.saturating_add(header.compressed_len),
    )?;
    let payload = bytes.get(header.header_len as usize..).unwrap_or_default();
    if payload.len() as u64 != header.compressed_len {
        return Err(TbError::corrupt(
            path,
            format!(
                "{} bytes of values, header says {}",
                payload.len(),
                header.compressed_len
            ),
        ));
    }
    let raw = zstd::bulk::decompress(payload, raw_len)
        .map_err(|e| TbError::corrupt(path, format!("cannot decompress values: {e}")))?;
    if raw.len() != raw_len {
        return Err(TbError::corrupt(path, "values have the wrong length"));
    }
    if fnv1a(&raw) != header.checksum {
        return Err(TbError::corrupt(path, "checksum mismatch"));
    }
    let codes: Vec<Code> = if header.width == 1 {
        raw.iter()
            .map(|&b| {
                if b == BYTE_INVALID {
                    INVALID
                } else {
                    Code::from(b)
                }
            })
            .collect()
    } else {
        raw.chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect()
    };
    Ok(Table::from_codes(indexer, codes, header.metric))
}

/// FNV-1a, 64 bits: catches truncated or damaged files (not an adversary).
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    path: &'a Path,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], TbError> {
        let end = self.at + n;
        if end > self.bytes.len() {
            return Err(TbError::corrupt(self.path, "header is truncated"));
        }
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], TbError> {
        Ok(self.take(N)?.try_into().expect("length N"))
    }

    fn text(&mut self) -> Result<String, TbError> {
        let len = u16::from_le_bytes(self.array()?) as usize;
        let bytes = self.take(len)?.to_vec();
        String::from_utf8(bytes)
            .map_err(|_| TbError::corrupt(self.path, "header text is not UTF-8"))
    }
}
