//! The page's files as they are served: each under an address that names
//! its content (`/assets/board.3f9c0e12ab45.js`, kept by browsers for a
//! year and never asked for again), with an entity tag for the plain
//! address (`/assets/board.js`, asked again each time and answered 304 when
//! unchanged), and compressed once, when first asked for, in each encoding.

use super::encoding::{self, Effort, Encoding};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::{LazyLock, OnceLock};

/// Hex digits of the content hash in a fingerprinted address: 48 bits, so
/// two versions of one file never share an address in practice.
const HASH_DIGITS: usize = 12;

/// One file of `web/`.
#[derive(Debug)]
pub struct WebFile {
    /// Its path inside `web/` (`games/lma.js`).
    pub path: &'static str,
    pub bytes: &'static [u8],
    pub content_type: &'static str,
    /// The first [`HASH_DIGITS`] hex digits of its SHA-256.
    pub hash: String,
    brotli: OnceLock<Vec<u8>>,
    gzip: OnceLock<Vec<u8>>,
}

impl WebFile {
    fn new(path: &'static str, bytes: &'static [u8]) -> WebFile {
        WebFile {
            path,
            bytes,
            content_type: super::content_type(path),
            hash: content_hash(bytes),
            brotli: OnceLock::new(),
            gzip: OnceLock::new(),
        }
    }

    /// Its address that never changes meaning (`/assets/games/lma.<hash>.js`).
    pub fn fingerprinted(&self) -> String {
        match self.path.rsplit_once('.') {
            Some((stem, extension)) if !stem.ends_with('/') => format!("/assets/{stem}.{}.{extension}", self.hash),
            _ => format!("/assets/{}.{}", self.path, self.hash),
        }
    }

    /// Its bytes in `encoding` (identity for what does not compress), and
    /// the encoding they are in.
    pub fn body(&self, encoding: Encoding) -> (&[u8], Encoding) {
        if !encoding::compressible(self.content_type) {
            return (self.bytes, Encoding::Identity);
        }
        let cell = match encoding {
            Encoding::Identity => return (self.bytes, Encoding::Identity),
            Encoding::Brotli => &self.brotli,
            Encoding::Gzip => &self.gzip,
        };
        (cell.get_or_init(|| encoding::compress(self.bytes, encoding, Effort::Best)), encoding)
    }

    /// Its entity tag in `encoding` (each representation its own).
    pub fn etag(&self, encoding: Encoding) -> String {
        entity_tag(&self.hash, encoding)
    }
}

/// `"<hash>"`, `"<hash>-br"`, `"<hash>-gzip"`.
pub fn entity_tag(hash: &str, encoding: Encoding) -> String {
    match encoding.header() {
        Some(name) => format!("\"{hash}-{name}\""),
        None => format!("\"{hash}\""),
    }
}

/// The first [`HASH_DIGITS`] hex digits of the SHA-256 of `bytes`.
pub fn content_hash(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect::<String>()[..HASH_DIGITS].to_owned()
}

static FILES: LazyLock<HashMap<&'static str, WebFile>> =
    LazyLock::new(|| super::web_files().map(|(path, bytes)| (path, WebFile::new(path, bytes))).collect());

/// The file of `web/` at `path`.
pub fn file(path: &str) -> Option<&'static WebFile> {
    FILES.get(path)
}

/// Every file of `web/`, by path.
pub fn all() -> impl Iterator<Item = &'static WebFile> {
    let mut files: Vec<&WebFile> = FILES.values().collect();
    files.sort_by_key(|f| f.path);
    files.into_iter()
}

/// What an address under `/assets/` asks for: a file, and whether the
/// address named its content (then it never changes: cached for ever).
/// An address naming an older content (a page of the previous version
/// still open) gets today's file, as the plain address does.
pub fn lookup(path: &str) -> Option<(&'static WebFile, bool)> {
    if let Some(file) = file(path) {
        return Some((file, false));
    }
    let (rest, extension) = path.rsplit_once('.')?;
    let (stem, hash) = rest.rsplit_once('.')?;
    let is_hash = hash.len() == HASH_DIGITS && hash.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    if !is_hash {
        return None;
    }
    let file = file(&format!("{stem}.{extension}"))?;
    Some((file, file.hash == hash))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fingerprinted_address_names_the_content() {
        let board = file("board.js").expect("web/board.js");
        let address = board.fingerprinted();
        assert_eq!(address, format!("/assets/board.{}.js", board.hash));
        assert_eq!(board.hash, content_hash(board.bytes));
        let (found, fresh) = lookup(address.trim_start_matches("/assets/")).unwrap();
        assert_eq!((found.path, fresh), ("board.js", true));
        let (found, fresh) = lookup("board.js").unwrap();
        assert_eq!((found.path, fresh), ("board.js", false));
        // An older version's address: today's file, not for ever.
        let (found, fresh) = lookup("board.0123456789ab.js").unwrap();
        assert_eq!((found.path, fresh), ("board.js", false));
        let lma = file("games/lma.js").unwrap();
        assert!(lma.fingerprinted().starts_with("/assets/games/lma.") && lma.fingerprinted().ends_with(".js"));
        for unknown in ["nothing.js", "board.0123456789ab", "board.xyz.js", "board.0123456789AB.js", ".js", ""] {
            assert!(lookup(unknown).is_none_or(|(f, fresh)| f.path == unknown && !fresh), "{unknown}");
        }
    }

    #[test]
    fn text_is_compressed_once_in_each_encoding() {
        let style = file("style.css").unwrap();
        let (brotli, encoding) = style.body(Encoding::Brotli);
        assert_eq!(encoding, Encoding::Brotli);
        assert!(brotli.len() < style.bytes.len() / 2);
        assert!(std::ptr::eq(brotli, style.body(Encoding::Brotli).0), "compressed once");
        assert_eq!(style.body(Encoding::Identity).0, style.bytes);
        assert_ne!(style.etag(Encoding::Gzip), style.etag(Encoding::Brotli));
    }
}
