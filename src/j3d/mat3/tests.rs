use super::*;
use zerocopy::big_endian::I16;

#[test]
fn record_types_have_their_pool_sizes() {
    use core::mem::size_of;
    assert_eq!(size_of::<ColorChannel>(), Pool::Channels.record_size());
    assert_eq!(size_of::<Light>(), Pool::Lights.record_size());
    assert_eq!(size_of::<TexGen>(), Pool::TexGens.record_size());
    assert_eq!(size_of::<TexMatrix>(), Pool::TexMatrices.record_size());
    assert_eq!(size_of::<TevOrder>(), Pool::TevOrders.record_size());
    assert_eq!(size_of::<[I16; 4]>(), Pool::TevColors.record_size());
    assert_eq!(size_of::<TevStage>(), Pool::TevStages.record_size());
    assert_eq!(size_of::<SwapMode>(), Pool::SwapModes.record_size());
    assert_eq!(size_of::<SwapTable>(), Pool::SwapTables.record_size());
    assert_eq!(size_of::<Fog>(), Pool::Fog.record_size());
    assert_eq!(size_of::<AlphaCompare>(), Pool::AlphaCompare.record_size());
    assert_eq!(size_of::<BlendMode>(), Pool::Blend.record_size());
    assert_eq!(size_of::<ZMode>(), Pool::ZMode.record_size());
    assert_eq!(size_of::<NbtScale>(), Pool::NbtScale.record_size());
    assert_eq!(size_of::<Indirect>(), INDIRECT_SIZE);
}

#[test]
fn pool_header_fields_run_from_0x1c_to_0x80() {
    assert_eq!(Pool::CullModes.header_field(), 0x1C);
    assert_eq!(Pool::Textures.header_field(), 0x48);
    assert_eq!(Pool::Blend.header_field(), 0x70);
    assert_eq!(Pool::NbtScale.header_field(), 0x80);
    for (i, p) in Pool::ALL.iter().enumerate() {
        assert_eq!(*p as usize, i);
    }
}

#[test]
fn entry_fields_end_inside_the_entry() {
    for f in Field::ALL {
        assert!(f.offset + f.slots * f.width <= ENTRY_SIZE, "{f:?}");
    }
    assert_eq!(Field::BLEND.offset + 2, 0x14A);
}

fn compare(c0: u8, r0: u8, op: u8, c1: u8, r1: u8) -> AlphaCompare {
    AlphaCompare {
        compare0: c0,
        reference0: r0,
        op,
        compare1: c1,
        reference1: r1,
        pad: [0; 3],
    }
}

#[test]
fn alpha_compare_always_or_always_keeps_everything() {
    assert_eq!(compare(7, 0, 1, 7, 0).test(), AlphaTest::KeepsAll);
    assert_eq!(compare(7, 0, 0, 7, 0).test(), AlphaTest::KeepsAll);
    // GEQUAL 0 keeps everything too.
    assert_eq!(compare(6, 0, 0, 7, 0).test(), AlphaTest::KeepsAll);
}

#[test]
fn alpha_compare_greater_keeps_from_the_next_value() {
    // GREATER 127 AND ALWAYS: the corpus's most common cut-out.
    assert_eq!(compare(4, 127, 0, 7, 0).test(), AlphaTest::KeepsFrom(128));
    // GEQUAL 128 AND LEQUAL 255.
    assert_eq!(compare(6, 128, 0, 3, 255).test(), AlphaTest::KeepsFrom(128));
    // GREATER 10 OR NEVER.
    assert_eq!(compare(4, 10, 1, 0, 0).test(), AlphaTest::KeepsFrom(11));
}

#[test]
fn alpha_compare_that_is_no_threshold_is_other() {
    assert_eq!(compare(1, 128, 0, 7, 0).test(), AlphaTest::Other); // LESS
    assert_eq!(compare(0, 0, 0, 7, 0).test(), AlphaTest::Other); // never
    assert_eq!(compare(6, 10, 0, 3, 200).test(), AlphaTest::Other); // band
}
