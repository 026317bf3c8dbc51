//! The file of self-play training data that `menagerie datagen` writes and a
//! training command reads (docs/datagen.md is the exact format): a header
//! saying how the games were made, then the games in order, each with its
//! positions, the search's score of each from the side to act, and the
//! result from that side.
//!
//! It lives here, beside [`Score`], because it depends on nothing but the
//! search's scores: the command line writes it, and a trainer or a test
//! reads it without the command line.
//!
//! Reading never panics: a short, corrupt or foreign file is a
//! [`DataError`]. A file ends either cleanly after a game or in the middle
//! of one (a run stopped while writing), which [`DataError::Truncated`]
//! tells apart, so that a resumed run can drop the half-written game.

use crate::info::Score;
use std::io::{self, Read, Write};
use thiserror::Error;

/// The first bytes of every data file.
pub const MAGIC: [u8; 8] = *b"MNGRDATA";

/// The format this code writes and reads.
pub const VERSION: u16 = 1;

/// The score written for a won (or, negated, a lost) position: the search
/// proved the result, so its distance in plies is dropped and the value is
/// the cap, with [`flags::DECIDED`] set.
pub const DECIDED_SCORE: i16 = 32_000;

/// Centi-unit scores are clamped to ±this, below [`DECIDED_SCORE`], so that
/// a proved result is never confused with a large evaluation.
pub const MAX_CP: i16 = 30_000;

/// The bits of [`Record::flags`].
pub mod flags {
    /// The search proved a win or a loss: the score is ±[`super::DECIDED_SCORE`].
    pub const DECIDED: u8 = 1;
    /// The side to act stood in check.
    pub const IN_CHECK: u8 = 2;
    /// The move the search chose is tactical (a capture, promotion,
    /// conversion: the game's `is_tactical`), so the position is not quiet.
    pub const TACTICAL: u8 = 4;
    /// Every bit this version defines.
    pub const ALL: u8 = DECIDED | IN_CHECK | TACTICAL;
}

/// How a file's games were made: a resumed run must match it field for
/// field, or its games would not be those the header describes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The variant string, normalised (`lunch:princess`).
    pub variant: String,
    /// The program that played: version, git commit, data hash.
    pub build: String,
    /// The run's seed; game `i`'s seeds follow from it and `i`.
    pub seed: u64,
    /// Alpha-beta nodes per move.
    pub nodes: u64,
    /// Uniformly random moves after the deal, not recorded.
    pub opening_plies: u32,
    /// A game still going after this many moves is adjudicated a draw.
    pub max_plies: u32,
    /// The index of the file's first game.
    pub first_game: u64,
    /// How many games the file is to hold (the last is
    /// `first_game + games - 1`); fewer while the run is going.
    pub games: u64,
}

/// One recorded position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Moves of the game model played before it, from the start (chance's,
    /// the deal's and the opening's included).
    pub ply: u16,
    /// The search's score from the side to act, in centi-units, clamped to
    /// ±[`MAX_CP`]; ±[`DECIDED_SCORE`] with [`flags::DECIDED`].
    pub score: i16,
    /// The game's result from the side to act: 1 won, 0 drawn, -1 lost.
    pub result: i8,
    /// [`flags`].
    pub flags: u8,
    /// The full position text (hidden state included), which the game's
    /// `from_text` reads back.
    pub position: String,
}

/// One game and its positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameData {
    /// Its index in the run (its seeds follow from it).
    pub index: u64,
    /// Moves the game lasted, from the start, chance's included.
    pub plies: u32,
    /// The first player's result: 1, 0 or -1.
    pub first_result: i8,
    /// Drawn by the move cap rather than by the rules.
    pub adjudicated: bool,
    pub records: Vec<Record>,
}

#[derive(Debug, Error)]
pub enum DataError {
    #[error("not a menagerie data file (it does not start with {:?})", std::str::from_utf8(&MAGIC).unwrap_or(""))]
    NotData,
    #[error("data format version {0}; this program reads version {VERSION}")]
    Version(u16),
    #[error("the file ends in the middle of {0}")]
    Truncated(&'static str),
    #[error("{0}")]
    Invalid(String),
    #[error("{0}")]
    Io(#[from] io::Error),
}

/// A search's score as the file keeps it: the value and whether it is a
/// proved result.
pub fn stored_score(score: Score) -> (i16, bool) {
    match score {
        Score::Cp(cp) => (cp.clamp(-i32::from(MAX_CP), i32::from(MAX_CP)) as i16, false),
        Score::Win(_) => (DECIDED_SCORE, true),
        Score::Loss(_) => (-DECIDED_SCORE, true),
    }
}

impl Header {
    pub fn write(&self, out: &mut impl Write) -> io::Result<()> {
        let mut bytes = Vec::new();
        bytes.extend_from_slice(&MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        put_text(&mut bytes, &self.variant)?;
        put_text(&mut bytes, &self.build)?;
        bytes.extend_from_slice(&self.seed.to_le_bytes());
        bytes.extend_from_slice(&self.nodes.to_le_bytes());
        bytes.extend_from_slice(&self.opening_plies.to_le_bytes());
        bytes.extend_from_slice(&self.max_plies.to_le_bytes());
        bytes.extend_from_slice(&self.first_game.to_le_bytes());
        bytes.extend_from_slice(&self.games.to_le_bytes());
        out.write_all(&bytes)
    }

    pub fn read(input: &mut impl Read) -> Result<Header, DataError> {
        let mut magic = [0; 8];
        // A file shorter than the magic is not one of ours either.
        if read_full(input, &mut magic)? < MAGIC.len() || magic != MAGIC {
            return Err(DataError::NotData);
        }
        let what = "the header";
        let version = u16::from_le_bytes(take(input, what)?);
        if version != VERSION {
            return Err(DataError::Version(version));
        }
        Ok(Header {
            variant: take_text(input, what)?,
            build: take_text(input, what)?,
            seed: u64::from_le_bytes(take(input, what)?),
            nodes: u64::from_le_bytes(take(input, what)?),
            opening_plies: u32::from_le_bytes(take(input, what)?),
            max_plies: u32::from_le_bytes(take(input, what)?),
            first_game: u64::from_le_bytes(take(input, what)?),
            games: u64::from_le_bytes(take(input, what)?),
        })
    }
}

impl GameData {
    /// The game's bytes, written at once so that a run stopped part-way
    /// leaves at most one game's prefix.
    pub fn encode(&self) -> io::Result<Vec<u8>> {
        let mut bytes = Vec::new();
        bytes.extend_from_slice(&self.index.to_le_bytes());
        bytes.extend_from_slice(&self.plies.to_le_bytes());
        bytes.push(self.first_result as u8);
        bytes.push(u8::from(self.adjudicated));
        let count =
            u32::try_from(self.records.len()).map_err(|_| invalid_input("more than 2^32 positions in a game"))?;
        bytes.extend_from_slice(&count.to_le_bytes());
        for record in &self.records {
            bytes.extend_from_slice(&record.ply.to_le_bytes());
            bytes.extend_from_slice(&record.score.to_le_bytes());
            bytes.push(record.result as u8);
            bytes.push(record.flags);
            put_text(&mut bytes, &record.position)?;
        }
        Ok(bytes)
    }

    /// The next game, or `None` at the end of the file (after a whole game).
    pub fn read(input: &mut impl Read) -> Result<Option<GameData>, DataError> {
        let mut index = [0; 8];
        match read_full(input, &mut index)? {
            0 => return Ok(None),
            8 => {}
            _ => return Err(DataError::Truncated("a game")),
        }
        let what = "a game";
        let index = u64::from_le_bytes(index);
        let plies = u32::from_le_bytes(take(input, what)?);
        let [first_result, adjudicated] = take(input, what)?;
        let first_result = result(first_result, index)?;
        let adjudicated = match adjudicated {
            0 => false,
            1 => true,
            other => return Err(DataError::Invalid(format!("game {index}: adjudicated is {other}, not 0 or 1"))),
        };
        let count = u32::from_le_bytes(take(input, what)?);
        // The count is not trusted for an allocation: a corrupt one would
        // ask for gigabytes before the truncation is found.
        let mut records = Vec::with_capacity((count as usize).min(4096));
        for _ in 0..count {
            let ply = u16::from_le_bytes(take(input, what)?);
            let score = i16::from_le_bytes(take(input, what)?);
            let [outcome, flags] = take(input, what)?;
            let outcome = result(outcome, index)?;
            if flags & !flags::ALL != 0 {
                return Err(DataError::Invalid(format!("game {index}, ply {ply}: unknown flags {flags:#04x}")));
            }
            let decided = flags & flags::DECIDED != 0;
            if (decided && score.unsigned_abs() != DECIDED_SCORE as u16)
                || (!decided && score.unsigned_abs() > MAX_CP as u16)
            {
                return Err(DataError::Invalid(format!("game {index}, ply {ply}: score {score} out of range")));
            }
            let position = take_text(input, what)?;
            records.push(Record { ply, score, result: outcome, flags, position });
        }
        Ok(Some(GameData { index, plies, first_result, adjudicated, records }))
    }
}

/// Reads a data file: its header, then its games one by one.
pub struct DataReader<R> {
    input: Counting<R>,
    header: Header,
    /// Bytes up to the end of the last whole game read (or the header).
    complete: u64,
}

impl<R: Read> DataReader<R> {
    pub fn new(input: R) -> Result<DataReader<R>, DataError> {
        let mut input = Counting { inner: input, bytes: 0 };
        let header = Header::read(&mut input)?;
        let complete = input.bytes;
        Ok(DataReader { input, header, complete })
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The next game; `None` after the last.
    pub fn next_game(&mut self) -> Result<Option<GameData>, DataError> {
        let game = GameData::read(&mut self.input)?;
        if game.is_some() {
            self.complete = self.input.bytes;
        }
        Ok(game)
    }

    /// The file's length up to the end of the last whole game read: where
    /// a resumed run cuts off a half-written game.
    pub fn complete_bytes(&self) -> u64 {
        self.complete
    }
}

impl<R: Read> Iterator for DataReader<R> {
    type Item = Result<GameData, DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_game().transpose()
    }
}

/// A reader that counts the bytes it gave.
struct Counting<R> {
    inner: R,
    bytes: u64,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }
}

fn invalid_input(message: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message)
}

/// A text as a little-endian u16 length and its UTF-8 bytes.
fn put_text(bytes: &mut Vec<u8>, text: &str) -> io::Result<()> {
    let length = u16::try_from(text.len()).map_err(|_| invalid_input("a text longer than 65535 bytes"))?;
    bytes.extend_from_slice(&length.to_le_bytes());
    bytes.extend_from_slice(text.as_bytes());
    Ok(())
}

fn take_text(input: &mut impl Read, what: &'static str) -> Result<String, DataError> {
    let length = u16::from_le_bytes(take(input, what)?);
    let mut bytes = vec![0; usize::from(length)];
    if read_full(input, &mut bytes)? < bytes.len() {
        return Err(DataError::Truncated(what));
    }
    String::from_utf8(bytes).map_err(|_| DataError::Invalid(format!("{what} holds a text that is not UTF-8")))
}

fn result(byte: u8, game: u64) -> Result<i8, DataError> {
    match byte as i8 {
        value @ -1..=1 => Ok(value),
        value => Err(DataError::Invalid(format!("game {game}: result {value}, not 1, 0 or -1"))),
    }
}

/// Exactly `N` bytes, or [`DataError::Truncated`].
fn take<const N: usize>(input: &mut impl Read, what: &'static str) -> Result<[u8; N], DataError> {
    let mut bytes = [0; N];
    if read_full(input, &mut bytes)? < N {
        return Err(DataError::Truncated(what));
    }
    Ok(bytes)
}

/// Fills `buf` as far as the input goes; the count read (short only at the end).
fn read_full(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match input.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}
