// PlateAssembly's symmetries: the surface's symmetries acting on faces
// and plates, the anchor and its stabilisers, and a solution's images.
#include <algorithm>

#include "plate_assembly_internal.hpp"

namespace cubenum::search {

// Symmetry s maps face src to face f with a frame transform; the image of a
// solution at face f is the source face's plate, transformed. The anchor:
// a face of the largest orbit under the rotations (face 0 when its orbit is
// one), first in the fill order and in the comparison of solutions.
void PlateAssembly::build_symmetries() {
  const PlateSurface& s = *surface_;
  for (const auto& sym : s.symmetries()) {
    std::vector<std::uint32_t> source(s.face_count());
    std::vector<std::uint8_t> frame(s.face_count());
    for (int f = 0; f < s.face_count(); ++f) {
      source[sym.face_image[f]] = static_cast<std::uint32_t>(f);
      frame[sym.face_image[f]] = static_cast<std::uint8_t>(sym.frame_transform[f]);
    }
    sym_source_.push_back(std::move(source));
    sym_frame_.push_back(std::move(frame));
  }
  const auto orbit_of = [&](int f) {
    std::vector<bool> in(s.face_count(), false);
    for (int r = 0; r < s.rotation_count(); ++r) in[sym_source_[r][f]] = true;
    return in;
  };
  anchor_ = 0;
  std::size_t largest = 0;
  for (int f = 0; f < s.face_count(); ++f) {
    const std::vector<bool> in = orbit_of(f);
    const auto size = static_cast<std::size_t>(std::count(in.begin(), in.end(), true));
    if (size > largest) largest = size, anchor_ = f, in_anchor_orbit_ = in;
  }
  compare_order_ = {static_cast<std::uint32_t>(anchor_)};
  for (int f = 0; f < s.face_count(); ++f)
    if (f != anchor_) compare_order_.push_back(static_cast<std::uint32_t>(f));
  for (int f = 0; f < s.face_count(); ++f)
    if (in_anchor_orbit_[f]) anchor_orbit_.push_back(static_cast<std::uint32_t>(f));
  build_anchor_groups();
}

// The anchor's stabilisers (AnchorGroup), and for each face of its orbit a
// rotation that takes it to the anchor.
void PlateAssembly::build_anchor_groups() {
  const int rotations = surface_->rotation_count();
  to_anchor_.assign(surface_->face_count(), -1);
  for (int s = 0; s < static_cast<int>(sym_source_.size()); ++s) {
    const auto source = static_cast<int>(sym_source_[s][anchor_]);
    if (s < rotations && to_anchor_[source] < 0) to_anchor_[source] = s;
    if (source != anchor_) continue;
    if (s < rotations) by_rotations_.frames.push_back(sym_frame_[s][anchor_]);
    by_symmetries_.frames.push_back(sym_frame_[s][anchor_]);
  }
  // A reflection that keeps the anchor keeps its orbit too (the orbit under
  // every symmetry is the rotations' one); without such a reflection the
  // reflections move the anchor's orbit, and the rotations act alone.
  if (by_symmetries_.frames.size() == by_rotations_.frames.size()) by_symmetries_ = by_rotations_;
}

// Whether `c` on the anchor is the least placement of its orbit under `group`.
bool PlateAssembly::least_at_anchor(const AnchorGroup& group, const Candidate& c) const {
  return std::all_of(group.frames.begin(), group.frames.end(), [&](std::uint8_t frame) {
    return canonical_after_[c.kind][frame * kPlateTransforms + c.transform] >= c.transform;
  });
}

AssemblyKey PlateAssembly::image(const AssemblyKey& key, int s) const {
  AssemblyKey out(surface_->face_count());
  for (int f = 0; f < surface_->face_count(); ++f) {
    const FacePlacement p = key[sym_source_[s][f]];
    out[f] = {p.kind, canonical_after_[p.kind][sym_frame_[s][f] * kPlateTransforms + p.transform]};
  }
  return out;
}

int PlateAssembly::image_order(const AssemblyKey& key, int s) const {
  for (const std::uint32_t f : compare_order_) {
    const FacePlacement p = key[sym_source_[s][f]];
    const FacePlacement q{
        p.kind, canonical_after_[p.kind][sym_frame_[s][f] * kPlateTransforms + p.transform]};
    if (q != key[f]) return q < key[f] ? -1 : 1;
  }
  return 0;
}

}  // namespace cubenum::search
