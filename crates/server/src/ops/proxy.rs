//! The client's address behind a reverse proxy. A request that comes from
//! a proxy the operator trusts (`--trusted-proxy`) is counted against the
//! address the proxy says it serves (`X-Real-IP`, else the last address of
//! `X-Forwarded-For`, the one the proxy itself added); from anyone else
//! those headers are ignored, since any client can send them.

use axum::http::HeaderMap;
use std::net::IpAddr;

/// The address a request is counted against: `peer`, unless `peer` is one
/// of `trusted` and names the client it forwards.
pub fn client_address(peer: IpAddr, trusted: &[IpAddr], headers: &HeaderMap) -> IpAddr {
    if !trusted.contains(&peer) {
        return peer;
    }
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let real_ip = header("x-real-ip").and_then(|v| v.trim().parse().ok());
    let forwarded = || header("x-forwarded-for").and_then(|v| v.rsplit(',').next()).and_then(|v| v.trim().parse().ok());
    real_ip.or_else(forwarded).unwrap_or(peer)
}

#[cfg(test)]
mod tests {
    use super::client_address;
    use axum::http::HeaderMap;
    use std::net::IpAddr;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, value.parse().unwrap());
        }
        map
    }

    #[test]
    fn only_a_trusted_proxy_names_the_client() {
        let proxy: IpAddr = "127.0.0.1".parse().unwrap();
        let stranger: IpAddr = "127.0.0.9".parse().unwrap();
        let trusted = [proxy];
        let forwarded = headers(&[("x-forwarded-for", "198.51.100.1, 203.0.113.7")]);
        assert_eq!(client_address(proxy, &trusted, &forwarded), "203.0.113.7".parse::<IpAddr>().unwrap());
        assert_eq!(client_address(stranger, &trusted, &forwarded), stranger, "anyone may send the header");
        let real = headers(&[("x-real-ip", "203.0.113.8"), ("x-forwarded-for", "203.0.113.7")]);
        assert_eq!(client_address(proxy, &trusted, &real), "203.0.113.8".parse::<IpAddr>().unwrap());
        assert_eq!(client_address(proxy, &trusted, &headers(&[("x-real-ip", "nonsense")])), proxy);
        assert_eq!(client_address(proxy, &[], &forwarded), proxy, "no proxy is trusted by default");
    }
}
