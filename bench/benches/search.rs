//! Search speed: fixed-depth searches of a few positions with a fresh 16 MB
//! table, one thread; and the network's speed.

use castella_engine::{Engine, Limits, Options};
use castella_movegen::Position;
use criterion::{black_box, criterion_group, criterion_main, Criterion};

const POSITIONS: [(&str, &str, u32); 3] = [
    (
        "startpos",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        9,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        7,
    ),
    (
        "frc-middlegame",
        "b1rk1r1b/1pp2p1p/2n1p1q1/3p2pn/1PP2PPP/3PQ3/P3P1N1/BNKR1R1B b fc - 0 11",
        7,
    ),
];

fn bench_search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for (name, fen, depth) in POSITIONS {
        let pos = Position::from_fen(fen).unwrap();
        let options = Options::fixed(16, 1);
        let mut engine = Engine::silent(options).unwrap();
        let limits = Limits {
            depth: Some(depth),
            ..Default::default()
        };
        group.bench_function(name, |b| {
            b.iter(|| {
                engine.clear();
                engine.search_sync(black_box(&pos), &[], &limits)
            })
        });
    }
    group.finish();
}

/// The network from scratch (the search updates it incrementally instead,
/// a few weight rows a move), and one incremental update plus the output,
/// with each kernel this CPU runs.
fn bench_network(c: &mut Criterion) {
    use castella_eval::nnue::simd::Kernels;
    use castella_eval::nnue::{Accumulator, Delta, Network};
    let mut group = c.benchmark_group("network");
    let file = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../eval/nets/castella.nnue"
    ))
    .expect("the network file");
    for kernels in Kernels::available() {
        let net = Network::from_bytes(&file).unwrap().with_kernels(kernels);
        let (name, fen, _) = POSITIONS[0];
        let pos = Position::from_fen(fen).unwrap();
        group.bench_function(format!("refresh-{name}-{}", kernels.name()), |b| {
            b.iter(|| net.evaluate(black_box(&pos)))
        });
        let child = pos.play(pos.legal_moves()[0]);
        let delta = Delta::between(&pos, &child, net.inputs());
        let parent = net.refresh(&pos);
        let mut acc = Accumulator::default();
        group.bench_function(format!("update-{name}-{}", kernels.name()), |b| {
            b.iter(|| {
                net.update(black_box(&parent), black_box(&delta), &mut acc);
                net.output(&acc, &child)
            })
        });
        group.bench_function(format!("output-{name}-{}", kernels.name()), |b| {
            b.iter(|| net.output(black_box(&parent), &child))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_search, bench_network);
criterion_main!(benches);
