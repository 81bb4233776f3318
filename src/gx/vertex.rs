//! GX vertex attributes: which attribute, how it is indexed in a display list,
//! and how its array stores components.

use core::fmt;

/// A GX vertex attribute (GXAttr), as J3D's VTX1 and SHP1 name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum VertexAttribute {
    /// Position/normal matrix index (direct u8): slot × 3.
    PositionMatrixIndex,
    /// Texture matrix index of TEX0–7 (direct u8); read and ignored.
    TexMatrixIndex(u8),
    /// Position.
    Position,
    /// Normal (or normal, binormal, tangent).
    Normal,
    /// Colour 0 or 1.
    Color(u8),
    /// Texture coordinate set 0–7.
    TexCoord(u8),
    /// The NBT array of VTX1 (attribute 0x19).
    NormalBinormalTangent,
}

impl VertexAttribute {
    /// The attribute for a GXAttr code, or `None` for codes J3D does not use
    /// in vertices (matrix arrays, NULL).
    pub fn from_code(code: u32) -> Option<Self> {
        Some(match code {
            0x00 => Self::PositionMatrixIndex,
            0x01..=0x08 => Self::TexMatrixIndex(u8::try_from(code.checked_sub(0x01)?).ok()?),
            0x09 => Self::Position,
            0x0A => Self::Normal,
            0x0B | 0x0C => Self::Color(u8::try_from(code.checked_sub(0x0B)?).ok()?),
            0x0D..=0x14 => Self::TexCoord(u8::try_from(code.checked_sub(0x0D)?).ok()?),
            0x19 => Self::NormalBinormalTangent,
            _ => return None,
        })
    }

    /// The GXAttr code.
    pub fn code(self) -> u32 {
        match self {
            Self::PositionMatrixIndex => 0x00,
            Self::TexMatrixIndex(i) => 0x01 + u32::from(i),
            Self::Position => 0x09,
            Self::Normal => 0x0A,
            Self::Color(i) => 0x0B + u32::from(i),
            Self::TexCoord(i) => 0x0D + u32::from(i),
            Self::NormalBinormalTangent => 0x19,
        }
    }

    /// The VTX1 array slot (0..13) holding this attribute's data, if any.
    pub fn array_slot(self) -> Option<usize> {
        match self {
            Self::Position => Some(0),
            Self::Normal => Some(1),
            Self::NormalBinormalTangent => Some(2),
            Self::Color(i) => Some(3 + usize::from(i)),
            Self::TexCoord(i) => Some(5 + usize::from(i)),
            Self::PositionMatrixIndex | Self::TexMatrixIndex(_) => None,
        }
    }
}

impl fmt::Display for VertexAttribute {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::PositionMatrixIndex => f.write_str("PNMTXIDX"),
            Self::TexMatrixIndex(i) => write!(f, "TEX{i}MTXIDX"),
            Self::Position => f.write_str("POS"),
            Self::Normal => f.write_str("NRM"),
            Self::Color(i) => write!(f, "CLR{i}"),
            Self::TexCoord(i) => write!(f, "TEX{i}"),
            Self::NormalBinormalTangent => f.write_str("NBT"),
        }
    }
}

/// How a display-list vertex carries an attribute (GXAttrType).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttributeInput {
    /// Not present.
    None,
    /// The value inline (matrix indices: one u8).
    Direct,
    /// A u8 index into the attribute's array.
    Index8,
    /// A u16 index into the attribute's array.
    Index16,
}

impl AttributeInput {
    /// The input for a GXAttrType code.
    pub fn from_code(code: u32) -> Option<Self> {
        Some(match code {
            0 => Self::None,
            1 => Self::Direct,
            2 => Self::Index8,
            3 => Self::Index16,
            _ => return None,
        })
    }
}

/// Numeric component types (GXCompType for non-colour attributes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComponentType {
    /// Unsigned 8-bit, fixed point.
    U8,
    /// Signed 8-bit, fixed point.
    S8,
    /// Unsigned 16-bit, fixed point.
    U16,
    /// Signed 16-bit, fixed point.
    S16,
    /// IEEE single.
    F32,
}

/// Colour component formats (GXCompType for colour attributes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorFormat {
    /// 16-bit 5:6:5, alpha 255.
    Rgb565,
    /// 24-bit 8:8:8, alpha 255.
    Rgb8,
    /// 32-bit 8:8:8 and an ignored byte, alpha 255.
    Rgbx8,
    /// 16-bit 4:4:4:4.
    Rgba4,
    /// 24-bit 6:6:6:6.
    Rgba6,
    /// 32-bit 8:8:8:8.
    Rgba8,
}

/// How one array stores its elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrayFormat {
    /// `count` numeric components of `ty`, divided by 2^`shift` when fixed point.
    Numeric {
        /// Components per element (2 or 3 for positions, 3 or 9 for normals, 1 or 2 for UVs).
        count: u8,
        /// Component type.
        ty: ComponentType,
        /// Fixed-point fraction bits (already forced to 6/14 for normals).
        shift: u8,
    },
    /// A colour.
    Color(ColorFormat),
}

impl ArrayFormat {
    /// The format of `attribute`'s array from VTX1's raw fields, or `None`
    /// when a code is out of range.
    ///
    /// Normals ignore the stored shift: GX has no normal fraction field and
    /// always reads 6 fraction bits for 8-bit and 14 for 16-bit normals (real
    /// files store 15; the reference reader uses 14 too).
    pub fn from_vtx1(
        attribute: VertexAttribute,
        comp_count: u32,
        comp_type: u32,
        shift: u8,
    ) -> Option<Self> {
        if let VertexAttribute::Color(_) = attribute {
            let format = match comp_type {
                0 => ColorFormat::Rgb565,
                1 => ColorFormat::Rgb8,
                2 => ColorFormat::Rgbx8,
                3 => ColorFormat::Rgba4,
                4 => ColorFormat::Rgba6,
                5 => ColorFormat::Rgba8,
                _ => return None,
            };
            return (comp_count <= 1).then_some(Self::Color(format));
        }
        let ty = match comp_type {
            0 => ComponentType::U8,
            1 => ComponentType::S8,
            2 => ComponentType::U16,
            3 => ComponentType::S16,
            4 => ComponentType::F32,
            _ => return None,
        };
        let count = match (attribute, comp_count) {
            (VertexAttribute::Position, 0) => 2,
            (VertexAttribute::Position, 1) => 3,
            (VertexAttribute::Normal, 0) => 3,
            (VertexAttribute::Normal | VertexAttribute::NormalBinormalTangent, 1 | 2) => 9,
            (VertexAttribute::NormalBinormalTangent, 0) => 9,
            (VertexAttribute::TexCoord(_), 0) => 1,
            (VertexAttribute::TexCoord(_), 1) => 2,
            _ => return None,
        };
        let shift = match (attribute, ty) {
            (
                VertexAttribute::Normal | VertexAttribute::NormalBinormalTangent,
                ComponentType::U8 | ComponentType::S8,
            ) => 6,
            (
                VertexAttribute::Normal | VertexAttribute::NormalBinormalTangent,
                ComponentType::U16 | ComponentType::S16,
            ) => 14,
            (_, ComponentType::F32) => 0,
            _ if shift > 31 => return None,
            _ => shift,
        };
        Some(Self::Numeric { count, ty, shift })
    }

    /// Bytes of one element.
    pub fn stride(self) -> usize {
        match self {
            #[allow(
                clippy::arithmetic_side_effects,
                reason = "a u8 count times at most 4 bytes is below 2^10"
            )]
            Self::Numeric { count, ty, .. } => usize::from(count) * component_size(ty),
            Self::Color(ColorFormat::Rgb565 | ColorFormat::Rgba4) => 2,
            Self::Color(ColorFormat::Rgb8 | ColorFormat::Rgba6) => 3,
            Self::Color(ColorFormat::Rgbx8 | ColorFormat::Rgba8) => 4,
        }
    }

    /// Reads the first `N` numeric components of the element at the start of
    /// `bytes` (which holds at least [`ArrayFormat::stride`] bytes), fixed
    /// point divided out; components the element does not have read as 0.
    ///
    /// Returned by value and inlined: a decoder reads several per vertex, and
    /// components stored one by one into an array the caller then loads in
    /// pairs stall on store forwarding.
    #[inline(always)]
    pub fn read_numeric<const N: usize>(self, bytes: &[u8]) -> [f32; N] {
        let Self::Numeric { count, ty, shift } = self else {
            return [0.0; N];
        };
        read_components(ty, usize::from(count), fixed_point_scale(shift), bytes)
    }

    /// A reader of elements by index from `data`, an array in this format:
    /// see [`NumericReader`].
    pub(crate) fn numeric_reader(self, data: &[u8]) -> NumericReader<'_> {
        let (components, ty, scale) = match self {
            Self::Numeric { count, ty, shift } => {
                (usize::from(count), ty, fixed_point_scale(shift))
            }
            // Colours read as numbers are all zeros, as in `read_numeric`.
            Self::Color(_) => (0, ComponentType::U8, 1.0),
        };
        NumericReader {
            data,
            stride: self.stride(),
            components,
            ty,
            scale,
        }
    }

    /// Reads the colour at the start of `bytes` as RGBA8 (bit replication for
    /// 4- and 6-bit channels, as GX expands them).
    #[inline]
    pub fn read_color(self, bytes: &[u8]) -> [u8; 4] {
        let Self::Color(format) = self else {
            return [0; 4];
        };
        let b = |i: usize| bytes.get(i).copied().unwrap_or(0);
        match format {
            ColorFormat::Rgb565 => {
                let v = u16::from_be_bytes([b(0), b(1)]);
                [
                    expand5((v >> 11) & 31),
                    expand6((v >> 5) & 63),
                    expand5(v & 31),
                    255,
                ]
            }
            ColorFormat::Rgb8 | ColorFormat::Rgbx8 => [b(0), b(1), b(2), 255],
            ColorFormat::Rgba4 => {
                let v = u16::from_be_bytes([b(0), b(1)]);
                [
                    expand4(v >> 12),
                    expand4((v >> 8) & 15),
                    expand4((v >> 4) & 15),
                    expand4(v & 15),
                ]
            }
            ColorFormat::Rgba6 => {
                let v = u32::from_be_bytes([0, b(0), b(1), b(2)]);
                [
                    expand6u((v >> 18) & 63),
                    expand6u((v >> 12) & 63),
                    expand6u((v >> 6) & 63),
                    expand6u(v & 63),
                ]
            }
            ColorFormat::Rgba8 => [b(0), b(1), b(2), b(3)],
        }
    }
}

/// A numeric vertex array resolved for reading elements by index: the
/// format's variant, stride and fixed-point scale are worked out once, not
/// for every vertex. Reads give exactly what
/// [`ArrayFormat::read_numeric`] gives on the element's bytes (zeros past the
/// array's end).
#[derive(Clone, Copy, Debug)]
pub(crate) struct NumericReader<'a> {
    data: &'a [u8],
    stride: usize,
    components: usize,
    ty: ComponentType,
    scale: f32,
}

impl NumericReader<'_> {
    /// Runs `visitor` with a read of elements made for this array's
    /// component type: `read(i)` gives the first `N` components of element
    /// `i`, and the type is not chosen again for every element, so a loop
    /// over many elements is compiled once per type.
    #[inline(always)]
    pub(crate) fn visit<const N: usize, V: ElementVisitor<N>>(&self, visitor: V) -> V::Output {
        let scale = self.scale;
        match self.ty {
            ComponentType::U8 => {
                visitor.run(|i| self.read_as::<N, 1>(i, |[a]| f32::from(a) * scale))
            }
            ComponentType::S8 => visitor
                .run(|i| self.read_as::<N, 1>(i, |c| f32::from(i8::from_be_bytes(c)) * scale)),
            ComponentType::U16 => visitor
                .run(|i| self.read_as::<N, 2>(i, |c| f32::from(u16::from_be_bytes(c)) * scale)),
            ComponentType::S16 => visitor
                .run(|i| self.read_as::<N, 2>(i, |c| f32::from(i16::from_be_bytes(c)) * scale)),
            ComponentType::F32 => visitor.run(|i| self.read_as::<N, 4>(i, f32::from_be_bytes)),
        }
    }

    /// The first `N` components of element `i`, each of `W` bytes
    /// converted by `f`.
    #[inline(always)]
    fn read_as<const N: usize, const W: usize>(
        &self,
        i: usize,
        f: impl Fn([u8; W]) -> f32,
    ) -> [f32; N] {
        let bytes = element(self.data, self.stride, i).unwrap_or_default();
        if self.components >= N {
            // All N present: one run, no question per component.
            let (chunks, _) = bytes.as_chunks::<W>();
            if let Some(chunks) = chunks.first_chunk::<N>() {
                return chunks.map(&f);
            }
        }
        components::<N, W>(bytes, self.components, f)
    }
}

impl NumericReader<'_> {
    /// Runs `visitor` over this array's elements as `S`-byte chunks, when
    /// an element is exactly `N` components of one type (what every real
    /// position, normal and UV array holds): an element is then one checked
    /// chunk of known size, read by a loop with nothing chosen per element.
    /// Any other layout goes to [`NumericReader::visit`]. `read` gives what
    /// [`ArrayFormat::read_numeric`] gives.
    #[inline(always)]
    pub(crate) fn visit_fixed<const N: usize, O, V>(&self, visitor: V) -> O
    where
        V: FixedVisitor<N, Output = O> + ElementVisitor<N, Output = O>,
    {
        if self.components != N {
            return self.visit(visitor);
        }
        let scale = self.scale;
        let data = self.data;
        let u8s = |c: [u8; 1]| f32::from(c[0]) * scale;
        let s8s = |c: [u8; 1]| f32::from(i8::from_be_bytes(c)) * scale;
        let u16s = |c: [u8; 2]| f32::from(u16::from_be_bytes(c)) * scale;
        let s16s = |c: [u8; 2]| f32::from(i16::from_be_bytes(c)) * scale;
        match (self.ty, N) {
            (ComponentType::S16, 3) => {
                visitor.run_fixed::<6>(data.as_chunks().0, |e| fixed(e, s16s))
            }
            (ComponentType::S16, 2) => {
                visitor.run_fixed::<4>(data.as_chunks().0, |e| fixed(e, s16s))
            }
            (ComponentType::F32, 3) => {
                visitor.run_fixed::<12>(data.as_chunks().0, |e| fixed(e, f32::from_be_bytes))
            }
            (ComponentType::F32, 2) => {
                visitor.run_fixed::<8>(data.as_chunks().0, |e| fixed(e, f32::from_be_bytes))
            }
            (ComponentType::U16, 3) => {
                visitor.run_fixed::<6>(data.as_chunks().0, |e| fixed(e, u16s))
            }
            (ComponentType::U16, 2) => {
                visitor.run_fixed::<4>(data.as_chunks().0, |e| fixed(e, u16s))
            }
            (ComponentType::U8, 3) => visitor.run_fixed::<3>(data.as_chunks().0, |e| fixed(e, u8s)),
            (ComponentType::U8, 2) => visitor.run_fixed::<2>(data.as_chunks().0, |e| fixed(e, u8s)),
            (ComponentType::S8, 3) => visitor.run_fixed::<3>(data.as_chunks().0, |e| fixed(e, s8s)),
            (ComponentType::S8, 2) => visitor.run_fixed::<2>(data.as_chunks().0, |e| fixed(e, s8s)),
            _ => self.visit(visitor),
        }
    }

    /// Whole elements the array holds: the bound its indices are checked
    /// against.
    pub(crate) fn len(&self) -> usize {
        self.data
            .len()
            .checked_div(self.stride.max(1))
            .unwrap_or_default()
    }
}

/// The first `N` components of an `S`-byte element, `W` bytes each,
/// converted by `f` (every size known when compiled, so nothing is checked
/// at run time).
#[inline(always)]
fn fixed<const N: usize, const W: usize, const S: usize>(
    element: &[u8; S],
    f: impl Fn([u8; W]) -> f32,
) -> [f32; N] {
    let (chunks, _) = element.as_chunks::<W>();
    core::array::from_fn(|k| chunks.get(k).map_or(0.0, |c| f(*c)))
}

/// A loop over an array's elements as fixed-size chunks
/// ([`NumericReader::visit_fixed`]).
pub(crate) trait FixedVisitor<const N: usize> {
    /// What the loop returns.
    type Output;
    /// Runs the loop: `elements` are the array's elements, `read` one's
    /// first `N` components.
    fn run_fixed<const S: usize>(
        self,
        elements: &[[u8; S]],
        read: impl Fn(&[u8; S]) -> [f32; N],
    ) -> Self::Output;
}

/// A loop over array elements, given a read made for the array's component
/// type ([`NumericReader::visit`]).
pub(crate) trait ElementVisitor<const N: usize> {
    /// What the loop returns.
    type Output;
    /// Runs the loop; `read(i)` is element `i`.
    fn run(self, read: impl Fn(usize) -> [f32; N]) -> Self::Output;
}

/// The bytes of element `i` of an array of `stride`-byte elements, if `data`
/// holds it whole.
#[inline(always)]
pub(crate) fn element(data: &[u8], stride: usize, i: usize) -> Option<&[u8]> {
    data.get(i.checked_mul(stride)?..)?.get(..stride)
}

/// 2^-shift, built from its exponent: no division per read (from_vtx1 keeps
/// shifts at most 31; a larger one written by hand gives a scale of 0 rather
/// than a panic).
#[inline(always)]
fn fixed_point_scale(shift: u8) -> f32 {
    f32::from_bits(127u32.saturating_sub(u32::from(shift)) << 23)
}

/// The first `N` of the `n` components of type `ty` at the start of `bytes`,
/// each times `scale` (a fixed-point divisor; 1 for floats).
#[inline(always)]
fn read_components<const N: usize>(
    ty: ComponentType,
    n: usize,
    scale: f32,
    bytes: &[u8],
) -> [f32; N] {
    match ty {
        ComponentType::U8 => components::<N, 1>(bytes, n, |[a]| f32::from(a) * scale),
        ComponentType::S8 => {
            components::<N, 1>(bytes, n, |c| f32::from(i8::from_be_bytes(c)) * scale)
        }
        ComponentType::U16 => {
            components::<N, 2>(bytes, n, |c| f32::from(u16::from_be_bytes(c)) * scale)
        }
        ComponentType::S16 => {
            components::<N, 2>(bytes, n, |c| f32::from(i16::from_be_bytes(c)) * scale)
        }
        ComponentType::F32 => components::<N, 4>(bytes, n, f32::from_be_bytes),
    }
}

/// The first `N` of `n` components of `W` bytes each at the start of
/// `bytes`, each converted by `f`; missing ones are 0. One loop per component
/// type, fully unrolled for the small `N` a vertex attribute has.
#[inline(always)]
fn components<const N: usize, const W: usize>(
    bytes: &[u8],
    n: usize,
    f: impl Fn([u8; W]) -> f32,
) -> [f32; N] {
    core::array::from_fn(|k| {
        if k >= n {
            return 0.0;
        }
        #[allow(
            clippy::arithmetic_side_effects,
            reason = "k < N, at most 9 components, of W <= 4 bytes"
        )]
        let start = k * W;
        bytes
            .get(start..)
            .and_then(<[u8]>::first_chunk::<W>)
            .map_or(0.0, |c| f(*c))
    })
}

fn component_size(ty: ComponentType) -> usize {
    match ty {
        ComponentType::U8 | ComponentType::S8 => 1,
        ComponentType::U16 | ComponentType::S16 => 2,
        ComponentType::F32 => 4,
    }
}

fn low_byte(v: u32) -> u8 {
    v.to_le_bytes()[0]
}

fn expand4(v: u16) -> u8 {
    low_byte(u32::from(v & 15) * 0x11)
}

fn expand5(v: u16) -> u8 {
    let v = u32::from(v & 31);
    low_byte((v << 3) | (v >> 2))
}

fn expand6(v: u16) -> u8 {
    expand6u(u32::from(v))
}

fn expand6u(v: u32) -> u8 {
    let v = v & 63;
    low_byte((v << 2) | (v >> 4))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads element `.0` through [`NumericReader::visit`].
    struct ReadOne(usize);

    impl<const N: usize> ElementVisitor<N> for ReadOne {
        type Output = [f32; N];
        fn run(self, read: impl Fn(usize) -> [f32; N]) -> [f32; N] {
            read(self.0)
        }
    }

    /// Reads element `.0` through [`NumericReader::visit_fixed`]: `None`
    /// past the array's end on the fixed-size path, which checks the index.
    struct ReadFixed(usize);

    impl<const N: usize> ElementVisitor<N> for ReadFixed {
        type Output = (bool, Option<[f32; N]>);
        fn run(self, read: impl Fn(usize) -> [f32; N]) -> Self::Output {
            (false, Some(read(self.0)))
        }
    }

    impl<const N: usize> FixedVisitor<N> for ReadFixed {
        type Output = (bool, Option<[f32; N]>);
        fn run_fixed<const S: usize>(
            self,
            elements: &[[u8; S]],
            read: impl Fn(&[u8; S]) -> [f32; N],
        ) -> Self::Output {
            (true, elements.get(self.0).map(read))
        }
    }

    /// The fixed-size path reads exactly what `read_numeric` reads, for
    /// every component type, count and shift it takes, refuses exactly the
    /// indices past `len`, and is taken for every layout of `N` components.
    #[test]
    fn fixed_reads_match_read_numeric() {
        let data: [u8; 37] = core::array::from_fn(|i| (i as u8).wrapping_mul(53).wrapping_add(7));
        let types = [
            ComponentType::U8,
            ComponentType::S8,
            ComponentType::U16,
            ComponentType::S16,
            ComponentType::F32,
        ];
        fn check<const N: usize>(format: ArrayFormat, data: &[u8]) {
            let reader = format.numeric_reader(data);
            let stride = format.stride();
            let mut fixed_path = false;
            for i in [0, 1, 2, 5, 36, 37, usize::MAX] {
                let (fixed, read): (bool, Option<[f32; N]>) = reader.visit_fixed(ReadFixed(i));
                fixed_path |= fixed;
                let expected = element(data, stride, i).map(|b| format.read_numeric::<N>(b));
                if fixed {
                    assert_eq!(i < reader.len(), expected.is_some(), "{format:?} {i}");
                    assert_eq!(
                        read.map(|v| v.map(f32::to_bits)),
                        expected.map(|v| v.map(f32::to_bits)),
                        "{format:?} element {i}"
                    );
                } else if let (Some(read), Some(expected)) = (read, expected) {
                    assert_eq!(read.map(f32::to_bits), expected.map(f32::to_bits));
                }
            }
            if let ArrayFormat::Numeric { count, .. } = format {
                assert_eq!(fixed_path, usize::from(count) == N, "{format:?}");
            }
        }
        for ty in types {
            for count in [1, 2, 3, 9] {
                for shift in [0, 6, 14, 31] {
                    let format = ArrayFormat::Numeric { count, ty, shift };
                    check::<2>(format, &data);
                    check::<3>(format, &data);
                }
            }
        }
    }

    /// The resolved reader gives, for every element index (past the end
    /// too), exactly what `read_numeric` gives on that element's bytes.
    #[test]
    fn numeric_reader_reads_what_read_numeric_reads() {
        let data: [u8; 37] = core::array::from_fn(|i| (i as u8).wrapping_mul(29).wrapping_add(3));
        let check = |format: ArrayFormat| {
            let reader = format.numeric_reader(&data);
            let stride = format.stride();
            for i in [0, 1, 2, 5, 36, 37, usize::MAX / 2, usize::MAX] {
                let bytes = element(&data, stride, i).unwrap_or_default();
                let bits = |v: [f32; 3]| v.map(f32::to_bits);
                assert_eq!(
                    bits(reader.visit(ReadOne(i))),
                    bits(format.read_numeric::<3>(bytes)),
                    "{format:?} element {i}"
                );
                let two: [f32; 2] = reader.visit(ReadOne(i));
                let expected: [f32; 2] = format.read_numeric(bytes);
                assert_eq!(two.map(f32::to_bits), expected.map(f32::to_bits));
            }
        };
        check(ArrayFormat::Color(ColorFormat::Rgba8));
        check(ArrayFormat::Color(ColorFormat::Rgb565));
        for ty in [
            ComponentType::U8,
            ComponentType::S8,
            ComponentType::U16,
            ComponentType::S16,
            ComponentType::F32,
        ] {
            for count in [0, 1, 2, 3, 9] {
                for shift in [0, 6, 14, 31, 64] {
                    check(ArrayFormat::Numeric { count, ty, shift });
                }
            }
        }
    }

    #[test]
    fn vtx1_normal_shift_ignores_stored_15() {
        let f = ArrayFormat::from_vtx1(VertexAttribute::Normal, 0, 3, 15).unwrap();
        assert_eq!(
            f,
            ArrayFormat::Numeric {
                count: 3,
                ty: ComponentType::S16,
                shift: 14
            }
        );
        let f = ArrayFormat::from_vtx1(VertexAttribute::Normal, 0, 1, 15).unwrap();
        assert_eq!(
            f,
            ArrayFormat::Numeric {
                count: 3,
                ty: ComponentType::S8,
                shift: 6
            }
        );
        let out: [f32; 3] = ArrayFormat::from_vtx1(VertexAttribute::Normal, 0, 3, 15)
            .unwrap()
            .read_numeric(&[0x40, 0, 0xC0, 0, 0, 0]);
        assert_eq!(out, [1.0, -1.0, 0.0]);
    }

    #[test]
    fn fixed_point_positions_divide_by_two_to_the_shift() {
        let f = ArrayFormat::from_vtx1(VertexAttribute::Position, 1, 3, 8).unwrap();
        let bytes = [0x01, 0x80, 0xFF, 0x00, 0x00, 0x40];
        assert_eq!(f.read_numeric(&bytes), [1.5, -1.0, 0.25]);
        // Fewer components asked for than stored: the first ones; more: zeros.
        assert_eq!(f.read_numeric(&bytes), [1.5]);
        assert_eq!(f.read_numeric(&bytes), [1.5, -1.0, 0.25, 0.0]);
        let f = ArrayFormat::from_vtx1(VertexAttribute::TexCoord(0), 1, 0, 7).unwrap();
        assert_eq!(f.read_numeric(&[0x80, 0x40]), [1.0, 0.5, 0.0]);
        let f = ArrayFormat::from_vtx1(VertexAttribute::Position, 0, 4, 9).unwrap();
        assert_eq!(f.stride(), 8);
        assert_eq!(
            f.read_numeric(&1.25f32.to_be_bytes().repeat(2)),
            [1.25, 1.25, 0.0]
        );
        let unsigned = ArrayFormat::from_vtx1(VertexAttribute::TexCoord(1), 1, 2, 8).unwrap();
        assert_eq!(
            unsigned.read_numeric(&[0x01, 0x80, 0xFF, 0x00]),
            [1.5, 255.0]
        );
        let bytes = ArrayFormat::from_vtx1(VertexAttribute::TexCoord(1), 1, 0, 1).unwrap();
        assert_eq!(bytes.read_numeric(&[0x03, 0xFF]), [1.5, 127.5]);
        let signed = ArrayFormat::from_vtx1(VertexAttribute::TexCoord(1), 1, 1, 1).unwrap();
        assert_eq!(signed.read_numeric(&[0x03, 0xFF]), [1.5, -0.5]);
        assert_eq!(
            ArrayFormat::Color(ColorFormat::Rgb8).read_numeric(&[1, 2]),
            [0.0; 2]
        );
        // Shifts only from_vtx1 bounds, written by hand: scaled, no panic.
        let by = |shift| ArrayFormat::Numeric {
            count: 1,
            ty: ComponentType::U8,
            shift,
        };
        assert_eq!(by(31).read_numeric(&[128]), [2f32.powi(-24)]);
        assert_eq!(by(126).read_numeric(&[2]), [2f32.powi(-125)]);
        assert_eq!(by(200).read_numeric(&[255]), [0.0]);
    }

    #[test]
    fn every_colour_format_expands_by_bit_replication() {
        let c = |format, bytes: &[u8]| ArrayFormat::Color(format).read_color(bytes);
        assert_eq!(c(ColorFormat::Rgb565, &[0xF8, 0x1F]), [255, 0, 255, 255]);
        assert_eq!(c(ColorFormat::Rgb565, &[0x84, 0x10]), [132, 130, 132, 255]);
        assert_eq!(c(ColorFormat::Rgb8, &[1, 2, 3]), [1, 2, 3, 255]);
        assert_eq!(c(ColorFormat::Rgbx8, &[1, 2, 3, 9]), [1, 2, 3, 255]);
        assert_eq!(
            c(ColorFormat::Rgba4, &[0x12, 0x3F]),
            [0x11, 0x22, 0x33, 0xFF]
        );
        // 6-bit 0b100000 -> 0b10000010.
        assert_eq!(
            c(ColorFormat::Rgba6, &[0x82, 0x08, 0x20]),
            [130, 130, 130, 130]
        );
        assert_eq!(c(ColorFormat::Rgba8, &[1, 2, 3, 4]), [1, 2, 3, 4]);
        assert_eq!(ArrayFormat::Color(ColorFormat::Rgba6).stride(), 3);
    }

    #[test]
    fn attribute_codes_round_trip() {
        for code in (0..=0x14).chain([0x19]) {
            let a = VertexAttribute::from_code(code).unwrap();
            assert_eq!(a.code(), code);
        }
        assert_eq!(VertexAttribute::from_code(0x15), None);
        assert_eq!(VertexAttribute::from_code(0xFF), None);
    }
}
