#pragma once
// A polycube puzzle whose every assembly comes apart, in many classes and
// at many levels, for the disassembly's tests: a box (one piece) of
// (n + 2)^3 cells whose walls hold a room of n^3 cells, open by one hole in
// the middle of its top wall (z high), and unit cubes in the room (the
// pieces `pieces` lists, in the text format). The room's cells may stay
// empty: every way to place the cubes in the room is an assembly. The
// box's symmetries that keep the hole where it is are the target's: the 4
// rotations about the hole's axis and 4 reflections (n odd).
#include <filesystem>
#include <fstream>
#include <string>

namespace cubenum::testing {

// A room count's first result read from its JSON file, without its times,
// as the test's JSON type (ordered or not).
template <class J>
J room_result(const std::filesystem::path& json) {
  std::ifstream in(json);
  J r = J::parse(in)["results"][0];
  r.erase("count_seconds");
  r["solutions"].erase("seconds");
  return r;
}

inline std::string room_puzzle(const std::string& name, int n, const std::string& pieces) {
  const int s = n + 2;
  std::string walls, room;
  for (int x = 0; x < s; ++x)
    for (int y = 0; y < s; ++y)
      for (int z = 0; z < s; ++z) {
        const std::string cell =
            std::to_string(x) + " " + std::to_string(y) + " " + std::to_string(z) + "\n";
        const bool wall = x == 0 || y == 0 || z == 0 || x == s - 1 || y == s - 1 || z == s - 1;
        const bool hole = x == s / 2 && y == s / 2 && z == s - 1;
        if (wall && !hole) walls += "cube " + cell;
        if (!wall) room += "variable " + cell;
      }
  return "name " + name + "\npiece Box\n" + walls + pieces + "target\n" + walls + room;
}

}  // namespace cubenum::testing
