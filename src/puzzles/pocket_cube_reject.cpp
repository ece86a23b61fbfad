// detail::reject, out of line (see pocket_cube_geometry.hpp).
#include "cubenum/core/error.hpp"
#include "pocket_cube_geometry.hpp"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wrestrict"
namespace cubenum::pocket_cube::detail {

void reject(const std::string& source, const std::string& problem) {
  throw InputError(source, 0, problem);
}

}  // namespace cubenum::pocket_cube::detail
#pragma GCC diagnostic pop
