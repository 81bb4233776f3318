//! What belongs to the GameCube/Wii GPU (GX) rather than to J3D: vertex
//! attribute formats, display lists, texture formats.

pub mod display_list;
pub mod texture;
pub mod vertex;
