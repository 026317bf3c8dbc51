//! `menagerie._menagerie`: Menagerie's games for Python, a thin layer over
//! the core's object-safe game ([`DynEncoded`]: the server's `DynGame` with
//! its moves numbered). Moves cross as the indices of each game's fixed
//! action space ([`menagerie_core::Encode`], documented on its rules page)
//! or as move texts; every wrong value is a `ValueError` carrying
//! Menagerie's own message. The OpenSpiel and PettingZoo adapters are
//! Python, in the `menagerie` package beside this module.
//!
//! [`DynEncoded`]: menagerie_core::DynEncoded

mod args;
mod arrays;
mod game;
mod interrupt;
mod search;
mod state;
mod vector;

use pyo3::prelude::*;

/// Menagerie's variant ids, in registry order.
#[pyfunction]
fn variants() -> Vec<&'static str> {
    menagerie_games::variants().iter().map(|info| info.id).collect()
}

#[pymodule]
fn _menagerie(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(variants, m)?)?;
    m.add_function(wrap_pyfunction!(search::search, m)?)?;
    m.add_function(wrap_pyfunction!(search::perft, m)?)?;
    m.add_function(wrap_pyfunction!(search::random_playouts, m)?)?;
    m.add_function(wrap_pyfunction!(game::_restore_game, m)?)?;
    m.add_function(wrap_pyfunction!(state::_restore_state, m)?)?;
    m.add_class::<game::PyGame>()?;
    m.add_class::<state::State>()?;
    m.add_class::<vector::VectorEnv>()?;
    m.add("CHANCE_PLAYER", args::CHANCE_PLAYER)?;
    m.add("TERMINAL_PLAYER", args::TERMINAL_PLAYER)?;
    Ok(())
}
