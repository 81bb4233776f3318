//! What the file says about itself: its structure (the outliner, groups
//! and the element list as the spec reads them), the uuid tables that join
//! them, and the texture files it references.
//!
//! Takes: a located [`Document`](crate::bbmodel::Document). Gives: group
//! fields and outliner walks to the passes, uuid lookups to every later
//! stage, and `list_references`. Spec: Supported ("Groups and outliner"),
//! Conversion conventions 3–4, Errors (DUPLICATE_REFERENCE), Local-first
//! (listBbmodelReferences).

pub mod references;
pub mod structure;
pub(in crate::bbmodel) mod uuid_tables;
