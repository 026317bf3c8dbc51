//! Who the client of a request is: the peer's address, which the
//! connection loop puts in every request, as the per-client caps count it.

use std::net::IpAddr;

/// The address a request came from (an extension of every request).
#[derive(Clone, Copy, Debug)]
pub struct PeerAddr(pub std::net::SocketAddr);

/// The client a request came from, as the per-client caps count it (open
/// sockets, analyses, seeks, new players): the peer's IP address, an IPv6
/// one as its /64 network (what one host is usually given). `None` for a
/// request that did not come through [`super::listen::serve`]. The one place that says
/// who the client is.
pub fn client_address(extensions: &axum::http::Extensions) -> Option<IpAddr> {
    let PeerAddr(peer) = extensions.get::<PeerAddr>()?;
    Some(match peer.ip() {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6((u128::from(v6) & !((1u128 << 64) - 1)).into()),
        },
    })
}

/// The request's [`client_address`], as an extractor.
pub struct ClientAddress(pub Option<IpAddr>);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for ClientAddress {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut axum::http::request::Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(ClientAddress(client_address(&parts.extensions)))
    }
}
