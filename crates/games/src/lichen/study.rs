//! What `menagerie study` counts in lichen.

use super::Lichen;
use menagerie_core::Study;

impl Study for Lichen {}
