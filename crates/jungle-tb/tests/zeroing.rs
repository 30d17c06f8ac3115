//! Tables of distances to the next capture (`KEY.jtz`, `BuildOptions::dtz`): the same results as the tables of
//! distances to the end, distances never longer, every value following from its successors' (a capture
//! counting as the end), shorter than the distance to the end where a win goes through a capture, and made
//! again when damaged.

use std::path::PathBuf;

use jungle_rules::Rules;
use jungle_tb::{BuildOptions, Material, Metric, Tablebases, build, file, value, verify_table};

fn build_dir(name: &str, keys: &[&str], rules: &Rules) -> (PathBuf, usize) {
    let out = std::env::temp_dir().join(format!("jungle-tb-zeroing-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let options = BuildOptions {
        with_smaller_materials: true,
        out: out.clone(),
        materials: keys.iter().map(|k| k.parse().unwrap()).collect(),
        memory_limit: 1 << 30,
        threads: 2,
        dtz: true,
    };
    let reports = build(rules, &options, &|_| {}).unwrap();
    let made = reports.iter().filter(|r| !r.kept).count();
    (out, made)
}

#[test]
fn zeroing_tables_agree_with_the_tables_and_their_successors() {
    let rules = Rules::default();
    // Red's Elephant can take Blue's Lion but not the Rat: Red's wins go through a capture before the den.
    let keys = ["LR-e", "ER-l", "TC-w"];
    let (dir, _) = build_dir("agree", &keys, &rules);
    let tables = Tablebases::open(&dir, &rules).unwrap();
    let mut shorter = 0;
    for material in tables.materials() {
        let end = tables.table(material).unwrap();
        let zeroing = tables.zeroing_table(material).expect("made with --dtz");
        assert_eq!(end.metric(), Metric::End);
        assert_eq!(zeroing.metric(), Metric::Zeroing);
        for (&e, &z) in end.codes().iter().zip(zeroing.codes()) {
            assert_eq!(e == value::INVALID, z == value::INVALID);
            if e == value::INVALID {
                continue;
            }
            assert_eq!(value::decode(e).wdl, value::decode(z).wdl, "{material}");
            if value::is_win(e) || value::is_loss(e) {
                assert!(value::plies(z) <= value::plies(e), "{material}");
                if value::plies(z) < value::plies(e) {
                    shorter += 1;
                }
            }
        }
        let report =
            verify_table(&zeroing, &rules, &|m: Material| tables.table(m), &|_, _| {}).unwrap();
        assert_eq!(report.mismatches, 0, "{material}: {:?}", report.examples);
        assert!(report.checked > 0);
    }
    assert!(
        shorter > 1000,
        "only {shorter} positions convert before the end"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn zeroing_tables_are_kept_when_intact_and_made_again_when_damaged() {
    let rules = Rules::default();
    let (dir, made) = build_dir("resume", &["LR-e"], &rules);
    assert!(made >= 2, "both kinds of table are made");
    let path = file::table_path(&dir, "LR-e".parse().unwrap(), Metric::Zeroing);
    let before = std::fs::read(&path).unwrap();
    let options = BuildOptions {
        with_smaller_materials: true,
        out: dir.clone(),
        materials: vec!["LR-e".parse().unwrap()],
        memory_limit: 1 << 30,
        threads: 1,
        dtz: true,
    };
    let again = build(&rules, &options, &|_| {}).unwrap();
    assert!(again.iter().all(|r| r.kept));
    // Damage the zeroing table: only it is made again, identical.
    let mut damaged = before.clone();
    let last = damaged.len() - 1;
    damaged[last] ^= 0xff;
    std::fs::write(&path, &damaged).unwrap();
    let third = build(&rules, &options, &|_| {}).unwrap();
    let remade: Vec<_> = third.iter().filter(|r| !r.kept).collect();
    assert_eq!(remade.len(), 1);
    assert_eq!(remade[0].metric, Metric::Zeroing);
    assert_eq!(std::fs::read(&path).unwrap(), before);
    // A zeroing table under the name of a table of distances to the end is refused.
    let end_path = file::table_path(&dir, "LR-e".parse().unwrap(), Metric::End);
    std::fs::copy(&path, &end_path).unwrap();
    assert!(file::read_table(&end_path, &rules).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}
