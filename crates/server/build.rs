//! The versions of the HTTP libraries compiled in (from the workspace's Cargo.lock), for
//! `show_versions()`: a bug report names what serves the requests.

fn main() {
    let lock = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../Cargo.lock");
    println!("cargo:rerun-if-changed={}", lock.display());
    let text = std::fs::read_to_string(&lock).unwrap_or_default();
    let version = |name: &str| {
        let key = format!("name = \"{name}\"\nversion = \"");
        text.find(&key)
            .and_then(|i| text[i + key.len()..].split('"').next())
            .unwrap_or("unknown")
            .to_string()
    };
    let libraries = ["hyper", "hyper-util", "tokio"]
        .map(|n| format!("{n} {}", version(n)))
        .join(", ");
    println!("cargo:rustc-env=SERVER_LIBRARIES={libraries}");
}
