//! The seven kinds of piece, their letters and merge costs, and the two
//! colours (Blue is `Player::First`, Red `Player::Second`).

use menagerie_core::Player;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Blank = 0,
    Warrior = 1,
    Runner = 2,
    Diplomat = 3,
    Champion = 4,
    General = 5,
    Stone = 6,
}

impl Kind {
    pub const ALL: [Kind; 7] =
        [Kind::Blank, Kind::Warrior, Kind::Runner, Kind::Diplomat, Kind::Champion, Kind::General, Kind::Stone];

    /// The kinds a merge can make, cheapest first.
    pub const MERGEABLE: [Kind; 6] =
        [Kind::Warrior, Kind::Runner, Kind::Diplomat, Kind::Champion, Kind::General, Kind::Stone];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn from_index(index: usize) -> Option<Kind> {
        match index {
            0 => Some(Kind::Blank),
            1 => Some(Kind::Warrior),
            2 => Some(Kind::Runner),
            3 => Some(Kind::Diplomat),
            4 => Some(Kind::Champion),
            5 => Some(Kind::General),
            6 => Some(Kind::Stone),
            _ => None,
        }
    }

    /// The upper-case letter (Blue's; Red writes it in lower case on the board).
    pub const fn letter(self) -> char {
        match self {
            Kind::Blank => 'B',
            Kind::Warrior => 'W',
            Kind::Runner => 'R',
            Kind::Diplomat => 'D',
            Kind::Champion => 'C',
            Kind::General => 'G',
            Kind::Stone => 'S',
        }
    }

    pub fn from_letter(letter: char) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.letter() == letter.to_ascii_uppercase())
    }

    pub const fn name(self) -> &'static str {
        match self {
            Kind::Blank => "blank",
            Kind::Warrior => "warrior",
            Kind::Runner => "runner",
            Kind::Diplomat => "diplomat",
            Kind::Champion => "champion",
            Kind::General => "general",
            Kind::Stone => "stone",
        }
    }

    /// How many Blanks a merge into this kind uses (`None`: not mergeable).
    pub const fn merge_cost(self) -> Option<u32> {
        match self {
            Kind::Warrior => Some(2),
            Kind::Runner | Kind::Diplomat => Some(4),
            Kind::Champion => Some(5),
            Kind::General => Some(10),
            Kind::Stone => Some(21),
            Kind::Blank => None,
        }
    }
}

/// "blue" or "red".
pub const fn colour_name(player: Player) -> &'static str {
    match player {
        Player::First => "blue",
        Player::Second => "red",
    }
}
