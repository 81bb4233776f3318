#!/usr/bin/env bash
# Writes scenedec.pc, the pkg-config file for the C API, to stdout.
#   capi/pkgconfig.sh                 the build tree: headers in capi/include,
#                                     libraries in target/release
#   capi/pkgconfig.sh /usr/local      an install under PREFIX (include/, lib/)
# Then: pkg-config --cflags --libs scenedec (add --static for libscenedec.a).
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's/^version = "\(.*\)"/\1/p' capi/Cargo.toml | head -n 1)
if [ $# -ge 1 ]; then
  prefix=$1 includedir='${prefix}/include' libdir='${prefix}/lib'
else
  prefix=$(pwd) includedir='${prefix}/capi/include' libdir='${prefix}/target/release'
fi
cat <<PC
prefix=$prefix
includedir=$includedir
libdir=$libdir

Name: scenedec
Description: Decodes J3D and Blockbench models into one scene, no heap on the core path
Version: $version
Cflags: -I\${includedir}
Libs: -L\${libdir} -lscenedec
Libs.private: -lpthread -ldl -lm
PC
