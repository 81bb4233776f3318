//! Every bound scenedec enforces, one table per format, each limit settable
//! by name through one shared machinery (`by_name!`).
//!
//! Each limit is checked before anything proportional to it is decoded or
//! placed in the arena, and raises the error its doc names. Tests pin each one
//! at its value and one past it.

use crate::error::{Error, ErrorCode};

/// A limit that lets everything through (the spec's `Infinity` override).
pub const UNLIMITED: u64 = u64::MAX;

/// Longest `frame_order` string read (spec: MAX_FRAME_ORDER_CHARS); longer ones warn.
pub const MAX_FRAME_ORDER_CHARS: u64 = 65_536;
/// Most steps a custom frame order expands to (spec: MAX_FRAME_ORDER_LENGTH); more warn.
pub const MAX_FRAME_ORDER_LENGTH: u64 = 8_192;
/// Largest magnitude of a .bbmodel number (spec: "finite and within ±10 000 000").
pub const MAX_BBMODEL_NUMBER: f64 = 10_000_000.0;
/// Largest magnitude of a keyframe value, keyframe time or animation length (MAX_ANIMATION_VALUE).
pub const MAX_ANIMATION_VALUE: f64 = 1_000_000.0;

/// Gives a limit table its names: `NAMES` (each name with the field it
/// sets) and the methods every table shares, `with_override`, `names` and
/// `get`, over [`named_field`] and [`limit_value`]. A new limit is one line
/// of its table's list.
macro_rules! by_name {
    ($table:ident { $($name:literal => $field:ident),* $(,)? }) => {
        impl $table {
            /// The name of each limit, with the field it sets.
            const NAMES: &'static [(&'static str, Field<Self>)] =
                &[$(($name, |l| &mut l.$field)),*];

            /// Overrides the limit called `name` (e.g. `"maxTriangles"`).
            ///
            /// The loader specification's rule, for every table: an override
            /// must be a positive integer or Infinity; anything else (0,
            /// negative, fractional, NaN, an unknown name) is a caller
            /// error, [`ErrorCode::InvalidLimit`], never a file error.
            pub fn with_override(mut self, name: &str, value: f64) -> Result<Self, Error> {
                *named_field(Self::NAMES, &mut self, name)? = limit_value(name, value)?;
                Ok(self)
            }

            /// The name of every limit, in the table's order, so a caller
            /// (the command line's `--limit`, its `--help`, the C API)
            /// lists exactly the names [`Self::with_override`] takes.
            pub fn names() -> impl Iterator<Item = &'static str> {
                Self::NAMES.iter().map(|(n, _)| *n)
            }

            /// The value of the limit called `name`, or `None` for a name not in the table.
            pub fn get(&self, name: &str) -> Option<u64> {
                let mut copy = *self;
                named_field(Self::NAMES, &mut copy, name).ok().map(|f| *f)
            }
        }
    };
}

/// Limits for .bbmodel files; the defaults are exactly the loader
/// specification's table (DEFAULT_BBMODEL_LIMITS).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BbmodelLimits {
    /// UTF-8 bytes of the file (64 MiB). FILE_TOO_LARGE.
    pub max_file_bytes: u64,
    /// Entries of `elements` (10 000). TOO_MANY_ELEMENTS.
    pub max_elements: u64,
    /// Groups (10 000); also caps outliner entries at elements + groups. TOO_MANY_ELEMENTS.
    pub max_groups: u64,
    /// Triangles, counted from upper bounds before any geometry (200 000). TOO_MANY_TRIANGLES.
    pub max_triangles: u64,
    /// Geometry vertices, and vertex keys of one mesh (400 000). TOO_MANY_VERTICES.
    pub max_vertices: u64,
    /// Vertices of one mesh face (16). TOO_MANY_VERTICES.
    pub max_face_vertices: u64,
    /// Groups inside groups (64). NESTING_TOO_DEEP.
    pub max_nesting: u64,
    /// Entries of `textures` (64). TOO_MANY_TEXTURES.
    pub max_textures: u64,
    /// Width or height of a texture from its PNG header, in pixels (4096). TEXTURE_TOO_LARGE.
    pub max_texture_side: u64,
    /// Pixels of one texture (16 777 216). TEXTURE_TOO_LARGE.
    pub max_texture_pixels: u64,
    /// Characters of one texture `source` (24 Mi). TEXTURE_TOO_LARGE.
    pub max_data_uri_chars: u64,
    /// RGBA8 bytes of all decoded textures together, from their PNG headers
    /// (256 MiB, four full-size textures). TEXTURE_TOO_LARGE. Not in the
    /// spec's table: its texture limits are per texture, so 64 blank
    /// 4096² PNGs in a 5 MB file would ask for 4 GiB. Same name, meaning
    /// and default as [`J3dLimits::max_texture_bytes`].
    pub max_texture_bytes: u64,
    /// Characters of a name, uuid or path (1024). INVALID_FIELD.
    pub max_string_chars: u64,
    /// Entries of `animations` (1024). TOO_MANY_KEYFRAMES.
    pub max_animations: u64,
    /// Keyframes of all animations together, counted first (200 000). TOO_MANY_KEYFRAMES.
    pub max_keyframes: u64,
    /// Bytes an `<lz>` backup decompresses to (64 MiB), counted by a walk of
    /// the stream before anything is written. FILE_TOO_LARGE. Not in the
    /// spec's table (it does not read `<lz>` files); the decompressed JSON is
    /// then a .bbmodel under `max_file_bytes` like any other.
    pub max_decompressed_bytes: u64,
    /// Characters (UTF-16 units, as JavaScript counts) of one Molang
    /// expression or placeholder value (4096). MOLANG_TOO_LONG. Not in the
    /// spec's table, like the three below: the spec does not play Molang.
    pub max_molang_chars: u64,
    /// Nesting of one Molang expression's sub-expressions (128); evaluation
    /// allows twice that plus 4, placeholders read inside one another
    /// included. MOLANG_TOO_DEEP.
    pub max_molang_depth: u64,
    /// `;`-separated statements of one Molang expression (256).
    /// MOLANG_TOO_MANY_STATEMENTS.
    pub max_molang_statements: u64,
    /// Steps of one Molang evaluation: nodes visited, loop passes, dice
    /// rolled (1 000 000; `loop` runs up to 1024 times, and loops nest).
    /// MOLANG_TOO_MANY_STEPS.
    pub max_molang_steps: u64,
}

impl BbmodelLimits {
    /// The loader specification's defaults.
    pub const DEFAULT: Self = Self {
        max_file_bytes: 64 * 1024 * 1024,
        max_elements: 10_000,
        max_groups: 10_000,
        max_triangles: 200_000,
        max_vertices: 400_000,
        max_face_vertices: 16,
        max_nesting: 64,
        max_textures: 64,
        max_texture_side: 4096,
        max_texture_pixels: 16_777_216,
        max_data_uri_chars: 24 * 1024 * 1024,
        max_texture_bytes: 256 * 1024 * 1024,
        max_string_chars: 1024,
        max_animations: 1024,
        max_keyframes: 200_000,
        max_decompressed_bytes: 64 * 1024 * 1024,
        max_molang_chars: 4096,
        max_molang_depth: 128,
        max_molang_statements: 256,
        max_molang_steps: 1_000_000,
    };
}

// The loader specification's names.
by_name!(BbmodelLimits {
    "maxFileBytes" => max_file_bytes,
    "maxElements" => max_elements,
    "maxGroups" => max_groups,
    "maxTriangles" => max_triangles,
    "maxVertices" => max_vertices,
    "maxFaceVertices" => max_face_vertices,
    "maxNesting" => max_nesting,
    "maxTextures" => max_textures,
    "maxTextureSide" => max_texture_side,
    "maxTexturePixels" => max_texture_pixels,
    "maxDataUriChars" => max_data_uri_chars,
    "maxTextureBytes" => max_texture_bytes,
    "maxStringChars" => max_string_chars,
    "maxAnimations" => max_animations,
    "maxKeyframes" => max_keyframes,
    "maxDecompressedBytes" => max_decompressed_bytes,
    "maxMolangChars" => max_molang_chars,
    "maxMolangDepth" => max_molang_depth,
    "maxMolangStatements" => max_molang_statements,
    "maxMolangSteps" => max_molang_steps,
});

impl Default for BbmodelLimits {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Limits for J3D files (scenedec's own table; J3D has no loader spec).
///
/// The defaults hold every real file seen with a wide margin while keeping a
/// hostile file's arena under a few hundred MiB.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct J3dLimits {
    /// Bytes of the file, after Yaz0 decompression (64 MiB). FILE_TOO_LARGE.
    pub max_file_bytes: u64,
    /// Scene vertices produced by all display lists (1 000 000). TOO_MANY_VERTICES.
    pub max_vertices: u64,
    /// Triangles produced by all display lists (2 000 000). TOO_MANY_TRIANGLES.
    pub max_triangles: u64,
    /// JNT1 joints (1024). TOO_MANY_JOINTS.
    pub max_joints: u64,
    /// SHP1 shapes (4096). TOO_MANY_SHAPES.
    pub max_shapes: u64,
    /// SHP1 packets (matrix groups) over all shapes (65 536). TOO_MANY_PACKETS.
    pub max_packets: u64,
    /// MAT3 materials (1024). TOO_MANY_MATERIALS.
    pub max_materials: u64,
    /// TEX1 textures (1024). TOO_MANY_TEXTURES.
    pub max_textures: u64,
    /// Width or height of a texture, in texels (1024, the GX maximum). TEXTURE_TOO_LARGE.
    pub max_texture_side: u64,
    /// Texels of all mip levels of one texture (2 Mi). TEXTURE_TOO_LARGE.
    pub max_texture_pixels: u64,
    /// RGBA8 bytes of every decoded texture level together (256 MiB), image
    /// data shared by several TEX1 headers counted once. Bounds the pixel
    /// array, which headers pointing at the same or overlapping data could
    /// otherwise multiply. TEXTURE_TOO_LARGE.
    pub max_texture_bytes: u64,
    /// Bytes of one shape's display lists (16 MiB). DISPLAY_LIST_TOO_LARGE.
    pub max_display_list_bytes: u64,
    /// Depth of the INF1 hierarchy (256). HIERARCHY_TOO_DEEP.
    pub max_depth: u64,
    /// Tracks of one animation file, entries times tracks per entry (9 per
    /// joint or texture matrix, 4 per colour, 1 per texture slot or shape),
    /// checked before any entry is read (65 536: 7281 joints). TOO_MANY_KEYFRAMES.
    pub max_anim_tracks: u64,
    /// Keys of all keyed tracks plus values of all per-frame tables of one
    /// animation file (1 048 576; the largest real BCK holds a few
    /// thousand). TOO_MANY_KEYFRAMES.
    pub max_anim_keys: u64,
    /// Duration of an animation, in frames (65 535, the u16 field's
    /// maximum, so every file passes; lower it to refuse long clips).
    /// TOO_MANY_KEYFRAMES.
    pub max_anim_frames: u64,
}

impl J3dLimits {
    /// scenedec's defaults.
    pub const DEFAULT: Self = Self {
        max_file_bytes: 64 * 1024 * 1024,
        max_vertices: 1_000_000,
        max_triangles: 2_000_000,
        max_joints: 1024,
        max_shapes: 4096,
        max_packets: 65_536,
        max_materials: 1024,
        max_textures: 1024,
        max_texture_side: 1024,
        max_texture_pixels: 2 * 1024 * 1024,
        max_texture_bytes: 256 * 1024 * 1024,
        max_display_list_bytes: 16 * 1024 * 1024,
        max_depth: 256,
        max_anim_tracks: 65_536,
        max_anim_keys: 1_048_576,
        max_anim_frames: 65_535,
    };
}

// Spelled like the .bbmodel table's (one namespace: `maxFileBytes` is the
// same bound in both).
by_name!(J3dLimits {
    "maxFileBytes" => max_file_bytes,
    "maxVertices" => max_vertices,
    "maxTriangles" => max_triangles,
    "maxJoints" => max_joints,
    "maxShapes" => max_shapes,
    "maxPackets" => max_packets,
    "maxMaterials" => max_materials,
    "maxTextures" => max_textures,
    "maxTextureSide" => max_texture_side,
    "maxTexturePixels" => max_texture_pixels,
    "maxTextureBytes" => max_texture_bytes,
    "maxDisplayListBytes" => max_display_list_bytes,
    "maxDepth" => max_depth,
    "maxAnimTracks" => max_anim_tracks,
    "maxAnimKeys" => max_anim_keys,
    "maxAnimFrames" => max_anim_frames,
});

impl Default for J3dLimits {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Limits for RARC archives (scenedec's own table, like [`J3dLimits`]).
///
/// Each is checked before the work it bounds: the archive's size before a
/// Yaz0 wrapper is undone, the table counts from the info header before a
/// record is read, each name while it is looked for, the depth and the
/// members' bytes as the directory walk reaches them, before any member is
/// decompressed. The defaults hold every real archive seen with a wide
/// margin (the largest Wii archives are tens of MiB with a few thousand
/// members) while keeping a hostile one's work and memory small.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RarcLimits {
    /// Bytes of the archive, after a Yaz0 wrapper is undone (256 MiB).
    /// ARCHIVE_TOO_LARGE.
    pub max_archive_bytes: u64,
    /// Entries of the file-entry table: members, directory entries and the
    /// `.` / `..` of every directory (65 536). File IDs are u16, so no game
    /// archive holds more files than this. TOO_MANY_MEMBERS.
    pub max_members: u64,
    /// Directory nodes (16 384). TOO_MANY_NODES.
    pub max_nodes: u64,
    /// Directories on one path from the root, the root included (32; never
    /// more than [`crate::rarc::DEPTH_CAP`], the walk's fixed stack).
    /// HIERARCHY_TOO_DEEP.
    pub max_depth: u64,
    /// Bytes of one name in the string table, without its NUL (255).
    /// NAME_TOO_LONG.
    pub max_name_bytes: u64,
    /// Bytes of every member together, compressed members counted at their
    /// decompressed size (512 MiB). Members may share stored bytes, so this
    /// is what extracting an archive writes, not its size. ARCHIVE_TOO_LARGE.
    pub max_total_bytes: u64,
}

impl RarcLimits {
    /// scenedec's defaults.
    pub const DEFAULT: Self = Self {
        max_archive_bytes: 256 * 1024 * 1024,
        max_members: 65_536,
        max_nodes: 16_384,
        max_depth: 32,
        max_name_bytes: 255,
        max_total_bytes: 512 * 1024 * 1024,
    };
}

// Each says "Archive" so that one namespace holds every table's names (the
// command line's `--limit`): J3D's `maxDepth` is a joint hierarchy's, not a
// folder tree's. `maxArchiveDepth` stays at most [`crate::rarc::DEPTH_CAP`],
// the walk's fixed stack, whatever is asked.
by_name!(RarcLimits {
    "maxArchiveBytes" => max_archive_bytes,
    "maxArchiveMembers" => max_members,
    "maxArchiveNodes" => max_nodes,
    "maxArchiveDepth" => max_depth,
    "maxArchiveNameBytes" => max_name_bytes,
    "maxArchiveTotalBytes" => max_total_bytes,
});

impl Default for RarcLimits {
    fn default() -> Self {
        Self::DEFAULT
    }
}

// Limits by name: what every table shares.

/// Picks one limit out of a table of type `L` (see `BbmodelLimits::NAMES`).
type Field<L> = fn(&mut L) -> &mut u64;

/// The field of `limits` that `table` calls `name`; INVALID_LIMIT when the
/// table has no such name. Shared by both tables so a new limit is one
/// table line.
fn named_field<'l, L>(
    table: &[(&'static str, Field<L>)],
    limits: &'l mut L,
    name: &str,
) -> Result<&'l mut u64, Error> {
    match table.iter().find(|(n, _)| *n == name) {
        Some((_, field)) => Ok(field(limits)),
        None => Err(Error::nowhere(
            ErrorCode::InvalidLimit,
            format_args!("unknown limit {}", crate::error::Quote(name)),
        )),
    }
}

/// Reads an override value: a positive integer, or +Infinity for [`UNLIMITED`].
fn limit_value(name: &str, value: f64) -> Result<u64, Error> {
    if value == f64::INFINITY {
        return Ok(UNLIMITED);
    }
    // 2^64 is the first f64 past u64's range; inside it, a whole value converts exactly.
    if (1.0..18_446_744_073_709_551_616.0).contains(&value) && libm::trunc(value) == value {
        #[allow(clippy::cast_possible_truncation)]
        return Ok(value as u64);
    }
    Err(Error::nowhere(
        ErrorCode::InvalidLimit,
        format_args!("limit {name} must be a positive integer or Infinity, got {value}"),
    ))
}

/// Overrides `name` in one namespace over both model tables, the command
/// line's `--limit`: a name both tables have (`maxFileBytes`,
/// `maxTriangles`, `maxVertices`, `maxTextures`, `maxTextureSide`,
/// `maxTexturePixels`, `maxTextureBytes`) sets both, a name one has sets
/// that one. A name neither has, or a value [`BbmodelLimits::with_override`]
/// refuses, is [`ErrorCode::InvalidLimit`], and neither table changes.
pub fn override_model_limit(
    bbmodel: &mut BbmodelLimits,
    j3d: &mut J3dLimits,
    name: &str,
    value: f64,
) -> Result<(), Error> {
    let in_bbmodel = bbmodel.get(name).is_some();
    let in_j3d = j3d.get(name).is_some();
    if !in_bbmodel && !in_j3d {
        // The tables' own error for a name they do not know.
        return bbmodel.with_override(name, value).map(|_| ());
    }
    let new_bbmodel = if in_bbmodel {
        bbmodel.with_override(name, value)?
    } else {
        *bbmodel
    };
    let new_j3d = if in_j3d {
        j3d.with_override(name, value)?
    } else {
        *j3d
    };
    (*bbmodel, *j3d) = (new_bbmodel, new_j3d);
    Ok(())
}

/// Checks `count <= limit`, raising `code` with a message naming the limit.
pub(crate) fn check(
    count: u64,
    limit: u64,
    code: ErrorCode,
    what: &str,
    at: crate::error::Location,
) -> Result<(), Error> {
    if count <= limit {
        Ok(())
    } else {
        Err(Error::new(
            code,
            at,
            format_args!("{what}: {count} is over the limit of {limit}"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bbmodel_defaults_are_the_spec_table() {
        let l = BbmodelLimits::default();
        assert_eq!(l.max_file_bytes, 67_108_864);
        assert_eq!(l.max_elements, 10_000);
        assert_eq!(l.max_groups, 10_000);
        assert_eq!(l.max_triangles, 200_000);
        assert_eq!(l.max_vertices, 400_000);
        assert_eq!(l.max_face_vertices, 16);
        assert_eq!(l.max_nesting, 64);
        assert_eq!(l.max_textures, 64);
        assert_eq!(l.max_texture_side, 4096);
        assert_eq!(l.max_texture_pixels, 16_777_216);
        assert_eq!(l.max_data_uri_chars, 25_165_824);
        assert_eq!(l.max_string_chars, 1024);
        assert_eq!(l.max_animations, 1024);
        assert_eq!(l.max_keyframes, 200_000);
        assert_eq!(
            (
                l.max_molang_chars,
                l.max_molang_depth,
                l.max_molang_statements,
                l.max_molang_steps
            ),
            (4096, 128, 256, 1_000_000)
        );
    }

    #[test]
    fn override_accepts_positive_integers_and_infinity() {
        let l = BbmodelLimits::default()
            .with_override("maxTriangles", 100_000.0)
            .unwrap()
            .with_override("maxNesting", f64::INFINITY)
            .unwrap()
            .with_override("maxKeyframes", 1.0)
            .unwrap();
        assert_eq!(l.max_triangles, 100_000);
        assert_eq!(l.max_nesting, UNLIMITED);
        assert_eq!(l.max_keyframes, 1);
    }

    #[test]
    fn range_error_rule_rejects_bad_overrides_as_caller_errors() {
        for bad in [0.0, -1.0, 1.5, f64::NAN, f64::NEG_INFINITY, 1e30, -0.0] {
            let e = BbmodelLimits::default()
                .with_override("maxTriangles", bad)
                .unwrap_err();
            assert_eq!(e.code(), ErrorCode::InvalidLimit, "{bad}");
            assert!(e.code().is_caller_error());
        }
        let e = BbmodelLimits::default()
            .with_override("maxBananas", 5.0)
            .unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidLimit);
    }

    #[test]
    fn every_spec_limit_name_is_overridable() {
        for (name, _) in BbmodelLimits::NAMES {
            let l = BbmodelLimits::default().with_override(name, 7.0).unwrap();
            assert_ne!(l, BbmodelLimits::default(), "{name}");
        }
    }

    #[test]
    fn every_rarc_limit_name_is_overridable_readable_and_no_other_tables_name() {
        let mut count = 0;
        for name in RarcLimits::names() {
            let l = RarcLimits::default().with_override(name, 7.0).unwrap();
            assert_ne!(l, RarcLimits::default(), "{name}");
            assert_eq!(l.get(name), Some(7), "{name}");
            // One namespace on the command line: no name means two things.
            assert_eq!(BbmodelLimits::default().get(name), None, "{name}");
            assert_eq!(J3dLimits::default().get(name), None, "{name}");
            count += 1;
        }
        assert_eq!(count, RarcLimits::NAMES.len());
        let l = RarcLimits::default()
            .with_override("maxArchiveMembers", f64::INFINITY)
            .unwrap();
        assert_eq!(l.max_members, UNLIMITED);
        for bad in ["maxDepth", "maxJoints", "maxArchiveBytes "] {
            let e = RarcLimits::default().with_override(bad, 5.0).unwrap_err();
            assert_eq!(e.code(), ErrorCode::InvalidLimit, "{bad}");
        }
    }

    #[test]
    fn every_j3d_limit_name_is_overridable_and_readable() {
        let mut count = 0;
        for name in J3dLimits::names() {
            let l = J3dLimits::default().with_override(name, 7.0).unwrap();
            assert_ne!(l, J3dLimits::default(), "{name}");
            assert_eq!(l.get(name), Some(7), "{name}");
            count += 1;
        }
        assert_eq!(count, J3dLimits::NAMES.len());
        let l = J3dLimits::default()
            .with_override("maxJoints", f64::INFINITY)
            .unwrap();
        assert_eq!(l.max_joints, UNLIMITED);
        for bad in ["maxElements", "maxBananas", ""] {
            let e = J3dLimits::default().with_override(bad, 5.0).unwrap_err();
            assert_eq!(e.code(), ErrorCode::InvalidLimit, "{bad}");
        }
        assert_eq!(J3dLimits::default().get("maxElements"), None);
        assert_eq!(
            BbmodelLimits::default().get("maxTriangles"),
            Some(BbmodelLimits::DEFAULT.max_triangles)
        );
    }

    #[test]
    fn one_namespace_sets_each_model_table_that_has_the_name() {
        let (b0, j0) = (BbmodelLimits::DEFAULT, J3dLimits::DEFAULT);
        let (mut b, mut j) = (b0, j0);
        override_model_limit(&mut b, &mut j, "maxTriangles", 5.0).unwrap();
        assert_eq!((b.max_triangles, j.max_triangles), (5, 5));
        override_model_limit(&mut b, &mut j, "maxJoints", 6.0).unwrap();
        assert_eq!((j.max_joints, b.get("maxJoints")), (6, None));
        override_model_limit(&mut b, &mut j, "maxElements", f64::INFINITY).unwrap();
        assert_eq!((b.max_elements, j.get("maxElements")), (UNLIMITED, None));
        let (before_b, before_j) = (b, j);
        for (name, value) in [
            ("maxBananas", 5.0),
            ("maxArchiveBytes", 5.0),
            ("maxJoints", 0.0),
        ] {
            let e = override_model_limit(&mut b, &mut j, name, value).unwrap_err();
            assert_eq!(e.code(), ErrorCode::InvalidLimit, "{name}");
            assert_eq!((b, j), (before_b, before_j), "{name}: nothing changes");
        }
        for name in BbmodelLimits::names().chain(J3dLimits::names()) {
            let (mut b, mut j) = (b0, j0);
            override_model_limit(&mut b, &mut j, name, 3.0).unwrap();
            assert_eq!(b.get(name).unwrap_or(3), 3, "{name}");
            assert_eq!(j.get(name).unwrap_or(3), 3, "{name}");
            assert_ne!((b, j), (b0, j0), "{name}");
        }
    }

    #[test]
    fn check_passes_at_the_limit_and_fails_one_past() {
        use crate::error::Location;
        assert!(
            check(
                10,
                10,
                ErrorCode::TooManyJoints,
                "joints",
                Location::Nowhere
            )
            .is_ok()
        );
        let e = check(
            11,
            10,
            ErrorCode::TooManyJoints,
            "joints",
            Location::Nowhere,
        )
        .unwrap_err();
        assert_eq!(e.code(), ErrorCode::TooManyJoints);
        assert_eq!(e.message(), "joints: 11 is over the limit of 10");
    }
}
