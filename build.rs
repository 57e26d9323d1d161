//! Writes include/glblas.h from the exported functions and types (cbindgen.toml).

use std::path::Path;

fn main() {
    let dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    let config =
        cbindgen::Config::from_file(Path::new(&dir).join("cbindgen.toml")).expect("cbindgen.toml");
    let bindings = cbindgen::Builder::new()
        .with_crate(&dir)
        .with_config(config)
        .generate()
        .expect("generate include/glblas.h");
    // write_to_file leaves the file alone when the text is unchanged.
    bindings.write_to_file(Path::new(&dir).join("include/glblas.h"));
}
