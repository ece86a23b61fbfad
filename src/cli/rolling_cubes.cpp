// `cubenum rolling-cubes ...`: not yet implemented.
#include "action.hpp"

namespace cubenum::cli {

void register_rolling_cubes(CLI::App& /*app*/) {}

}  // namespace cubenum::cli
