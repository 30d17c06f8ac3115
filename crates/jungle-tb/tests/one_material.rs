//! Making one material at a time (`BuildOptions::with_smaller_materials` false), as a distributed run does:
//! the sub-tables must be in the directory, and the files come out identical to those of one whole run.

use std::path::{Path, PathBuf};

use jungle_rules::Rules;
use jungle_tb::{BuildOptions, Material, TbError, build, plan};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jungle-tb-one-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn options(out: &Path, materials: Vec<Material>, with_smaller_materials: bool) -> BuildOptions {
    BuildOptions {
        out: out.to_path_buf(),
        materials,
        memory_limit: 1 << 30,
        threads: 1,
        dtz: false,
        with_smaller_materials,
    }
}

#[test]
fn materials_made_one_by_one_equal_one_whole_run() {
    let rules = Rules::default();
    let target: Material = "LR-e".parse().unwrap();
    let whole = scratch("whole");
    build(&rules, &options(&whole, vec![target], true), &|_| {}).unwrap();

    let pieces = scratch("pieces");
    let order = plan(&[target]);
    assert_eq!(order.len(), 3, "{order:?}");
    for &material in &order {
        let reports = build(&rules, &options(&pieces, vec![material], false), &|_| {}).unwrap();
        // Only the material asked for, nothing smaller.
        assert_eq!(reports.len(), 1);
        assert_eq!(reports[0].material, material);
        assert!(!reports[0].kept);
    }
    let mut names: Vec<_> = std::fs::read_dir(&pieces)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    assert_eq!(names.len(), order.len());
    for name in names {
        let a = std::fs::read(whole.join(&name)).unwrap();
        let b = std::fs::read(pieces.join(&name)).unwrap();
        assert!(a == b, "{name:?} differs from the whole run's");
    }
    // Asked again, the intact file is kept.
    let again = build(&rules, &options(&pieces, vec![target], false), &|_| {}).unwrap();
    assert!(again[0].kept);
    std::fs::remove_dir_all(&whole).ok();
    std::fs::remove_dir_all(&pieces).ok();
}

#[test]
fn a_material_alone_needs_its_subtables_on_disk() {
    let rules = Rules::default();
    let dir = scratch("missing");
    let target: Material = "LR-e".parse().unwrap();
    let err = build(&rules, &options(&dir, vec![target], false), &|_| {}).unwrap_err();
    match &err {
        TbError::MissingSubtable {
            material, subtable, ..
        } => {
            assert_eq!(material, "LR-e");
            assert!(
                target
                    .captures_lead_to()
                    .iter()
                    .any(|m| m.to_string() == *subtable),
                "{err}"
            );
        }
        other => panic!("expected a missing sub-table, got {other}"),
    }
    assert!(!dir.join("LR-e.jtb").exists());

    // A sub-table asked for in the same run, before the material, is enough.
    let mut all = plan(&[target]);
    all.reverse();
    let reports = build(&rules, &options(&dir, all.clone(), false), &|_| {}).unwrap();
    assert_eq!(reports.len(), all.len());
    std::fs::remove_dir_all(&dir).ok();
}
