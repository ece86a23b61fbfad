// `cubenum nine-colour-cube count|solve`: the nine-colour cube's classes.
#include "cubenum/puzzles/nine_colour_cube.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <ostream>
#include <stdexcept>

#include "action.hpp"
#include "cubenum/core/error.hpp"
#include "puzzles.hpp"

namespace cubenum::cli {
namespace {

namespace nc = cubenum::nine_colour;

Json count(const ActionContext& ctx) {
  const nc::NineColourCounts counts = nc::count_colourings();
  const auto& c = counts.classes;
  ctx.out << fmt::format("labelled colourings               {}\n", counts.labelled())
          << fmt::format("up to colours                     {}\n", c.up_to_colours)
          << fmt::format("up to colours and rotations       {}\n", c.up_to_colours_and_rotations)
          << fmt::format("up to colours and symmetries      {}\n", c.up_to_colours_and_symmetries)
          << "\nkinds of colour classes (cells of each colour), classes of each:\n"
          << fmt::format("{:>10} {:>10} {:>10}  {}\n", "colours", "+rotations", "+symmetries",
                         "signature");
  Json kinds = Json::array();
  for (const auto& [signature, k] : counts.by_signature) {
    ctx.out << fmt::format("{:>10} {:>10} {:>10}  {}\n", k.up_to_colours,
                           k.up_to_colours_and_rotations, k.up_to_colours_and_symmetries,
                           signature);
    kinds.push_back({{"signature", signature},
                     {"up_to_colours", k.up_to_colours},
                     {"up_to_colours_and_rotations", k.up_to_colours_and_rotations},
                     {"up_to_colours_and_symmetries", k.up_to_colours_and_symmetries}});
  }
  return {{"labelled", counts.labelled()},
          {"up_to_colours", c.up_to_colours},
          {"up_to_colours_and_rotations", c.up_to_colours_and_rotations},
          {"up_to_colours_and_symmetries", c.up_to_colours_and_symmetries},
          {"kinds", kinds},
          {"search_nodes", counts.search_nodes}};
}

Json solve(const ActionContext& ctx, std::size_t list) {
  const std::vector<nc::Colouring> reps = nc::class_representatives();
  Json shown = Json::array();
  const std::size_t shown_count = list == 0 ? reps.size() : std::min(list, reps.size());
  for (std::size_t i = 0; i < shown_count; ++i) {
    if (!nc::shows_all_colours(reps[i]))
      throw std::logic_error("a representative fails the seed's face table");
    const int rotated = nc::orbit_size(reps[i], kRotationCount);
    const int mirrored = nc::orbit_size(reps[i], kSymmetryCount);
    ctx.out << fmt::format(
        "class {} of {} (up to colours and symmetries): {}\n"
        "its orbit: {} distinct colourings up to colours under the 24 rotations, {} under all 48 "
        "symmetries\n{}\n",
        i + 1, reps.size(), nc::kind_signature(reps[i]), rotated, mirrored,
        nc::layers_text(reps[i]));
    Json cells = Json::array();
    for (auto colour : reps[i]) cells.push_back(colour + 1);
    shown.push_back({{"cells", cells},
                     {"orbit_under_rotations", rotated},
                     {"orbit_under_symmetries", mirrored}});
  }
  return {{"up_to_colours_and_symmetries", reps.size()}, {"representatives", shown}};
}

}  // namespace

void bind_nine_colour_cube(Command* puzzle) {
  add_action(*puzzle, "count", "count the colourings: labelled, up to colours/rotations/symmetries",
             count);
  auto list = std::make_shared<std::size_t>(1);
  add_action(*puzzle, "solve", "print class representatives up to colours and symmetries",
             [list](const ActionContext& ctx) { return solve(ctx, *list); })
      ->add_option("--list", *list, "how many representatives to print (0: all)")
      ->capture_default_str();
}

}  // namespace cubenum::cli
