// walk FILE: loads a model through the C API from C++ and prints its node
// tree: each node's name, its world position at rest and, when the model
// has animations, at the middle of clip 0.
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

}  // namespace

int main(int argc, char **argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: walk FILE\n");
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)),
                                     std::istreambuf_iterator<char>());
    std::string name(argv[1]);
    std::string hint = name.substr(name.find_last_of('.') + 1);

    scenedec_allocator allocator = {allocate, release, nullptr};
    scenedec_error error;
    scenedec_loaded *raw = nullptr;
    scenedec_status status = scenedec_load(bytes.data(), bytes.size(), hint.c_str(), nullptr,
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
        float middle = scene->animations[0].length / 2;
        if (scenedec_sample(scene, 0, middle, poses.data(), poses.size(), &error) ==
            SCENEDEC_STATUS_OK) {
            posed.resize(scene->node_count * 16);
            scenedec_world_matrices(scene, poses.data(), poses.size(), posed.data(),
                                    scene->node_count);
        }
    }
    std::printf("%s: %zu nodes, %zu meshes, %zu triangles\n", argv[1], scene->node_count,
                scene->mesh_count, scene->index_count / 3);
    for (size_t node = 0; node < scene->node_count; node++) {
        if (scene->nodes[node].parent < 0) print(scene, rest, posed, node, 1);
    }
    return 0;
}
