//! A web origin (scheme, host and port) as browsers send it and operators
//! write it: a plain value, read by the origin rule of the routes and by
//! accounts (the public URL passkeys are bound to).

use http::uri::Authority;
use http::Uri;
use std::fmt;

/// A web origin: scheme, host and port (`https://chess.example.org`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    secure: bool,
    /// Lower case; an IPv6 address keeps its brackets.
    host: String,
    port: u16,
}

impl Origin {
    /// Reads an origin as browsers send it and operators write it:
    /// `http://127.0.0.1:8080`, `https://chess.example.org` (a final `/`
    /// allowed, no other path).
    pub fn parse(text: &str) -> Result<Origin, String> {
        let uri: Uri = text.parse().map_err(|_| format!("{text:?} is not a URL like https://chess.example.org"))?;
        let secure = match uri.scheme_str() {
            Some("http") => false,
            Some("https") => true,
            _ => return Err(format!("{text:?}: expected http:// or https://")),
        };
        let authority = uri.authority().ok_or_else(|| format!("{text:?} names no host"))?;
        if authority.as_str().contains('@') {
            return Err(format!("{text:?}: an origin has no user name"));
        }
        if uri.path_and_query().is_some_and(|p| p.as_str() != "/") {
            return Err(format!("{text:?}: an origin has no path or query"));
        }
        let port = authority.port_u16().unwrap_or(if secure { 443 } else { 80 });
        Ok(Origin { secure, host: authority.host().to_ascii_lowercase(), port })
    }

    /// The host (a name or an address), without the port.
    pub fn host(&self) -> &str {
        &self.host
    }

    /// Whether pages of this origin are served over HTTPS.
    pub fn is_secure(&self) -> bool {
        self.secure
    }

    /// Whether a request whose `Host` is `host` was sent to this origin
    /// (either scheme: a proxy may end TLS and pass `Host` on).
    pub fn is_host(&self, host: &str) -> bool {
        let Ok(authority) = host.parse::<Authority>() else { return false };
        let port = authority.port_u16().unwrap_or(if self.secure { 443 } else { 80 });
        authority.host().eq_ignore_ascii_case(&self.host) && port == self.port
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let scheme = if self.secure { "https" } else { "http" };
        write!(f, "{scheme}://{}", self.host)?;
        if self.port != if self.secure { 443 } else { 80 } {
            write!(f, ":{}", self.port)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_read_as_browsers_send_them() {
        let origin = Origin::parse("HTTPS://Chess.Example.org/").unwrap();
        assert_eq!(origin.to_string(), "https://chess.example.org");
        assert_eq!(Origin::parse("http://127.0.0.1:8080").unwrap().to_string(), "http://127.0.0.1:8080");
        assert_eq!(Origin::parse("http://[::1]:80").unwrap().to_string(), "http://[::1]");
        for bad in
            ["null", "", "chess.example.org", "ftp://x", "https://x/lobby", "https://x?a=1", "https://u@x", "http://"]
        {
            assert!(Origin::parse(bad).is_err(), "{bad:?}");
        }
    }
}
