//! Little-endian reading of the binary files Castella writes: its network
//! files here, its game files and trainer checkpoints in the training
//! tools. One reader, so the
//! two formats cannot disagree on how a value is laid out or what a short
//! file says.

/// Reads little-endian values off the front of a byte slice; running short
/// is an error with the text it was made with.
pub struct Reader<'a> {
    rest: &'a [u8],
    short: &'static str,
}

impl<'a> Reader<'a> {
    /// A reader of `bytes` whose reads fail with `short` once too few bytes
    /// are left (say what ran out: "the network file is truncated").
    pub fn new(bytes: &'a [u8], short: &'static str) -> Reader<'a> {
        Reader { rest: bytes, short }
    }

    /// The next `N` bytes.
    #[inline]
    pub fn take<const N: usize>(&mut self) -> Result<[u8; N], String> {
        match self.rest.split_first_chunk::<N>() {
            Some((head, rest)) => {
                self.rest = rest;
                Ok(*head)
            }
            None => Err(self.short.into()),
        }
    }

    pub fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take::<1>()?[0])
    }

    pub fn u16(&mut self) -> Result<u16, String> {
        Ok(u16::from_le_bytes(self.take()?))
    }

    pub fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take()?))
    }

    pub fn i32(&mut self) -> Result<i32, String> {
        Ok(i32::from_le_bytes(self.take()?))
    }

    pub fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.take()?))
    }

    pub fn f32(&mut self) -> Result<f32, String> {
        Ok(f32::from_le_bytes(self.take()?))
    }

    pub fn f64(&mut self) -> Result<f64, String> {
        Ok(f64::from_le_bytes(self.take()?))
    }

    /// Fills `out` with the next `out.len()` values.
    pub fn i16s(&mut self, out: &mut [i16]) -> Result<(), String> {
        for v in out {
            *v = i16::from_le_bytes(self.take()?);
        }
        Ok(())
    }

    /// Whether every byte has been read.
    pub fn is_empty(&self) -> bool {
        self.rest.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_little_endian_and_says_when_short() {
        let mut r = Reader::new(&[1, 2, 0, 3, 0, 0, 0, 0xff, 0xff, 9], "short");
        assert_eq!(r.u8(), Ok(1));
        assert_eq!(r.u16(), Ok(2));
        assert_eq!(r.u32(), Ok(3));
        let mut v = [0i16; 1];
        assert_eq!(r.i16s(&mut v), Ok(()));
        assert_eq!(v, [-1]);
        assert!(!r.is_empty());
        assert_eq!(r.u16(), Err("short".to_string()));
        assert_eq!(r.u8(), Ok(9));
        assert!(r.is_empty());
        assert_eq!(r.i32(), Err("short".to_string()));
    }
}
