use hmac::{Hmac, Mac};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

// ANCHOR: verify
/// Verifies the `Ferry-Signature` header of a webhook delivery.
pub fn verify(secret: &[u8], timestamp: &str, body: &[u8], header: &str) -> bool {
    let mut mac = HmacSha256::new_from_slice(secret).expect("any key length");
    mac.update(timestamp.as_bytes());
    mac.update(b".");
    mac.update(body);
    let expected = hex::encode(mac.finalize().into_bytes());
    header.strip_prefix("v1=").map_or(false, |sig| constant_time_eq(sig, &expected))
}
// ANCHOR_END: verify

fn constant_time_eq(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0, |acc, (x, y)| acc | (x ^ y)) == 0
}

fn main() {
    assert!(!verify(b"s3cr3t", "1717000000", b"{}", "v1=00"));
}
