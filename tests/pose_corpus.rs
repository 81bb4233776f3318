//! Every clip of every corpus .bbmodel samples at its start, its midpoint
//! and its end without error, and every node's world matrix there is finite.

mod support;

use scenedec::scene::{Mat4, NodePose, world_matrices};

#[test]
fn every_corpus_clip_samples_at_start_middle_and_end_with_finite_matrices() {
    let files = support::corpus_files("bbmodel", &[".bbmodel"]);
    let (mut animated_files, mut clips) = (0, 0);
    for path in &files {
        let name = path.file_name().unwrap().to_str().unwrap();
        let bytes = std::fs::read(path).unwrap();
        let options = support::corpus_options(name);
        // Files made to fail (empty, truncated) are the load tests' business.
        let Ok(loaded) = scenedec::load(&bytes, Some("bbmodel"), &options) else {
            continue;
        };
        let scene = loaded.scene();
        let mut poses = vec![NodePose::default(); scene.nodes().len()];
        let mut world = vec![Mat4::IDENTITY; scene.nodes().len()];
        for (clip, record) in scene.animations().iter().enumerate() {
            for t in [0.0, record.length / 2.0, record.length] {
                scene
                    .sample(clip, t, &mut poses)
                    .unwrap_or_else(|e| panic!("{name} clip {clip} at {t}: {e}"));
                world_matrices(&scene, &poses, &mut world);
                for (node, m) in world.iter().enumerate() {
                    assert!(
                        m.0.iter().all(|v| v.is_finite()),
                        "{name} clip {clip} at {t} s: node {node} {m:?}"
                    );
                }
            }
            clips += 1;
        }
        animated_files += usize::from(!scene.animations().is_empty());
    }
    if !files.is_empty() {
        // The corpus's animated files (18 of them when this was written).
        assert!(
            animated_files >= 15,
            "only {animated_files} files had clips"
        );
        eprintln!("{clips} clips of {animated_files} files sampled");
    }
}
