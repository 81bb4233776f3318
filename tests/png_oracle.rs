//! Every PNG texture of the corpus — the files in the folders beside the
//! .bbmodel models and every embedded `data:image/png;base64,` string in the
//! models — decodes to the same RGBA8 here as with the png crate. Skips,
//! saying so, when the corpus is absent.

#[path = "support/png_corpus.rs"]
mod png_corpus;
#[path = "support/png.rs"]
mod png_support;
mod support;

#[test]
fn corpus_textures_decode_to_the_png_crates_rgba8() {
    let textures = png_corpus::corpus_textures();
    let mut compared = 0;
    for (name, bytes) in &textures {
        let theirs = png_support::png_crate_rgba8(bytes);
        let ours = png_support::decode(bytes, 0);
        match (ours, theirs) {
            (Ok((h, pixels)), Ok((w, hh, expected))) => {
                assert_eq!((h.width, h.height), (w, hh), "{name}");
                assert!(
                    pixels == expected,
                    "{name}: RGBA8 differs from the png crate's"
                );
                compared += 1;
            }
            (ours, theirs) => panic!(
                "{name}: ours {:?}, png crate {:?}",
                ours.map(|(h, _)| h),
                theirs.map(|t| (t.0, t.1))
            ),
        }
        // Pieces as a data URL decoder hands them out give the same pixels.
        assert_eq!(
            png_support::decode(bytes, 4096),
            png_support::decode(bytes, 0),
            "{name} in pieces"
        );
    }
    eprintln!("{compared} corpus textures match the png crate");
    if support::corpus_dir().is_some() {
        assert!(compared > 50, "only {compared} corpus textures found");
    }
}
