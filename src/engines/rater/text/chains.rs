//! The sentences of chain steps: cycles, forcing chains, Nishio, cell and region forcing
//! chains, dynamic and nested ones.

use std::fmt;

use super::Facts;

/// Writes the sentence of a chain step.
pub(super) fn describe(facts: &Facts<'_>, out: &mut String) -> fmt::Result {
    super::generic(facts, out)
}
