//! Textures as PNG files: RGBA8, 8 bits per channel, straight alpha, rows
//! top to bottom, exactly the scene's pixels (encoded with the `png` crate).

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::string::{String, ToString};
use std::vec::Vec;

use crate::scene::{MipRecord, Scene};

/// Writes one RGBA8 image (`width * height * 4` bytes, row-major, top row
/// first) as a PNG to `out`.
///
/// Fails with [`io::ErrorKind::InvalidInput`] when `rgba` is not exactly
/// that long or a side is 0, and with the writer's error otherwise.
pub fn write_rgba8<W: Write>(out: W, width: u32, height: u32, rgba: &[u8]) -> io::Result<()> {
    let expected = (width as usize)
        .checked_mul(height as usize)
        .and_then(|n| n.checked_mul(4));
    if width == 0 || height == 0 || expected != Some(rgba.len()) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            std::format!(
                "{width}x{height} RGBA8 needs {} bytes, got {}",
                expected.map_or_else(|| String::from("too many"), |n| n.to_string()),
                rgba.len()
            ),
        ));
    }
    let mut encoder = ::png::Encoder::new(out, width, height);
    encoder.set_color(::png::ColorType::Rgba);
    encoder.set_depth(::png::BitDepth::Eight);
    // fdeflate's fast mode: about 4x faster than the default on the corpus
    // textures (docs/performance.md, glTF conversion), files a little larger.
    encoder.set_compression(::png::Compression::Fast);
    let mut writer = encoder.write_header().map_err(io::Error::other)?;
    writer.write_image_data(rgba).map_err(io::Error::other)?;
    writer.finish().map_err(io::Error::other)
}

/// Level `level` of texture `texture` of `scene`: its size and RGBA8 bytes;
/// `None` when the texture, the level or its pixels are not there.
pub fn level_pixels<'a>(
    scene: &Scene<'a>,
    texture: usize,
    level: usize,
) -> Option<(MipRecord, &'a [u8])> {
    let t = scene.textures().get(texture)?;
    if level >= t.mip_count as usize {
        return None;
    }
    let mip = *scene
        .mips()
        .get((t.first_mip as usize).checked_add(level)?)?;
    let len = (mip.width as usize)
        .checked_mul(mip.height as usize)?
        .checked_mul(4)?;
    let start = mip.offset as usize;
    let pixels = scene.pixels().get(start..start.checked_add(len)?)?;
    Some((mip, pixels))
}

/// A texture name made safe as part of a file name: path separators,
/// control characters and characters Windows forbids become `_`; a
/// trailing `.png` (Blockbench names textures after their file) is dropped.
pub fn file_stem(index: usize, name: &str) -> String {
    let name = match name.len().checked_sub(4) {
        Some(cut) if name.is_char_boundary(cut) && name[cut..].eq_ignore_ascii_case(".png") => {
            &name[..cut]
        }
        _ => name,
    };
    let clean: String = name
        .chars()
        .map(|c| match c {
            '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|' => '_',
            c if c.is_control() => '_',
            c => c,
        })
        .collect();
    if clean.is_empty() {
        std::format!("{index}")
    } else {
        std::format!("{index}_{clean}")
    }
}

/// One PNG file [`write_texture_files`] wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// The scene texture it is of.
    pub texture: usize,
    /// Its mip level (0 for the image itself).
    pub level: usize,
    /// Where it was written.
    pub path: PathBuf,
    /// Width in texels.
    pub width: u32,
    /// Height in texels: a frame strip's whole height (every frame).
    pub height: u32,
}

/// Writes every texture of `scene` into `dir` (created if needed) as
/// `<index>_<name>.png` (level 0), and with `mips` each further level `k` as
/// `<index>_<name>_mip<k>.png`. Missing textures are skipped. Returns the
/// paths written, in texture then level order.
pub fn write_textures(scene: &Scene<'_>, dir: &Path, mips: bool) -> io::Result<Vec<PathBuf>> {
    Ok(write_texture_files(scene, dir, mips)?
        .into_iter()
        .map(|w| w.path)
        .collect())
}

/// [`write_textures`], saying of each file which texture and level it is
/// and its size. A frame strip is written whole, every frame, as the file
/// stores it (the glTF export writes frame 0 alone; docs/export.md).
pub fn write_texture_files(scene: &Scene<'_>, dir: &Path, mips: bool) -> io::Result<Vec<Written>> {
    fs::create_dir_all(dir)?;
    let mut written = Vec::new();
    for (i, t) in scene.textures().iter().enumerate() {
        let stem = file_stem(i, scene.text(t.name));
        let levels = if mips { t.mip_count as usize } else { 1 };
        for level in 0..levels {
            let Some((mip, pixels)) = level_pixels(scene, i, level) else {
                continue;
            };
            let path = dir.join(if level == 0 {
                std::format!("{stem}.png")
            } else {
                std::format!("{stem}_mip{level}.png")
            });
            let file = io::BufWriter::new(fs::File::create(&path)?);
            write_rgba8(file, mip.width, mip.height, pixels)?;
            written.push(Written {
                texture: i,
                level,
                path,
                width: mip.width,
                height: mip.height,
            });
        }
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rgba8_round_trips_through_png() {
        let rgba: Vec<u8> = (0..3 * 2 * 4).map(|i| (i * 11) as u8).collect();
        let mut out = Vec::new();
        write_rgba8(&mut out, 3, 2, &rgba).unwrap();
        let mut reader = ::png::Decoder::new(io::Cursor::new(out))
            .read_info()
            .unwrap();
        let mut buf = std::vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), (3, 2));
        assert_eq!(info.color_type, ::png::ColorType::Rgba);
        assert_eq!(&buf[..info.buffer_size()], &rgba[..]);
    }

    #[test]
    fn wrong_pixel_count_is_invalid_input() {
        let e = write_rgba8(Vec::new(), 2, 2, &[0; 15]).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        let e = write_rgba8(Vec::new(), 0, 2, &[]).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
    }

    #[test]
    fn file_stems_keep_the_index_and_replace_path_characters() {
        assert_eq!(file_stem(3, "body"), "3_body");
        assert_eq!(file_stem(0, "a/b\\c:d"), "0_a_b_c_d");
        assert_eq!(file_stem(7, ""), "7");
        assert_eq!(file_stem(1, "skin.PNG"), "1_skin");
        assert_eq!(file_stem(2, ".png"), "2");
    }
}
