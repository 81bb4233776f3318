"""Imports .glb/.gltf files with Blender's own glTF importer, one file to an
empty scene each, and prints per file the objects, meshes and armatures it
made and the seconds the import took. Exits 1 when the importer refuses a
file (an exception, or an operator result other than FINISHED).

    blender -b --factory-startup --python import.py -- FILE...

run.sh runs it over every corpus conversion.
"""

import sys
import time

import bpy
import numpy

# Debian 12's Blender 3.4 importer asks numpy for `np.bool`, an alias
# numpy 1.24 (the same release's python3-numpy) removed: every mesh with
# normals fails on it (io_scene_gltf2/blender/imp/gltf2_blender_mesh.py,
# set_poly_smoothing). The alias meant the builtin `bool`; put it back.
if not hasattr(numpy, "bool"):
    numpy.bool = bool


def empty_scene():
    bpy.ops.wm.read_factory_settings(use_empty=True)


def main(paths):
    failed = 0
    for path in paths:
        empty_scene()
        name = path.rsplit("/", 1)[-1]
        start = time.perf_counter()
        try:
            result = bpy.ops.import_scene.gltf(filepath=path)
        except Exception as e:  # the importer's own errors come as exceptions
            # The operator wraps the importer's traceback in its message:
            # its last line says what went wrong.
            lines = [l for l in str(e).splitlines() if l.strip()]
            print(f"\nREFUSED {name}: {lines[-1] if lines else type(e).__name__}")
            failed += 1
            continue
        seconds = time.perf_counter() - start
        if result != {"FINISHED"}:
            print(f"\nREFUSED {name}: {result}")
            failed += 1
            continue
        objects = bpy.data.objects
        meshes = sum(1 for o in objects if o.type == "MESH")
        armatures = sum(1 for o in objects if o.type == "ARMATURE")
        print(
            f"imported {name}: {len(objects)} objects, {meshes} meshes, "
            f"{armatures} armatures, {seconds:.2f} s"
        )
    print(f"blender import: {len(paths) - failed} of {len(paths)} files imported")
    return 1 if failed else 0


if __name__ == "__main__":
    argv = sys.argv
    files = argv[argv.index("--") + 1 :] if "--" in argv else []
    sys.exit(main(files))
