//! The binary buffer and its views and accessors: every array the document
//! points at is appended here, 4-byte aligned, with the min/max the glTF
//! specification asks of the accessors that need them (POSITION always).

use std::string::String;
use std::vec::Vec;

use gltf_json as json;
use json::accessor::{ComponentType, GenericComponentType, Type};
use json::buffer::Target;
use json::validation::{Checked, USize64};

use super::ExportError;

/// The document under construction and the bytes of its one buffer.
pub struct Writer {
    /// The glTF JSON document.
    pub root: json::Root,
    /// The buffer's bytes (the GLB BIN chunk, or the .bin file).
    pub bin: Vec<u8>,
}

/// What an accessor's elements are: component type, element type, normalised.
#[derive(Clone, Copy)]
pub struct Layout {
    component: ComponentType,
    kind: Type,
    normalized: bool,
}

impl Layout {
    /// One f32 (animation times).
    pub const SCALAR_F32: Self = Self::new(ComponentType::F32, Type::Scalar);
    /// `VEC3` of f32.
    pub const VEC3_F32: Self = Self::new(ComponentType::F32, Type::Vec3);
    /// `VEC2` of f32.
    pub const VEC2_F32: Self = Self::new(ComponentType::F32, Type::Vec2);
    /// `VEC4` of f32.
    pub const VEC4_F32: Self = Self::new(ComponentType::F32, Type::Vec4);
    /// `MAT4` of f32.
    pub const MAT4_F32: Self = Self::new(ComponentType::F32, Type::Mat4);

    /// Elements of `kind` made of `component`, not normalised.
    pub const fn new(component: ComponentType, kind: Type) -> Self {
        Self {
            component,
            kind,
            normalized: false,
        }
    }

    /// The same layout read as normalised integers (0..1).
    pub const fn normalized(mut self) -> Self {
        self.normalized = true;
        self
    }
}

fn too_large(what: &str) -> ExportError {
    ExportError::TooLarge(String::from(what))
}

impl Default for Writer {
    fn default() -> Self {
        Self::new()
    }
}

impl Writer {
    /// An empty document (asset version 2.0, generator scenedec).
    pub fn new() -> Self {
        let root = json::Root {
            asset: json::Asset {
                generator: Some(std::format!("scenedec {}", env!("CARGO_PKG_VERSION"))),
                ..json::Asset::default()
            },
            ..json::Root::default()
        };
        Self {
            root,
            bin: Vec::new(),
        }
    }

    /// Appends `bytes` as a buffer view (4-aligned), with a target for vertex
    /// and index data (images and inverse binds have none).
    pub fn view(
        &mut self,
        bytes: &[u8],
        target: Option<Target>,
    ) -> Result<json::Index<json::buffer::View>, ExportError> {
        self.view_with(bytes.len(), target, |bin| bin.extend_from_slice(bytes))
    }

    /// Appends a view of `len` bytes that `fill` pushes onto the buffer
    /// itself, so an attribute goes from the scene into the buffer with no
    /// array of its own in between; a `fill` that pushes another length is
    /// an error (the view would not say what it holds).
    pub fn view_with(
        &mut self,
        len: usize,
        target: Option<Target>,
        fill: impl FnOnce(&mut Vec<u8>),
    ) -> Result<json::Index<json::buffer::View>, ExportError> {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let offset = self.bin.len();
        let end = offset
            .checked_add(len)
            .filter(|&end| u32::try_from(end).is_ok())
            .ok_or_else(|| too_large("buffer over 4 GiB"))?;
        self.bin.reserve(len);
        fill(&mut self.bin);
        if self.bin.len() != end {
            return Err(ExportError::Scene(std::format!(
                "a buffer view of {len} bytes written as {}",
                self.bin.len() - offset
            )));
        }
        let view = json::buffer::View {
            buffer: json::Index::new(0),
            byte_length: USize64::from(len),
            byte_offset: Some(USize64::from(offset)),
            byte_stride: None,
            name: None,
            target: target.map(Checked::Valid),
            extensions: None,
            extras: None,
        };
        Ok(self.root.push(view))
    }

    /// Appends `count` elements (`bytes`, packed) as a view and an accessor
    /// over it, with `min`/`max` when given.
    pub fn accessor(
        &mut self,
        bytes: &[u8],
        count: usize,
        layout: Layout,
        target: Option<Target>,
        bounds: Option<(Vec<f64>, Vec<f64>)>,
    ) -> Result<json::Index<json::Accessor>, ExportError> {
        let view = self.view(bytes, target)?;
        Ok(self.accessor_on(view, count, layout, bounds))
    }

    /// An accessor of `count` elements over all of `view`.
    fn accessor_on(
        &mut self,
        view: json::Index<json::buffer::View>,
        count: usize,
        layout: Layout,
        bounds: Option<(Vec<f64>, Vec<f64>)>,
    ) -> json::Index<json::Accessor> {
        let (min, max) = match bounds {
            Some((min, max)) => (Some(json::Value::from(min)), Some(json::Value::from(max))),
            None => (None, None),
        };
        let accessor = json::Accessor {
            buffer_view: Some(view),
            byte_offset: None,
            count: USize64::from(count),
            component_type: Checked::Valid(GenericComponentType(layout.component)),
            extensions: None,
            extras: None,
            type_: Checked::Valid(layout.kind),
            min,
            max,
            name: None,
            normalized: layout.normalized,
            sparse: None,
        };
        self.root.push(accessor)
    }

    /// A float accessor of `N`-component vectors, with per-component min/max
    /// when `bounded` (POSITION requires them).
    pub fn floats<const N: usize>(
        &mut self,
        values: &[[f32; N]],
        layout: Layout,
        target: Option<Target>,
        bounded: bool,
    ) -> Result<json::Index<json::Accessor>, ExportError> {
        self.floats_from(
            values.len(),
            values.iter().copied(),
            layout,
            target,
            bounded,
        )
    }

    /// [`Writer::floats`] of the `count` vectors `values` yields, written
    /// into the buffer as they come (min/max taken on the way): a fewer or
    /// longer sequence is an error.
    pub fn floats_from<const N: usize>(
        &mut self,
        count: usize,
        values: impl Iterator<Item = [f32; N]>,
        layout: Layout,
        target: Option<Target>,
        bounded: bool,
    ) -> Result<json::Index<json::Accessor>, ExportError> {
        let mut bounds = Bounds::<N>::new();
        let len = count
            .checked_mul(4 * N)
            .ok_or_else(|| too_large("buffer over 4 GiB"))?;
        let view = self.view_with(len, target, |bin| {
            for v in values {
                if bounded {
                    bounds.add(&v);
                }
                for x in v {
                    bin.extend_from_slice(&x.to_le_bytes());
                }
            }
        })?;
        let bounds = bounded.then(|| bounds.finish());
        Ok(self.accessor_on(view, count, layout, bounds))
    }

    /// An accessor of the `count` plain elements `values` yields (integer
    /// attributes: colours, joints), written into the buffer as they come.
    pub fn elements_from<T: bytemuck::Pod>(
        &mut self,
        count: usize,
        values: impl Iterator<Item = T>,
        layout: Layout,
        target: Option<Target>,
    ) -> Result<json::Index<json::Accessor>, ExportError> {
        let len = count
            .checked_mul(core::mem::size_of::<T>())
            .ok_or_else(|| too_large("buffer over 4 GiB"))?;
        let view = self.view_with(len, target, |bin| {
            for v in values {
                bin.extend_from_slice(bytemuck::bytes_of(&v));
            }
        })?;
        Ok(self.accessor_on(view, count, layout, None))
    }

    /// A triangle index accessor: u16 when every index fits below u16's
    /// restart value, else u32; min/max given as the validator expects.
    pub fn indices(&mut self, indices: &[u32]) -> Result<json::Index<json::Accessor>, ExportError> {
        let max = indices.iter().copied().max().unwrap_or(0);
        let min = indices.iter().copied().min().unwrap_or(0);
        let bounds = Some((std::vec![f64::from(min)], std::vec![f64::from(max)]));
        let target = Some(Target::ElementArrayBuffer);
        if max < u32::from(u16::MAX) {
            let small: Vec<u16> = indices
                .iter()
                .map(|&i| u16::try_from(i).unwrap_or(u16::MAX))
                .collect();
            let layout = Layout::new(ComponentType::U16, Type::Scalar);
            self.accessor(
                bytemuck::cast_slice(&small),
                small.len(),
                layout,
                target,
                bounds,
            )
        } else {
            let layout = Layout::new(ComponentType::U32, Type::Scalar);
            self.accessor(
                bytemuck::cast_slice(indices),
                indices.len(),
                layout,
                target,
                bounds,
            )
        }
    }

    /// The buffer entry, once everything is appended (none when empty: a
    /// glTF buffer may not be zero bytes long).
    pub fn finish_buffer(&mut self, uri: Option<String>) {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        if self.bin.is_empty() {
            return;
        }
        let buffer = json::Buffer {
            byte_length: USize64::from(self.bin.len()),
            name: None,
            uri,
            extensions: None,
            extras: None,
        };
        self.root.push(buffer);
    }
}

/// Per-component minimum and maximum of `values` (NaN-free input assumed;
/// an empty list gives zeros).
pub fn bounds_of<const N: usize>(values: &[[f32; N]]) -> (Vec<f64>, Vec<f64>) {
    let mut bounds = Bounds::<N>::new();
    for v in values {
        bounds.add(v);
    }
    bounds.finish()
}

/// Per-component minimum and maximum, taken one vector at a time.
struct Bounds<const N: usize> {
    min: [f32; N],
    max: [f32; N],
    any: bool,
}

impl<const N: usize> Bounds<N> {
    fn new() -> Self {
        Self {
            min: [f32::INFINITY; N],
            max: [f32::NEG_INFINITY; N],
            any: false,
        }
    }

    fn add(&mut self, v: &[f32; N]) {
        for ((lo, hi), x) in self.min.iter_mut().zip(self.max.iter_mut()).zip(v) {
            *lo = lo.min(*x);
            *hi = hi.max(*x);
        }
        self.any = true;
    }

    /// The bounds as the accessor's `min`/`max` (zeros when nothing came).
    fn finish(&self) -> (Vec<f64>, Vec<f64>) {
        if !self.any {
            return (std::vec![0.0; N], std::vec![0.0; N]);
        }
        (
            self.min.iter().map(|&x| f64::from(x)).collect(),
            self.max.iter().map(|&x| f64::from(x)).collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_start_four_byte_aligned() {
        let mut w = Writer::new();
        w.view(&[1, 2, 3], None).unwrap();
        w.view(&[4], None).unwrap();
        let second = &w.root.buffer_views[1];
        assert_eq!(second.byte_offset, Some(USize64(4)));
        assert_eq!(w.bin, [1, 2, 3, 0, 4]);
    }

    #[test]
    fn small_indices_are_u16_and_carry_min_max() {
        let mut w = Writer::new();
        w.indices(&[0, 5, 2]).unwrap();
        let a = &w.root.accessors[0];
        assert!(matches!(
            a.component_type,
            Checked::Valid(GenericComponentType(ComponentType::U16))
        ));
        assert_eq!(a.max, Some(json::Value::from(std::vec![5.0])));
        let mut w = Writer::new();
        w.indices(&[0, 65535]).unwrap();
        assert!(matches!(
            w.root.accessors[0].component_type,
            Checked::Valid(GenericComponentType(ComponentType::U32))
        ));
    }

    #[test]
    fn bounds_are_per_component() {
        let (min, max) = bounds_of(&[[1.0, -2.0, 3.0], [-1.0, 5.0, 0.0]]);
        assert_eq!(min, [-1.0, -2.0, 0.0]);
        assert_eq!(max, [1.0, 5.0, 3.0]);
    }

    #[test]
    fn a_view_filled_to_another_length_than_declared_is_an_error() {
        // The view's byteLength must be what the buffer holds for it.
        let mut w = Writer::new();
        assert!(
            w.view_with(4, None, |bin| bin.extend_from_slice(&[1, 2]))
                .is_err()
        );
        let mut w = Writer::new();
        assert!(
            w.view_with(2, None, |bin| bin.extend_from_slice(&[1, 2]))
                .is_ok()
        );
    }

    #[test]
    fn floats_written_as_they_come_match_floats_from_a_slice() {
        let values = [[1.0f32, -2.0, 3.0], [-1.0, 5.0, 0.0]];
        let mut a = Writer::new();
        a.floats(&values, Layout::VEC3_F32, None, true).unwrap();
        let mut b = Writer::new();
        b.floats_from(2, values.iter().copied(), Layout::VEC3_F32, None, true)
            .unwrap();
        assert_eq!(a.bin, b.bin);
        assert_eq!(a.root.accessors[0].min, b.root.accessors[0].min);
        assert_eq!(
            b.root.accessors[0].max,
            Some(json::Value::from(std::vec![1.0, 5.0, 3.0]))
        );
        // A sequence shorter than its count is refused.
        let mut c = Writer::new();
        let short = c.floats_from(3, values.iter().copied(), Layout::VEC3_F32, None, false);
        assert!(short.is_err());
    }
}
