//! Who is asking about a game: the holder of a seat's secret, or a
//! spectator (anyone else). What a viewer is shown depends on it.

use menagerie_core::Player;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Viewer {
    Seat(Player),
    Spectator,
}
