/* Compiles the layouts Rust uses (layout.h, written by capi/src/layout_tests.rs)
 * against the generated header: a struct the header lays out differently
 * fails this compile. Built and run by capi/check.sh. */
#include <stddef.h>

#include "scenedec.h"
#include "layout.h"

int main(void) { return scenedec_abi_version() == SCENEDEC_ABI_VERSION ? 0 : 1; }
