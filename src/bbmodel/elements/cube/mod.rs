//! One Blockbench cube element turned into faces: four corners, four UVs and a
//! geometric normal per face, as the loader specification
//! (`shared/seeds/bbmodel-loader-spec.txt`, "Conversion", cube box, faces and
//! sidedness) and its "Blockbench conventions assumed" 1, 2 and 5 say.
//!
//! Pure math on numbers the document reader has already parsed and validated:
//! no JSON, no allocation, no panics. Lengths are model units (Blockbench
//! pixels); angles are degrees as stored; UVs are texels of the face's UV space,
//! not yet divided by its UV size (the caller knows which texture a face shows).
//!
//! Each face is two triangles, [`FACE_TRIANGLES`], of its four corners, counter-
//! clockwise seen from its front (the scene format's winding), with the cube's
//! own rotation about its origin baked into the corners (scene format: cube
//! vertices are model-space coordinates at rest).
//!
//! What this module decides and what it leaves to the caller:
//!
//! - it reports geometric facts ([`CubeFaces::outline_hull`],
//!   [`CubeFace::coincides_with_opposite`]); sidedness from `render_sides`
//!   (convention 9) and the outline-hull rules are the caller's;
//! - it takes `mirror_uv` as given; the pre-4.5 `shade: false` migration
//!   (convention 13) is the caller's;
//! - faces removed by `texture: null` or missing from `faces` are passed as
//!   `None` and come back as `None`.

mod box_uv;
mod face;
mod faces;
mod shape;
#[cfg(test)]
mod tests;

pub use box_uv::{BOX_UV_EPSILON, box_uv_layout, box_uv_size};
pub use face::{FaceInput, FaceName, FaceRotation};
pub use faces::{
    CubeFace, CubeFaces, DEFAULT_FACE_UV, FACE_TRIANGLES, cube_faces, cube_faces_into,
};
pub use shape::{CubeInput, CubeShape, cube_box};
