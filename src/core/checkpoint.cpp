#include "cubenum/core/checkpoint.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>

#include "cubenum/core/error.hpp"
#include "cubenum/core/hash.hpp"

namespace cubenum {
namespace fs = std::filesystem;
namespace {

constexpr const char* kManifest = "checkpoint.json";

std::string hex(std::uint64_t value) {
  return fmt::format("{:016x}", value);
}

bool shared(const Cluster* cluster) {
  return cluster != nullptr && cluster->processes() > 1;
}

// A data file's key in the manifest: its name, and across processes the
// process that wrote it ("p1:depths").
std::string data_key(const std::string& name, const Cluster* cluster) {
  return shared(cluster) ? fmt::format("p{}:{}", cluster->process(), name) : name;
}

// Across processes each writes its own files: "depths.p1.7.bin".
std::string data_name(const std::string& name, std::uint64_t generation, const Cluster* cluster) {
  return shared(cluster) ? fmt::format("{}.p{}.{}.bin", name, cluster->process(), generation)
                         : fmt::format("{}.{}.bin", name, generation);
}

// The files this process writes (all of them when alone): its data files,
// and for the first process the manifest.
bool is_mine(const std::string& file, const Cluster* cluster) {
  if (!shared(cluster)) return true;
  if (file.find(kManifest) != std::string::npos) return cluster->process() == 0;
  return file.find(fmt::format(".p{}.", cluster->process())) != std::string::npos;
}

// Every process's `mine` (a JSON object), merged, on every process.
CheckpointJson merged_over(Cluster& cluster, const CheckpointJson& mine) {
  CheckpointJson merged = CheckpointJson::object();
  for (const std::string& text : gather_texts(cluster, mine.dump()))
    merged.update(CheckpointJson::parse(text));
  return merged;
}

// Writes `bytes` to dir/name through a temporary, flushed to disk and then
// renamed: whole or not at all.
void write_durably(const fs::path& dir, const std::string& name, std::span<const std::byte> bytes,
                   const std::string& source) {
  const fs::path temporary = dir / ("." + name + ".partial");  // the name is the process's own
  const auto fail = [&](const char* doing) {
    const int error = errno;
    ::unlink(temporary.c_str());
    throw InputError(
        source, 0,
        fmt::format("cannot {} {}: {}", doing, temporary.string(), std::strerror(error)));
  };
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail("create");
  std::size_t done = 0;
  while (done < bytes.size()) {
    const std::size_t chunk = std::min<std::size_t>(bytes.size() - done, std::size_t{1} << 30);
    const ssize_t n = ::write(fd, bytes.data() + done, chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      fail("write");
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) {
    ::close(fd);
    fail("flush");
  }
  if (::close(fd) != 0) fail("close");
  if (::rename(temporary.c_str(), (dir / name).c_str()) != 0) fail("rename");
}

void sync_folder(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

std::span<const std::byte> as_bytes(const std::string& text) {
  return {reinterpret_cast<const std::byte*>(text.data()), text.size()};
}

}  // namespace

// ---- writing

CheckpointWriter::CheckpointWriter(std::string dir, CheckpointJson identity, std::string source,
                                   Cluster* cluster)
    : dir_(std::move(dir)),
      source_(std::move(source)),
      identity_(std::move(identity)),
      cluster_(cluster) {
  std::error_code ignored;
  fs::create_directories(dir_, ignored);
  if (!fs::is_directory(dir_))
    throw InputError(source_, 0, fmt::format("{} is not a folder that can be made", dir_));
  // Temporaries of a save that a kill interrupted: never committed.
  for (const auto& entry : fs::directory_iterator(dir_, ignored))
    if (const std::string name = entry.path().filename().string();
        name.starts_with(".") && name.ends_with(".partial") && is_mine(name, cluster_))
      fs::remove(entry.path(), ignored);
  // Generations go on from the checkpoint being continued, if any.
  std::ifstream in(fs::path(dir_) / kManifest);
  if (in) {
    const CheckpointJson old = CheckpointJson::parse(in, nullptr, false);
    if (old.is_object() && old.contains("generation") && old["generation"].is_number_unsigned())
      generation_ = old["generation"].get<std::uint64_t>();
  }
}

void CheckpointWriter::save(const CheckpointJson& state, const std::vector<CheckpointBlob>& blobs) {
  const fs::path dir(dir_);
  const std::uint64_t generation = generation_ + 1;
  CheckpointJson files = CheckpointJson::object();
  for (const CheckpointBlob& blob : blobs) {
    const std::string file = data_name(blob.name, generation, cluster_);
    write_durably(dir, file, blob.bytes, source_);
    files[data_key(blob.name, cluster_)] = {
        {"file", file},
        {"bytes", blob.bytes.size()},
        {"xxh3", hex(hash_bytes(blob.bytes.data(), blob.bytes.size()))}};
  }
  sync_folder(dir);
  // Across processes: every process's files are written once this returns.
  if (shared(cluster_)) files = merged_over(*cluster_, files);
  if (!shared(cluster_) || cluster_->process() == 0) {
    const CheckpointJson manifest = {{"format", kCheckpointFormat},
                                     {"identity", identity_},
                                     {"generation", generation},
                                     {"state", state},
                                     {"files", files}};
    const std::string text = manifest.dump(2) + '\n';
    write_durably(dir, kManifest, as_bytes(text), source_);
    sync_folder(dir);
  }
  generation_ = generation;
  // The commit is done everywhere before anyone removes an older file.
  if (shared(cluster_)) total(*cluster_, 0);
  // The older generations' files: no longer named by the manifest.
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(dir, error)) {
    const std::string name = entry.path().filename().string();
    if (name.ends_with(".bin") && is_mine(name, cluster_) &&
        !name.ends_with(fmt::format(".{}.bin", generation)))
      fs::remove(entry.path(), error);
  }
}

// ---- reading

bool has_checkpoint(const std::string& dir) {
  std::error_code error;
  return fs::is_regular_file(fs::path(dir) / kManifest, error);
}

CheckpointReader::CheckpointReader(std::string dir, const CheckpointJson& identity,
                                   Cluster* cluster)
    : dir_(std::move(dir)), cluster_(cluster) {
  const std::string path = (fs::path(dir_) / kManifest).string();
  std::ifstream in(path);
  if (!in) throw InputError(path, 0, "no checkpoint here (nothing to resume)");
  manifest_ = CheckpointJson::parse(in, nullptr, false);
  if (!manifest_.is_object() || !manifest_.contains("format") || !manifest_.contains("identity") ||
      !manifest_.contains("generation") || !manifest_.contains("state") ||
      !manifest_.contains("files") || !manifest_["files"].is_object())
    throw InputError(path, 0, "not a checkpoint manifest (corrupt or truncated)");
  if (manifest_["format"] != kCheckpointFormat)
    throw InputError(path, 0,
                     fmt::format("checkpoint format {}, this cubenum reads format {}",
                                 manifest_["format"].dump(), kCheckpointFormat));
  if (manifest_["identity"] != identity) {
    // Name the first field that differs.
    std::string reason = "of another run";
    const CheckpointJson& saved = manifest_["identity"];
    if (saved.is_object()) {
      for (const auto& [key, value] : identity.items())
        if (!saved.contains(key) || saved[key] != value) {
          reason = fmt::format("of another run: {} is {} there, {} here", key,
                               saved.contains(key) ? saved[key].dump() : "missing", value.dump());
          break;
        }
      for (const auto& [key, value] : saved.items())
        if (!identity.contains(key)) {
          reason = fmt::format("of another run: {} is {} there, missing here", key, value.dump());
          break;
        }
    }
    // Across processes each holds its part: the same number must go on.
    const auto processes = [](const CheckpointJson& id) {
      return id.is_object() && id.contains("processes") && id["processes"].is_number_unsigned()
                 ? id["processes"].get<std::uint64_t>()
                 : std::uint64_t{1};
    };
    if (const auto there = processes(saved), here = processes(identity); there != here)
      reason += there == 1 ? " (saved by one process: resume it without mpirun)"
                           : fmt::format(
                                 " (saved by {} processes: resume it with the same "
                                 "command under mpirun -np {})",
                                 there, there);
    throw InputError(path, 0, "the checkpoint is " + reason);
  }
}

void CheckpointReader::read(const std::string& name, std::span<std::byte> out) const {
  const std::string manifest = (fs::path(dir_) / kManifest).string();
  const CheckpointJson& files = manifest_["files"];
  const std::string key = data_key(name, cluster_);
  if (!files.contains(key) || !files[key].contains("file") || !files[key].contains("bytes") ||
      !files[key].contains("xxh3"))
    throw InputError(manifest, 0, fmt::format("the checkpoint has no data '{}'", key));
  const CheckpointJson& entry = files[key];
  const std::string path = (fs::path(dir_) / entry["file"].get<std::string>()).string();
  if (entry["bytes"] != out.size())
    throw InputError(path, 0,
                     fmt::format("{} bytes, the run needs {}", entry["bytes"].dump(), out.size()));
  std::error_code error;
  const auto size = fs::file_size(path, error);
  if (error) throw InputError(path, 0, "missing: " + error.message());
  if (size != out.size())
    throw InputError(path, 0, fmt::format("truncated: {} bytes of {}", size, out.size()));
  std::ifstream in(path, std::ios::binary);
  in.read(reinterpret_cast<char*>(out.data()), static_cast<std::streamsize>(out.size()));
  if (!in) throw InputError(path, 0, "cannot be read");
  if (hex(hash_bytes(out.data(), out.size())) != entry["xxh3"])
    throw InputError(path, 0, "corrupt: its checksum (XXH3) is not the one the manifest records");
}

std::vector<std::byte> CheckpointReader::read(const std::string& name) const {
  const CheckpointJson& files = manifest_["files"];
  const std::string key = data_key(name, cluster_);
  std::vector<std::byte> bytes;
  if (files.contains(key) && files[key].contains("bytes") &&
      files[key]["bytes"].is_number_unsigned() && files[key].contains("file") &&
      files[key]["file"].is_string()) {
    const std::uint64_t recorded = files[key]["bytes"].get<std::uint64_t>();
    const std::string path = (fs::path(dir_) / files[key]["file"].get<std::string>()).string();
    std::error_code error;
    const auto size = fs::file_size(path, error);
    if (error) throw InputError(path, 0, "missing: " + error.message());
    if (size < recorded)
      throw InputError(path, 0, fmt::format("truncated: {} bytes of {}", size, recorded));
    bytes.resize(recorded);
  }
  read(name, bytes);  // names what is missing or wrong
  return bytes;
}

// ---- stop requests

namespace {

std::atomic<bool> stop_flag{false};
// When the first signal came (CLOCK_MONOTONIC nanoseconds).
std::atomic<std::int64_t> first_signal_ns{0};
static_assert(std::atomic<bool>::is_always_lock_free);  // set from a signal handler
static_assert(std::atomic<std::int64_t>::is_always_lock_free);

// A second signal within this long of the first is the same request: a
// Ctrl-C in a terminal reaches every process of the foreground group, so
// a process under mpirun (or timeout) gets it once from the terminal and
// once more from mpirun passing it on.
constexpr std::int64_t kSameRequestNs = 1'000'000'000;

std::int64_t monotonic_ns() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);  // async-signal-safe
  return std::int64_t{t.tv_sec} * 1'000'000'000 + t.tv_nsec;
}

extern "C" void on_stop_signal(int signal) {
  const std::int64_t now = monotonic_ns();
  std::int64_t first = 0;
  if (first_signal_ns.compare_exchange_strong(first, now)) {  // the first
    stop_flag.store(true);
    return;
  }
  if (now - first < kSameRequestNs) return;
  std::signal(signal, SIG_DFL);  // a second request: at once
  std::raise(signal);
}

}  // namespace

void install_stop_signals() {
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
}

bool stop_requested() {
  return stop_flag.load(std::memory_order_relaxed);
}

}  // namespace cubenum
