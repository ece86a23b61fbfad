// `cubenum pocket-cube ...`: not yet implemented.
#include "action.hpp"

namespace cubenum::cli {

void register_pocket_cube(CLI::App& /*app*/) {}

}  // namespace cubenum::cli
