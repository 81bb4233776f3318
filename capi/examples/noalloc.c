/*
 * noalloc FILE: decodes a model through the C API with no allocator at all.
 *
 * malloc, calloc, realloc, free and their aligned forms are defined here to
 * abort the program, so any allocation — by scenedec, by the Rust runtime
 * linked into libscenedec.a, or by this program — ends it with status 134.
 * The file is read with open/read into a static buffer, the arena is a
 * static buffer, the warnings and the scene are static structs; output goes
 * through write(2). Exit status 0 means the decode succeeded without one
 * allocation; capi/check.sh runs it on corpus models, and checks that
 * `noalloc --prove-abort` (which calls malloc once) does abort.
 *
 * cc -Wall -Werror -std=c99 -Icapi/include capi/examples/noalloc.c \
 *    target/release/libscenedec.a -lpthread -ldl -lm
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scenedec.h"

static void die(const char *what) {
    static const char prefix[] = "noalloc: allocation attempted: ";
    (void)!write(2, prefix, sizeof prefix - 1);
    (void)!write(2, what, strlen(what));
    (void)!write(2, "\n", 1);
    abort();
}

void *malloc(size_t size) { (void)size; die("malloc"); return NULL; }
void *calloc(size_t n, size_t size) { (void)n; (void)size; die("calloc"); return NULL; }
void *realloc(void *p, size_t size) { (void)p; (void)size; die("realloc"); return NULL; }
void *aligned_alloc(size_t align, size_t size) { (void)align; (void)size; die("aligned_alloc"); return NULL; }
int posix_memalign(void **p, size_t align, size_t size) { (void)p; (void)align; (void)size; die("posix_memalign"); return 12; }
void *memalign(size_t align, size_t size) { (void)align; (void)size; die("memalign"); return NULL; }
/* free(NULL) is a no-op by definition; freeing anything else means something was allocated. */
void free(void *p) { if (p) die("free"); }

#define FILE_BYTES (32u << 20)
#define ARENA_WORDS (16u << 20) /* 128 MiB of uint64_t: aligned for any record */

static unsigned char file[FILE_BYTES];
static unsigned char unwrapped[FILE_BYTES];
static uint64_t arena[ARENA_WORDS];
static scenedec_warnings warnings;
static uint64_t workspace_memory[SCENEDEC_WORKSPACE_BYTES / 8];
static scenedec_scene scene;
static scenedec_error error;

static void say(const char *text) { (void)!write(1, text, strlen(text)); }

int main(int argc, char **argv) {
    char line[512];
    const unsigned char *model = file;
    size_t len = 0, model_len, unwrapped_len = 0;
    ssize_t got;
    int fd;
    scenedec_status status;
    if (argc != 2) {
        say("usage: noalloc FILE | noalloc --prove-abort\n");
        return 2;
    }
    if (strcmp(argv[1], "--prove-abort") == 0) {
        /* Shows the override is the malloc in effect: this must abort. */
        void *(*volatile allocate)(size_t) = malloc;
        return allocate(1) == NULL ? 3 : 4;
    }
    fd = open(argv[1], O_RDONLY);
    if (fd < 0) return 2;
    while ((got = read(fd, file + len, FILE_BYTES - len)) > 0) len += (size_t)got;
    close(fd);
    model_len = len;
    status = scenedec_unwrapped_len(file, len, NULL, &unwrapped_len, &error);
    if (status == SCENEDEC_STATUS_OK && unwrapped_len > sizeof unwrapped) status = SCENEDEC_STATUS_INVALID_ARGUMENT;
    if (status == SCENEDEC_STATUS_OK)
        status = scenedec_unwrap_into(file, len, NULL, unwrapped, sizeof unwrapped, &model, &model_len, &error);
    if (status == SCENEDEC_STATUS_OK) {
        scenedec_workspace *ws = scenedec_workspace_init(workspace_memory, sizeof workspace_memory);
        if (!ws) return 2;
        status = scenedec_decode_into_with(model, model_len, NULL, NULL, ws, (uint8_t *)arena,
                                           sizeof arena, &warnings, &scene, &error);
    }
    if (status != SCENEDEC_STATUS_OK) {
        snprintf(line, sizeof line, "%s: status %u, %s: %s\n", argv[1], (unsigned)status,
                 scenedec_error_code_name(error.code), error.message);
        say(line);
        return 1;
    }
    snprintf(line, sizeof line,
             "%s: %zu nodes, %zu meshes, %zu vertices, %zu triangles, %zu textures, "
             "%zu pixel bytes, %zu warnings; no allocation\n",
             argv[1], scene.node_count, scene.mesh_count, scene.position_count,
             scene.index_count / 3, scene.texture_count, scene.pixel_count, warnings.count);
    say(line);
    return 0;
}
