// With the facade renamed, a mistake in an attribute hides none of the
// user's other errors: the stub impl emitted beside the mistake names the
// facade as `crate = ...` does, so the build goes on to type-check the rest
// and reports the type error in `main` too (a stub naming `::bitpack` would
// stop the build at name resolution, with only the attribute's error shown).
#[derive(netpack::BitPack)]
#[bitpack(crate = ::netpack)]
struct Player {
    #[bits(min = 100, max = 10)]
    health: u16,
}

fn send(player: &Player) -> usize {
    netpack::measure(player).unwrap_or(0)
}

fn main() {
    let _ = send;
    let level: u8 = "ten";
}
