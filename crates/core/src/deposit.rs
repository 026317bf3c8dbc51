//! The `n`-th member of a bit set in one instruction, where the processor
//! has one that is fast: x86-64's PDEP (BMI2) deposits the bit `1 << n`
//! into the set's `n`-th member, whose index is then the trailing zeros.
//!
//! Random playouts ask for the `n`-th member several times a ply (a drawn
//! slot's piece, a drawn target), and the portable way (halving the word by
//! bit counts down to a byte) costs about fifteen dependent instructions.
//! The check is made at run time, once, so that one build runs everywhere:
//! the CPUs without BMI2, and the AMD ones that have it but run it in
//! microcode (families before Zen 3, where it takes up to hundreds of
//! cycles), keep the portable way.

use std::sync::LazyLock;

/// Whether [`nth_member`] may be used on this processor.
#[inline(always)]
pub fn is_fast() -> bool {
    static FAST: LazyLock<bool> = LazyLock::new(detect);
    *FAST
}

#[cfg(target_arch = "x86_64")]
fn detect() -> bool {
    use std::arch::x86_64::__cpuid;
    if !std::is_x86_feature_detected!("bmi2") {
        return false;
    }
    let vendor = __cpuid(0);
    runs_pdep_in_hardware([vendor.ebx, vendor.edx, vendor.ecx], __cpuid(1).eax)
}

/// Whether a processor with BMI2, of this vendor (CPUID leaf 0's EBX, EDX,
/// ECX) and signature (leaf 1's EAX), runs PDEP in hardware.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
fn runs_pdep_in_hardware(vendor: [u32; 3], signature: u32) -> bool {
    // "AuthenticAMD", and "HygonGenuine" (built on AMD's Zen 1).
    const AMD: [u32; 3] = [0x6874_7541, 0x6974_6e65, 0x444d_4163];
    const HYGON: [u32; 3] = [0x6f67_7948, 0x6e65_476e, 0x656e_6975];
    if vendor != AMD && vendor != HYGON {
        return true;
    }
    let base_family = (signature >> 8) & 0xf;
    let family = if base_family == 0xf { base_family + ((signature >> 20) & 0xff) } else { base_family };
    // Zen 3 is family 0x19; Zen 1 and 2 (0x17), Hygon (0x18) and the
    // Excavator cores before them microcode PDEP.
    family >= 0x19
}

#[cfg(not(target_arch = "x86_64"))]
fn detect() -> bool {
    false
}

/// The index of the `n`-th lowest member of `set` (`n` below its count).
/// Only after [`is_fast`] said yes.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub fn nth_member(set: u64, n: u32) -> usize {
    debug_assert!(is_fast() && n < set.count_ones());
    let deposited: u64;
    // SAFETY: PDEP exists on this processor (`is_fast` checked BMI2), and
    // it only reads and writes the registers named here.
    unsafe {
        std::arch::asm!(
            "pdep {deposited}, {bit}, {set}",
            deposited = lateout(reg) deposited,
            bit = in(reg) 1u64 << n,
            set = in(reg) set,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    deposited.trailing_zeros() as usize
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub fn nth_member(_set: u64, _n: u32) -> usize {
    unreachable!("is_fast() is false off x86-64")
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{RngCore, SeedableRng};

    #[test]
    fn pdep_is_used_on_intel_and_on_zen_3_and_later_only() {
        let vendor = |name: &[u8; 12]| {
            let word = |i: usize| u32::from_le_bytes(name[i..i + 4].try_into().unwrap());
            [word(0), word(4), word(8)]
        };
        // Signatures (CPUID 1 EAX): family 0xf plus the extended family.
        let (zen2, zen3, zen5) = (0x0083_0f10, 0x00a0_0f11, 0x00b0_0f20);
        assert!(!runs_pdep_in_hardware(vendor(b"AuthenticAMD"), zen2));
        assert!(runs_pdep_in_hardware(vendor(b"AuthenticAMD"), zen3));
        assert!(runs_pdep_in_hardware(vendor(b"AuthenticAMD"), zen5));
        assert!(!runs_pdep_in_hardware(vendor(b"HygonGenuine"), 0x0090_0f00));
        assert!(runs_pdep_in_hardware(vendor(b"GenuineIntel"), 0x0009_06ea));
    }

    #[test]
    fn the_deposited_member_is_the_nth_listed() {
        if !is_fast() {
            eprintln!("PDEP is not fast here: the portable way is the one in use, tested with the bitboards");
            return;
        }
        let mut rng = SmallRng::seed_from_u64(7);
        for round in 0..3000 {
            let set = match round % 3 {
                0 => rng.next_u64() & rng.next_u64(),
                1 => rng.next_u64(),
                _ => rng.next_u64() | rng.next_u64(),
            };
            let members = (0..64).filter(|bit| set >> bit & 1 == 1);
            for (n, member) in members.enumerate() {
                assert_eq!(nth_member(set, n as u32), member, "{set:#x}, member {n}");
            }
        }
        assert_eq!(nth_member(1 << 63, 0), 63);
        assert_eq!(nth_member(!0, 63), 63);
    }
}
