//! Perft and move-generation speed on a few positions.

use castella_movegen::{perft, Position};
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

const POSITIONS: [(&str, &str); 4] = [
    (
        "startpos",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    (
        "frc-0",
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
    ),
    (
        "frc-tricky",
        "1kr2bb1/2p1p3/3n4/1r1pP2p/3P4/p2N3p/1Q5P/1KR4R b Cc - 25 43",
    ),
];

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    for (name, fen) in POSITIONS {
        let pos = Position::from_fen(fen).unwrap();
        let depth = 4;
        group.throughput(Throughput::Elements(perft(&pos, depth)));
        group.bench_function(name, |b| b.iter(|| perft(black_box(&pos), depth)));
    }
    group.finish();
}

fn bench_generate(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_moves");
    for (name, fen) in POSITIONS {
        let pos = Position::from_fen(fen).unwrap();
        group.bench_function(name, |b| b.iter(|| black_box(&pos).legal_moves()));
    }
    group.finish();
}

criterion_group!(benches, bench_perft, bench_generate);
criterion_main!(benches);
