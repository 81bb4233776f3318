//! Elements: cubes and meshes read as the spec reads them and written as
//! the scene's meshes, triangle groups and vertices.
//!
//! Takes: the located document, the project's uuid tables and the textures
//! stage's [`Textures`](crate::bbmodel::textures::entries::Textures) (which
//! texture a face shows). Gives: per element its head and body
//! ([`read::read_element`], one read per element per pass), the counting
//! pass over `elements` ([`count`]: exact counts, or `load`'s cube bound),
//! and the fill pass's geometry ([`writer`]). Spec: Supported ("Cubes",
//! "Meshes", "Box UV", "Per-face UV", "Inflate"), Conversion conventions
//! 5–11, Limits (maxElements, maxTriangles, maxVertices, maxFaceVertices).
//!
//! - [`context`]: which pass reads an element and what the read needs;
//! - [`read`]: an element's fields and what it draws;
//! - [`faces`]: a face's texture and a cube's `faces` object (compact faces
//!   read from their bytes);
//! - [`cube`]: a cube's box, inflate, faces, UVs and box-UV layout;
//! - [`mesh`]: a mesh's placement, vertex keys, faces, triangulation and
//!   normals, and its `vertices` counted against maxVertices;
//! - [`count`]: the counting pass over elements;
//! - [`writer`]: the fill pass's geometry writer.

pub(in crate::bbmodel) mod context;
pub(in crate::bbmodel) mod count;
pub mod cube;
pub(in crate::bbmodel) mod faces;
pub mod mesh;
pub(in crate::bbmodel) mod read;
pub(in crate::bbmodel) mod writer;
