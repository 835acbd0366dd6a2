//! Issue 16's web-server log: 20 batches of 500 access-log lines, generated
//! from a fixed seed: an IPv4 address (`u32`, from a few hundred clients),
//! a method (an enum), a short path (`String`, from a small vocabulary
//! with ids), a status code (`u16`, mostly 200), a response size (`u64`,
//! spread over five orders of magnitude) and a duration in microseconds
//! (`u32`). No field declares a range.
//!
//! Declared three times like [`crate::mk48`]: [`rows`], [`adaptive`] and
//! [`columns`]. A test pins its [`fingerprint`].

/// Batches in the dataset.
pub const BATCHES: usize = 20;
/// Lines in a batch.
pub const LINES: usize = 500;
/// The seed of everything.
pub const SEED: u64 = 0x7765_626c_6f67_0016;

macro_rules! log {
    ($($all:meta)?; $($ints:meta)?) => {
        use crate::rng::SplitMix64;
        use bitpack::BitPack;

        /// An HTTP method.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, BitPack, bitcode::Encode, bitcode::Decode)]
        $(#[bitpack($all)])?
        pub enum Method {
            Get,
            Post,
            Put,
            Delete,
            Head,
        }

        /// One access-log line.
        #[derive(Clone, Debug, PartialEq, BitPack, bitcode::Encode, bitcode::Decode)]
        $(#[bitpack($ints)])?
        pub struct Line {
            pub ip: u32,
            pub method: Method,
            #[bitpack(max_len = 255)]
            pub path: String,
            pub status: u16,
            pub bytes: u64,
            pub micros: u32,
        }

        /// Lines sent together.
        #[derive(Clone, Debug, PartialEq, BitPack, bitcode::Encode, bitcode::Decode)]
        $(#[bitpack($ints)])?
        pub struct Batch {
            /// The first line's time, in seconds since 1970.
            pub start: u64,
            #[bitpack(max_len = 65536)]
            pub lines: Vec<Line>,
        }

        const ROUTES: [&str; 8] = ["/", "/index.html", "/api/items/", "/api/users/", "/static/app.js", "/static/app.css", "/img/", "/login"];

        fn line(rng: &mut SplitMix64, clients: &[u32]) -> Line {
            let route = ROUTES[rng.below(8) as usize];
            let path = if route.ends_with('/') && route.len() > 1 { format!("{route}{}", rng.below(5000)) } else { route.to_owned() };
            let method = match rng.below(100) {
                0..=79 => Method::Get,
                80..=91 => Method::Post,
                92..=95 => Method::Put,
                96..=97 => Method::Delete,
                _ => Method::Head,
            };
            let status = match rng.below(100) {
                0..=79 => 200,
                80..=87 => 304,
                88..=93 => 404,
                94..=96 => 301,
                97..=98 => 302,
                _ => 500,
            };
            // Sizes spread over five orders of magnitude.
            let digits = rng.below(5) as u32 + 2;
            let bytes = if status == 304 { 0 } else { rng.below(10u64.pow(digits)) };
            Line { ip: clients[rng.below(clients.len() as u64) as usize], method, path, status, bytes, micros: 200 + rng.below(50_000) as u32 }
        }

        /// The dataset's batches.
        pub fn generate() -> Vec<Batch> {
            let mut rng = SplitMix64::new(super::SEED);
            let clients: Vec<u32> = (0..300).map(|_| rng.next_u64() as u32).collect();
            (0..super::BATCHES).map(|index| Batch { start: 1_764_000_000 + 60 * index as u64, lines: (0..super::LINES).map(|_| line(&mut rng, &clients)).collect() }).collect()
        }
    };
}

/// The reference's row layout.
pub mod rows {
    log!(;);
}

/// Type-level `#[bitpack(adaptive)]`.
pub mod adaptive {
    log!(; adaptive);
}

/// Type-level `#[bitpack(columns)]`.
pub mod columns {
    log!(columns; columns);
}

/// FNV-1a over the row layout's bytes of every batch: the data, pinned.
pub fn fingerprint(batches: &[rows::Batch]) -> u64 {
    crate::dataset::fingerprint_encoded(batches)
}
