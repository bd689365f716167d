//! Magic bitboards for sliding pieces.
//!
//! For each square, the relevant occupancy (the squares on its rays, board
//! edges excluded) is multiplied by a magic number and shifted down to index a
//! table of attack sets. The numbers below were found by a seeded random
//! search (sparse candidates, no destructive collisions); the tables are built
//! at compile time, and the build fails if a number stops being a perfect
//! hash.

use crate::bitboard::Bitboard;
use crate::types::Square;

const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Attacks of a slider on `sq` along `dirs`, stopping at the first occupied
/// square (included). Slow; used to build the tables and in tests.
pub(crate) const fn slide(sq: usize, occ: u64, dirs: &[(i8, i8); 4]) -> u64 {
    let mut att = 0u64;
    let (r0, f0) = ((sq / 8) as i8, (sq % 8) as i8);
    let mut d = 0;
    while d < 4 {
        let (dr, df) = dirs[d];
        let (mut r, mut f) = (r0 + dr, f0 + df);
        while r >= 0 && r < 8 && f >= 0 && f < 8 {
            let bit = 1u64 << (r * 8 + f);
            att |= bit;
            if occ & bit != 0 {
                break;
            }
            r += dr;
            f += df;
        }
        d += 1;
    }
    att
}

/// The squares whose occupancy matters for a slider on `sq`.
const fn relevant(sq: usize, dirs: &[(i8, i8); 4]) -> u64 {
    let mut m = 0u64;
    let (r0, f0) = ((sq / 8) as i8, (sq % 8) as i8);
    let mut d = 0;
    while d < 4 {
        let (dr, df) = dirs[d];
        let (mut r, mut f) = (r0 + dr, f0 + df);
        while r + dr >= 0 && r + dr < 8 && f + df >= 0 && f + df < 8 {
            m |= 1u64 << (r * 8 + f);
            r += dr;
            f += df;
        }
        d += 1;
    }
    m
}

/// Where one square's attacks live in the shared table.
#[derive(Clone, Copy)]
struct Entry {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: u32,
}

const fn entries(dirs: &[(i8, i8); 4], magics: &[u64; 64]) -> [Entry; 64] {
    let mut out = [Entry {
        mask: 0,
        magic: 0,
        shift: 0,
        offset: 0,
    }; 64];
    let mut offset = 0u32;
    let mut sq = 0;
    while sq < 64 {
        let mask = relevant(sq, dirs);
        let bits = mask.count_ones();
        out[sq] = Entry {
            mask,
            magic: magics[sq],
            shift: 64 - bits,
            offset,
        };
        offset += 1 << bits;
        sq += 1;
    }
    out
}

const fn table<const N: usize>(dirs: &[(i8, i8); 4], entries: &[Entry; 64]) -> [Bitboard; N] {
    let mut table = [Bitboard::EMPTY; N];
    let mut sq = 0;
    while sq < 64 {
        let e = entries[sq];
        // Carry-rippler walk over every subset of the mask.
        let mut occ = 0u64;
        loop {
            let idx = e.offset as usize + (occ.wrapping_mul(e.magic) >> e.shift) as usize;
            let att = slide(sq, occ, dirs);
            if table[idx].0 != 0 && table[idx].0 != att {
                panic!("magic number collides");
            }
            table[idx] = Bitboard(att);
            occ = occ.wrapping_sub(e.mask) & e.mask;
            if occ == 0 {
                break;
            }
        }
        sq += 1;
    }
    table
}

const ROOK_ENTRIES: [Entry; 64] = entries(&ROOK_DIRS, &ROOK_MAGICS);
const BISHOP_ENTRIES: [Entry; 64] = entries(&BISHOP_DIRS, &BISHOP_MAGICS);
const ROOK_TABLE_SIZE: usize = 102_400;
const BISHOP_TABLE_SIZE: usize = 5_248;
static ROOK_TABLE: [Bitboard; ROOK_TABLE_SIZE] = table(&ROOK_DIRS, &ROOK_ENTRIES);
static BISHOP_TABLE: [Bitboard; BISHOP_TABLE_SIZE] = table(&BISHOP_DIRS, &BISHOP_ENTRIES);

/// Rook attacks from `sq` given the board's occupancy.
#[inline(always)]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let e = &ROOK_ENTRIES[sq.index()];
    let idx = e.offset as usize + ((occ.0 & e.mask).wrapping_mul(e.magic) >> e.shift) as usize;
    ROOK_TABLE[idx]
}

/// Bishop attacks from `sq` given the board's occupancy.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let e = &BISHOP_ENTRIES[sq.index()];
    let idx = e.offset as usize + ((occ.0 & e.mask).wrapping_mul(e.magic) >> e.shift) as usize;
    BISHOP_TABLE[idx]
}

/// Rook attacks on an empty board, at compile time.
pub(crate) const fn rook_rays(sq: usize) -> u64 {
    slide(sq, 0, &ROOK_DIRS)
}

/// Bishop attacks on an empty board, at compile time.
pub(crate) const fn bishop_rays(sq: usize) -> u64 {
    slide(sq, 0, &BISHOP_DIRS)
}

pub(crate) const ROOK_MAGICS: [u64; 64] = [
    0x008000908064c000,
    0x0040200040001000,
    0x0180100080a0010a,
    0x8880041000800800,
    0x1200100201200804,
    0x0200020004011008,
    0x2180010000800600,
    0x0200005088210204,
    0x0400800040008021,
    0x0400400020005000,
    0x8240801000200080,
    0x8611001004200900,
    0x008180800c001800,
    0x0100800200800400,
    0x0a02000102000408,
    0x8020802300104280,
    0x0080004000402000,
    0xe010104000402000,
    0x0800808010002000,
    0xa280210008100100,
    0x0001818014000800,
    0xa002010100080400,
    0x0080240001020870,
    0x0001020004048845,
    0x0081826280004004,
    0x2020810900284000,
    0x0200100080802000,
    0x0200080080100080,
    0x8083080100100500,
    0x4406000901000400,
    0x0005020080800100,
    0x0090204200008114,
    0x0010400094800420,
    0x0900804000802002,
    0x0201001841002000,
    0x4100080080801000,
    0x4540040080800800,
    0x0002001004040020,
    0x0281195814001002,
    0x1240800040800100,
    0x0880042000524004,
    0x02c080410206002c,
    0x0801200241050010,
    0x8400080010008080,
    0x0008000500090010,
    0x0082009084020008,
    0x4012000108020004,
    0x9000104d08860004,
    0x2004204114800100,
    0x0148802112400300,
    0x0202842000100880,
    0x001b080080900080,
    0x001a002008100600,
    0x0004008004020080,
    0x5181000600040300,
    0x0000044401128a00,
    0x8044110480002441,
    0x2008110084402202,
    0x90806005090010c1,
    0x000420310a004a42,
    0x0023001004020801,
    0x0882001008040102,
    0x000230088118020c,
    0x0000019025040042,
];
pub(crate) const BISHOP_MAGICS: [u64; 64] = [
    0x0045010808008680,
    0x2002080204004898,
    0x0210009a10400006,
    0x0824050200810200,
    0x0006061105004090,
    0x00010108c0000000,
    0x0814040282104004,
    0x0012012201106800,
    0x10823014100c1040,
    0x0080c2088802808c,
    0x0281108410404000,
    0x0101212041826200,
    0x0020141028221058,
    0x2201020202200202,
    0x000082a801482000,
    0x0000008401411044,
    0x0007103014300404,
    0x0002091110010100,
    0x42140012040c0808,
    0x0800808802004020,
    0x90c4004210140000,
    0x0800200900a01000,
    0x00d0400201108810,
    0x80820183814412a0,
    0x00a01008202202b4,
    0x01c2021a09500402,
    0x0084440208042400,
    0x800400400c090100,
    0xba10040010802100,
    0xd182009006005000,
    0x5011021001009004,
    0x0020420200510400,
    0x0292104000468800,
    0x00043009091c0500,
    0x0280441000020025,
    0x0042820080080080,
    0x0440101010010040,
    0x1000900100808080,
    0x0108108120089800,
    0x0044010200012682,
    0xc002500420900400,
    0x0040482210710800,
    0x0002060024000200,
    0x0281020a44000800,
    0xa0021200a4000200,
    0x0001301000840840,
    0x2868500108444220,
    0x0004111041000200,
    0x8044020842080200,
    0x0000220104210200,
    0x0000021201044000,
    0x0000280884040028,
    0x4012114010858003,
    0x0000081004082b88,
    0x3892700508208002,
    0x00220a041b060400,
    0x0812020284014881,
    0x010434a282103100,
    0x0490400824020800,
    0x4a20002c00208800,
    0x000000a011020200,
    0x4002940a02482202,
    0x5100100202140406,
    0x02102000840540c1,
];

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn table_sizes_match_masks() {
        let r: u32 = (0..64)
            .map(|s| 1u32 << relevant(s, &ROOK_DIRS).count_ones())
            .sum();
        let b: u32 = (0..64)
            .map(|s| 1u32 << relevant(s, &BISHOP_DIRS).count_ones())
            .sum();
        assert_eq!(r as usize, ROOK_TABLE_SIZE);
        assert_eq!(b as usize, BISHOP_TABLE_SIZE);
    }

    #[test]
    fn magic_lookups_equal_slow_rays() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for _ in 0..20_000 {
            let occ: u64 = rng.gen::<u64>() & rng.gen::<u64>();
            let sq = Square::new(rng.gen_range(0..64));
            assert_eq!(
                rook_attacks(sq, Bitboard(occ)).0,
                slide(sq.index(), occ, &ROOK_DIRS)
            );
            assert_eq!(
                bishop_attacks(sq, Bitboard(occ)).0,
                slide(sq.index(), occ, &BISHOP_DIRS)
            );
        }
    }
}
