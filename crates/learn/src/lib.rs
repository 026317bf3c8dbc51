//! Teaching the Menagerie games, as pure logic and data (no I/O, no HTTP):
//!
//! - [`chances`]: scores as win chances through each game's fitted scale,
//!   so that one threshold serves every game;
//! - [`review`]: a computer review of a finished game (lichess's judgments
//!   and accuracy);
//! - [`puzzle`]: puzzles mined from played and self-played games (as
//!   lichess-puzzler mines them);
//! - [`diagram`]: the rules pages' diagrams, position texts drawn as SVG by
//!   the board's own drawing rules, and whole pages rendered to HTML;
//! - [`lesson`]: lessons as data, checked by the rules.
//!
//! The server calls these; the CLI's `menagerie puzzles` mines with them.

pub mod chances;
pub mod diagram;
pub mod lesson;
pub mod puzzle;
pub mod review;
