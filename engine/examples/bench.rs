//! `cargo run --release -p castella-engine --example bench [depth]`
fn main() {
    let depth = std::env::args()
        .nth(1)
        .and_then(|d| d.parse().ok())
        .unwrap_or(castella_engine::bench::DEFAULT_DEPTH);
    let r = castella_engine::bench::run(depth, &mut |l| println!("{l}"));
    println!("{} nodes {} nps", r.nodes, r.nps);
}
