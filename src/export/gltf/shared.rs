//! What the writer modules share with `mod.rs`, which drives them: the
//! container, the error and glTF names. Apart from `mod.rs`, so that it and
//! they import these from below.

use std::fmt;
use std::io;
use std::path::Path;
use std::string::String;

/// Which glTF container to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Container {
    /// One `.glb` file: JSON and binary chunk, images in buffer views.
    Glb,
    /// A `.gltf` JSON file with a `.bin` buffer and PNG images beside it.
    Gltf,
}

impl Container {
    /// The container a path's extension names (`.glb`, `.gltf`), if any.
    pub fn from_path(path: &Path) -> Option<Self> {
        let ext = path.extension()?.to_str()?;
        if ext.eq_ignore_ascii_case("glb") {
            Some(Self::Glb)
        } else if ext.eq_ignore_ascii_case("gltf") {
            Some(Self::Gltf)
        } else {
            None
        }
    }

    /// The file extension, without the dot.
    pub const fn extension(self) -> &'static str {
        match self {
            Self::Glb => "glb",
            Self::Gltf => "gltf",
        }
    }
}

/// Why an export failed.
#[derive(Debug)]
pub enum ExportError {
    /// Writing a file (or encoding a PNG) failed.
    Io(io::Error),
    /// The JSON or GLB could not be serialised.
    Encode(String),
    /// The output would pass a glTF size field (4 GiB).
    TooLarge(String),
    /// The scene's ranges do not hold together.
    Scene(String),
    /// An option is out of range (a scale that is not finite and positive).
    Options(String),
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io(e) => write!(f, "{e}"),
            Self::Encode(e) => write!(f, "encoding failed: {e}"),
            Self::TooLarge(e) => write!(f, "too large for glTF: {e}"),
            Self::Scene(e) => write!(f, "inconsistent scene: {e}"),
            Self::Options(e) => write!(f, "bad option: {e}"),
        }
    }
}

impl std::error::Error for ExportError {}

impl From<io::Error> for ExportError {
    fn from(e: io::Error) -> Self {
        Self::Io(e)
    }
}

/// A glTF name: `None` for empty text (glTF names are optional).
pub(super) fn name(text: &str) -> Option<String> {
    (!text.is_empty()).then(|| String::from(text))
}

/// How J3D material tracks glTF can play (base texture matrices, base
/// colours) are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MaterialClips {
    /// `KHR_animation_pointer` channels (docs/export.md, "J3D clips").
    #[default]
    Pointer,
    /// As data in `extras.j3d_tracks`, like the tracks no viewer plays: for
    /// readers that refuse pointer channels (assimp 5.2 reads them as
    /// translations and fails).
    Data,
}
