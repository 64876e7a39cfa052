//! The bottom layer of the chain producers: what more than one of them uses.
//!
//! | module | holds |
//! |---|---|
//! | [`links`] | potentials (a candidate on or off), SE's two link rules, the links listed once a step |
//! | [`bits`] | the one bit set, of potentials or of candidates |
//! | [`key`] | how SE orders one producer's hints, and the length bonus |
//! | [`closure`] | what each potential reaches in the step's static links |
//! | [`nest_set`] | the nested chains an outer hint rests on, each counted once |
//! | [`trail`] | what one propagation implied, and SE's queue over it ("on" first, then first in, first out) |
//! | [`cell_region`] | cell and region forcing chains over any propagation |
//! | [`record`] | a found hint's chains recorded as data (links and why each holds), for `--steps` |

pub(crate) mod bits;
pub(crate) mod cell_region;
pub(crate) mod closure;
pub(crate) mod key;
pub(crate) mod links;
pub(crate) mod nest_set;
pub(crate) mod record;
pub(crate) mod trail;
