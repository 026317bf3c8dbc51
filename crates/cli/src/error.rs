use thiserror::Error;

/// What went wrong, and so which exit status: 2 for input the user can fix
/// (variant, position or move text, arguments), 1 for anything else.
#[derive(Debug, Error)]
pub enum CliError {
    #[error("{0}")]
    BadInput(String),
    #[error("{0}")]
    Failed(String),
}

impl CliError {
    pub fn exit_status(&self) -> u8 {
        match self {
            CliError::BadInput(_) => 2,
            CliError::Failed(_) => 1,
        }
    }
}
