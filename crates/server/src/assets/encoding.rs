//! Compressed bodies: which encoding a client takes (`Accept-Encoding`),
//! and the file compressed in it. Only the page and its files are
//! compressed, never the API's streams (a compressor holds lines back).

use std::io::Write as _;

/// A body's encoding, best first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Brotli,
    Gzip,
    Identity,
}

impl Encoding {
    /// `Content-Encoding`'s value (none for identity).
    pub fn header(self) -> Option<&'static str> {
        match self {
            Encoding::Brotli => Some("br"),
            Encoding::Gzip => Some("gzip"),
            Encoding::Identity => None,
        }
    }

    /// The best encoding `accept` (an `Accept-Encoding` value) takes: brotli
    /// before gzip at the same weight; identity when it names neither (or
    /// refuses them with `q=0`).
    pub fn chosen(accept: Option<&str>) -> Encoding {
        let Some(accept) = accept else { return Encoding::Identity };
        let (mut brotli, mut gzip, mut any) = (None, None, None);
        for item in accept.split(',') {
            let mut parts = item.split(';');
            let name = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
            let weight = parts
                .filter_map(|p| p.trim().strip_prefix("q=").or_else(|| p.trim().strip_prefix("Q=")))
                .find_map(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            match name.as_str() {
                "br" => brotli = Some(weight),
                "gzip" | "x-gzip" => gzip = Some(weight),
                "*" => any = Some(weight),
                _ => {}
            }
        }
        let brotli = brotli.or(any).unwrap_or(0.0);
        let gzip = gzip.or(any).unwrap_or(0.0);
        if brotli > 0.0 && brotli >= gzip {
            Encoding::Brotli
        } else if gzip > 0.0 {
            Encoding::Gzip
        } else {
            Encoding::Identity
        }
    }
}

/// Whether a file of `content_type` is worth compressing (text; images
/// other than SVG are compressed already).
pub fn compressible(content_type: &str) -> bool {
    content_type.starts_with("text/")
        || content_type.starts_with("image/svg+xml")
        || content_type.starts_with("application/json")
}

/// How hard to try: a file compressed once and served for ever takes the
/// best; a page made for one request, a quick pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effort {
    Best,
    Quick,
}

/// `bytes` in `encoding`.
pub fn compress(bytes: &[u8], encoding: Encoding, effort: Effort) -> Vec<u8> {
    match encoding {
        Encoding::Identity => bytes.to_vec(),
        Encoding::Gzip => {
            let level = match effort {
                Effort::Best => flate2::Compression::best(),
                Effort::Quick => flate2::Compression::fast(),
            };
            let mut encoder = flate2::write::GzEncoder::new(Vec::with_capacity(bytes.len() / 3), level);
            // Writing to memory cannot fail.
            encoder.write_all(bytes).expect("gzip into memory");
            encoder.finish().expect("gzip into memory")
        }
        Encoding::Brotli => {
            let params = brotli::enc::BrotliEncoderParams {
                quality: match effort {
                    Effort::Best => 11,
                    Effort::Quick => 4,
                },
                lgwin: 22,
                ..Default::default()
            };
            let mut out = Vec::with_capacity(bytes.len() / 3);
            brotli::BrotliCompress(&mut &bytes[..], &mut out, &params).expect("brotli into memory");
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read as _;

    #[test]
    fn the_encoding_is_the_best_the_client_takes() {
        assert_eq!(Encoding::chosen(None), Encoding::Identity);
        assert_eq!(Encoding::chosen(Some("")), Encoding::Identity);
        assert_eq!(Encoding::chosen(Some("gzip, deflate, br, zstd")), Encoding::Brotli);
        assert_eq!(Encoding::chosen(Some("gzip, deflate")), Encoding::Gzip);
        assert_eq!(Encoding::chosen(Some("br;q=0, gzip")), Encoding::Gzip);
        assert_eq!(Encoding::chosen(Some("br;q=0.5, gzip;q=0.8")), Encoding::Gzip);
        assert_eq!(Encoding::chosen(Some("gzip;q=0, br;q=0")), Encoding::Identity);
        assert_eq!(Encoding::chosen(Some("identity")), Encoding::Identity);
        assert_eq!(Encoding::chosen(Some("*")), Encoding::Brotli);
        assert_eq!(Encoding::chosen(Some("*;q=0.1, br;q=0")), Encoding::Gzip);
        assert_eq!(Encoding::chosen(Some("GZIP; Q=1")), Encoding::Gzip);
        assert_eq!(Encoding::chosen(Some("br;q=nonsense")), Encoding::Brotli);
    }

    #[test]
    fn compressed_bodies_come_back_whole() {
        let text = "the page and its files, again and again. ".repeat(200);
        for effort in [Effort::Best, Effort::Quick] {
            let gzip = compress(text.as_bytes(), Encoding::Gzip, effort);
            let mut back = String::new();
            flate2::read::GzDecoder::new(&gzip[..]).read_to_string(&mut back).unwrap();
            assert_eq!(back, text);
            let brotli = compress(text.as_bytes(), Encoding::Brotli, effort);
            let mut back = Vec::new();
            brotli::BrotliDecompress(&mut &brotli[..], &mut back).unwrap();
            assert_eq!(back, text.as_bytes());
            assert!(gzip.len() < text.len() / 10 && brotli.len() < text.len() / 10);
        }
    }
}
