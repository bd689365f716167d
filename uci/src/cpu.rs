//! A binary built for a higher x86-64 level (`make release`: v2, v3, v4,
//! or `target-cpu=native`) checks that this CPU has what the compiler was
//! allowed to use, and refuses with a clear message instead of dying on
//! an illegal instruction.
//!
//! The check must run before any code the compiler may have vectorised:
//! Rust's own start-up code already uses such instructions, so a
//! check in `main` comes too late (seen with qemu's Nehalem CPU: the v3
//! binary died before `main`). It runs as an ELF constructor instead,
//! reads `cpuid` directly and writes its message with `write(2)`: plain
//! integer code that needs no extension.

/// The extensions of the x86-64 levels: name, `cpuid` leaf, register
/// (0 ebx, 1 ecx, 2 edx) and bit.
#[cfg(target_arch = "x86_64")]
const FEATURES: [(&str, bool, u32, u8, u8); 18] = [
    ("cmpxchg16b", cfg!(target_feature = "cmpxchg16b"), 1, 1, 13),
    ("popcnt", cfg!(target_feature = "popcnt"), 1, 1, 23),
    ("sse3", cfg!(target_feature = "sse3"), 1, 1, 0),
    ("ssse3", cfg!(target_feature = "ssse3"), 1, 1, 9),
    ("sse4.1", cfg!(target_feature = "sse4.1"), 1, 1, 19),
    ("sse4.2", cfg!(target_feature = "sse4.2"), 1, 1, 20),
    ("avx", cfg!(target_feature = "avx"), 1, 1, 28),
    ("fma", cfg!(target_feature = "fma"), 1, 1, 12),
    ("movbe", cfg!(target_feature = "movbe"), 1, 1, 22),
    ("f16c", cfg!(target_feature = "f16c"), 1, 1, 29),
    ("avx2", cfg!(target_feature = "avx2"), 7, 0, 5),
    ("bmi1", cfg!(target_feature = "bmi1"), 7, 0, 3),
    ("bmi2", cfg!(target_feature = "bmi2"), 7, 0, 8),
    ("avx512f", cfg!(target_feature = "avx512f"), 7, 0, 16),
    ("avx512dq", cfg!(target_feature = "avx512dq"), 7, 0, 17),
    ("avx512cd", cfg!(target_feature = "avx512cd"), 7, 0, 28),
    ("avx512bw", cfg!(target_feature = "avx512bw"), 7, 0, 30),
    ("avx512vl", cfg!(target_feature = "avx512vl"), 7, 0, 31),
];

/// The extensions this binary was compiled to use that this CPU lacks.
pub fn missing_features() -> Vec<&'static str> {
    #[cfg(target_arch = "x86_64")]
    {
        FEATURES
            .iter()
            .filter(|f| f.1 && !has(f.2, f.3, f.4))
            .map(|f| f.0)
            .collect()
    }
    #[cfg(not(target_arch = "x86_64"))]
    Vec::new()
}

/// Whether `cpuid` leaf `leaf` (sub-leaf 0) sets bit `bit` of register
/// `reg` (0 ebx, 1 ecx, 2 edx).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn has(leaf: u32, reg: u8, bit: u8) -> bool {
    use std::arch::x86_64::{__cpuid, __cpuid_count};
    // Leaf 7 is asked for only when the highest leaf reaches it.
    if leaf > __cpuid(0).eax {
        return false;
    }
    let r = __cpuid_count(leaf, 0);
    let word = match reg {
        0 => r.ebx,
        1 => r.ecx,
        _ => r.edx,
    };
    word >> bit & 1 == 1
}

/// Runs before Rust's start-up code; exits with a message if the CPU
/// lacks an extension this binary needs.
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
extern "C" fn refuse_older_cpus() {
    extern "C" {
        fn write(fd: i32, buf: *const u8, count: usize) -> isize;
        fn _exit(code: i32) -> !;
    }
    let mut any = false;
    for f in &FEATURES {
        if f.1 && !has(f.2, f.3, f.4) {
            let say = |s: &[u8]| {
                // SAFETY: a valid buffer of that length; a failed write
                // is ignored (the exit code still says it).
                unsafe { write(2, s.as_ptr(), s.len()) };
            };
            if !any {
                say(b"This Castella binary needs a newer CPU; this one lacks:");
                any = true;
            }
            say(b" ");
            say(f.0.as_bytes());
        }
    }
    if any {
        let end = b".\nUse a build for an older x86-64 level (castella-*-x86-64), or build from source with `cargo build --release`.\n";
        // SAFETY: as above; `_exit` ends the process without running
        // anything else.
        unsafe {
            write(2, end.as_ptr(), end.len());
            _exit(1);
        }
    }
}

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
#[used]
#[link_section = ".init_array"]
static REFUSE_OLDER_CPUS: extern "C" fn() = refuse_older_cpus;

#[cfg(test)]
mod tests {
    /// The binary the tests run was built for this machine, so nothing
    /// may be missing (`make release`'s binaries are checked on older
    /// CPUs with `qemu-x86_64 -cpu`, see the changelog).
    #[test]
    fn this_build_runs_here() {
        assert_eq!(super::missing_features(), Vec::<&str>::new());
        #[cfg(target_arch = "x86_64")]
        for f in super::FEATURES {
            let detected = match f.0 {
                "avx2" => Some(is_x86_feature_detected!("avx2")),
                "popcnt" => Some(is_x86_feature_detected!("popcnt")),
                "bmi2" => Some(is_x86_feature_detected!("bmi2")),
                "avx512bw" => Some(is_x86_feature_detected!("avx512bw")),
                _ => None,
            };
            if let Some(d) = detected {
                assert_eq!(super::has(f.2, f.3, f.4), d, "{}", f.0);
            }
        }
    }
}
