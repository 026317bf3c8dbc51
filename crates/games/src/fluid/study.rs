//! What `menagerie study` counts in fluid.

use super::Fluid;
use menagerie_core::Study;

impl Study for Fluid {}
