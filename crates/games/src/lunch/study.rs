//! What `menagerie study` counts in lunch.

use super::Lunch;
use menagerie_core::Study;

impl Study for Lunch {}
