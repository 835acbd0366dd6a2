//! Compile-time error messages with numbers in them: `const fn` cannot use
//! `format!`, so a message is built into a fixed buffer.

/// Bytes a message can hold; longer text is cut.
const CAPACITY: usize = 256;

/// A message built at compile time, shown with `panic!("{}", m.as_str())`.
#[derive(Clone, Copy, Debug)]
pub struct Message {
    bytes: [u8; CAPACITY],
    len: usize,
}

impl Message {
    /// An empty message.
    pub const fn new() -> Self {
        Message { bytes: [0; CAPACITY], len: 0 }
    }

    /// Appends `text` (cut at the capacity, on a character boundary).
    pub const fn text(mut self, text: &str) -> Self {
        let bytes = text.as_bytes();
        let mut index = 0;
        while index < bytes.len() && self.len < CAPACITY {
            self.bytes[self.len] = bytes[index];
            self.len += 1;
            index += 1;
        }
        // A cut inside a character drops its copied bytes, so the text stays UTF-8.
        if index < bytes.len() && (bytes[index] & 0xC0) == 0x80 {
            let mut lead = index;
            while lead > 0 && (bytes[lead] & 0xC0) == 0x80 {
                lead -= 1;
            }
            self.len -= index - lead;
        }
        self
    }

    /// Appends `value` in decimal.
    pub const fn unsigned(mut self, mut value: u128) -> Self {
        let mut digits = [0u8; 39];
        let mut count = 0;
        loop {
            digits[count] = b'0' + (value % 10) as u8;
            count += 1;
            value /= 10;
            if value == 0 {
                break;
            }
        }
        while count > 0 && self.len < CAPACITY {
            count -= 1;
            self.bytes[self.len] = digits[count];
            self.len += 1;
        }
        self
    }

    /// Appends `value` in decimal, with a sign when negative.
    pub const fn signed(self, value: i128) -> Self {
        if value < 0 { self.text("-").unsigned(value.unsigned_abs()) } else { self.unsigned(value as u128) }
    }

    /// The text so far.
    pub const fn as_str(&self) -> &str {
        let (text, _) = self.bytes.split_at(self.len);
        match core::str::from_utf8(text) {
            Ok(text) => text,
            Err(_) => "",
        }
    }
}

impl Default for Message {
    fn default() -> Self {
        Message::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_text_join() {
        let message = Message::new().text("min (").signed(-200).text(") over ").unsigned(u128::MAX);
        assert_eq!(message.as_str(), "min (-200) over 340282366920938463463374607431768211455");
        assert_eq!(Message::new().unsigned(0).as_str(), "0");
        assert_eq!(Message::new().signed(i128::MIN).as_str(), "-170141183460469231731687303715884105728");
    }

    #[test]
    fn long_text_is_cut_not_broken() {
        let long = "é".repeat(200);
        let message = Message::new().text("x").text(&long);
        assert_eq!(message.as_str().len(), CAPACITY - 1);
        assert!(message.as_str().ends_with('é'));
    }
}
