//! Strategy-tables files, read without Python: the `.npz` archives the Python package writes
//! (`np.savez_compressed` in `python/chinese_poker/strategy_tables.py`) and ships with an index,
//! `tables.json`, that maps a [`tables_key`] to a file.
//!
//! An archive holds three `.npy` arrays, `front` (455 classes), `middle` and `back` (7,462
//! each), the opponents' row distributions weakest class first, and `meta`, a 0-d unicode
//! array holding a JSON object with at least `key` and `scoop_rate`, and from training the
//! `model` (`model.rs`) and the `wheel`. Reading applies the same checks and the same
//! normalisation as the Python reader, to the bit (numpy's pairwise sum included), so a file
//! gives the same [`TableEv`] whichever side read it (`tests/test_tables_file.py`).
//!
//! Whatever the bytes on disk, reading ends in [`Error::InvalidTables`] naming the file and
//! what is wrong with it, never a panic (`crates/core/tests/tables_file.rs`).

use super::classes::{FIVE_CLASSES, FRONT_CLASSES};
use super::model::Model;
use super::table_ev::{canonical_tables_key, tables_key, OutcomeTables, TableEv};
use super::tables_id::TablesSource;
use crate::error::{Error, Result};
use crate::eval::Wheel;
use crate::rules::{Row, Rules};
use serde_json::{Map, Value};
use std::io::{Cursor, Read};
use std::path::{Path, PathBuf};

/// The index of a tables directory: `{"tables": [{"key": ..., "file": ...}, ...]}`.
pub const TABLES_INDEX: &str = "tables.json";

/// Largest archive member read: the biggest real one (the model's JSON as UTF-32) is under a
/// megabyte; a member claiming more is damage, not data, and must not be allocated.
const MAX_MEMBER_BYTES: u64 = 64 << 20;

const NPY_MAGIC: &[u8] = b"\x93NUMPY";
const ZIP_MAGIC: &[u8] = b"PK\x03\x04";

/// A tables file as read: its outcome tables and what its `meta` says about them.
#[derive(Clone, Debug)]
pub struct TablesFile {
    /// Where the tables were read from.
    pub path: PathBuf,
    /// The [`tables_key`] the tables were trained for.
    pub key: String,
    /// The wheel the tables were trained for, where `meta` names one (older files do not).
    pub wheel: Option<Wheel>,
    /// The whole `meta` object (training statistics, the preset name, ...).
    pub meta: Map<String, Value>,
    /// The distributions (normalised), scoop rate and model; their wheel is `wheel`, or
    /// [`Wheel::Low`] where the file names none ([`TablesFile::table_ev`] uses the rule set's).
    pub tables: OutcomeTables,
}

impl TablesFile {
    /// Whether the tables were trained for this rule set's scoring at this table size. Tables
    /// for other scoring still solve; the Python package refuses them (`InvalidTablesError`
    /// naming both keys).
    pub fn matches(&self, rules: &Rules, players: usize) -> bool {
        canonical_tables_key(&self.key) == tables_key(rules, players)
    }

    /// The compiled table objective for `rules` at `players` seats. Refuses tables trained for
    /// another wheel; a file that names no wheel is taken to be for the rule set's.
    pub fn table_ev(&self, rules: &Rules, players: usize) -> Result<TableEv> {
        if let Some(w) = self.wheel.filter(|&w| w != rules.wheel) {
            return Err(bad(
                &self.path,
                format!(
                    "trained for the {:?} wheel; the rule set uses {:?}",
                    w.name(),
                    rules.wheel.name()
                ),
            ));
        }
        let mut tables = self.tables.clone();
        tables.wheel = rules.wheel;
        TableEv::new(rules, players, tables)
    }
}

fn bad(path: &Path, reason: impl Into<String>) -> Error {
    Error::InvalidTables {
        path: path.display().to_string(),
        reason: reason.into(),
    }
}

/// Reads and checks a tables file.
pub fn read_tables_file(path: impl AsRef<Path>) -> Result<TablesFile> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|e| bad(path, format!("cannot be read ({e})")))?;
    parse_tables(&bytes, path)
}

/// [`read_tables_file`] of bytes already in memory; `path` only names them in errors.
pub fn parse_tables(bytes: &[u8], path: &Path) -> Result<TablesFile> {
    if bytes.is_empty() {
        return Err(bad(path, "empty file"));
    }
    if bytes.starts_with(NPY_MAGIC) {
        return Err(bad(
            path,
            "not a tables file (a single .npy array, not an .npz archive)",
        ));
    }
    if !bytes.starts_with(ZIP_MAGIC) {
        return Err(bad(path, "not a tables file (not an .npz archive)"));
    }
    let unreadable = |e: &dyn std::fmt::Display| bad(path, format!("cannot be read ({e})"));
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| unreadable(&e))?;
    let mut dist: [Vec<f64>; 3] = Default::default();
    for (r, row) in Row::ALL.into_iter().enumerate() {
        let name = row.name();
        let member = member(&mut zip, name, path)?
            .ok_or_else(|| bad(path, format!("not a tables file (no {name} array)")))?;
        let classes = if r == 0 { FRONT_CLASSES } else { FIVE_CLASSES };
        dist[r] = distribution(&member, name, classes).map_err(|e| bad(path, e))?;
    }
    let raw =
        member(&mut zip, "meta", path)?.ok_or_else(|| bad(path, "not a tables file (no meta)"))?;
    let meta = meta_text(&raw).map_err(|e| bad(path, e))?;
    let meta: Value = serde_json::from_str(&meta)
        .map_err(|e| bad(path, format!("cannot be read (meta is not JSON: {e})")))?;
    let Value::Object(meta) = meta else {
        return Err(bad(
            path,
            format!("meta must be a JSON object, got {}", json_kind(&meta)),
        ));
    };
    let scoop_rate = match meta.get("scoop_rate").and_then(Value::as_f64) {
        Some(p) if (0.0..=1.0).contains(&p) => p,
        _ => {
            return Err(bad(
                path,
                format!(
                    "meta scoop_rate must be a probability, got {}",
                    shown(meta.get("scoop_rate"))
                ),
            ))
        }
    };
    let key = match meta.get("key") {
        Some(Value::String(k)) => k.clone(),
        other => {
            return Err(bad(
                path,
                format!("meta key must be text, got {}", shown(other)),
            ))
        }
    };
    let wheel = match meta.get("wheel") {
        None => None,
        Some(w) => Some(w.as_str().and_then(Wheel::from_name).ok_or_else(|| {
            bad(
                path,
                format!(
                    "meta wheel must be 'low' or 'second', got {}",
                    shown(Some(w))
                ),
            )
        })?),
    };
    let model = match meta.get("model") {
        None | Some(Value::Null) => Model::default(),
        Some(m) => Model::from_data(m).map_err(|e| bad(path, e.to_string()))?,
    };
    let tables = OutcomeTables::new(wheel.unwrap_or(Wheel::Low), dist, scoop_rate)
        .and_then(|t| t.with_model(model))
        .map_err(|e| bad(path, e.to_string()))?;
    Ok(TablesFile {
        path: path.to_path_buf(),
        key,
        wheel,
        meta,
        tables,
    })
}

/// The bytes of the archive member `name` (`name.npy`, or `name` as numpy also accepts), or
/// `None` where there is none. Read to its end, so its checksum is verified.
fn member(
    zip: &mut zip::ZipArchive<Cursor<&[u8]>>,
    name: &str,
    path: &Path,
) -> Result<Option<Vec<u8>>> {
    let unreadable = |e: &dyn std::fmt::Display| bad(path, format!("cannot be read ({e})"));
    let index = match zip
        .index_for_name(&format!("{name}.npy"))
        .or_else(|| zip.index_for_name(name))
    {
        Some(i) => i,
        None => return Ok(None),
    };
    let file = zip.by_index(index).map_err(|e| unreadable(&e))?;
    let mut out = Vec::new();
    file.take(MAX_MEMBER_BYTES + 1)
        .read_to_end(&mut out)
        .map_err(|e| unreadable(&e))?;
    if out.len() as u64 > MAX_MEMBER_BYTES {
        return Err(bad(
            path,
            format!("cannot be read ({name} is larger than {MAX_MEMBER_BYTES} bytes)"),
        ));
    }
    Ok(Some(out))
}

/// How a value reads in a message: its JSON text, clipped.
fn shown(v: Option<&Value>) -> String {
    match v {
        None => "nothing".into(),
        Some(v) => crate::error::clip(&v.to_string()),
    }
}

fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// One parsed `.npy` array: its element type and shape, and the bytes after the header.
struct Npy<'a> {
    descr: String,
    shape: Vec<usize>,
    data: &'a [u8],
}

/// Parses an `.npy` header (format versions 1 to 3): the magic, the version, the header's
/// length and the Python dict literal `{'descr': ..., 'fortran_order': ..., 'shape': (...)}`.
fn npy(bytes: &[u8]) -> std::result::Result<Npy<'_>, String> {
    let broken = |what: &str| format!("cannot be read (bad array header: {what})");
    if !bytes.starts_with(NPY_MAGIC) || bytes.len() < 10 {
        return Err(broken("not an .npy array"));
    }
    let (len, start) = match bytes[6] {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10usize),
        2 | 3 if bytes.len() >= 12 => (
            u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
            12,
        ),
        v => return Err(broken(&format!("unknown format version {v}"))),
    };
    let header = bytes
        .get(start..start.saturating_add(len))
        .ok_or_else(|| broken("truncated"))?;
    let header = std::str::from_utf8(header).map_err(|_| broken("not text"))?;
    let fields = PyLiteral::new(header)
        .dict()
        .ok_or_else(|| broken(&crate::error::clip(header.trim())))?;
    let mut descr = None;
    let mut shape = None;
    let mut fortran = None;
    for (k, v) in fields {
        match (k.as_str(), v) {
            ("descr", Lit::Str(s)) => descr = Some(s),
            ("descr", _) => descr = Some("a structured type".into()),
            ("shape", Lit::Tuple(t)) => shape = Some(t),
            ("fortran_order", Lit::Bool(b)) => fortran = Some(b),
            _ => return Err(broken(&format!("unexpected field {k:?}"))),
        }
    }
    match (descr, shape, fortran) {
        (Some(descr), Some(shape), Some(_)) => Ok(Npy {
            descr,
            shape,
            data: &bytes[start + len..],
        }),
        _ => Err(broken("descr, fortran_order or shape missing")),
    }
}

/// A row distribution: a 1-d array of `classes` numbers (any integer or float type), checked
/// and normalised exactly as `strategy_tables.py`'s `_distribution` does.
fn distribution(bytes: &[u8], name: &str, classes: usize) -> std::result::Result<Vec<f64>, String> {
    let a = npy(bytes)?;
    let (endian, kind, size) = parse_descr(&a.descr);
    let convert: fn(&[u8], bool) -> f64 = match (kind, size) {
        ('f', 2) => |b, be| half(word::<2>(b, be) as u16),
        ('f', 4) => |b, be| f32::from_bits(word::<4>(b, be) as u32) as f64,
        ('f', 8) => |b, be| f64::from_bits(word::<8>(b, be)),
        ('i', 1) => |b, _| b[0] as i8 as f64,
        ('i', 2) => |b, be| word::<2>(b, be) as u16 as i16 as f64,
        ('i', 4) => |b, be| word::<4>(b, be) as u32 as i32 as f64,
        ('i', 8) => |b, be| word::<8>(b, be) as i64 as f64,
        ('u', 1) => |b, _| b[0] as f64,
        ('u', 2) => |b, be| word::<2>(b, be) as f64,
        ('u', 4) => |b, be| word::<4>(b, be) as f64,
        ('u', 8) => |b, be| word::<8>(b, be) as f64,
        _ => {
            return Err(format!(
                "{name} must be an array of numbers, got {} array",
                crate::error::clip(&a.descr)
            ))
        }
    };
    if a.shape != [classes] {
        let dims: Vec<String> = a.shape.iter().map(usize::to_string).collect();
        let shape = match dims.len() {
            1 => format!("({},)", dims[0]),
            _ => format!("({})", dims.join(", ")),
        };
        return Err(format!(
            "{name} must have {classes} classes, got shape {shape}"
        ));
    }
    if a.data.len() != classes * size {
        return Err(format!(
            "cannot be read ({name} holds {} bytes of data, its header says {})",
            a.data.len(),
            classes * size
        ));
    }
    let be = endian == '>';
    let mut values: Vec<f64> = a.data.chunks_exact(size).map(|b| convert(b, be)).collect();
    if values.iter().any(|v| !v.is_finite() || *v < 0.0) {
        return Err(format!(
            "{name} is not a distribution (negative, NaN or infinite entries)"
        ));
    }
    let top = values.iter().copied().fold(0.0, f64::max);
    if top <= 0.0 {
        return Err(format!("{name} is not a distribution (all zero)"));
    }
    // Scaled by the largest entry first, as strategy_tables.py does: entries near 1e308 summed
    // directly would overflow.
    values.iter_mut().for_each(|v| *v /= top);
    let total = pairwise_sum(&values);
    values.iter_mut().for_each(|v| *v /= total);
    Ok(values)
}

/// An element's bytes as an unsigned word of `N` bytes in the array's byte order.
fn word<const N: usize>(b: &[u8], big_endian: bool) -> u64 {
    let mut w = [0u8; 8];
    if big_endian {
        w[8 - N..].copy_from_slice(&b[..N]);
        u64::from_be_bytes(w)
    } else {
        w[..N].copy_from_slice(&b[..N]);
        u64::from_le_bytes(w)
    }
}

/// An IEEE half-precision float (numpy's `float16`), exactly.
fn half(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let frac = f64::from(h & 0x3ff);
    match (h >> 10) & 0x1f {
        0 => sign * frac * 2f64.powi(-24),
        31 if frac == 0.0 => sign * f64::INFINITY,
        31 => f64::NAN,
        e => sign * (1.0 + frac / 1024.0) * 2f64.powi(i32::from(e) - 15),
    }
}

/// numpy's dtype string, `'<f4'`: byte order, kind and item size (`'|u1'` has no order).
fn parse_descr(descr: &str) -> (char, char, usize) {
    let mut chars = descr.chars();
    let endian = chars.next().unwrap_or('?');
    let kind = chars.next().unwrap_or('?');
    let size = chars.as_str().parse().unwrap_or(0);
    match endian {
        '<' | '>' | '|' | '=' => (if endian == '>' { '>' } else { '<' }, kind, size),
        _ => ('?', '?', 0),
    }
}

/// numpy's sum of a contiguous float64 array (pairwise, eight accumulators per block of at
/// most 128), so the normalised distributions equal numpy's to the last bit.
fn pairwise_sum(a: &[f64]) -> f64 {
    let n = a.len();
    if n < 8 {
        a.iter().fold(0.0, |s, &x| s + x)
    } else if n <= 128 {
        let mut r = [0f64; 8];
        r.copy_from_slice(&a[..8]);
        let whole = n - n % 8;
        for chunk in a[8..whole].chunks_exact(8) {
            for (acc, &x) in r.iter_mut().zip(chunk) {
                *acc += x;
            }
        }
        let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for &x in &a[whole..] {
            res += x;
        }
        res
    } else {
        let half = n / 2;
        let half = half - half % 8;
        pairwise_sum(&a[..half]) + pairwise_sum(&a[half..])
    }
}

/// The text of a 0-d unicode array (`'<U{n}'`: `n` UTF-32 code units, NUL-padded).
fn meta_text(bytes: &[u8]) -> std::result::Result<String, String> {
    let a = npy(bytes)?;
    let (endian, kind, chars) = parse_descr(&a.descr);
    if kind != 'U' || !a.shape.is_empty() {
        return Err("meta must be a JSON text".into());
    }
    if chars.checked_mul(4) != Some(a.data.len()) {
        return Err(format!(
            "cannot be read (meta holds {} bytes of data, its header says {chars} characters)",
            a.data.len()
        ));
    }
    let text: Option<String> = a
        .data
        .chunks_exact(4)
        .map(|b| char::from_u32(word::<4>(b, endian == '>') as u32))
        .collect();
    let text = text.ok_or_else(|| "cannot be read (meta is not valid text)".to_string())?;
    Ok(text.trim_end_matches('\0').to_string())
}

/// The values an `.npy` header holds.
enum Lit {
    Str(String),
    Bool(bool),
    Tuple(Vec<usize>),
}

/// A reader of the Python literal subset `.npy` headers are written in: a dict of string keys
/// to strings, booleans and tuples of integers. Anything else is `None`.
struct PyLiteral<'a> {
    rest: &'a str,
}

impl<'a> PyLiteral<'a> {
    fn new(text: &'a str) -> Self {
        PyLiteral { rest: text }
    }

    fn skip_space(&mut self) {
        self.rest = self.rest.trim_start();
    }

    fn eat(&mut self, token: &str) -> bool {
        self.skip_space();
        match self.rest.strip_prefix(token) {
            Some(rest) => {
                self.rest = rest;
                true
            }
            None => false,
        }
    }

    fn dict(mut self) -> Option<Vec<(String, Lit)>> {
        if !self.eat("{") {
            return None;
        }
        let mut out = Vec::new();
        while !self.eat("}") {
            let key = self.string()?;
            if !self.eat(":") {
                return None;
            }
            out.push((key, self.value()?));
            if !self.eat(",") && !self.rest.trim_start().starts_with('}') {
                return None;
            }
        }
        self.skip_space();
        self.rest.is_empty().then_some(out)
    }

    fn string(&mut self) -> Option<String> {
        self.skip_space();
        let quote = self
            .rest
            .chars()
            .next()
            .filter(|c| *c == '\'' || *c == '"')?;
        let end = self.rest[1..].find(quote)? + 1;
        let s = self.rest[1..end].to_string();
        self.rest = &self.rest[end + 1..];
        Some(s)
    }

    fn value(&mut self) -> Option<Lit> {
        if self.eat("True") {
            return Some(Lit::Bool(true));
        }
        if self.eat("False") {
            return Some(Lit::Bool(false));
        }
        if self.eat("(") {
            let mut dims = Vec::new();
            while !self.eat(")") {
                let digits = self.rest.len()
                    - self
                        .rest
                        .trim_start_matches(|c: char| c.is_ascii_digit())
                        .len();
                dims.push(self.rest[..digits].parse().ok()?);
                self.rest = &self.rest[digits..];
                if !self.eat(",") && !self.rest.trim_start().starts_with(')') {
                    return None;
                }
            }
            return Some(Lit::Tuple(dims));
        }
        self.string().map(Lit::Str)
    }
}

/// The file the index of `data_dir` lists for this rule set and table size, or `None` where
/// none was trained for them. `data_dir` is a tables directory with its [`TABLES_INDEX`]: the
/// Python package's `chinese_poker/data`, or a copy of it.
pub fn shipped_tables_path(
    data_dir: impl AsRef<Path>,
    rules: &Rules,
    players: usize,
) -> Result<Option<PathBuf>> {
    super::check_players(players)?;
    let dir = data_dir.as_ref();
    let index = dir.join(TABLES_INDEX);
    let text = std::fs::read_to_string(&index)
        .map_err(|e| bad(&index, format!("cannot be read ({e})")))?;
    Ok(indexed_file(&text, &index, rules, players)?.map(|file| dir.join(file)))
}

/// The file name an index (the text of a [`TABLES_INDEX`], `index` naming it in errors) lists
/// for this rule set and table size.
fn indexed_file(text: &str, index: &Path, rules: &Rules, players: usize) -> Result<Option<String>> {
    let data: Value = serde_json::from_str(text)
        .map_err(|e| bad(index, format!("cannot be read (not JSON: {e})")))?;
    let entries = data
        .get("tables")
        .and_then(Value::as_array)
        .ok_or_else(|| bad(index, "not a tables index (no \"tables\" list)"))?;
    let key = tables_key(rules, players);
    for (i, e) in entries.iter().enumerate() {
        let (Some(k), Some(file)) = (
            e.get("key").and_then(Value::as_str),
            e.get("file").and_then(Value::as_str),
        ) else {
            return Err(bad(
                index,
                format!("entry {i} has no \"key\" and \"file\" text"),
            ));
        };
        if canonical_tables_key(k) == key {
            return Ok(Some(file.to_string()));
        }
    }
    Ok(None)
}

#[cfg(feature = "bundled-tables")]
mod bundled {
    include!(concat!(env!("OUT_DIR"), "/bundled_tables.rs"));
}

/// The strategy tables built into the crate (the `bundled-tables` feature, on by default) for
/// this rule set and table size, or `None` where none were trained for them: the same files
/// the Python package ships, so a program built from the registry's crate alone solves with
/// them. In errors, the files are named `bundled/<file>`.
#[cfg(feature = "bundled-tables")]
pub fn bundled_tables(rules: &Rules, players: usize) -> Result<Option<TablesFile>> {
    super::check_players(players)?;
    let index = Path::new("bundled").join(TABLES_INDEX);
    let Some(file) = indexed_file(bundled::BUNDLED_INDEX, &index, rules, players)? else {
        return Ok(None);
    };
    let path = Path::new("bundled").join(&file);
    let (_, bytes) = bundled::BUNDLED_FILES
        .iter()
        .find(|(name, _)| *name == file)
        .ok_or_else(|| bad(&path, "listed by the index but not built in"))?;
    parse_tables(bytes, &path).map(Some)
}

/// [`load_shipped`] from the tables built into the crate ([`bundled_tables`]): the table
/// objective for this rule set and table size, no files needed. Where none were trained for
/// them, says so.
#[cfg(feature = "bundled-tables")]
pub fn load_bundled(rules: &Rules, players: usize) -> Result<TableEv> {
    bundled_tables(rules, players)?
        .ok_or_else(|| {
            bad(
                &Path::new("bundled").join(TABLES_INDEX),
                format!("lists no tables for this rule set at {players} players"),
            )
        })?
        .table_ev(rules, players)
}

/// The names of the files built into the crate ([`bundled_tables`]), as its index lists them.
#[cfg(feature = "bundled-tables")]
pub fn bundled_files() -> impl Iterator<Item = &'static str> {
    bundled::BUNDLED_FILES.iter().map(|(name, _)| *name)
}

/// The table objective from the tables `data_dir` ships for this rule set and table size.
/// Unlike the Python package, never falls back to another rule set's tables: where none were
/// trained, says so.
pub fn load_shipped(data_dir: impl AsRef<Path>, rules: &Rules, players: usize) -> Result<TableEv> {
    let dir = data_dir.as_ref();
    let path = shipped_tables_path(dir, rules, players)?.ok_or_else(|| {
        bad(
            &dir.join(TABLES_INDEX),
            format!("lists no tables for this rule set at {players} players"),
        )
    })?;
    Ok(read_tables_file(path)?
        .table_ev(rules, players)?
        .with_source(TablesSource::Shipped))
}
