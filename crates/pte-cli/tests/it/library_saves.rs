//! The library saves of every format go through the one save path: an
//! existing target keeps its mode, a new file gets the umask's default, and
//! a symlinked target stays a link whose target is replaced. (Here because
//! this crate depends on every format crate.)

use std::os::unix::fs::{symlink, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Command;

use pte_file::bpte::BundledFile;
use pte_file::ptd::PtdFile;
use pte_file::PteFile;
use pte_ptn::PtnFile;
use pte_samples::SampleSet;

/// Set in a child run of this test binary: the directory it saves into.
const CHILD_DIR: &str = "PTE_LIBRARY_SAVES_CHILD_DIR";

use crate::support::{corpus, corpus_bytes, mode, Held};

/// Each library save, writing the file `name` names in `dir`.
type Save = fn(&Path);

const SAVES: &[(&str, Save)] = &[
    ("PteFile::save", |p| {
        let b = corpus_bytes("add/model.pte");
        PteFile::from_bytes(&b).unwrap().save(p, &Default::default()).unwrap();
    }),
    ("PteFile::save of a mapped file", |p| {
        let map = pte_file::MappedFile::open(corpus("xnnpack_mlp/model.pte")).unwrap();
        PteFile::from_map(&map).unwrap().save(p, &Default::default()).unwrap();
    }),
    ("pte_file::rewrite", |p| {
        let map = pte_file::MappedFile::open(corpus("xnnpack_mlp/model.pte")).unwrap();
        pte_file::write_atomically_file(p, |dst| pte_file::rewrite(&map, dst, &Default::default())).unwrap();
    }),
    ("PtdFile::save", |p| {
        let b = corpus_bytes("external/_default_external_constant.ptd");
        PtdFile::from_bytes(&b).unwrap().save(p, &Default::default()).unwrap();
    }),
    ("BundledFile::save", |p| {
        let b = corpus_bytes("bundled/model.bpte");
        BundledFile::from_bytes(&b).unwrap().save(p).unwrap();
    }),
    ("PtnFile::save", |p| {
        let b = corpus_bytes("native_ptn/model.ptn");
        PtnFile::from_bytes(&b).unwrap().save(p).unwrap();
    }),
    ("put_set_in_file", |p| {
        // An in-place edit: the package must exist; a fresh one is copied in
        // only when there is none, so an existing file's mode is what counts.
        if !p.exists() {
            std::fs::write(p, corpus_bytes("native_ptn/model.ptn")).unwrap();
        }
        pte_samples::put_set_in_file(p, &SampleSet::new("forward", "smoke"), true).unwrap();
    }),
    ("remove_set_from_file", |p| {
        if !p.exists() {
            std::fs::write(p, corpus_bytes("native_ptn/model.ptn")).unwrap();
        }
        pte_samples::put_set_in_file(p, &SampleSet::new("forward", "gone"), true).unwrap();
        pte_samples::remove_set_from_file(p, "forward", "gone").unwrap();
    }),
];

/// The file each save writes in `dir`.
fn target(dir: &Path, name: &str) -> PathBuf {
    dir.join(name.replace("::", "-"))
}

#[test]
fn library_saves_keep_the_mode_of_an_existing_file() {
    let dir = tempfile::tempdir().unwrap();
    for (name, save) in SAVES {
        let p = target(dir.path(), name);
        save(&p);
        for m in [0o644, 0o664, 0o444] {
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(m)).unwrap();
            let before = Held::new(&p);
            save(&p);
            assert_ne!(std::fs::metadata(&p).unwrap().ino(), before.ino, "{name} did not replace the file");
            assert_eq!(mode(&p), m, "{name} lost mode {m:o}");
        }
    }
}

#[test]
fn library_saves_give_new_files_the_umask_default() {
    if let Some(dir) = std::env::var_os(CHILD_DIR) {
        // The child: save every kind once into an empty directory. The
        // in-place edits copy their package in first, so only the true
        // writers' new files are judged below.
        for (name, save) in SAVES.iter().filter(|(n, _)| n.contains("::")) {
            save(&target(Path::new(&dir), name));
        }
        return;
    }
    for (umask, want) in [("022", 0o644), ("027", 0o640), ("002", 0o664)] {
        let dir = tempfile::tempdir().unwrap();
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "umask {umask}; exec \"$0\" --exact library_saves::library_saves_give_new_files_the_umask_default --nocapture"
            ))
            .arg(std::env::current_exe().unwrap())
            .env(CHILD_DIR, dir.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stdout).contains("1 passed"));
        for (name, _) in SAVES.iter().filter(|(n, _)| n.contains("::")) {
            assert_eq!(mode(&target(dir.path(), name)), want, "{name} under umask {umask}");
        }
    }
}

#[test]
fn library_saves_follow_a_symlink() {
    let dir = tempfile::tempdir().unwrap();
    let real_dir = dir.path().join("real");
    std::fs::create_dir(&real_dir).unwrap();
    for (name, save) in SAVES {
        // What the save writes without a link.
        let plain = target(dir.path(), &format!("plain-{name}"));
        save(&plain);
        let real = target(&real_dir, name);
        std::fs::rename(&plain, &real).unwrap();
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o664)).unwrap();
        let link = target(dir.path(), name);
        symlink(&real, &link).unwrap();
        let want = std::fs::read(&real).unwrap();
        let before = Held::new(&real);
        save(&link);
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "{name}");
        assert_ne!(std::fs::metadata(&real).unwrap().ino(), before.ino, "{name} did not replace the link's target");
        assert_eq!(std::fs::read(&real).unwrap(), want, "{name}");
        assert_eq!(mode(&real), 0o664, "{name}");
    }
}
