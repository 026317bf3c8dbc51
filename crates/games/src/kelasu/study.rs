//! What `menagerie study` counts in kelasu.

use super::Kelasu;
use menagerie_core::Study;

impl Study for Kelasu {}
