// `cubenum foam ...`: not yet implemented.
#include "action.hpp"

namespace cubenum::cli {

void register_foam(CLI::App& /*app*/) {}

}  // namespace cubenum::cli
