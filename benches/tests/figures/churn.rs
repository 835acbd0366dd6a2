//! The churning dataset (issue 13): what it holds, that both collection
//! forms send the same bytes, and the sizes `benches/README.md` quotes.

use bitpack_benches::churn::{self, Link};

#[test]
fn the_world_churns_about_one_percent_each_way() {
    let worlds = churn::generate(churn::TICKS);
    let (mut spawned, mut despawned) = (0, 0);
    for pair in worlds.windows(2) {
        let (before, after) = (&pair[0].entities, &pair[1].entities);
        spawned += after.keys().filter(|id| !before.contains_key(id)).count();
        despawned += before.keys().filter(|id| !after.contains_key(id)).count();
    }
    let per_tick = |count: usize| count as f64 / (worlds.len() - 1) as f64;
    assert!((2.0..3.2).contains(&per_tick(spawned)), "{}", per_tick(spawned));
    assert!((2.0..3.2).contains(&per_tick(despawned)), "{}", per_tick(despawned));
    assert!(worlds.iter().all(|world| (200..320).contains(&world.entities.len())));
}

#[test]
fn the_map_and_the_sorted_vec_send_the_same_packets() {
    let worlds = churn::generate(120);
    let vecs = churn::as_vecs(&worlds);
    let link = Link { loss: 5, ack_delay: 3, datagram: 1200 };
    let map = churn::replicate(&worlds, link, 1).expect("replicates");
    let vec = churn::replicate(&vecs, link, 1).expect("replicates");
    assert_eq!((map.bytes, map.largest, map.decoded), (vec.bytes, vec.largest, vec.decoded));
}

/// The figures of the README's issue-13 table.
#[test]
fn the_quoted_sizes_hold() {
    let worlds = churn::generate(churn::TICKS);
    let unbounded = 1 << 16;
    let mut means = Vec::new();
    for link in [
        Link { loss: 0, ack_delay: 1, datagram: unbounded },
        Link { loss: 5, ack_delay: 1, datagram: unbounded },
        Link { loss: 5, ack_delay: 3, datagram: unbounded },
        Link { loss: 5, ack_delay: 1, datagram: 1200 },
    ] {
        let run = churn::replicate(&worlds, link, 13).expect("replicates");
        assert!(run.largest <= link.datagram);
        means.push(format!("{:.1}", run.mean()));
    }
    assert_eq!(means, ["908.0", "938.3", "1449.1", "928.3"]);
    assert_eq!(churn::unchanged_bytes(&worlds[0]), Ok(8));
}

/// The README's breakdown of a delta's bytes.
#[test]
fn the_quoted_breakdown_holds() {
    let worlds = churn::generate(churn::TICKS);
    let parts = churn::breakdown(&worlds).expect("measures");
    let figures = [
        parts.changed,
        parts.changed_bytes,
        parts.spawned,
        parts.spawned_bytes,
        parts.despawned,
        parts.place_bytes,
        parts.key_bytes,
        parts.kind_bytes,
        parts.rank_gap_bytes,
        parts.bitmap_bytes,
        parts.span_saving_bytes,
    ]
    .map(|figure| format!("{figure:.1}"));
    assert_eq!(
        figures,
        ["119.4", "793.2", "2.6", "46.0", "2.5", "38.4", "120.7", "15.2", "69.1", "38.3", "50.6"]
    );
}
