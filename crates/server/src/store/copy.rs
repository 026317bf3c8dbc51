//! Copying every game from one store to another (`menagerie migrate`, from
//! a SQLite file to PostgreSQL), each game read back from the destination
//! and compared with its source.

use super::backend::{Store, StoreError};
use super::records::{GameMeta, Seen};

/// What a copy did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CopyReport {
    /// Games written (whole, or finished after an interrupted copy).
    pub copied: usize,
    /// Games the destination already held exactly.
    pub already_there: usize,
    /// Moves written.
    pub moves: usize,
}

/// Copies every game of `from` into `to`, oldest first, and checks each:
/// read back from `to`, it must equal what `from` holds. Running it again
/// copies nothing twice: a game already there is checked and kept, and one
/// an interrupted copy left with fewer moves is finished. A game that
/// differs otherwise stops the copy with an error naming it.
pub fn copy_games(from: &dyn Store, to: &dyn Store) -> Result<CopyReport, StoreError> {
    let mut report = CopyReport::default();
    for id in from.game_ids()? {
        let source = from.load(&id)?.ok_or_else(|| StoreError::NoSuchGame(id.clone()))?;
        let differs = |problem: &str| StoreError::Corrupt {
            game: id.clone(),
            problem: format!("the destination already holds this game, {problem}"),
        };
        let (held, held_meta) = match to.load(&id)? {
            Some(existing) if existing.same_game(&source) => {
                report.already_there += 1;
                continue;
            }
            Some(existing) => {
                if existing.record != source.record {
                    return Err(differs("made differently"));
                }
                if existing.moves.len() > source.moves.len()
                    || existing.moves[..] != source.moves[..existing.moves.len()]
                {
                    return Err(differs("with other moves"));
                }
                (existing.moves.len(), existing.meta)
            }
            None => {
                to.create(&source.record)?;
                (0, GameMeta::default())
            }
        };
        to.append_moves(&id, held, &source.moves[held..])?;
        report.moves += source.moves.len() - held;
        to.set_meta(&id, Seen { plies: source.moves.len(), meta: &held_meta }, &source.meta)?;
        let copied = to.load(&id)?.ok_or_else(|| differs("but it cannot be read back"))?;
        if !copied.same_game(&source) {
            return Err(StoreError::Corrupt {
                game: id.clone(),
                problem: "the copy read back differs from the source".into(),
            });
        }
        report.copied += 1;
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::contract::{fill, record, same_games};
    use crate::store::{GameRecord, MoveActor, SqliteStore, StoredMove};

    #[test]
    fn every_game_is_copied_checked_and_never_twice() {
        let dir = tempfile::tempdir().unwrap();
        let from = SqliteStore::open(&dir.path().join("from.sqlite")).unwrap();
        let to = SqliteStore::open(&dir.path().join("to.sqlite")).unwrap();
        fill(&from);
        // An interrupted copy left g1 with two of its moves.
        to.create(&GameRecord { created: 1, ..record("g1") }).unwrap();
        for ply in 0..2 {
            to.append_move("g1", ply, &from.load("g1").unwrap().unwrap().moves[ply]).unwrap();
        }
        let report = copy_games(&from, &to).unwrap();
        assert_eq!(report, CopyReport { copied: 3, already_there: 0, moves: 3 + 1 });
        same_games(&from, &to);
        assert_eq!(copy_games(&from, &to).unwrap(), CopyReport { copied: 0, already_there: 3, moves: 0 });
        // A destination game that differs is named, not overwritten.
        from.append_move("g3", 0, &StoredMove { text: "a".into(), actor: MoveActor::First, at: None }).unwrap();
        to.append_move("g3", 0, &StoredMove { text: "b".into(), actor: MoveActor::First, at: None }).unwrap();
        let error = copy_games(&from, &to).unwrap_err();
        assert!(error.to_string().contains("g3") && error.to_string().contains("other moves"), "{error}");
    }
}
