//! What `menagerie study` counts in lma.

use super::Lma;
use menagerie_core::Study;

impl Study for Lma {}
