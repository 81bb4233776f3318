"""Compares `inspect` (the C example) with `scenedec inspect --json`, file by
file: ok, error code, counts, every texture's RGBA8 SHA-256, the tracks of
each J3D clip. Reads the
two outputs (one JSON object a line, same files in the same order); exit 1
on any difference."""
import json
import sys


def from_cli(line):
    r = json.loads(line)
    return {
        "file": r["file"],
        "ok": r["ok"],
        "error": r["error"]["code"] if r["error"] else None,
        "nodes": len(r["nodes"]),
        "meshes": r["meshes"],
        "vertices": r["vertices"],
        "triangles": r["triangles"],
        "materials": len(r["materials"]),
        "textures": len(r["textures"]),
        "animations": len(r["animations"]),
        "texture_sha256": [t["rgba_sha256"] for t in r["textures"]],
        "clip_tracks": [a["j3d"]["tracks"] if "j3d" in a else None for a in r["animations"]],
    }


def main(c_path, cli_path):
    with open(c_path) as f:
        c_lines = [json.loads(l) for l in f if l.strip()]
    with open(cli_path) as f:
        cli_lines = [from_cli(l) for l in f if l.strip()]
    if len(c_lines) != len(cli_lines):
        print(f"{len(c_lines)} C reports, {len(cli_lines)} CLI reports")
        return 1
    bad = 0
    for c, cli in zip(c_lines, cli_lines):
        if c != cli:
            bad += 1
            for key in cli:
                if c.get(key) != cli[key]:
                    print(f"{cli['file']}: {key}: C {c.get(key)!r}, CLI {cli[key]!r}")
    print(f"{len(c_lines)} files compared, {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
