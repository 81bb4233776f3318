//! The Node reference tools under `tools/` (molangjs, three.js playing
//! Blockbench's rules): each test hands one a JSON case list on stdin and
//! reads its JSON answer from stdout.

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;

/// Runs `tools/{tool}/{script}` under Node with `input` on its stdin and
/// returns its stdout as JSON.
///
/// `None` when Node or `tools/{tool}/node_modules/{package}` is missing:
/// under CI (`CI` set to anything but empty, `0` or `false`) that fails the
/// test, since `.ci/run` installs them; otherwise it says on the real
/// stderr which check was skipped, so a skip is never a silent pass.
#[track_caller]
pub fn run_tool(tool: &str, package: &str, script: &str, input: &Value) -> Option<Value> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tools")
        .join(tool);
    let ready = dir.join("node_modules").join(package).is_dir()
        && Command::new("node")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
    if !ready {
        let ci = std::env::var("CI").is_ok_and(|v| !matches!(v.as_str(), "" | "0" | "false"));
        let check = std::panic::Location::caller();
        assert!(
            !ci,
            "CI is set but node or tools/{tool}/node_modules/{package} is missing (npm ci there): the check at {check} cannot run"
        );
        let _ = writeln!(
            std::io::stderr().lock(),
            "node or tools/{tool}/node_modules/{package} absent (run npm ci there): the check at {check} was skipped"
        );
        return None;
    }
    let mut child = Command::new("node")
        .arg(dir.join(script))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("node runs");
    child
        .stdin
        .take()
        .expect("piped stdin")
        .write_all(input.to_string().as_bytes())
        .expect("the tool reads its input");
    let output = child.wait_with_output().expect("the tool ends");
    assert!(output.status.success(), "tools/{tool}/{script} failed");
    Some(serde_json::from_slice(&output.stdout).expect("the tool prints JSON"))
}
