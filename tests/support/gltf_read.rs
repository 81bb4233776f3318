//! A written glTF read back with an independent reader (the `gltf`
//! crate): world matrices of its nodes and the matrix arithmetic the
//! read-back tests compare with (tests/gltf_readback.rs,
//! tests/gltf_mesh_tree.rs).

pub type M = [[f64; 4]; 4]; // column-major: m[column][row]

pub fn mul(a: &M, b: &M) -> M {
    let mut out = [[0.0; 4]; 4];
    for c in 0..4 {
        for r in 0..4 {
            out[c][r] = (0..4).map(|k| a[k][r] * b[c][k]).sum();
        }
    }
    out
}

pub fn apply(m: &M, p: [f32; 3]) -> [f64; 3] {
    let p = p.map(f64::from);
    [0, 1, 2].map(|r| m[0][r] * p[0] + m[1][r] * p[1] + m[2][r] * p[2] + m[3][r])
}

pub fn of_f32(m: [[f32; 4]; 4]) -> M {
    m.map(|c| c.map(f64::from))
}

pub fn of_scene(m: scenedec::scene::Mat4) -> M {
    let mut out = [[0.0; 4]; 4];
    for (i, v) in m.0.iter().enumerate() {
        out[i / 4][i % 4] = f64::from(*v);
    }
    out
}

pub const IDENTITY: M = [
    [1.0, 0.0, 0.0, 0.0],
    [0.0, 1.0, 0.0, 0.0],
    [0.0, 0.0, 1.0, 0.0],
    [0.0, 0.0, 0.0, 1.0],
];

/// A written document read back: world matrices and parents of its nodes.
pub struct ReadBack {
    pub doc: gltf::Document,
    pub blob: Vec<u8>,
    pub world: Vec<M>,
    pub parent: Vec<Option<usize>>,
}

impl ReadBack {
    pub fn new(glb: &[u8]) -> Self {
        let gltf = gltf::Gltf::from_slice(glb).expect("the gltf crate reads the GLB");
        let doc = gltf.document;
        let blob = gltf.blob.unwrap_or_default();
        let n = doc.nodes().len();
        let mut parent = vec![None; n];
        for node in doc.nodes() {
            for child in node.children() {
                assert_eq!(
                    parent[child.index()],
                    None,
                    "node {} has two parents",
                    child.index()
                );
                parent[child.index()] = Some(node.index());
            }
        }
        // An empty model has no scene (a glTF scene lists at least one node).
        let roots: Vec<usize> = match doc.default_scene() {
            Some(scene) => scene.nodes().map(|r| r.index()).collect(),
            None => {
                assert_eq!(n, 0, "nodes without a scene");
                Vec::new()
            }
        };
        let mut world = vec![None; n];
        let mut stack: Vec<(usize, M)> = roots.iter().map(|&r| (r, IDENTITY)).collect();
        while let Some((i, above)) = stack.pop() {
            let node = doc.nodes().nth(i).unwrap();
            let local = match node.transform() {
                gltf::scene::Transform::Matrix { .. } => panic!("node {i} uses a matrix"),
                t => of_f32(t.matrix()),
            };
            let m = mul(&above, &local);
            assert!(world[i].is_none(), "node {i} reached twice");
            world[i] = Some(m);
            stack.extend(node.children().map(|c| (c.index(), m)));
        }
        for (i, p) in parent.iter().enumerate() {
            assert!(
                p.is_some() || roots.contains(&i),
                "node {i} is not in the scene"
            );
        }
        Self {
            doc,
            blob,
            world: world
                .into_iter()
                .map(|w| w.expect("every node reached"))
                .collect(),
            parent,
        }
    }

    pub fn is_helper(&self, i: usize) -> bool {
        let name = self.doc.nodes().nth(i).and_then(|n| n.name()).unwrap_or("");
        name.ends_with(" (pivot)") || name.ends_with(" (rotation)")
    }

    /// The names of node `i` and its scene-node ancestors, root first.
    pub fn path(&self, mut i: usize) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            if !self.is_helper(i) {
                let name = self.doc.nodes().nth(i).and_then(|n| n.name()).unwrap_or("");
                out.push(name.to_owned());
            }
            match self.parent[i] {
                Some(p) => i = p,
                None => break,
            }
        }
        out.reverse();
        out
    }
}

pub fn close(a: f64, b: f64, scale: f64) -> bool {
    (a - b).abs() <= 1e-4 * scale.max(1.0)
}

pub fn assert_close_matrix(a: &M, b: &M, what: &str) {
    let scale = a
        .iter()
        .chain(b)
        .flatten()
        .fold(1.0f64, |m, x| m.max(x.abs()));
    for c in 0..4 {
        for r in 0..4 {
            assert!(
                close(a[c][r], b[c][r], scale),
                "{what}: [{c}][{r}] {a:?} vs {b:?}"
            );
        }
    }
}

/// `n` by `m`'s inverse transpose, unit length (zero stays zero).
pub fn turn_normal(m: &M, n: [f32; 3]) -> [f64; 3] {
    let a: [[f64; 3]; 3] = std::array::from_fn(|c| std::array::from_fn(|r| m[c][r]));
    // cofactor matrix = det · inverse transpose
    let cof = |r: usize, c: usize| {
        let (r1, r2) = ((r + 1) % 3, (r + 2) % 3);
        let (c1, c2) = ((c + 1) % 3, (c + 2) % 3);
        a[c1][r1] * a[c2][r2] - a[c2][r1] * a[c1][r2]
    };
    let det = (0..3).map(|c| a[c][0] * cof(0, c)).sum::<f64>();
    let n = n.map(f64::from);
    let out: [f64; 3] =
        std::array::from_fn(|r| (0..3).map(|c| cof(r, c) * n[c] * det.signum()).sum());
    let len = (out[0] * out[0] + out[1] * out[1] + out[2] * out[2]).sqrt();
    if len > 1e-12 {
        out.map(|x| x / len)
    } else {
        [0.0; 3]
    }
}
