#pragma once
// A polycube assembly drawn in layers, z from the bottom, each row y from
// the top, its pieces named as VoxelCover::piece_names names them.
#include <string>
#include <vector>

#include "cubenum/puzzles/polycube.hpp"
#include "cubenum/search/voxel_cover.hpp"

namespace cubenum::puzzles {

// The piece's name in each voxel ('.' where the target has none or it
// stays empty), a block of rows per layer.
std::string polycube_layers_text(const polycube::Problem& problem,
                                 const std::vector<std::string>& piece_names,
                                 const search::CoverAssembly& assembly);

// Each layer as a grid of squares side by side, one colour per piece, its
// name inside (an SVG document).
std::string polycube_layers_svg(const polycube::Problem& problem,
                                const std::vector<std::string>& piece_names,
                                const search::CoverAssembly& assembly);

}  // namespace cubenum::puzzles
