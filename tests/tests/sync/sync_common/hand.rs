//! `World` with its `BitPack` and `ChangeGroups` impls written by hand,
//! in the shape `#[derive(BitPack)]` generates for it (full paths,
//! `__`-prefixed locals, one body behind each pair of methods that differ
//! only in the budget): the model the derive was written from. `sync_keyed`
//! checks that the derived `World` writes the same bits.

use std::collections::BTreeMap;

use super::{UNITS_MAX, Unit};

/// The fields of [`super::World`], without the derive.
#[derive(Clone, Debug, PartialEq)]
pub struct HandWorld {
    pub tick: u32,
    pub rain: f32,
    pub wind: u16,
    pub red: u16,
    pub blue: u16,
    pub units: BTreeMap<u32, Unit>,
}

impl HandWorld {
    pub fn of(world: &super::World) -> HandWorld {
        let super::World { tick, rain, wind, red, blue, ref units } = *world;
        HandWorld { tick, rain, wind, red, blue, units: units.clone() }
    }
}

const _: () = {
    use ::bitpack::__private as __p;

    /// `write_to` and `write_to_within`.
    #[inline]
    fn __write_to<__W: __p::BitWrite>(
        __self: &HandWorld,
        __writer: &mut __W,
        __budget: __p::Option<&mut __p::keyed::Budget>,
    ) -> __p::Result<(), __p::Error> {
        <u32 as __p::BitPack>::write_to(&__self.tick, __writer)?;
        __p::BitWrite::write_compressed_float(__writer, __self.rain, 0.0, 1.0, 0.01)?;
        __p::ranged_u16::write(__writer, __self.wind, 0, 359)?;
        __p::ranged_u16::write(__writer, __self.red, 0, 9999)?;
        __p::ranged_u16::write(__writer, __self.blue, 0, 9999)?;
        __p::keyed::map::write(__writer, &__self.units, UNITS_MAX, __budget)
    }

    /// `write_delta` and `write_delta_within`.
    #[inline]
    fn __write_delta<__W: __p::BitWrite>(
        __self: &HandWorld,
        __baseline: &HandWorld,
        __writer: &mut __W,
        __budget: __p::Option<&mut __p::keyed::Budget>,
    ) -> __p::Result<(), __p::Error> {
        if __p::delta_group(
            __writer,
            |__writer: &mut __p::BitFingerprint| <u32 as __p::BitPack>::write_to(&__self.tick, __writer),
            |__writer: &mut __p::BitFingerprint| <u32 as __p::BitPack>::write_to(&__baseline.tick, __writer),
        )? {
            <u32 as __p::BitPack>::write_to(&__self.tick, __writer)?;
        }
        if __p::delta_group(
            __writer,
            |__writer: &mut __p::BitFingerprint| {
                __p::BitWrite::write_compressed_float(__writer, __self.rain, 0.0, 1.0, 0.01)?;
                __p::ranged_u16::write(__writer, __self.wind, 0, 359)
            },
            |__writer: &mut __p::BitFingerprint| {
                __p::BitWrite::write_compressed_float(__writer, __baseline.rain, 0.0, 1.0, 0.01)?;
                __p::ranged_u16::write(__writer, __baseline.wind, 0, 359)
            },
        )? {
            __p::BitWrite::write_compressed_float(__writer, __self.rain, 0.0, 1.0, 0.01)?;
            __p::ranged_u16::write(__writer, __self.wind, 0, 359)?;
        }
        if __p::delta_group(
            __writer,
            |__writer: &mut __p::BitFingerprint| {
                __p::ranged_u16::write(__writer, __self.red, 0, 9999)?;
                __p::ranged_u16::write(__writer, __self.blue, 0, 9999)
            },
            |__writer: &mut __p::BitFingerprint| {
                __p::ranged_u16::write(__writer, __baseline.red, 0, 9999)?;
                __p::ranged_u16::write(__writer, __baseline.blue, 0, 9999)
            },
        )? {
            __p::relative_u16::write(__writer, __self.red, __baseline.red, 0, 9999)?;
            __p::relative_u16::write(__writer, __self.blue, __baseline.blue, 0, 9999)?;
        }
        // A keyed collection writes its own flag: an unchanged one is that bit.
        __p::keyed::map::write_delta(
            __writer,
            &__self.units,
            &__baseline.units,
            UNITS_MAX,
            Unit::spawn,
            __budget,
        )
    }

    #[automatically_derived]
    impl __p::BitPack for HandWorld {
        const MAX_BITS: usize = __p::sum(&[
            32,
            __p::quantize_bits(0.0, 1.0, 0.01),
            __p::ranged_u16::bits(0, 359),
            __p::ranged_u16::bits(0, 9999),
            __p::ranged_u16::bits(0, 9999),
            __p::keyed::map::max_bits::<u32, Unit>(UNITS_MAX),
        ]);
        const MIN_BITS: usize = __p::sum(&[
            32,
            __p::quantize_bits(0.0, 1.0, 0.01),
            __p::ranged_u16::bits(0, 359),
            __p::ranged_u16::bits(0, 9999),
            __p::ranged_u16::bits(0, 9999),
            __p::keyed::map::min_bits(UNITS_MAX),
        ]);
        const SCHEMA: u64 = __p::schema::sequence(&[
            <u32 as __p::BitPack>::SCHEMA,
            __p::schema::quantized(0.0, 1.0, 0.01),
            __p::ranged_u16::schema(0, 359),
            __p::ranged_u16::schema(0, 9999),
            __p::ranged_u16::schema(0, 9999),
            __p::keyed::map::schema::<u32, Unit>(UNITS_MAX),
        ]);

        #[inline]
        fn write_to<__W: __p::BitWrite>(&self, __writer: &mut __W) -> __p::Result<(), __p::Error> {
            __write_to(self, __writer, __p::None)
        }

        #[inline]
        fn read_from<__R: __p::BitRead>(__reader: &mut __R) -> __p::Result<Self, __p::Error> {
            __p::Ok(HandWorld {
                tick: <u32 as __p::BitPack>::read_from(__reader)?,
                rain: __reader.read_compressed_float(0.0, 1.0, 0.01)?,
                wind: __p::ranged_u16::read(__reader, 0, 359)?,
                red: __p::ranged_u16::read(__reader, 0, 9999)?,
                blue: __p::ranged_u16::read(__reader, 0, 9999)?,
                units: __p::keyed::map::read(__reader, UNITS_MAX)?,
            })
        }
    }

    #[automatically_derived]
    impl __p::ChangeGroups for HandWorld {
        type Tracker = __p::GroupTracker<4, ()>;
        #[allow(clippy::type_complexity)]
        type Changes = (
            __p::Option<(u32,)>,
            __p::Option<(f32, u16)>,
            __p::Option<(u16, u16)>,
            __p::Option<(BTreeMap<u32, Unit>,)>,
        );

        #[inline]
        fn write_changes<__W: __p::BitWrite>(
            &self,
            __writer: &mut __W,
            __confirmed: &<Self as __p::ChangeGroups>::Tracker,
            __latest: &mut <Self as __p::ChangeGroups>::Tracker,
        ) -> __p::Result<(), __p::Error> {
            if __p::tracked_group(
                __writer,
                &__confirmed.records[0],
                &mut __latest.records[0],
                |__writer: &mut __p::BitFingerprint| <u32 as __p::BitPack>::write_to(&self.tick, __writer),
            )? {
                <u32 as __p::BitPack>::write_to(&self.tick, __writer)?;
            }
            if __p::tracked_group(
                __writer,
                &__confirmed.records[1],
                &mut __latest.records[1],
                |__writer: &mut __p::BitFingerprint| {
                    __p::BitWrite::write_compressed_float(__writer, self.rain, 0.0, 1.0, 0.01)?;
                    __p::ranged_u16::write(__writer, self.wind, 0, 359)
                },
            )? {
                __p::BitWrite::write_compressed_float(__writer, self.rain, 0.0, 1.0, 0.01)?;
                __p::ranged_u16::write(__writer, self.wind, 0, 359)?;
            }
            if __p::tracked_group(
                __writer,
                &__confirmed.records[2],
                &mut __latest.records[2],
                |__writer: &mut __p::BitFingerprint| {
                    __p::ranged_u16::write(__writer, self.red, 0, 9999)?;
                    __p::ranged_u16::write(__writer, self.blue, 0, 9999)
                },
            )? {
                __p::ranged_u16::write(__writer, self.red, 0, 9999)?;
                __p::ranged_u16::write(__writer, self.blue, 0, 9999)?;
            }
            // Tracked, a keyed collection is one group sent whole.
            if __p::tracked_group(
                __writer,
                &__confirmed.records[3],
                &mut __latest.records[3],
                |__writer: &mut __p::BitFingerprint| {
                    __p::keyed::map::write(__writer, &self.units, UNITS_MAX, __p::None)
                },
            )? {
                __p::keyed::map::write(__writer, &self.units, UNITS_MAX, __p::None)?;
            }
            __p::Ok(())
        }

        #[inline]
        fn decode_changes<__R: __p::BitRead>(
            __reader: &mut __R,
        ) -> __p::Result<<Self as __p::ChangeGroups>::Changes, __p::Error> {
            let __item0 = if __p::BitRead::read_bool(__reader)? {
                __p::Some((<u32 as __p::BitPack>::read_from(__reader)?,))
            } else {
                __p::None
            };
            let __item1 = if __p::BitRead::read_bool(__reader)? {
                __p::Some((
                    __reader.read_compressed_float(0.0, 1.0, 0.01)?,
                    __p::ranged_u16::read(__reader, 0, 359)?,
                ))
            } else {
                __p::None
            };
            let __item2 = if __p::BitRead::read_bool(__reader)? {
                __p::Some((
                    __p::ranged_u16::read(__reader, 0, 9999)?,
                    __p::ranged_u16::read(__reader, 0, 9999)?,
                ))
            } else {
                __p::None
            };
            let __item3 = if __p::BitRead::read_bool(__reader)? {
                __p::Some((__p::keyed::map::read(__reader, UNITS_MAX)?,))
            } else {
                __p::None
            };
            __p::Ok((__item0, __item1, __item2, __item3))
        }

        #[inline]
        fn apply_changes(&mut self, __changes: <Self as __p::ChangeGroups>::Changes) {
            let (__item0, __item1, __item2, __item3) = __changes;
            if let __p::Some((__value0,)) = __item0 {
                self.tick = __value0;
            }
            if let __p::Some((__value0, __value1)) = __item1 {
                self.rain = __value0;
                self.wind = __value1;
            }
            if let __p::Some((__value0, __value1)) = __item2 {
                self.red = __value0;
                self.blue = __value1;
            }
            if let __p::Some((__value0,)) = __item3 {
                self.units = __value0;
            }
        }

        #[inline]
        fn write_delta<__W: __p::BitWrite>(
            &self,
            __baseline: &Self,
            __writer: &mut __W,
        ) -> __p::Result<(), __p::Error> {
            __write_delta(self, __baseline, __writer, __p::None)
        }

        #[inline]
        fn read_delta<__R: __p::BitRead>(
            __baseline: &Self,
            __reader: &mut __R,
        ) -> __p::Result<Self, __p::Error> {
            let (__field0,) = if __p::BitRead::read_bool(__reader)? {
                (<u32 as __p::BitPack>::read_from(__reader)?,)
            } else {
                (__baseline.tick,)
            };
            let (__field1, __field2) = if __p::BitRead::read_bool(__reader)? {
                (__reader.read_compressed_float(0.0, 1.0, 0.01)?, __p::ranged_u16::read(__reader, 0, 359)?)
            } else {
                (__baseline.rain, __baseline.wind)
            };
            let (__field3, __field4) = if __p::BitRead::read_bool(__reader)? {
                (
                    __p::relative_u16::read(__reader, __baseline.red, 0, 9999)?,
                    __p::relative_u16::read(__reader, __baseline.blue, 0, 9999)?,
                )
            } else {
                (__baseline.red, __baseline.blue)
            };
            let __field5 = __p::keyed::map::read_delta(__reader, &__baseline.units, UNITS_MAX, Unit::spawn)?;
            __p::Ok(HandWorld {
                tick: __field0,
                rain: __field1,
                wind: __field2,
                red: __field3,
                blue: __field4,
                units: __field5,
            })
        }

        #[inline]
        fn write_to_within<__W: __p::BitWrite>(
            &self,
            __writer: &mut __W,
            __budget: &mut __p::keyed::Budget,
        ) -> __p::Result<(), __p::Error> {
            __write_to(self, __writer, __p::Some(__budget))
        }

        #[inline]
        fn write_delta_within<__W: __p::BitWrite>(
            &self,
            __baseline: &Self,
            __writer: &mut __W,
            __budget: &mut __p::keyed::Budget,
        ) -> __p::Result<(), __p::Error> {
            __write_delta(self, __baseline, __writer, __p::Some(__budget))
        }

        #[inline]
        fn sent_state(
            &self,
            __state: &mut Self,
            __baseline: __p::Option<&Self>,
            __budget: &mut __p::keyed::Budget,
        ) -> __p::Result<(), __p::Error> {
            // Fields outside keyed collections are always sent: the copy's.
            __p::keyed::map::sent_state(
                &self.units,
                &mut __state.units,
                __p::Option::map(__baseline, |__baseline| &__baseline.units),
                __budget,
            )
        }
    }
};
