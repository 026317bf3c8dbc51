//! Lessons as data: one TOML file a game (`data/lessons/<game>.toml`), each
//! lesson a few steps, each step a position, a goal in one sentence, the
//! moves that meet it, and what to say to a wrong move. The rules engine
//! checks every step ([`Lesson::check`]) and judges the player's moves
//! ([`judge`]); a wrong move is answered with why: the step's own word
//! for that move, or a reason computed from the goal ("that move is
//! legal but does not capture").
//!
//! ```toml
//! [[lesson]]
//! id = "fluid-stacks"
//! variant = "fluid"
//! title = "Stacks"
//!
//! [[lesson.step]]
//! position = "4k3/8/8/8/8/8/3N4/R3K3 w - - 0 1"
//! goal = "Join your Knight with the Rook: two pieces of yours may share a square."
//! kind = "join"
//! moves = ["Nd2b1"]
//! done = "A square holds up to two pieces, and they move together or apart."
//! [[lesson.step.wrong]]
//! move = "Ra1b1"
//! say = "The Rook may go there, but then the Knight must come to it: try it the other way."
//! ```

use crate::diagram;
use crate::puzzle::themes::material;
use menagerie_core::{DynGame, Player};
use menagerie_games::BuiltinData;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The lessons built in, one file a game.
pub const FILES: [(&str, &str); 5] = [
    ("lma", include_str!("../../../data/lessons/lma.toml")),
    ("fluid", include_str!("../../../data/lessons/fluid.toml")),
    ("lichen", include_str!("../../../data/lessons/lichen.toml")),
    ("kelasu", include_str!("../../../data/lessons/kelasu.toml")),
    ("lunch", include_str!("../../../data/lessons/lunch.toml")),
];

/// What a step asks for: the rules engine checks that each listed move
/// does it, and says why a move that does not fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Goal {
    /// One of the listed moves (no property beyond it).
    Move,
    /// Takes something of the other side (material goes down).
    Capture,
    /// Wins the game at once.
    Win,
    /// Gives check (LMA, Fluid).
    Check,
    /// LMA: the piece lands on the other board.
    OtherBoard,
    /// Fluid: the move ends with two of the mover's pieces on one square.
    Join,
    /// Fluid: a pair (two pieces of one square) moves together.
    PairMove,
    /// Promotes a pawn.
    Promote,
    /// Lichen: the mover controls the step's `target` stone after the move.
    Control,
    /// Lichen: the act moves a stone.
    MoveStone,
    /// Lichen: the act colonizes.
    Colonize,
    /// Lichen: a stone the mover controls has all eight slots filled, so
    /// it is harvested at the start of the mover's next turn.
    FillStone,
    /// Kelasu: a merge of Blanks.
    Merge,
    /// Kelasu: a Diplomat converts an enemy piece.
    Convert,
    /// Lunch Chess: an answer card played in a battle.
    Answer,
    /// Lunch Chess: an attack opens a battle.
    Attack,
}

impl Goal {
    /// Why a legal move that does not meet the goal fails it.
    pub fn failure(self) -> &'static str {
        match self {
            Goal::Move => "that move is legal, but it is not the one this step asks for",
            Goal::Capture => "that move is legal, but it does not capture",
            Goal::Win => "that move is legal, but it does not win the game",
            Goal::Check => "that move is legal, but it does not give check",
            Goal::OtherBoard => "that move is legal, but the piece stays on its board: it must end on a square of the other colour",
            Goal::Join => "that move is legal, but no square ends with two of your pieces",
            Goal::PairMove => "that move is legal, but it moves a single piece, not a pair",
            Goal::Promote => "that move is legal, but it does not promote a pawn",
            Goal::Control => "that move is legal, but afterwards you do not control that stone: you need more tokens on it than the other side",
            Goal::MoveStone => "that move is legal, but it moves no stone",
            Goal::Colonize => "that move is legal, but it does not colonize: act with `*` from a stone you control",
            Goal::FillStone => "that move is legal, but no stone you control has all eight slots filled",
            Goal::Merge => "that move is legal, but it merges no Blanks",
            Goal::Convert => "that move is legal, but it converts nothing: a Diplomat converts a diagonally adjacent enemy",
            Goal::Answer => "that decision is legal, but it plays no answer card",
            Goal::Attack => "that move is legal, but it opens no battle",
        }
    }

    /// Whether the move `text` (legal in `before`, leading to `after`) meets the goal.
    fn met(self, before: &dyn DynGame, text: &str, after: &dyn DynGame, target: Option<&str>) -> bool {
        let game = game_of(before.variant());
        let mover = before.to_act().player().unwrap_or(Player::First);
        let view = |g: &dyn DynGame| -> Value { serde_json::from_str(g.view(None).get()).unwrap_or(Value::Null) };
        match self {
            Goal::Move => true,
            Goal::Capture => {
                let theirs = |g: &dyn DynGame| opponent_material(game, g, mover);
                matches!((theirs(before), theirs(after)), (Some(a), Some(b)) if b < a)
            }
            Goal::Win => after.outcome().and_then(|o| o.winner()) == Some(mover),
            Goal::Check => after.in_check(),
            Goal::OtherBoard => {
                text.len() >= 5 && {
                    // The landing board: where the piece stands after the move.
                    let landing = format!("{}{}", if text.starts_with('1') { '2' } else { '1' }, &text[3..5]);
                    lma_piece(&view(after), &landing).is_some()
                }
            }
            Goal::Join => {
                let unit = text.chars().take_while(|c| c.is_ascii_uppercase()).count();
                let target = text.get(unit + 2..unit + 4).unwrap_or("");
                let colour = if mover == Player::First { "white" } else { "black" };
                view(after).get("squares").and_then(|s| s.get(target)).and_then(Value::as_array).is_some_and(|here| {
                    here.len() == 2 && here.iter().all(|p| p.get("colour").and_then(Value::as_str) == Some(colour))
                })
            }
            Goal::PairMove => text.chars().take_while(|c| c.is_ascii_uppercase()).count() == 2,
            Goal::Promote => match game {
                "lma" => text.len() == 6,
                "fluid" => text.contains('='),
                "lunch" => text.starts_with("promote:"),
                _ => false,
            },
            Goal::Control => {
                let colour = if mover == Player::First { "white" } else { "black" };
                view(after).get("stones").and_then(Value::as_array).into_iter().flatten().any(|stone| {
                    stone.get("square").and_then(Value::as_str) == target
                        && stone.get("controller").and_then(Value::as_str) == Some(colour)
                })
            }
            Goal::MoveStone => text.split_once(';').is_some_and(|(_, act)| act.contains('>')),
            Goal::Colonize => text.split_once(';').is_some_and(|(_, act)| act.contains('*')),
            Goal::FillStone => {
                let colour = if mover == Player::First { "white" } else { "black" };
                view(after).get("stones").and_then(Value::as_array).into_iter().flatten().any(|stone| {
                    stone.get("controller").and_then(Value::as_str) == Some(colour)
                        && stone
                            .get("slots")
                            .and_then(Value::as_object)
                            .is_some_and(|slots| slots.values().all(|v| !v.is_null()))
                })
            }
            Goal::Merge => text.contains('@'),
            Goal::Convert => crate::puzzle::themes::kelasu_conversion(&before.to_text(), &after.to_text(), text),
            Goal::Answer => text.starts_with("answer:"),
            Goal::Attack => text.starts_with("attack:"),
        }
    }
}

fn game_of(variant: &str) -> &str {
    variant.split([':', '-']).next().unwrap_or(variant)
}

fn lma_piece(view: &Value, square: &str) -> Option<char> {
    view.get("boards")?.as_array()?.iter().find_map(|b| {
        b.get("squares")?.as_array()?.iter().find_map(|s| {
            (s.get("square")?.as_str()? == square).then(|| s.get("piece")?.as_str()?.chars().next()).flatten()
        })
    })
}

/// The other side's material: from the text where [`material`] reads it,
/// else (Lunch Chess) their hit points on the board.
fn opponent_material(game: &str, g: &dyn DynGame, mover: Player) -> Option<i32> {
    if let Some((first, second)) = material(game, &g.to_text()) {
        return Some(if mover == Player::First { second } else { first });
    }
    let view: Value = serde_json::from_str(g.view(None).get()).ok()?;
    let colour = if mover == Player::First { "black" } else { "white" };
    Some(
        view.get("squares")?
            .as_array()?
            .iter()
            .filter(|p| p.get("colour").and_then(Value::as_str) == Some(colour))
            .map(|p| p.get("hp").and_then(Value::as_i64).unwrap_or(1) as i32)
            .sum(),
    )
}

/// What to say to one wrong move.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Wrong {
    #[serde(rename = "move")]
    pub mv: String,
    pub say: String,
}

/// Which moves meet a step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Accept {
    /// Only the listed moves.
    #[default]
    Listed,
    /// Any legal move that meets the goal (the listed ones are examples):
    /// for goals many moves meet alike (a Lichen placement on any slot).
    Any,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// A position text of the lesson's variant; `start` for its start.
    pub position: String,
    pub goal: String,
    pub kind: Goal,
    /// The moves that meet the goal (with `accept = "any"`, examples).
    pub moves: Vec<String>,
    #[serde(default)]
    pub accept: Accept,
    /// The square a goal names (`control`).
    #[serde(default)]
    pub target: Option<String>,
    /// Said when the goal is met.
    #[serde(default)]
    pub done: Option<String>,
    #[serde(default)]
    pub wrong: Vec<Wrong>,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    pub id: String,
    pub variant: String,
    pub title: String,
    #[serde(rename = "step")]
    pub steps: Vec<Step>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(rename = "lesson")]
    lessons: Vec<Lesson>,
}

/// What the API lists: `GET /api/learn` → `{"lessons": [...]}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub id: String,
    pub variant: String,
    pub title: String,
    pub steps: usize,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum LessonError {
    #[error("{file}: {problem}")]
    File { file: String, problem: String },
    #[error("lesson {lesson}, step {step}: {problem}")]
    Step { lesson: String, step: usize, problem: String },
}

impl Step {
    /// The step's position as a game.
    pub fn game(&self, variant: &str) -> Result<Box<dyn DynGame>, String> {
        let position = Some(self.position.as_str()).filter(|p| *p != "start");
        menagerie_games::new_game(variant, position, 0, &BuiltinData).map_err(|e| e.to_string())
    }
}

impl Lesson {
    /// Checks every step by the rules: the position is legal, each listed
    /// move is legal and meets the goal, every wrong-move note names a legal
    /// move that is not listed, and at least one legal move fails the step.
    pub fn check(&self) -> Result<(), LessonError> {
        let fail = |step: usize, problem: String| LessonError::Step { lesson: self.id.clone(), step, problem };
        if self.steps.is_empty() {
            return Err(fail(0, "no steps".into()));
        }
        for (i, step) in self.steps.iter().enumerate() {
            let n = i + 1;
            let game = step.game(&self.variant).map_err(|e| fail(n, e))?;
            let legal = game.legal_moves();
            if step.moves.is_empty() {
                return Err(fail(n, "no moves meet the goal".into()));
            }
            for text in &step.moves {
                if !legal.contains(text) {
                    return Err(fail(n, format!("{text} is not a legal move here")));
                }
                let mut after = game.box_clone();
                after.play(text).map_err(|e| fail(n, e.to_string()))?;
                if !step.kind.met(game.as_ref(), text, after.as_ref(), step.target.as_deref()) {
                    return Err(fail(n, format!("{text} does not meet the goal: {}", step.kind.failure())));
                }
            }
            for wrong in &step.wrong {
                if !legal.contains(&wrong.mv) || step.moves.contains(&wrong.mv) {
                    return Err(fail(n, format!("wrong move {} is not a legal move outside the answers", wrong.mv)));
                }
            }
            let fails = |m: &String| match step.accept {
                Accept::Listed => !step.moves.contains(m),
                Accept::Any => {
                    let mut after = game.box_clone();
                    after.play(m).is_ok() && !step.kind.met(game.as_ref(), m, after.as_ref(), step.target.as_deref())
                }
            };
            if !legal.iter().any(fails) {
                return Err(fail(n, "every legal move meets it: nothing to learn".into()));
            }
            if step.kind == Goal::Control && step.target.is_none() {
                return Err(fail(n, "a control goal names its `target` stone".into()));
            }
            if step.goal.trim().is_empty() {
                return Err(fail(n, "no goal".into()));
            }
        }
        Ok(())
    }

    pub fn summary(&self) -> Summary {
        Summary {
            id: self.id.clone(),
            variant: self.variant.clone(),
            title: self.title.clone(),
            steps: self.steps.len(),
        }
    }
}

/// Reads one game's lessons file and checks every lesson in it.
pub fn load(file: &str, text: &str) -> Result<Vec<Lesson>, LessonError> {
    let parsed: File =
        toml::from_str(text).map_err(|e| LessonError::File { file: file.into(), problem: e.to_string() })?;
    for lesson in &parsed.lessons {
        lesson.check()?;
        if game_of(&lesson.variant) != file {
            return Err(LessonError::File {
                file: file.into(),
                problem: format!("lesson {} is of {}", lesson.id, lesson.variant),
            });
        }
    }
    Ok(parsed.lessons)
}

/// Every built-in lesson, in the order of [`FILES`].
pub fn builtin() -> Result<Vec<Lesson>, LessonError> {
    let mut all = Vec::new();
    for (game, text) in FILES {
        all.extend(load(game, text)?);
    }
    let mut ids = std::collections::HashSet::new();
    for lesson in &all {
        if !ids.insert(lesson.id.clone()) {
            return Err(LessonError::File {
                file: game_of(&lesson.variant).into(),
                problem: format!("lesson id {} twice", lesson.id),
            });
        }
    }
    Ok(all)
}

/// The answer of `GET /api/learn`.
pub fn api_list(lessons: &[Lesson]) -> Value {
    serde_json::json!({ "lessons": lessons.iter().map(Lesson::summary).collect::<Vec<_>>() })
}

/// What the player is told about a move they tried.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "verdict", rename_all = "lowercase")]
pub enum Verdict {
    /// The goal is met; what to say.
    Done { say: String },
    /// Not this move; why.
    Wrong { why: String },
}

/// Judges the move `text` tried at step `step` of `lesson`.
pub fn judge(lesson: &Lesson, step: usize, text: &str) -> Result<Verdict, String> {
    let step = lesson.steps.get(step).ok_or_else(|| format!("lesson {} has no step {}", lesson.id, step + 1))?;
    let game = step.game(&lesson.variant)?;
    let done = || Verdict::Done { say: step.done.clone().unwrap_or_else(|| "Well done.".into()) };
    if step.moves.iter().any(|m| m == text) {
        return Ok(done());
    }
    let mut after = game.box_clone();
    if let Err(error) = after.play(text) {
        return Ok(Verdict::Wrong { why: format!("That is not a legal move here: {error}.") });
    }
    let met = step.kind.met(game.as_ref(), text, after.as_ref(), step.target.as_deref());
    if met && step.accept == Accept::Any {
        return Ok(done());
    }
    if let Some(wrong) = step.wrong.iter().find(|w| w.mv == text) {
        return Ok(Verdict::Wrong { why: wrong.say.clone() });
    }
    let why = if met {
        // It does what the goal says, but it is not the move asked for.
        format!("Close: that move does that, but it is not the best way here. {}", step.goal)
    } else {
        let reason = step.kind.failure();
        let mut why = reason[..1].to_uppercase();
        why.push_str(&reason[1..]);
        why.push('.');
        why
    };
    Ok(Verdict::Wrong { why })
}

/// The step's position drawn as a diagram (the lesson page's first picture
/// before the board is live).
pub fn step_figure(lesson: &Lesson, step: &Step) -> Result<String, diagram::DiagramError> {
    let position = Some(step.position.clone()).filter(|p| p != "start");
    diagram::render(&diagram::Diagram {
        variant: lesson.variant.clone(),
        position,
        moves: Vec::new(),
        arrows: Vec::new(),
        marks: Vec::new(),
        show_hands: game_of(&lesson.variant) == "lunch",
        caption: Some(step.goal.clone()),
    })
}
