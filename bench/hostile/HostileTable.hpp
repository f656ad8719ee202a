#pragma once
// The table of issue 14's hostile inputs (bench_hostile --table): time and peak memory of the CLI on each.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace interlink::bench {

/// One input: what it is, how to lay it out in `dir` (returns the file to check) and the error
/// code its verdict must carry (empty: it must load).
struct HostileCase {
  std::string name;
  std::function<std::string(const std::filesystem::path& dir)> make;
  std::string expected;
  /// The command: `check` (with these options before the file), or `plugins` with `dir/plugins`
  /// as INTERLINK_PLUGIN_PATH.
  std::vector<std::string> options = {};
  bool pluginsCommand = false;
  /// Instead of `check FILE`: these arguments of the CLI ("{}" stands for the file), for
  /// conversions and other commands.
  std::vector<std::string> command = {};
  /// Where the CLI's standard output goes instead of the captured output (e.g. /dev/full).
  std::string stdoutTo = {};
  /// When set, the program run instead of the CLI (e.g. {"/usr/bin/python3"}), followed by
  /// `command`; with `environment` added ("NAME=value").
  std::vector<std::string> program = {};
  std::vector<std::string> environment = {};
};

/// The second round's inputs (issue 29): meshes, stacks, arithmetic, mimic cycles, lost output,
/// plugins. `pluginDir` is the build tree's plugin directory.
std::vector<HostileCase> roundTwoCases(const std::filesystem::path& pluginDir);

/// Prints one Markdown row per hostile input, checked by the CLI at `cli` in its own process;
/// 1 when one of them took a second or more of CPU time, 256 MiB or more, or crashed.
int printHostileTable(const std::string& cli);

}  // namespace interlink::bench
