//! A small rig (three groups) and the clips a scene holds, as plain
//! values, for the animation tests.

use scenedec::scene::{ChannelTarget, Interpolation, KeyframeRecord, Scene};
use scenedec::{Loaded, Options, WarningCode};
use serde_json::{Value, json};

use super::bbmodel_builder::{Animation, Group, Model, Obj, Tree, keyframe, tree_4x, tree_5x};

pub const BODY: &str = "00000000-0000-4000-8000-000000000001";
pub const HEAD: &str = "00000000-0000-4000-8000-000000000002";
pub const ARM: &str = "00000000-0000-4000-8000-000000000003";
/// A uuid no group has.
pub const NOBODY: &str = "00000000-0000-4000-8000-0000000000ff";

/// Nodes in outliner order: body 0, Head 1 (inside body), arm 2.
pub const N_BODY: u32 = 0;
pub const N_HEAD: u32 = 1;
pub const N_ARM: u32 = 2;

pub fn tree() -> Vec<Tree> {
    vec![
        Tree::Group(
            Group::new("body", BODY),
            vec![Tree::Group(Group::new("Head", HEAD), vec![])],
        ),
        Tree::Group(Group::new("arm", ARM), vec![]),
    ]
}

/// A format `version` free-format file with the rig and these animations.
pub fn rig(version: &str, animations: Vec<Animation>) -> Model {
    let model = Model::new(version).model_format("free");
    let model = if version.starts_with('5') {
        let (outliner, groups) = tree_5x(&tree());
        model.outliner(outliner).groups(groups)
    } else {
        model.outliner(tree_4x(&tree()))
    };
    model.set("animations", animations)
}

/// A format 5.0 file (no sign migration) with these animations.
pub fn rig5(animations: Vec<Animation>) -> Model {
    rig("5.0", animations)
}

pub fn load(bytes: &[u8]) -> Loaded<'_> {
    scenedec::load(bytes, Some("bbmodel"), &Options::default())
        .unwrap_or_else(|e| panic!("load failed: {e}\n{}", String::from_utf8_lossy(bytes)))
}

pub fn error(model: &Model) -> scenedec::Error {
    match scenedec::load(&model.bytes(), Some("bbmodel"), &Options::default()) {
        Ok(_) => panic!("loaded, but an error was expected:\n{}", model.text()),
        Err(e) => e,
    }
}

pub fn warnings(loaded: &Loaded<'_>) -> Vec<(WarningCode, String)> {
    loaded
        .warnings()
        .as_slice()
        .iter()
        .map(|w| (w.code(), w.at().to_string()))
        .collect()
}

/// A clip as the scene holds it.
#[derive(Debug, PartialEq)]
pub struct Clip {
    pub name: String,
    pub length: f32,
    pub loop_mode: u32,
    pub channels: Vec<Channel>,
}

#[derive(Debug, PartialEq)]
pub struct Channel {
    pub node: u32,
    pub target: u32,
    pub flags: u32,
    pub keys: Vec<KeyframeRecord>,
}

pub fn clips(scene: &Scene<'_>) -> Vec<Clip> {
    scene
        .animations()
        .iter()
        .map(|a| {
            let first = a.first_channel as usize;
            let channels = &scene.channels()[first..first + a.channel_count as usize];
            Clip {
                name: scene.text(a.name).to_owned(),
                length: a.length,
                loop_mode: a.loop_mode,
                channels: channels
                    .iter()
                    .map(|c| {
                        let k = c.first_keyframe as usize;
                        Channel {
                            node: c.node,
                            target: c.target,
                            flags: c.flags,
                            keys: scene.keyframes()[k..k + c.keyframe_count as usize].to_vec(),
                        }
                    })
                    .collect(),
            }
        })
        .collect()
}

pub fn only_clip(model: &Model) -> (Clip, Vec<(WarningCode, String)>) {
    let bytes = model.bytes();
    let loaded = load(&bytes);
    let mut all = clips(&loaded.scene());
    assert_eq!(all.len(), 1, "{}", model.text());
    (all.remove(0), warnings(&loaded))
}

/// The one channel of the only clip.
pub fn only_channel(model: &Model) -> (Channel, Vec<(WarningCode, String)>) {
    let (mut clip, w) = only_clip(model);
    assert_eq!(clip.channels.len(), 1, "{clip:?}");
    (clip.channels.remove(0), w)
}

pub fn p(x: f64, y: f64, z: f64) -> Value {
    json!({"x": x, "y": y, "z": z})
}

pub fn key(
    time: f32,
    interpolation: Interpolation,
    pre: [f32; 3],
    post: [f32; 3],
) -> KeyframeRecord {
    KeyframeRecord {
        time,
        interpolation: interpolation as u32,
        pre,
        post,
        data_points: if pre == post { 1 } else { 2 },
        // Blockbench's handle defaults, which every keyframe read has.
        bezier_left_time: [-0.1; 3],
        bezier_right_time: [0.1; 3],
        ..KeyframeRecord::default()
    }
}

pub fn rad(degrees: f64) -> f32 {
    degrees.to_radians() as f32
}

pub const LINEAR: Interpolation = Interpolation::Linear;
pub const T: u32 = ChannelTarget::Translation as u32;
pub const R: u32 = ChannelTarget::Rotation as u32;
pub const S: u32 = ChannelTarget::Scale as u32;

pub fn position(time: f64, x: f64, y: f64, z: f64) -> Obj {
    keyframe("position", time, vec![p(x, y, z)])
}
