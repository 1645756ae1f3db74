#!/usr/bin/env bash
# Regenerates boost_hash.jsonl.gz: boost::hash<std::string> for the keys of
# boost_hash_vectors.cpp, compiled against each Boost header set below, with
# the platform's signed char and with -funsigned-char. See README.md.
#
# Usage: generate.sh DEBIAN_174 DEBIAN_181 PIP_178 PIP_185 CONTAINER_HASH_GIT
#   DEBIAN_174, DEBIAN_181: include dirs of the unpacked Debian packages
#     libboost1.74-dev and libboost1.81-dev (apt-get download; dpkg -x)
#   PIP_178, PIP_185: include dirs of the PyPI wheels boost-headers 1.78.0
#     and 1.85.0.post1 (boost_headers/include)
#   CONTAINER_HASH_GIT: a clone of github.com/boostorg/container_hash, whose
#     release tags are overlaid on a full header set for the releases no
#     package gives (Boost.Hash's string hashing lives only there)
set -euo pipefail
[ $# -eq 5 ] || { sed -n '2,14p' "$0"; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
deb174=$1 deb181=$2 pip178=$3 pip185=$4 chgit=$5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out="$work/rows.jsonl"
: > "$out"

# run LABEL BOOST_RELEASE INCLUDE_DIRS...
run() {
    local label=$1 release=$2
    shift 2
    local flags=()
    for dir in "$@"; do flags+=(-isystem "$dir"); done
    for char in signed unsigned; do
        local extra=()
        [ "$char" = unsigned ] && extra=(-funsigned-char)
        g++ -w -std=c++17 -O1 "${extra[@]}" "${flags[@]}" \
            "$here/boost_hash_vectors.cpp" -o "$work/gen"
        "$work/gen" | sed "s|^{|{\"headers\": \"$label\", \"boost\": \"$release\", \"char\": \"$char\", |" >> "$out"
    done
}

overlay() {
    local tag=$1
    mkdir -p "$work/ch-$tag"
    git -C "$chgit" archive "boost-$tag" include | tar -x -C "$work/ch-$tag"
    echo "$work/ch-$tag/include"
}

run "debian libboost1.74-dev 1.74.0+ds1-21" 1.74 "$deb174"
run "debian libboost1.81-dev 1.81.0-5+deb12u1" 1.81 "$deb181"
run "pypi boost-headers 1.78.0" 1.78 "$pip178"
run "pypi boost-headers 1.85.0.post1" 1.85 "$pip185"
# A container_hash release tag over the package whose other headers it needs.
while read -r tag base_label base; do
    run "boostorg/container_hash boost-$tag over $base_label" "${tag%.0}" "$(overlay "$tag")" "$base"
done <<LIST
1.33.0 libboost1.74-dev $deb174
1.53.0 libboost1.74-dev $deb174
1.61.0 libboost1.74-dev $deb174
1.62.0 libboost1.74-dev $deb174
1.80.0 boost-headers-1.78.0 $pip178
1.82.0 libboost1.81-dev $deb181
1.83.0 libboost1.81-dev $deb181
1.84.0 boost-headers-1.85.0.post1 $pip185
1.91.0 boost-headers-1.85.0.post1 $pip185
LIST
gzip -9n < "$out" > "$here/boost_hash.jsonl.gz"
echo "$(wc -l < "$out") rows -> $here/boost_hash.jsonl.gz"
