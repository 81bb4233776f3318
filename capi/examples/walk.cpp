// walk FILE [ANIMATION...]: loads a model through the C API from C++ and
// prints its node tree: each node's name, its world position at rest and,
// when the model has animations, at the middle of clip 0. J3D animation
// files (.bck .bca .btk .brk .bpk .btp .bva) given after a J3D model are
// offered with it; each of its clips is listed (kind, frames, tracks) with
// what it sets at its middle frame: the materials it animates
// (scenedec_sample_material) and the meshes it shows or hides
// (scenedec_sample_visibility).
//
// scenedec_load allocates through the allocator given here (operator new
// with alignment), never through malloc on its own; the handle is freed by
// a std::unique_ptr with scenedec_loaded_free as its deleter.
//
// Build: c++ -Wall -Werror -std=c++17 -Icapi/include capi/examples/walk.cpp
//        target/release/libscenedec.a -lpthread -ldl -lm

#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "scenedec.h"

namespace {

void *allocate(void *, size_t size, size_t align) {
    return ::operator new(size, std::align_val_t(align), std::nothrow);
}

void release(void *, void *ptr, size_t, size_t align) {
    ::operator delete(ptr, std::align_val_t(align));
}

struct Free {
    void operator()(scenedec_loaded *loaded) const { scenedec_loaded_free(loaded); }
};

std::string text(const scenedec_scene *scene, scenedec_text_ref ref) {
    scenedec_str s = scenedec_text(scene, ref);
    return std::string(s.ptr, s.len);
}

void print(const scenedec_scene *scene, const std::vector<float> &rest,
           const std::vector<float> &posed, size_t node, int depth) {
    const float *m = &rest[node * 16];
    std::printf("%*s%s at (%g, %g, %g)", depth * 2, "", text(scene, scene->nodes[node].name).c_str(),
                m[12], m[13], m[14]);
    if (!posed.empty()) {
        const float *p = &posed[node * 16];
        std::printf(", posed (%g, %g, %g)", p[12], p[13], p[14]);
    }
    std::printf("\n");
    for (size_t child = 0; child < scene->node_count; child++) {
        if (scene->nodes[child].parent == static_cast<int32_t>(node)) {
            print(scene, rest, posed, child, depth + 1);
        }
    }
}

const char *const kinds[] = {"BCK", "BCA", "BTK", "BRK", "BPK", "BTP", "BVA"};

// One line per J3D clip of `scene`: kind, frames, tracks, and what it sets
// at its middle frame.
void clips(const scenedec_scene *scene) {
    for (size_t c = 0; c < scene->clip_count; c++) {
        const scenedec_clip &clip = scene->clips[c];
        float middle = clip.frames / 2;
        size_t materials = 0, shown = 0, hidden = 0;
        scenedec_error error;
        for (size_t m = 0; m < scene->material_count; m++) {
            scenedec_material_sample sample;
            if (scenedec_sample_material(scene, clip.animation, middle, m, &sample, &error) ==
                    SCENEDEC_STATUS_OK &&
                (sample.texture_matrix_mask | sample.color_mask | sample.texture_mask) != 0)
                materials++;
        }
        for (size_t mesh = 0; mesh < scene->mesh_count; mesh++) {
            int32_t visible = -1;
            if (scenedec_sample_visibility(scene, clip.animation, middle, mesh, &visible,
                                           &error) == SCENEDEC_STATUS_OK) {
                shown += visible == 1;
                hidden += visible == 0;
            }
        }
        std::printf("  clip %s: %s, %g frames, %u tracks; at frame %g: %zu materials set, "
                    "%zu meshes shown, %zu hidden\n",
                    text(scene, scene->animations[clip.animation].name).c_str(),
                    clip.kind < 7 ? kinds[clip.kind] : "?", clip.frames,
                    static_cast<unsigned>(clip.track_count), middle, materials, shown, hidden);
    }
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: walk FILE [ANIMATION...]\n");
        return 2;
    }
    // The animation files: their names and bytes live until the load returns.
    std::vector<std::string> names;
    std::vector<std::vector<unsigned char>> files;
    for (int i = 2; i < argc; i++) {
        std::ifstream file(argv[i], std::ios::binary);
        files.emplace_back((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
        std::string path(argv[i]);
        names.push_back(path.substr(path.find_last_of('/') + 1));
    }
    std::vector<scenedec_animation_file> animations;
    for (size_t i = 0; i < files.size(); i++) {
        animations.push_back({names[i].c_str(), names[i].size(), files[i].data(), files[i].size()});
    }
    scenedec_options options;
    scenedec_options_init(&options);
    options.animation_files = animations.data();
    options.animation_file_count = animations.size();
    std::ifstream in(argv[1], std::ios::binary);
    std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)),
                                     std::istreambuf_iterator<char>());
    std::string name(argv[1]);
    std::string hint = name.substr(name.find_last_of('.') + 1);

    scenedec_allocator allocator = {allocate, release, nullptr};
    scenedec_error error;
    scenedec_loaded *raw = nullptr;
    scenedec_status status = scenedec_load(bytes.data(), bytes.size(), hint.c_str(), &options,
                                           &allocator, nullptr, &raw, &error);
    if (status != SCENEDEC_STATUS_OK) {
        std::fprintf(stderr, "%s: %s: %s\n", argv[1],
                     status == SCENEDEC_STATUS_ERROR ? scenedec_error_code_name(error.code)
                                                     : "bad call",
                     status == SCENEDEC_STATUS_ERROR ? error.message : "");
        return 1;
    }
    std::unique_ptr<scenedec_loaded, Free> loaded(raw);
    const scenedec_scene *scene = scenedec_loaded_scene(loaded.get());

    std::vector<float> rest(scene->node_count * 16);
    scenedec_world_matrices(scene, nullptr, 0, rest.data(), scene->node_count);
    std::vector<float> posed;
    if (scene->animation_count > 0) {
        std::vector<scenedec_pose> poses(scene->node_count);
        // A J3D clip counts frames (scenedec_sample_frame); others seconds.
        scenedec_status sampled =
            scene->clip_count > 0 && scene->clips[0].animation == 0
                ? scenedec_sample_frame(scene, 0, scene->clips[0].frames / 2, poses.data(),
                                        poses.size(), &error)
                : scenedec_sample(scene, 0, scene->animations[0].length / 2, poses.data(),
                                  poses.size(), &error);
        if (sampled == SCENEDEC_STATUS_OK) {
            posed.resize(scene->node_count * 16);
            scenedec_world_matrices(scene, poses.data(), poses.size(), posed.data(),
                                    scene->node_count);
        }
    }
    std::printf("%s: %zu nodes, %zu meshes, %zu triangles\n", argv[1], scene->node_count,
                scene->mesh_count, scene->index_count / 3);
    clips(scene);
    for (size_t node = 0; node < scene->node_count; node++) {
        if (scene->nodes[node].parent < 0) print(scene, rest, posed, node, 1);
    }
    return 0;
}
