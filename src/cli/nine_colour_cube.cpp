// `cubenum nine-colour-cube ...`: not yet implemented.
#include "action.hpp"

namespace cubenum::cli {

void register_nine_colour_cube(CLI::App& /*app*/) {}

}  // namespace cubenum::cli
