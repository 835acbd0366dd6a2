//! The `bitpack` crate's rendered documentation, as `cargo doc` leaves it in
//! `target/doc/bitpack/` (`.ci/run` builds it before the tests and sets
//! `BITPACK_REQUIRE_DOCS=1`, so there this test never skips):
//!
//! - no page links or embeds a relative file that is not there, or a
//!   relative file that is not a page (a `benches/README.md` that works on the
//!   repository's front page and nowhere in the docs); rustdoc's own scripts
//!   and `static.files/` are the exceptions;
//! - a link to a `#fragment` names an id of the page it links to;
//! - a link into the repository is `<repository>/blob/main/PATH` (or `raw`,
//!   `tree`), with the workspace's `repository` URL, and PATH exists;
//! - no page shows a `bitpack_core` path (what users copy must compile with
//!   `bitpack` alone).
//!
//! Without `cargo doc` output (or with output older than the docs' sources),
//! the test says so and passes, unless `BITPACK_REQUIRE_DOCS` is set.

use std::collections::HashMap;
use std::fs;
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::time::SystemTime;

/// Environment variable that makes missing or stale docs a failure.
const REQUIRE: &str = "BITPACK_REQUIRE_DOCS";

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ is inside the workspace").to_path_buf()
}

/// The workspace's `repository` URL, from `[workspace.package]`.
fn repository(workspace: &Path) -> String {
    let manifest = fs::read_to_string(workspace.join("Cargo.toml")).expect("read the workspace Cargo.toml");
    manifest
        .lines()
        .find_map(|line| line.trim().strip_prefix("repository = \""))
        .and_then(|rest| rest.strip_suffix('"'))
        .expect("the workspace Cargo.toml declares repository = \"...\"")
        .trim_end_matches('/')
        .to_string()
}

/// Where `cargo doc` wrote its output for this build: `CARGO_TARGET_DIR` if
/// set, else the target directory this test binary was built in
/// (`<target>/<profile>/deps/<binary>`), else the workspace's `target/`.
fn doc_root(workspace: &Path) -> Option<PathBuf> {
    let mut candidates = Vec::new();
    if let Some(dir) = std::env::var_os("CARGO_TARGET_DIR") {
        let dir = PathBuf::from(dir);
        candidates.push(if dir.is_absolute() { dir } else { workspace.join(dir) });
    }
    if let Ok(exe) = std::env::current_exe() {
        // <target>/<profile>/deps/<binary>, or <target>/<triple>/<profile>/deps/<binary>.
        let profile_dir = exe.parent().and_then(Path::parent);
        candidates.extend(profile_dir.and_then(Path::parent).map(Path::to_path_buf));
        candidates.extend(profile_dir.and_then(Path::parent).and_then(Path::parent).map(Path::to_path_buf));
    }
    candidates.push(workspace.join("target"));
    candidates
        .into_iter()
        .map(|target| target.join("doc"))
        .find(|doc| doc.join("bitpack/index.html").is_file())
}

/// The newest modification time among the files the facade's docs are made of.
fn newest_source(workspace: &Path) -> SystemTime {
    let mut newest = SystemTime::UNIX_EPOCH;
    let mut stack: Vec<PathBuf> = ["README.md", "bitpack", "bitpack-core/src", "bitpack-derive/src"]
        .iter()
        .map(|path| workspace.join(path))
        .collect();
    while let Some(path) = stack.pop() {
        let Ok(meta) = fs::metadata(&path) else { continue };
        if meta.is_dir() {
            stack.extend(fs::read_dir(&path).into_iter().flatten().flatten().map(|entry| entry.path()));
        } else if path.extension().is_some_and(|ext| ext == "md" || ext == "rs") {
            newest = newest.max(meta.modified().expect("file modification time"));
        }
    }
    newest
}

/// Passes with a note, or fails when docs are required.
fn skip(reason: &str) {
    assert!(std::env::var_os(REQUIRE).is_none(), "{REQUIRE} is set: {reason}");
    // Straight to stderr: the test harness captures `eprintln!` of a passing test.
    let _ = writeln!(
        std::io::stderr(),
        "rendered_docs: skipped, {reason}; run `cargo doc --workspace --no-deps` first"
    );
}

fn html_pages(dir: &Path, pages: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("read a doc directory").flatten() {
        let path = entry.path();
        if path.is_dir() {
            html_pages(&path, pages);
        } else if path.extension().is_some_and(|ext| ext == "html") {
            pages.push(path);
        }
    }
}

/// Every `href` and `src` attribute value of a page, entities decoded.
fn links(html: &str) -> Vec<String> {
    let mut found = Vec::new();
    for attr in [" href=\"", " src=\""] {
        let mut rest = html;
        while let Some(start) = rest.find(attr) {
            rest = &rest[start + attr.len()..];
            let end = rest.find('"').unwrap_or(rest.len());
            found.push(decode_entities(&rest[..end]));
            rest = &rest[end..];
        }
    }
    found
}

fn decode_entities(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// The ids a page defines, for checking `#fragment` links.
fn ids(html: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find(" id=\"") {
        rest = &rest[start + 5..];
        let end = rest.find('"').unwrap_or(rest.len());
        found.push(decode_entities(&rest[..end]));
        rest = &rest[end..];
    }
    found
}

/// The text a reader sees: tags, scripts and styles removed, entities decoded.
fn visible_text(html: &str) -> String {
    let mut text = String::new();
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        text.push_str(&rest[..open]);
        rest = &rest[open..];
        let skip_to = ["<script", "<style"]
            .iter()
            .zip(["</script>", "</style>"])
            .find(|(tag, _)| rest.starts_with(**tag))
            .map(|(_, close)| close);
        let end = match skip_to {
            Some(close) => rest.find(close).map_or(rest.len(), |at| at + close.len()),
            None => rest.find('>').map_or(rest.len(), |at| at + 1),
        };
        rest = &rest[end..];
    }
    text.push_str(rest);
    decode_entities(&text.replace("&nbsp;", " "))
}

/// `path` with `.` and `..` resolved lexically (the file need not exist).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// What one rendered page gets wrong; `ids_of` reads (and caches) the ids of
/// the pages its fragments point into.
struct Checker<'a> {
    doc_root: &'a Path,
    workspace: &'a Path,
    repository: &'a str,
    ids: HashMap<PathBuf, Vec<String>>,
}

impl Checker<'_> {
    fn ids_of(&mut self, page: &Path) -> &[String] {
        self.ids
            .entry(page.to_path_buf())
            .or_insert_with(|| ids(&fs::read_to_string(page).unwrap_or_default()))
    }

    fn check_page(&mut self, page: &Path, html: &str) -> Vec<String> {
        let mut problems = Vec::new();
        let name = page.strip_prefix(self.doc_root).unwrap_or(page).display().to_string();
        if let Some(line) = visible_text(html).lines().find(|line| line.contains("bitpack_core")) {
            problems.push(format!("{name}: shows a `bitpack_core` path: {}", line.trim()));
        }
        for link in links(html) {
            if let Some(problem) = self.check_link(page, html, &link) {
                problems.push(format!("{name}: {link}: {problem}"));
            }
        }
        problems
    }

    fn check_link(&mut self, page: &Path, html: &str, link: &str) -> Option<String> {
        // rustdoc's script templates (`../static.files/${f}`).
        if link.contains("${") {
            return None;
        }
        if let Some(fragment) = link.strip_prefix('#') {
            let here = ids(html);
            return (!fragment.is_empty() && !here.iter().any(|id| id == fragment))
                .then(|| "no such id on this page".to_string());
        }
        if let Some(in_repo) = link.strip_prefix(self.repository).filter(|rest| rest.starts_with('/')) {
            return self.check_repository_link(in_repo);
        }
        if link.starts_with("//") || link.split_once(':').is_some_and(|(scheme, _)| !scheme.contains('/')) {
            return None; // another site
        }
        let (path, fragment) =
            link.split_once('#').map_or((link, None), |(path, fragment)| (path, Some(fragment)));
        let path = path.split_once('?').map_or(path, |(path, _)| path);
        let target = normalize(&page.parent().expect("a page is in a directory").join(path));
        if !target.starts_with(self.doc_root) {
            return Some("points outside the documentation".into());
        }
        if !target.is_file() {
            return Some("relative link to a file that is not there".into());
        }
        let is_page = target.extension().is_some_and(|ext| ext == "html");
        let is_rustdoc_asset = target.starts_with(self.doc_root.join("static.files"))
            || target.extension().is_some_and(|ext| ext == "js");
        if !is_page && !is_rustdoc_asset {
            return Some("relative link to a file that is not a page".into());
        }
        // Source pages take line ranges (`#1-12`), resolved by script.
        let checks_fragment = is_page && !target.starts_with(self.doc_root.join("src"));
        match fragment {
            Some(fragment) if checks_fragment && !fragment.is_empty() => {
                (!self.ids_of(&target).iter().any(|id| id == fragment))
                    .then(|| "no such id on that page".into())
            }
            _ => None,
        }
    }

    /// `in_repo` is what follows the repository URL: `/blob/main/PATH`.
    fn check_repository_link(&self, in_repo: &str) -> Option<String> {
        let Some((kind, path)) = ["blob", "raw", "tree"]
            .iter()
            .find_map(|kind| in_repo.strip_prefix(&format!("/{kind}/main/")).map(|path| (*kind, path)))
        else {
            return Some("a repository link is <repository>/blob/main/PATH (or raw, tree)".into());
        };
        let path = path.split(['#', '?']).next().unwrap_or_default();
        let target = self.workspace.join(path);
        let exists = if kind == "tree" { target.is_dir() } else { target.is_file() };
        (!exists).then(|| {
            format!("{path} is not a {} in the repository", if kind == "tree" { "directory" } else { "file" })
        })
    }
}

#[test]
fn facade_pages_link_only_what_is_there() {
    let workspace = workspace_root();
    let Some(doc_root) = doc_root(&workspace) else {
        skip("no target/doc/bitpack/index.html");
        return;
    };
    let index = doc_root.join("bitpack/index.html");
    let built = fs::metadata(&index).and_then(|meta| meta.modified()).expect("index.html modification time");
    if built < newest_source(&workspace) {
        skip(&format!("{} is older than the docs' sources", index.display()));
        return;
    }
    let repository = repository(&workspace);
    let mut checker =
        Checker { doc_root: &doc_root, workspace: &workspace, repository: &repository, ids: HashMap::new() };
    let mut pages = Vec::new();
    html_pages(&doc_root.join("bitpack"), &mut pages);
    pages.sort();
    assert!(pages.len() > 20, "only {} pages under {}", pages.len(), doc_root.display());
    let mut problems = Vec::new();
    for page in &pages {
        let html = fs::read_to_string(page).expect("read a page");
        problems.extend(checker.check_page(page, &html));
    }
    assert!(
        problems.is_empty(),
        "{} problems in {} pages:\n{}",
        problems.len(),
        pages.len(),
        problems.join("\n")
    );
}

/// The checker itself, on a page with one of each mistake and one of each
/// kind of good link.
#[test]
fn checker_reports_each_kind_of_broken_link() {
    let root = std::env::temp_dir().join(format!("bitpack-rendered-docs-{}", std::process::id()));
    let doc_root = root.join("doc");
    fs::create_dir_all(doc_root.join("bitpack/change")).expect("create a doc tree");
    fs::create_dir_all(doc_root.join("static.files")).expect("create a doc tree");
    fs::write(doc_root.join("bitpack/struct.Error.html"), "<h2 id=\"examples\">").expect("write a page");
    fs::write(doc_root.join("bitpack/notes.md"), "").expect("write a file");
    fs::write(doc_root.join("static.files/rustdoc.css"), "").expect("write a file");
    let workspace = workspace_root();
    let repository = "https://example.invalid/bitpack";
    let mut checker = Checker { doc_root: &doc_root, workspace: &workspace, repository, ids: HashMap::new() };
    let page = doc_root.join("bitpack/change/index.html");
    let html = concat!(
        "<h1 id=\"top\">",
        "<a href=\"#top\"></a><a href=\"#\"></a><a href=\"../struct.Error.html#examples\"></a>",
        "<link href=\"../../static.files/rustdoc.css\"><a href=\"https://doc.rust-lang.org/std/\"></a>",
        "<a href=\"https://example.invalid/bitpack/blob/main/benches/README.md\"></a>",
        "<img src=\"https://example.invalid/bitpack/raw/main/benches/bytes-per-snapshot.svg\">",
        // The mistakes, one each:
        "<a href=\"benches/README.md\"></a>",
        "<a href=\"../notes.md\"></a>",
        "<img src=\"benches/bytes-per-snapshot.svg\">",
        "<a href=\"#gone\"></a>",
        "<a href=\"../struct.Error.html#gone\"></a>",
        "<a href=\"https://example.invalid/bitpack/blob/main/benches/MISSING.md\"></a>",
        "<a href=\"https://example.invalid/bitpack/benches/README.md\"></a>",
        "<pre><code>use <span>bitpack_core</span>::BitReader;</code></pre>",
    );
    let problems = checker.check_page(&page, html);
    fs::remove_dir_all(&root).expect("remove the doc tree");
    let expected = [
        "bitpack/change/index.html: shows a `bitpack_core` path: use bitpack_core::BitReader;",
        "bitpack/change/index.html: benches/README.md: relative link to a file that is not there",
        "bitpack/change/index.html: ../notes.md: relative link to a file that is not a page",
        "bitpack/change/index.html: #gone: no such id on this page",
        "bitpack/change/index.html: ../struct.Error.html#gone: no such id on that page",
        "bitpack/change/index.html: https://example.invalid/bitpack/blob/main/benches/MISSING.md: \
         benches/MISSING.md is not a file in the repository",
        "bitpack/change/index.html: https://example.invalid/bitpack/benches/README.md: \
         a repository link is <repository>/blob/main/PATH (or raw, tree)",
        "bitpack/change/index.html: benches/bytes-per-snapshot.svg: relative link to a file that is not there",
    ];
    assert_eq!(problems, expected);
}
