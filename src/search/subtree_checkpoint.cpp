#include "cubenum/search/subtree_checkpoint.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>
#include <string_view>

#include "cubenum/core/byte_io.hpp"
#include "cubenum/core/error.hpp"

namespace cubenum::search {
namespace fs = std::filesystem;
namespace {

// Takes 1 to 9 digits off the front of `text`; their value, or nothing.
std::optional<int> take_number(std::string_view& text) {
  std::size_t digits = 0;
  while (digits < text.size() && digits < 10 && text[digits] >= '0' && text[digits] <= '9')
    ++digits;
  if (digits == 0 || digits > 9) return std::nullopt;
  int value = 0;
  for (std::size_t i = 0; i < digits; ++i) value = value * 10 + (text[i] - '0');
  text.remove_prefix(digits);
  return value;
}

// The session of a part's folder, "part.s<session>.p<process>"; nothing for
// any other name. (Parsed by hand: a std::regex would be built at start-up,
// a cost to every run of the program.)
std::optional<int> part_session(std::string_view name) {
  if (!name.starts_with("part.s")) return std::nullopt;
  name.remove_prefix(6);
  const std::optional<int> session = take_number(name);
  if (!session || !name.starts_with(".p")) return std::nullopt;
  name.remove_prefix(2);
  if (!take_number(name) || !name.empty()) return std::nullopt;
  return session;
}

// The committed parts in `dir` (folders with a manifest), sorted; and the
// largest session number of any part folder, committed or not.
std::vector<std::string> committed_parts(const std::string& dir, int& last_session) {
  std::vector<std::string> parts;
  last_session = 0;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(dir, error)) {
    const std::string name = entry.path().filename().string();
    const std::optional<int> session = part_session(name);
    if (!session || !entry.is_directory(error)) continue;
    last_session = std::max(last_session, *session);
    if (has_checkpoint(entry.path().string())) parts.push_back(entry.path().string());
  }
  std::sort(parts.begin(), parts.end());
  return parts;
}

// Parts of sessions before `session` are never written again: remove the
// folders no save committed (a process killed during its first save) and
// the temporaries of saves a kill interrupted.
void tidy_old_parts(const std::string& dir, int session) {
  std::error_code error;
  std::vector<fs::path> doomed;
  for (const auto& entry : fs::directory_iterator(dir, error)) {
    const std::string name = entry.path().filename().string();
    const std::optional<int> part = part_session(name);
    if (!part || *part >= session || !entry.is_directory(error)) continue;
    if (!has_checkpoint(entry.path().string())) {
      doomed.push_back(entry.path());
      continue;
    }
    for (const auto& file : fs::directory_iterator(entry.path(), error))
      if (file.path().filename().string().ends_with(".partial")) doomed.push_back(file.path());
  }
  for (const fs::path& path : doomed) fs::remove_all(path, error);
}

}  // namespace

SubtreeCheckpoint::SubtreeCheckpoint(std::string dir, CheckpointJson identity, bool resume,
                                     double every_seconds, Cluster& cluster, std::string source)
    : dir_(std::move(dir)),
      source_(std::move(source)),
      identity_(std::move(identity)),
      every_(every_seconds),
      process_(cluster.process()) {
  // Every process reads the folder as it was before any of them writes.
  int last_session = 0;
  std::string problem;
  try {
    const std::vector<std::string> parts = committed_parts(dir_, last_session);
    if (has_checkpoint(dir_))
      throw InputError(source_, 0,
                       fmt::format("{} holds the checkpoint of another kind of run", dir_));
    if (resume && parts.empty())
      throw InputError(source_, 0, fmt::format("{} holds no checkpoint (nothing to resume)", dir_));
    if (!resume && !parts.empty())
      throw InputError(source_, 0,
                       fmt::format("{} holds a checkpoint already: --resume {} continues it (or "
                                   "remove the folder to start again)",
                                   dir_, dir_));
    read_parts(parts);
    // Made now, so that a folder that cannot be fails before the work.
    std::error_code error;
    fs::create_directories(dir_, error);
    if (!fs::is_directory(dir_))
      throw InputError(source_, 0, fmt::format("{} is not a folder that can be made", dir_));
  } catch (const InputError& error) {
    problem = error.what();
  }
  problem = first_problem(cluster, problem);
  if (!problem.empty()) throw InputError(problem);
  session_ = last_session + 1;
  total(cluster, 0);  // all have read before any part is written
  if (process_ != 0) return;
  tidy_old_parts(dir_, session_);
  if (!parts_seen_.empty()) fold_parts();
}

void SubtreeCheckpoint::read_parts(const std::vector<std::string>& parts) {
  // The parts that a committed part folds are in it: skipped.
  std::vector<CheckpointReader> readers;
  std::set<std::string> folded;
  for (const std::string& part : parts) {
    const CheckpointReader& reader = readers.emplace_back(part, identity_);
    for (const auto& name : reader.state().value("folds", CheckpointJson::array()))
      folded.insert(name.get<std::string>());
    parts_seen_.push_back(fs::path(part).filename().string());
  }
  for (std::size_t p = 0; p < parts.size(); ++p) {
    const std::string& part = parts[p];
    if (folded.contains(parts_seen_[p])) continue;
    const CheckpointReader& reader = readers[p];
    const std::string source = (fs::path(part) / "ledger").string();
    const std::vector<std::byte> blob = reader.read("ledger");
    ByteReader in(blob, source, "the ledger");
    for (std::uint32_t n = in.get<std::uint32_t>(); n != 0; --n) {
      const auto name_bytes = in.bytes();
      const std::string name(reinterpret_cast<const char*>(name_bytes.data()), name_bytes.size());
      const std::uint32_t subtrees = in.get<std::uint32_t>();
      Finished& f = earlier_[name];
      if (f.done.empty()) {
        f.subtrees = subtrees;
        f.done.assign(subtrees, false);
      } else if (f.subtrees != subtrees) {
        throw InputError(source, 0,
                         fmt::format("search '{}' has {} subtrees there, {} in another part", name,
                                     subtrees, f.subtrees));
      }
      for (std::uint32_t k = in.get<std::uint32_t>(); k != 0; --k) {
        const std::uint32_t s = in.get<std::uint32_t>();
        if (s >= subtrees || f.done[s])
          throw InputError(source, 0,
                           fmt::format("subtree {} of '{}' is {} (corrupt)", s, name,
                                       s >= subtrees ? "out of range" : "in two parts"));
        f.done[s] = true;
      }
      const auto tally = in.bytes();
      f.tallies.push_back(
          std::make_shared<const std::vector<std::byte>>(tally.begin(), tally.end()));
    }
    if (!in.done()) throw InputError(source, 0, "bytes after the ledger's end (corrupt)");
    ++parts_read_;
  }
}

// This process's part starts with every earlier record, saved at once;
// then the parts it folds go (they were all read: the constructor waits
// for every process).
void SubtreeCheckpoint::fold_parts() {
  std::lock_guard lock(mutex_);
  folds_ = true;
  for (const auto& [name, f] : earlier_) {
    Record& r = records_[name];
    order_.push_back(name);
    r.subtrees = f.subtrees;
    for (std::uint32_t s = 0; s < f.subtrees; ++s)
      if (f.done[s]) r.done.push_back(s);
    r.tallies = f.tallies;
  }
  save_locked(/*stopping=*/true);
  std::error_code error;
  for (const std::string& part : parts_seen_) fs::remove_all(fs::path(dir_) / part, error);
}

SubtreeCheckpoint::Earlier SubtreeCheckpoint::earlier(const std::string& name,
                                                      std::uint32_t subtrees) const {
  Earlier out;
  const auto it = earlier_.find(name);
  if (it != earlier_.end() && it->second.subtrees != subtrees)
    throw InputError(source_, 0,
                     fmt::format("the checkpoint's search '{}' has {} subtrees, this run's {}: "
                                 "made by another version of cubenum?",
                                 name, it->second.subtrees, subtrees));
  for (std::uint32_t s = 0; s < subtrees; ++s)
    (it != earlier_.end() && it->second.done[s] ? out.done : out.pending).push_back(s);
  if (it != earlier_.end()) out.tallies = it->second.tallies;
  return out;
}

void SubtreeCheckpoint::record(const std::string& name, std::uint32_t subtrees,
                               std::vector<std::uint32_t> done, std::vector<TallyBytes> tallies) {
  std::lock_guard lock(mutex_);
  if (!records_.contains(name)) order_.push_back(name);
  records_[name] = {subtrees, std::move(done), std::move(tallies)};
}

bool SubtreeCheckpoint::due() const {
  std::lock_guard lock(mutex_);
  return since_save_.seconds() >= every_;
}

void SubtreeCheckpoint::save(bool stopping) {
  std::lock_guard lock(mutex_);
  save_locked(stopping);
}

// A search's record is written as one entry per tally, the first with the
// finished subtrees (a reader sums a search's entries).
void SubtreeCheckpoint::save_locked(bool stopping) {
  // A session that finished nothing (a resumed run with nothing left, a
  // process that drew no subtree) leaves no part, unless it stops.
  const bool nothing = std::all_of(records_.begin(), records_.end(),
                                   [](const auto& r) { return r.second.done.empty(); });
  if (nothing && !writer_ && !stopping) return;
  if (!writer_)
    writer_ = std::make_unique<CheckpointWriter>(
        (fs::path(dir_) / fmt::format("part.s{}.p{}", session_, process_)).string(), identity_,
        source_);
  ByteWriter out;
  std::uint32_t entries = 0;
  for (const auto& [name, r] : records_) entries += static_cast<std::uint32_t>(r.tallies.size());
  out.put<std::uint32_t>(entries);
  CheckpointJson searches = CheckpointJson::array();
  for (const std::string& name : order_) {
    const Record& r = records_.at(name);
    for (std::size_t t = 0; t < r.tallies.size(); ++t) {
      out.bytes({reinterpret_cast<const std::byte*>(name.data()), name.size()});
      out.put<std::uint32_t>(r.subtrees);
      out.put<std::uint32_t>(t == 0 ? static_cast<std::uint32_t>(r.done.size()) : 0);
      if (t == 0)
        for (const std::uint32_t s : r.done) out.put<std::uint32_t>(s);
      out.bytes(*r.tallies[t]);
    }
    searches.push_back({{"search", name}, {"subtrees", r.subtrees}, {"finished", r.done.size()}});
  }
  CheckpointJson state = {{"session", session_}, {"process", process_}, {"searches", searches}};
  if (folds_) state["folds"] = parts_seen_;
  writer_->save(state, {{"ledger", out.out}});
  since_save_.restart();
}

}  // namespace cubenum::search
