#pragma once
// Numbers and byte strings packed into a buffer, and read back: the data of
// checkpoints and what processes send each other. Numbers are as this
// machine holds them (little-endian on every machine cubenum runs on);
// a byte string is its length (8 bytes) and its bytes.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "cubenum/core/error.hpp"

namespace cubenum {

class ByteWriter {
 public:
  template <class T>
  requires std::is_arithmetic_v<T>
  void put(T value) {
    const auto* b = reinterpret_cast<const std::byte*>(&value);
    out.insert(out.end(), b, b + sizeof value);
  }
  void bytes(std::span<const std::byte> b) {
    put(std::uint64_t{b.size()});
    out.insert(out.end(), b.begin(), b.end());
  }
  std::vector<std::byte> out;
};

// Throws InputError(source, 0, "<what> ends early (corrupt)") when the
// bytes end before what is asked ("the ledger", "a tally").
class ByteReader {
 public:
  ByteReader(std::span<const std::byte> in, std::string source, std::string what)
      : in_(in), source_(std::move(source)), what_(std::move(what)) {}

  template <class T>
  requires std::is_arithmetic_v<T> T get() {
    need(sizeof(T));
    T value;
    std::memcpy(&value, in_.data() + at_, sizeof value);
    at_ += sizeof value;
    return value;
  }
  // A count of items of `each` bytes, at most what the bytes left can hold.
  std::uint64_t length(std::size_t each) {
    const auto n = get<std::uint64_t>();
    if (n > (in_.size() - at_) / each) ended();
    return n;
  }
  std::span<const std::byte> bytes() {
    const std::uint64_t n = length(1);
    const auto b = in_.subspan(at_, n);
    at_ += n;
    return b;
  }
  bool done() const { return at_ == in_.size(); }

 private:
  void need(std::uint64_t n) const {
    if (n > in_.size() - at_) ended();
  }
  [[noreturn]] void ended() const { throw InputError(source_, 0, what_ + " ends early (corrupt)"); }
  std::span<const std::byte> in_;
  std::size_t at_ = 0;
  std::string source_, what_;
};

}  // namespace cubenum
