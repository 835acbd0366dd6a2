//! A sink detached for one write that fails whole (`Reserve::detached`): a
//! derived `write_delta_cached` writes its groups through it. Through
//! `&mut BitWriter` the writer's state lives in memory, and every cold
//! path's mark (a call that may read any memory reachable from the
//! writer) makes the compiler store it between the writes, and keep a
//! saved state on the stack for `write_atomic`'s rewind. A writer's
//! detached form is a copy of it by value over the same buffer (its state
//! in a local no call can reach, room checks its own), whose state goes
//! back only when the write succeeded: refused, the writer is as it was,
//! with no saved state to put back. Any other sink's is itself, rewound
//! on `Err` ([`Through`]).

use super::writer::{BitWriter, WriterCheckpoint};
use super::{BitSink, Reserve};
use crate::error::Error;

/// [`Reserve`]'s types and methods of a sink that passes them to its
/// `sink` field, of type `$inner`.
macro_rules! forward_reserve {
    ($inner:ty) => {
        forward_types!($inner: Reserved, Local, Detached);
        forward_window!($inner);
        forward_hold!($inner);

        #[inline(always)]
        fn reserve_all(&mut self, bits: usize) -> Option<Self::Reserved<'_>> {
            self.sink.reserve_all(bits)
        }

        #[inline(always)]
        fn local(&mut self) -> Self::Local<'_> {
            self.sink.local()
        }

        #[inline(always)]
        fn detached(&mut self) -> Self::Detached<'_> {
            self.sink.detached()
        }

        #[inline(always)]
        fn close_detached<'t>(detached: Self::Detached<'t>, kept: bool)
        where
            Self: 't,
        {
            <$inner as Reserve>::close_detached(detached, kept);
        }
    };
}

/// A writer detached (see the module): a copy of it over the same buffer,
/// and where its state goes back.
#[derive(Debug)]
pub struct DetachedWriter<'s> {
    sink: BitWriter<'s>,
    origin: &'s mut WriterCheckpoint,
}

impl<'a> BitWriter<'a> {
    /// This writer detached (see the module).
    #[inline(always)]
    pub(crate) fn detach_copy(&mut self) -> DetachedWriter<'_> {
        let capacity_bits = self.capacity_bits();
        let (buf, origin) = self.words_and_state();
        DetachedWriter { sink: BitWriter::over(buf, *origin, capacity_bits), origin }
    }
}

impl DetachedWriter<'_> {
    /// The copy's state back in the writer when `kept`; else nothing.
    #[inline(always)]
    pub(crate) fn close(self, kept: bool) {
        if kept {
            *self.origin = self.sink.checkpoint();
        }
    }
}

impl<'s> BitSink for DetachedWriter<'s> {
    type Checkpoint = WriterCheckpoint;

    forward_pushes!(BitWriter<'s>);

    #[inline(always)]
    fn reserve(&self, bits: usize) -> Result<(), Error> {
        self.sink.reserve(bits)
    }
}

impl<'s> Reserve for DetachedWriter<'s> {
    forward_reserve!(BitWriter<'s>);
}

/// Any other sink detached: itself, and where it started, put back when
/// closed without keeping its writes (`write_atomic`'s rewind).
#[derive(Debug)]
pub struct Through<'s, S: BitSink> {
    sink: &'s mut S,
    start: S::Checkpoint,
}

impl<'s, S: BitSink> Through<'s, S> {
    #[inline(always)]
    pub(crate) fn new(sink: &'s mut S) -> Self {
        let start = sink.checkpoint();
        Through { sink, start }
    }

    /// The writes kept, or the sink rewound.
    #[inline(always)]
    pub(crate) fn close(self, kept: bool) {
        if !kept {
            crate::write::cold_path();
            self.sink.rewind(self.start);
        }
    }
}

impl<S: BitSink> BitSink for Through<'_, S> {
    type Checkpoint = S::Checkpoint;

    forward_pushes!(S);

    #[inline(always)]
    fn reserve(&self, bits: usize) -> Result<(), Error> {
        self.sink.reserve(bits)
    }
}

impl<S: BitSink + Reserve> Reserve for Through<'_, S> {
    forward_reserve!(S);
}

#[cfg(test)]
mod tests {
    use crate::error::{Error, ErrorKind};
    use crate::private::{write_atomic, write_detached};
    use crate::sink::counter::BitCounter;
    use crate::sink::writer::BitWriter;
    use crate::{BitPack, BitWrite};

    /// A body of every kind of write a derived delta makes: bits, a flag,
    /// a ranged value (refused when `refuse`), 64 bits, a nested value
    /// (its reservation, and its own `write_atomic`) and a checked run.
    fn body<W: BitWrite>(writer: &mut W, refuse: bool) -> Result<usize, Error> {
        writer.write_bits(0x2D, 6)?;
        writer.write_bool(true)?;
        writer.write_int(if refuse { 9 } else { 5 }, 0, 7)?;
        writer.write_bits64(0x9E37_79B9_7F4A_7C15, 64)?;
        (3u16, true, -2i8).write_to(writer)?;
        for value in 0..5u32 {
            writer.write_bits(value, 3)?;
        }
        Ok(writer.bits_written())
    }

    /// Through a writer after 0 to 63 bits, into every room from none to
    /// past the body, refused or not: `write_detached` gives the result
    /// (error kind and bit, or the position) `write_atomic` gives, and
    /// leaves the writer as it does (its position, and after a marker the
    /// bytes `finish` gives); a counter the same.
    #[test]
    fn detached_writes_fail_and_land_as_atomic_ones() {
        let full = body(&mut BitCounter::new(), false).unwrap();
        for lead in 0..64u32 {
            for room in 0..=(lead as usize + full).div_ceil(8) + 2 {
                for refuse in [false, true] {
                    let run = |detached: bool| {
                        let mut buf = [0xA5u8; 40];
                        let mut writer = BitWriter::new(&mut buf[..room]);
                        let lead_written =
                            writer.write_bits64(0x5555_5555_5555_5555 >> (64 - lead.max(1)), lead.max(1));
                        let lead_bits = if lead_written.is_ok() { lead.max(1) as usize } else { 0 };
                        let result = if detached {
                            write_detached(&mut writer, |writer| body(writer, refuse))
                        } else {
                            write_atomic(&mut writer, |writer| body(writer, refuse))
                        };
                        let result = result.map_err(|error| (error.kind(), error.bit()));
                        let position = writer.bits_written();
                        let marker = writer.write_bits(0b11, 2).is_ok();
                        let used = writer.finish();
                        (result, position, lead_bits, marker, used, buf)
                    };
                    let (detached, atomic) = (run(true), run(false));
                    assert_eq!(detached, atomic, "lead {lead}, room {room}, refuse {refuse}");
                    if detached.0.is_err() {
                        assert_eq!(detached.1, detached.2, "nothing written on Err");
                    }
                    if refuse && room == 40 {
                        assert_eq!(detached.0.unwrap_err().0, ErrorKind::OutOfRange);
                    }
                }
            }
        }
        for refuse in [false, true] {
            let (mut detached, mut atomic) = (BitCounter::new(), BitCounter::new());
            detached.write_bits(1, 3).unwrap();
            atomic.write_bits(1, 3).unwrap();
            let a = write_detached(&mut detached, |writer| body(writer, refuse));
            let b = write_atomic(&mut atomic, |writer| body(writer, refuse));
            assert_eq!(a, b);
            assert_eq!(detached.bits_written(), atomic.bits_written());
        }
    }
}
