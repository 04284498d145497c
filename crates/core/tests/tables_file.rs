//! The strategy-tables reader: every shipped file loads and is the one its index lists for its
//! presets; a damaged file gives `Error::InvalidTables` naming the file and what is wrong,
//! never a panic. (That the tables equal what the Python reader builds is
//! `tests/test_tables_file.py`.)

use chinese_poker::solve::tables_file::{
    load_shipped, parse_tables, read_tables_file, shipped_tables_path, TablesFile, TABLES_INDEX,
};
use chinese_poker::{Error, Rules, Wheel};
use serde_json::Value;
use std::io::{Cursor, Read, Write};
use std::path::{Path, PathBuf};
use zip::write::SimpleFileOptions;

/// The Python package's tables, which the crate's tests read in place.
fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../python/chinese_poker/data")
}

fn index() -> Vec<Value> {
    let text = std::fs::read_to_string(data_dir().join(TABLES_INDEX)).unwrap();
    let data: Value = serde_json::from_str(&text).unwrap();
    data["tables"].as_array().unwrap().clone()
}

fn a_file() -> PathBuf {
    data_dir().join(index()[0]["file"].as_str().unwrap())
}

/// A rule set as the index names it: a preset, or the plain rules for either wheel.
fn rules_named(name: &str) -> Rules {
    match name {
        "default" => Rules::default(),
        "default_second" => Rules {
            wheel: Wheel::Second,
            ..Rules::default()
        },
        _ => Rules::preset(name).unwrap_or_else(|| panic!("no preset {name}")),
    }
}

#[test]
fn every_shipped_file_loads_and_is_the_one_listed_for_its_presets() {
    let dir = data_dir();
    let entries = index();
    let mut listed: Vec<String> = Vec::new();
    for e in &entries {
        let file = e["file"].as_str().unwrap();
        listed.push(file.to_string());
        let path = dir.join(file);
        let t = read_tables_file(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(t.key, e["key"].as_str().unwrap(), "{file}");
        for d in &t.tables.dist {
            let total: f64 = d.iter().sum();
            assert!((total - 1.0).abs() < 1e-12, "{file}: sums to {total}");
        }
        for p in e["presets"].as_array().unwrap() {
            let name = p[0].as_str().unwrap();
            let players = p[1].as_u64().unwrap() as usize;
            let rules = rules_named(name);
            assert!(t.matches(&rules, players), "{file} for {name} at {players}");
            assert_eq!(
                shipped_tables_path(&dir, &rules, players).unwrap(),
                Some(path.clone())
            );
            let te = load_shipped(&dir, &rules, players).unwrap();
            assert_eq!(te.players, players);
            assert_eq!(te.tables, t.table_ev(&rules, players).unwrap().tables);
        }
    }
    // Every file in the directory is indexed, so the loop above read every shipped file.
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|f| f.unwrap().file_name().into_string().unwrap())
        .filter(|f| f.ends_with(".npz"))
        .collect();
    on_disk.sort();
    listed.sort();
    assert_eq!(on_disk, listed);
}

#[test]
fn a_rule_set_without_tables_finds_none_and_says_so() {
    let rules = Rules {
        majority_point: 7,
        ..Rules::default()
    };
    assert_eq!(shipped_tables_path(data_dir(), &rules, 4).unwrap(), None);
    let e = load_shipped(data_dir(), &rules, 4).err().unwrap();
    assert!(
        e.to_string()
            .contains("lists no tables for this rule set at 4 players"),
        "{e}"
    );
    assert!(shipped_tables_path(data_dir(), &rules, 5).is_err());
    let nowhere = data_dir().join("no-such-dir");
    let e = shipped_tables_path(&nowhere, &rules, 4).err().unwrap();
    assert!(matches!(e, Error::InvalidTables { .. }), "{e:?}");
    assert!(e.to_string().contains(TABLES_INDEX), "{e}");
}

// -- damaged files ---------------------------------------------------------------------------

/// The error reading `bytes` as a tables file, checked to be `InvalidTables` naming the file.
fn error_of(bytes: &[u8]) -> String {
    match parse_tables(bytes, Path::new("bad.npz")) {
        Ok(_) => panic!("read a damaged file"),
        Err(e @ Error::InvalidTables { .. }) => {
            let text = e.to_string();
            assert!(text.starts_with("tables file 'bad.npz': "), "{text}");
            text
        }
        Err(e) => panic!("not an InvalidTables error: {e:?}"),
    }
}

fn assert_error(bytes: &[u8], says: &str) {
    let text = error_of(bytes);
    assert!(text.contains(says), "{text:?} does not say {says:?}");
}

/// The members of a shipped file, by name (`front.npy`, ...).
fn members() -> Vec<(String, Vec<u8>)> {
    let bytes = std::fs::read(a_file()).unwrap();
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).unwrap();
    (0..zip.len())
        .map(|i| {
            let mut f = zip.by_index(i).unwrap();
            let mut out = Vec::new();
            f.read_to_end(&mut out).unwrap();
            (f.name().to_string(), out)
        })
        .collect()
}

fn npz(members: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for (name, data) in members {
        w.start_file(name.as_str(), SimpleFileOptions::default())
            .unwrap();
        w.write_all(data).unwrap();
    }
    w.finish().unwrap().into_inner()
}

/// An `.npy` array (format 1.0) with this header and data.
fn npy(descr: &str, shape: &str, data: &[u8]) -> Vec<u8> {
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    while (header.len() + 11) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(data);
    out
}

fn meta_npy(json: &str) -> Vec<u8> {
    let chars: Vec<u8> = json
        .chars()
        .flat_map(|c| (c as u32).to_le_bytes())
        .collect();
    npy(&format!("<U{}", json.chars().count()), "()", &chars)
}

/// The shipped file's members with `name` replaced (or removed where `data` is `None`).
fn with_member(name: &str, data: Option<Vec<u8>>) -> Vec<u8> {
    let mut m = members();
    let i = m.iter().position(|(n, _)| n == name).unwrap();
    match data {
        Some(d) => m[i].1 = d,
        None => {
            m.remove(i);
        }
    }
    npz(&m)
}

fn with_meta(edit: impl FnOnce(&mut serde_json::Map<String, Value>)) -> Vec<u8> {
    let t = read_tables_file(a_file()).unwrap();
    let mut meta = t.meta.clone();
    edit(&mut meta);
    with_member("meta.npy", Some(meta_npy(&Value::Object(meta).to_string())))
}

fn floats(n: usize, value: f32) -> Vec<u8> {
    (0..n).flat_map(|_| value.to_le_bytes()).collect()
}

#[test]
fn the_rewritten_archive_reads_like_the_shipped_one() {
    // the helpers above are sound: a stored (uncompressed) copy of every member reads the same
    let shipped = read_tables_file(a_file()).unwrap();
    let copy = parse_tables(&npz(&members()), Path::new("copy.npz")).unwrap();
    assert_eq!(copy.tables, shipped.tables);
    assert_eq!(copy.meta, shipped.meta);
}

#[test]
fn not_an_archive() {
    assert_error(b"", "empty file");
    assert_error(b"hello world", "not a tables file (not an .npz archive)");
    let single = members().remove(0).1;
    assert_error(&single, "a single .npy array, not an .npz archive");
    let e = read_tables_file("/no/such/tables.npz").err().unwrap();
    assert!(
        e.to_string()
            .starts_with("tables file '/no/such/tables.npz': cannot be read ("),
        "{e}"
    );
    let e = read_tables_file(data_dir()).err().unwrap();
    assert!(matches!(e, Error::InvalidTables { .. }), "{e:?}");
}

#[test]
fn truncated_files_are_errors() {
    let bytes = std::fs::read(a_file()).unwrap();
    let n = bytes.len();
    let cuts = (1..n).step_by(97).chain(n - 40..n);
    for cut in cuts {
        error_of(&bytes[..cut]);
    }
}

#[test]
fn flipped_bytes_are_errors_or_harmless_never_panics() {
    // A flip in the compressed data fails its checksum or inflation; one in a local header a
    // reader does not consult may pass. Either way: a result, no panic.
    let bytes = std::fs::read(a_file()).unwrap();
    let mut errors = 0;
    for at in (0..bytes.len()).step_by(61) {
        for mask in [0x01u8, 0xff] {
            let mut b = bytes.clone();
            b[at] ^= mask;
            match parse_tables(&b, Path::new("bad.npz")) {
                Ok(_) => {}
                Err(Error::InvalidTables { .. }) => errors += 1,
                Err(e) => panic!("flip at {at}: not an InvalidTables error: {e:?}"),
            }
        }
    }
    assert!(errors > 0);
}

#[test]
fn missing_arrays() {
    assert_error(
        &with_member("middle.npy", None),
        "not a tables file (no middle array)",
    );
    assert_error(
        &with_member("meta.npy", None),
        "not a tables file (no meta)",
    );
}

#[test]
fn wrong_types_and_shapes() {
    let f = |descr: &str, shape: &str, data: &[u8]| {
        with_member("front.npy", Some(npy(descr, shape, data)))
    };
    assert_error(
        &f("<c16", "(455,)", &[0; 455 * 16]),
        "front must be an array of numbers, got <c16 array",
    );
    assert_error(
        &f("<U3", "(455,)", &[0; 455 * 12]),
        "front must be an array of numbers",
    );
    assert_error(
        &f("<f4", "(454,)", &floats(454, 1.0)),
        "front must have 455 classes, got shape (454,)",
    );
    assert_error(
        &f("<f4", "(455, 1)", &floats(455, 1.0)),
        "front must have 455 classes, got shape (455, 1)",
    );
    assert_error(
        &f("<f4", "(455,)", &floats(400, 1.0)),
        "front holds 1600 bytes of data, its header says 1820",
    );
    assert_error(
        &f("<f4", "(455,)", &floats(455, -1.0)),
        "front is not a distribution (negative, NaN or infinite entries)",
    );
    assert_error(
        &f("<f4", "(455,)", &floats(455, f32::NAN)),
        "front is not a distribution (negative, NaN or infinite entries)",
    );
    assert_error(
        &f("<f4", "(455,)", &floats(455, 0.0)),
        "front is not a distribution (all zero)",
    );
    let mut broken = npy("<f4", "(455,)", &floats(455, 1.0));
    broken[20] = b'@';
    assert_error(
        &with_member("front.npy", Some(broken)),
        "cannot be read (bad array header",
    );
    let mut huge = npy("<f4", "(455,)", &floats(455, 1.0));
    huge[8..10].copy_from_slice(&u16::MAX.to_le_bytes());
    assert_error(
        &with_member("front.npy", Some(huge)),
        "bad array header: truncated",
    );
    assert_error(
        &f("<f4", "(99999999999999999999999,)", &[]),
        "bad array header",
    );
}

#[test]
fn other_number_types_read_as_their_values() {
    // numpy's reader takes any integer or float array; the same values in another type and
    // byte order give the same tables
    let shipped = read_tables_file(a_file()).unwrap();
    let m = members();
    let raw = &m.iter().find(|(n, _)| n == "middle.npy").unwrap().1;
    let data = &raw[raw.len() - 7462 * 4..];
    let big: Vec<u8> = data
        .chunks_exact(4)
        .flat_map(|b| f64::from(f32::from_le_bytes(b.try_into().unwrap())).to_be_bytes())
        .collect();
    let t = parse_tables(
        &with_member("middle.npy", Some(npy(">f8", "(7462,)", &big))),
        Path::new("big.npz"),
    )
    .unwrap();
    assert_eq!(t.tables, shipped.tables);
    let counts: Vec<u8> = (0..455u16).flat_map(|i| (i % 7).to_le_bytes()).collect();
    let halves: Vec<u8> = (0..455u16)
        .flat_map(|i| [0u16, 0x3c00, 0x4000, 0x4200][usize::from(i % 4)].to_le_bytes())
        .collect();
    let as_u2 = parse_tables(
        &with_member("front.npy", Some(npy("<u2", "(455,)", &counts))),
        Path::new("u2.npz"),
    )
    .unwrap();
    let as_f2 = parse_tables(
        &with_member("front.npy", Some(npy("<f2", "(455,)", &halves))),
        Path::new("f2.npz"),
    )
    .unwrap();
    let front = &as_u2.tables.dist[0];
    assert_eq!(front[0], 0.0);
    assert!((front[1] * 2.0 - front[2]).abs() < 1e-15);
    let half = &as_f2.tables.dist[0];
    assert_eq!(half[0], 0.0);
    assert_eq!(half[2], 2.0 * half[1]);
    assert_eq!(half[3], 3.0 * half[1]);
}

#[test]
fn damaged_meta() {
    assert_error(
        &with_member("meta.npy", Some(npy("<f4", "(455,)", &floats(455, 1.0)))),
        "meta must be a JSON text",
    );
    assert_error(
        &with_member("meta.npy", Some(meta_npy("{\"key\": "))),
        "cannot be read (meta is not JSON",
    );
    assert_error(
        &with_member("meta.npy", Some(meta_npy("[1, 2]"))),
        "meta must be a JSON object, got a list",
    );
    let mut cut = meta_npy("{}");
    cut.pop();
    assert_error(&with_member("meta.npy", Some(cut)), "meta holds 7 bytes");
    let mut invalid = meta_npy("{}");
    let n = invalid.len();
    invalid[n - 1] = 0xff;
    assert_error(
        &with_member("meta.npy", Some(invalid)),
        "meta is not valid text",
    );
    assert_error(
        &with_meta(|m| {
            m.insert("scoop_rate".into(), 1.5.into());
        }),
        "meta scoop_rate must be a probability, got 1.5",
    );
    assert_error(
        &with_meta(|m| {
            m.insert("scoop_rate".into(), true.into());
        }),
        "meta scoop_rate must be a probability, got true",
    );
    assert_error(
        &with_meta(|m| {
            m.remove("key");
        }),
        "meta key must be text, got nothing",
    );
    assert_error(
        &with_meta(|m| {
            m.insert("wheel".into(), "high".into());
        }),
        "meta wheel must be 'low' or 'second', got \"high\"",
    );
    assert_error(
        &with_meta(|m| {
            m.insert("model".into(), serde_json::json!({"scoop_for": "x"}));
        }),
        "scoop_for",
    );
}

#[test]
fn tables_for_another_wheel_are_refused_and_a_file_naming_none_takes_the_rules() {
    let second = |m: &mut serde_json::Map<String, Value>| {
        m.insert("wheel".into(), "second".into());
    };
    let t = parse_tables(&with_meta(second), Path::new("second.npz")).unwrap();
    assert_eq!(t.wheel, Some(Wheel::Second));
    let e = t.table_ev(&Rules::default(), 4).err().unwrap();
    assert_eq!(
        e.to_string(),
        "tables file 'second.npz': trained for the \"second\" wheel; the rule set uses \"low\""
    );
    let none: TablesFile = parse_tables(
        &with_meta(|m| {
            m.remove("wheel");
        }),
        Path::new("none.npz"),
    )
    .unwrap();
    assert_eq!(none.wheel, None);
    let rules = Rules {
        wheel: Wheel::Second,
        ..Rules::default()
    };
    assert_eq!(
        none.table_ev(&rules, 4).unwrap().tables.wheel,
        Wheel::Second
    );
}

/// The tables built into the crate (`bundled-tables`, on by default) are the files of the
/// Python package's index, byte for byte read the same: every preset and table size the index
/// lists solves from them with no files, the same objective as from the directory.
#[cfg(feature = "bundled-tables")]
#[test]
fn the_bundled_tables_are_the_shipped_files() {
    use chinese_poker::solve::{bundled_files, bundled_tables, load_bundled};
    let listed: Vec<String> = index()
        .iter()
        .map(|e| e["file"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(bundled_files().collect::<Vec<_>>(), listed);
    let mut checked = 0;
    for entry in index() {
        for pair in entry["presets"].as_array().unwrap() {
            let rules = rules_named(pair[0].as_str().unwrap());
            let players = pair[1].as_u64().unwrap() as usize;
            let built_in = bundled_tables(&rules, players).unwrap().expect("bundled");
            let on_disk =
                read_tables_file(data_dir().join(entry["file"].as_str().unwrap())).unwrap();
            assert_eq!(built_in.key, on_disk.key);
            assert_eq!(built_in.meta, on_disk.meta);
            assert_eq!(built_in.tables, on_disk.tables);
            assert!(built_in.path.starts_with("bundled"));
            let ev = load_bundled(&rules, players).unwrap();
            let from_dir = load_shipped(data_dir(), &rules, players).unwrap();
            assert_eq!(ev.tables, from_dir.tables);
            assert_eq!(ev.players, players);
            checked += 1;
        }
    }
    assert!(checked >= 8 * 3, "{checked} presets and table sizes");
}

/// A rule set no tables were trained for: `None` from the built-in index, and an error naming
/// it from `load_bundled`, never another rule set's tables; a bad table size is refused.
#[cfg(feature = "bundled-tables")]
#[test]
fn the_bundled_tables_refuse_what_they_do_not_hold() {
    use chinese_poker::solve::{bundled_tables, load_bundled};
    let rules = Rules {
        majority_point: 7, // scoring no tables were trained for
        ..Rules::default()
    };
    assert!(bundled_tables(&rules, 2).unwrap().is_none());
    let err = load_bundled(&rules, 2).err().unwrap().to_string();
    assert!(
        err.contains("bundled") && err.contains("lists no tables"),
        "{err}"
    );
    assert!(bundled_tables(&Rules::default(), 5).is_err());
    assert!(bundled_tables(&Rules::default(), 1).is_err());
}
