#pragma once
// Checkpoints of long runs, and stopping them cleanly.
//
// A checkpoint is a folder: a manifest (checkpoint.json) and data files.
// The manifest names the run (its identity: puzzle, action, every option
// that changes the result, and the format's version), the run's own small
// state (JSON), and each data file with its size and XXH3 checksum. A save
// writes each data file under a temporary name, flushed to disk, and
// renames it to a name of its generation; then the manifest the same way.
// The manifest's rename is the commit: a run killed at any moment leaves
// the last committed checkpoint whole. Files of other generations are
// removed after the commit.
//
// Across processes (core/cluster.hpp) every process writes its own data
// files (named with its number) into the same folder, on a file system
// they all see; once all have written theirs, the first process commits
// the one manifest naming them all, and only after that does each remove
// its older files. Every process reads the manifest and its own files.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "cubenum/core/cluster.hpp"

namespace cubenum {

using CheckpointJson = nlohmann::ordered_json;

inline constexpr int kCheckpointFormat = 1;

struct CheckpointBlob {
  std::string name;  // letters, digits, '-' and '_'
  std::span<const std::byte> bytes;
};

class CheckpointWriter {
 public:
  // `source` names the option in errors ("--checkpoint"). With a cluster
  // of several processes, every one of them constructs it and calls save
  // alike (the same state; its own blobs).
  CheckpointWriter(std::string dir, CheckpointJson identity, std::string source,
                   Cluster* cluster = nullptr);
  void save(const CheckpointJson& state, const std::vector<CheckpointBlob>& blobs);

 private:
  std::string dir_, source_;
  CheckpointJson identity_;
  std::uint64_t generation_ = 0;
  Cluster* cluster_;  // null: this process alone
};

// The last committed checkpoint of a folder. Throws InputError naming the
// manifest and the reason when there is none, when it is of another run,
// another format, or corrupt.
class CheckpointReader {
 public:
  CheckpointReader(std::string dir, const CheckpointJson& identity, Cluster* cluster = nullptr);
  const CheckpointJson& state() const { return manifest_["state"]; }
  const std::string& dir() const { return dir_; }
  // This process's data file `name` into `out`, whose size must be the
  // file's; its checksum is checked.
  void read(const std::string& name, std::span<std::byte> out) const;
  // This process's data file `name`, whole (the size the manifest records).
  std::vector<std::byte> read(const std::string& name) const;

 private:
  std::string dir_;
  CheckpointJson manifest_;
  Cluster* cluster_;
};

// Whether `dir` holds a committed checkpoint (a manifest).
bool has_checkpoint(const std::string& dir);

// Stop requests: SIGINT and SIGTERM, once install_stop_signals() has run,
// set a flag (a second signal, a second or more after the first, ends the
// process at once; one within a second is the same Ctrl-C, which reaches a
// process both from the terminal and from mpirun) that long loops
// poll through stop_requested() to wind down.
void install_stop_signals();
bool stop_requested();

}  // namespace cubenum
