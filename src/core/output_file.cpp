#include "cubenum/core/output_file.hpp"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <memory>

#include "cubenum/core/error.hpp"

namespace cubenum {
namespace fs = std::filesystem;
namespace {

fs::path folder_of(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? fs::path(".") : parent;
}

// The mode a new file gets (0666 less the umask): mkstemp makes 0600.
mode_t new_file_mode() {
  static const mode_t mode = [] {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return static_cast<mode_t>(0666 & ~mask);
  }();
  return mode;
}

// The temporaries being written, removed if Ctrl-C or a kill by SIGTERM or
// SIGHUP ends the program (the signal then ends it as before: status 130 for
// Ctrl-C). SIGKILL cannot be caught: it may leave a hidden temporary.
std::array<std::atomic<const char*>, 64> open_temporaries{};

extern "C" void remove_temporaries(int signal) {
  for (auto& path : open_temporaries)
    if (const char* p = path.load(); p != nullptr) ::unlink(p);
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

void track(const std::string& temporary) {
  static const bool installed = [] {
    for (const int s : {SIGINT, SIGTERM, SIGHUP}) std::signal(s, remove_temporaries);
    return true;
  }();
  (void)installed;
  for (auto& slot : open_temporaries) {
    const char* empty = nullptr;
    if (slot.compare_exchange_strong(empty, temporary.c_str())) return;
  }
}

void untrack(const std::string& temporary) {
  for (auto& slot : open_temporaries) {
    const char* mine = temporary.c_str();
    if (slot.compare_exchange_strong(mine, nullptr)) return;
  }
}

}  // namespace

OutputFile::OutputFile(std::string path, std::string source)
    : path_(std::move(path)), source_(std::move(source)) {
  std::error_code error;
  const auto status = fs::status(path_, error);
  if (fs::is_directory(status)) fail("cannot write", EISDIR);
  if (fs::exists(status) && !fs::is_regular_file(status)) {
    file_ = std::fopen(path_.c_str(), "wb");
    if (file_ == nullptr) fail("cannot write", errno);
    return;
  }
  const fs::path name = fs::path(path_).filename();
  // fmt, not "." + name + ...: GCC 12 misjudges that concatenation (array-bounds).
  std::string pattern =
      (folder_of(path_) / fmt::format(".{}.cubenum-XXXXXX", name.string())).string();
  const int fd = ::mkstemp(pattern.data());
  if (fd < 0) fail("cannot write", errno);
  temporary_ = pattern;
  track(temporary_);
  struct stat old {};
  ::fchmod(fd, ::stat(path_.c_str(), &old) == 0 ? (old.st_mode & 07777) : new_file_mode());
  file_ = ::fdopen(fd, "wb");
  if (file_ == nullptr) {
    const int e = errno;
    ::close(fd);
    fail("cannot write", e);
  }
}

OutputFile::~OutputFile() {
  if (file_ != nullptr) std::fclose(file_);
  if (!temporary_.empty()) {
    untrack(temporary_);
    ::unlink(temporary_.c_str());
  }
}

void OutputFile::write(std::string_view text) {
  if (std::fwrite(text.data(), 1, text.size(), file_) != text.size()) fail("writing", errno);
}

void OutputFile::commit() {
  const bool flushed = std::fflush(file_) == 0 && std::ferror(file_) == 0;
  const int flush_error = errno;
  const int closed = std::fclose(file_);
  file_ = nullptr;
  if (!flushed) fail("writing", flush_error);
  if (closed != 0) fail("writing", errno);
  if (temporary_.empty()) return;
  if (std::rename(temporary_.c_str(), path_.c_str()) != 0) fail("cannot write", errno);
  untrack(temporary_);
  temporary_.clear();
}

void OutputFile::fail(const char* doing, int error) const {
  throw InputError(source_, 0,
                   fmt::format("{} {}: {}", doing, excerpt(path_, 200),
                               error != 0 ? std::strerror(error) : "unknown error"));
}

void write_output_file(const std::string& path, const std::string& source, std::string_view text) {
  OutputFile file(path, source);
  file.write(text);
  file.commit();
}

void write_output_set(const std::vector<OutputText>& files, const std::string& source) {
  std::vector<std::unique_ptr<OutputFile>> written;
  for (const OutputText& file : files) {
    written.push_back(std::make_unique<OutputFile>(file.path, source));
    written.back()->write(file.text);
  }
  for (const auto& file : written) file->commit();
}

void check_output_path(const std::string& path, const std::string& source) {
  const auto fail = [&](const std::string& why) {
    throw InputError(source, 0, fmt::format("cannot write {}: {}", excerpt(path, 200), why));
  };
  std::error_code error;
  if (path.empty()) fail("no file name");
  const auto status = fs::status(path, error);
  if (fs::is_directory(status)) fail("it is a folder");
  if (fs::exists(status) && !fs::is_regular_file(status)) {
    if (::access(path.c_str(), W_OK) != 0) fail(std::strerror(errno));
    return;
  }
  const fs::path folder = folder_of(path);
  if (!fs::is_directory(folder, error)) fail(fmt::format("no folder {}", excerpt(folder.string())));
  if (::access(folder.c_str(), W_OK) != 0)
    fail(fmt::format("folder {}: {}", excerpt(folder.string()), std::strerror(errno)));
}

void check_output_folder(const std::string& path, const std::string& source) {
  const auto fail = [&](const std::string& why) {
    throw InputError(source, 0, fmt::format("cannot write into {}: {}", excerpt(path, 200), why));
  };
  std::error_code error;
  if (path.empty()) fail("no folder name");
  fs::path existing = fs::absolute(path, error);
  while (!fs::exists(existing, error) && existing.has_parent_path() &&
         existing != existing.parent_path())
    existing = existing.parent_path();
  if (!fs::is_directory(existing, error))
    fail(fmt::format("{} is not a folder", excerpt(existing.string())));
  if (::access(existing.c_str(), W_OK) != 0)
    fail(fmt::format("{}: {}", excerpt(existing.string()), std::strerror(errno)));
}

}  // namespace cubenum
