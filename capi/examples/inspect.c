/*
 * inspect [--stack KIB] [--with ANIMATION]... FILE...
 *
 * Decodes each file through the C API and prints one JSON line per file:
 * {"file","ok","error","nodes","meshes","vertices","triangles","materials",
 *  "textures","animations","texture_sha256","clip_tracks"}, the counts and
 * hashes that `scenedec inspect --json` prints (capi/check.sh compares the
 * two); "clip_tracks" has, per animation, the tracks of its J3D clip (null
 * for an animation that is no J3D clip). Each --with file (a J3D animation:
 * .bck .bca .btk .brk .bpk .btp .bva) is offered to every J3D model, as
 * `scenedec inspect --with` offers it.
 *
 * The two-pass contract by hand: unwrap Yaz0 into a buffer of
 * scenedec_unwrapped_len bytes, scenedec_measure_with, an arena of the
 * plan's size, scenedec_decode_into_with, both with a scenedec_workspace
 * (the decoder's working state) in malloc'd memory, off the stack. A .bbmodel is offered the PNG files of its
 * folder and of a folder named after it, as the command-line tool does.
 * With --stack, the decode runs on a thread with KIB KiB of stack (how
 * docs/c-api.md's stack figures were measured); exit status 0 when every
 * file was processed (decode errors included), 2 on a usage or I/O error.
 *
 * cc -Wall -Werror -std=c99 -Icapi/include capi/examples/inspect.c \
 *    target/release/libscenedec.a -lpthread -ldl -lm
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenedec.h"
#include "sha256.h"

#define MAX_PICKED SCENEDEC_MAX_TEXTURE_FILES
#define MAX_PICKED_BYTES (64L << 20)

typedef struct buffer {
    unsigned char *bytes;
    size_t len;
} buffer;

/* Reads a whole file; 0 on success. */
static int read_file(const char *path, buffer *out) {
    FILE *f = fopen(path, "rb");
    long len;
    out->bytes = NULL;
    out->len = 0;
    if (!f) return -1;
    if (fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return -1;
    }
    out->bytes = malloc(len > 0 ? (size_t)len : 1);
    if (!out->bytes || fread(out->bytes, 1, (size_t)len, f) != (size_t)len) {
        free(out->bytes);
        out->bytes = NULL;
        fclose(f);
        return -1;
    }
    out->len = (size_t)len;
    fclose(f);
    return 0;
}

/* The texture files offered to a .bbmodel, and the memory behind them. */
typedef struct picked {
    scenedec_texture_file files[MAX_PICKED];
    char *names[MAX_PICKED];
    buffer data[MAX_PICKED];
    size_t count;
} picked;

static int by_name(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int ends_with_png(const char *name) {
    size_t n = strlen(name);
    return n >= 4 && (name[n - 4] == '.') && (name[n - 3] == 'p' || name[n - 3] == 'P') &&
           (name[n - 2] == 'n' || name[n - 2] == 'N') && (name[n - 1] == 'g' || name[n - 1] == 'G');
}

/* Adds the PNG files of `dir` (sorted by name) that no earlier folder gave. */
static void pick_folder(picked *p, const char *dir) {
    DIR *d = opendir(dir);
    struct dirent *e;
    char *names[1024];
    size_t n = 0, i, j;
    if (!d) return;
    while ((e = readdir(d)) != NULL && n < 1024)
        if (ends_with_png(e->d_name)) names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, n, sizeof names[0], by_name);
    for (i = 0; i < n; i++) {
        int seen = 0;
        char path[4096];
        for (j = 0; j < p->count; j++) seen |= strcmp(p->names[j], names[i]) == 0;
        if (seen || snprintf(path, sizeof path, "%s/%s", dir, names[i]) >= (int)sizeof path || p->count == MAX_PICKED || read_file(path, &p->data[p->count]) != 0 ||
            (long)p->data[p->count].len > MAX_PICKED_BYTES) {
            if (!seen && p->count < MAX_PICKED) free(p->data[p->count].bytes);
            free(names[i]);
            continue;
        }
        p->names[p->count] = names[i];
        p->files[p->count].name = names[i];
        p->files[p->count].name_len = strlen(names[i]);
        p->files[p->count].bytes = p->data[p->count].bytes;
        p->files[p->count].len = p->data[p->count].len;
        p->count++;
    }
}

/* The model's folder, then the folder named after the model beside it. */
static void pick_textures(picked *p, const char *model) {
    char folder[4096], named[4096];
    const char *slash = strrchr(model, '/');
    size_t dir_len = slash ? (size_t)(slash - model) : 0;
    const char *base = slash ? slash + 1 : model;
    const char *dot = strrchr(base, '.');
    size_t stem_len = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    if (snprintf(folder, sizeof folder, "%.*s", (int)(slash ? dir_len : 1), slash ? model : ".") >=
            (int)sizeof folder ||
        snprintf(named, sizeof named, "%s/%.*s", folder, (int)stem_len, base) >= (int)sizeof named)
        return; /* a path too long to offer textures from */
    pick_folder(p, folder);
    pick_folder(p, named);
}

static void free_picked(picked *p) {
    size_t i;
    for (i = 0; i < p->count; i++) {
        free(p->names[i]);
        free(p->data[i].bytes);
    }
    p->count = 0;
}

/* One decode: inputs, and the outputs the report reads. */
typedef struct job {
    const buffer *file;
    const char *hint;
    const scenedec_options *options;
    scenedec_status status;
    scenedec_error error;
    scenedec_warnings *warnings;
    scenedec_workspace *workspace;
    scenedec_scene scene;
    unsigned char *unwrapped;
    unsigned char *arena;
} job;

/* The two-pass decode, allocating with malloc here in the caller. */
static void *decode(void *arg) {
    job *j = arg;
    const unsigned char *model = j->file->bytes;
    size_t model_len = j->file->len, unwrapped_len = 0;
    scenedec_plan plan;
    j->status = scenedec_unwrapped_len(model, model_len, j->options, &unwrapped_len, &j->error);
    if (j->status != SCENEDEC_STATUS_OK) return NULL;
    if (unwrapped_len > 0) {
        j->unwrapped = malloc(unwrapped_len);
        if (!j->unwrapped) { j->status = SCENEDEC_STATUS_OUT_OF_MEMORY; return NULL; }
    }
    j->status = scenedec_unwrap_into(model, model_len, j->options, j->unwrapped, unwrapped_len,
                                     &model, &model_len, &j->error);
    if (j->status != SCENEDEC_STATUS_OK) return NULL;
    j->status = scenedec_measure_with(model, model_len, j->hint, j->options, j->workspace, &plan,
                                      &j->error);
    if (j->status != SCENEDEC_STATUS_OK) return NULL;
    /* malloc's blocks are aligned for any type, so the exact bytes do. */
    j->arena = malloc(plan.arena_bytes > 0 ? plan.arena_bytes : 1);
    if (!j->arena) { j->status = SCENEDEC_STATUS_OUT_OF_MEMORY; return NULL; }
    j->status = scenedec_decode_into_with(model, model_len, j->hint, j->options, j->workspace,
                                          j->arena, plan.arena_bytes, j->warnings, &j->scene,
                                          &j->error);
    return NULL;
}

static void json_string(const char *s) {
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') printf("\\%c", c);
        else if (c < 0x20) printf("\\u%04x", c);
        else putchar(c);
    }
    putchar('"');
}

static void report(const char *name, const job *j) {
    const scenedec_scene *s = &j->scene;
    int ok = j->status == SCENEDEC_STATUS_OK;
    size_t i;
    printf("{\"file\": ");
    json_string(name);
    printf(", \"ok\": %s, \"error\": ", ok ? "true" : "false");
    if (ok) printf("null");
    else if (j->status == SCENEDEC_STATUS_ERROR) json_string(scenedec_error_code_name(j->error.code));
    else printf("\"STATUS_%u\"", (unsigned)j->status);
    if (!ok) {
        printf(", \"nodes\": 0, \"meshes\": 0, \"vertices\": 0, \"triangles\": 0, \"materials\": 0, "
               "\"textures\": 0, \"animations\": 0, \"texture_sha256\": [], \"clip_tracks\": []}\n");
        return;
    }
    printf(", \"nodes\": %zu, \"meshes\": %zu, \"vertices\": %zu, \"triangles\": %zu, "
           "\"materials\": %zu, \"textures\": %zu, \"animations\": %zu, \"texture_sha256\": [",
           s->node_count, s->mesh_count, s->position_count, s->index_count / 3,
           s->material_count, s->texture_count, s->animation_count);
    for (i = 0; i < s->texture_count; i++) {
        const scenedec_texture *t = &s->textures[i];
        const scenedec_mip *mip = t->mip_count > 0 && t->first_mip < s->mip_count
                                      ? &s->mips[t->first_mip] : NULL;
        size_t len = mip ? (size_t)mip->width * mip->height * 4 : 0;
        if (i > 0) printf(", ");
        if (mip && mip->offset + len <= s->pixel_count) {
            sha256 h;
            char hex[65];
            sha256_init(&h);
            sha256_update(&h, s->pixels + mip->offset, len);
            sha256_hex(&h, hex);
            printf("\"%s\"", hex);
        } else {
            printf("null");
        }
    }
    printf("], \"clip_tracks\": [");
    for (i = 0; i < s->animation_count; i++) {
        size_t c;
        if (i > 0) printf(", ");
        for (c = 0; c < s->clip_count && s->clips[c].animation != i; c++) continue;
        if (c < s->clip_count) printf("%u", (unsigned)s->clips[c].track_count);
        else printf("null");
    }
    printf("]}\n");
}

static const char *extension(const char *path) {
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash + 1 : path, '.');
    return dot ? dot + 1 : NULL;
}

/* The --with files, offered to every J3D model. */
typedef struct attached {
    scenedec_animation_file files[SCENEDEC_MAX_ANIMATION_FILES];
    buffer data[SCENEDEC_MAX_ANIMATION_FILES];
    size_t count;
} attached;

static void free_attached(attached *a) {
    size_t i;
    for (i = 0; i < a->count; i++) free(a->data[i].bytes);
    a->count = 0;
}

int main(int argc, char **argv) {
    size_t stack_kib = 0;
    int i = 1, failed = 0;
    static picked textures;
    static attached animations;
    scenedec_warnings *warnings = malloc(sizeof *warnings);
    /* malloc's blocks are aligned for any type, as the workspace needs. */
    void *workspace_memory = malloc(scenedec_workspace_size());
    scenedec_workspace *workspace =
        scenedec_workspace_init(workspace_memory, scenedec_workspace_size());
    if (!warnings || !workspace) return 2;
    if (scenedec_abi_version() != SCENEDEC_ABI_VERSION) {
        fprintf(stderr, "inspect: header and library ABI versions differ\n");
        return 2;
    }
    if (i + 1 < argc && strcmp(argv[i], "--stack") == 0) {
        stack_kib = (size_t)strtoul(argv[i + 1], NULL, 10);
        i += 2;
    }
    while (i + 1 < argc && strcmp(argv[i], "--with") == 0) {
        const char *path = argv[i + 1];
        const char *slash = strrchr(path, '/');
        const char *name = slash ? slash + 1 : path;
        if (animations.count == SCENEDEC_MAX_ANIMATION_FILES ||
            read_file(path, &animations.data[animations.count]) != 0) {
            fprintf(stderr, "inspect: cannot attach %s\n", path);
            free_attached(&animations);
            return 2;
        }
        animations.files[animations.count].name = name;
        animations.files[animations.count].name_len = strlen(name);
        animations.files[animations.count].bytes = animations.data[animations.count].bytes;
        animations.files[animations.count].len = animations.data[animations.count].len;
        animations.count++;
        i += 2;
    }
    if (i >= argc) {
        fprintf(stderr, "usage: inspect [--stack KIB] [--with ANIMATION]... FILE...\n");
        free_attached(&animations);
        free(warnings);
        free(workspace_memory);
        return 2;
    }
    for (; i < argc; i++) {
        buffer file;
        scenedec_options options;
        scenedec_format format;
        job j;
        if (read_file(argv[i], &file) != 0) {
            fprintf(stderr, "inspect: cannot read %s\n", argv[i]);
            failed = 1;
            continue;
        }
        scenedec_options_init(&options);
        if (scenedec_format_of(file.bytes, file.len, extension(argv[i]), &format, NULL) ==
                SCENEDEC_STATUS_OK && format == SCENEDEC_FORMAT_BBMODEL) {
            pick_textures(&textures, argv[i]);
            options.texture_files = textures.files;
            options.texture_file_count = textures.count;
        } else if (animations.count > 0) {
            options.animation_files = animations.files;
            options.animation_file_count = animations.count;
        }
        memset(&j, 0, sizeof j);
        j.file = &file;
        j.hint = extension(argv[i]);
        j.options = &options;
        j.warnings = warnings;
        j.workspace = workspace;
        if (stack_kib > 0) {
            pthread_t thread;
            pthread_attr_t attr;
            pthread_attr_init(&attr);
            if (pthread_attr_setstacksize(&attr, stack_kib * 1024) != 0 ||
                pthread_create(&thread, &attr, decode, &j) != 0) {
                fprintf(stderr, "inspect: cannot start a thread of %zu KiB\n", stack_kib);
                return 2;
            }
            pthread_join(thread, NULL);
            pthread_attr_destroy(&attr);
        } else {
            decode(&j);
        }
        report(argv[i], &j);
        free(j.arena);
        free(j.unwrapped);
        free(file.bytes);
        free_picked(&textures);
    }
    free_attached(&animations);
    free(warnings);
    free(workspace_memory);
    return failed ? 2 : 0;
}
