// `interlink check`: every parsing phase over files, directories (walked) and standard input,
// in parallel with -j, reported as text, JSON (schema "interlink-check", version 1) or SARIF 2.1.0.
#include <fnmatch.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <set>
#include <sstream>
#include <thread>

#include "Commands.hpp"
#include "interlink/convert/Writers.hpp"

namespace interlink::cli {

const char* const kCheckUsage =
    "usage: interlink check FILE|DIR|-... [-I DIR] [--from NAME] [--format text|json|sarif] [-j N]\n"
    "                       [-q] [--werror] [--ignore CODE]... [--only CODE]... [--arg NAME:=VALUE]...\n"
    "  Loads each file with its format plugin, resolves includes and runs every frame-graph phase.\n"
    "  A directory is walked (recursively) for files whose extension a format plugin claims; '-'\n"
    "  reads standard input. Diagnostics are printed as file:line:col: error[CODE]: message.\n"
    "  -I, --resource-path DIR   search DIR for model:// and package:// URIs (repeatable)\n"
    "  --confine                 read includes and meshes only from inside FILE's directory and the -I\n"
    "                            DIRs (for untrusted files; default: follow paths as the format says)\n"
    "  --arg NAME:=VALUE         an argument of a xacro file ($(arg NAME); repeatable, docs/xacro.md)\n"
    "  -v, --verbose             every warning on its own line (default: repeats of one kind grouped)\n"
    "  --strict                  refuse what is loaded only because the format's reference tool\n"
    "                            tolerates it: XML_SYNTAX and DEVIATION_TOLERATED warnings become errors\n"
    "  --from NAME               read every input with this format plugin (see `interlink plugins`)\n"
    "  --format FORMAT           text (default), json (docs/cli.md, schema interlink-check 1) or sarif\n"
    "                            (SARIF 2.1.0, for CI annotations), on standard output\n"
    "  -j, --jobs N              check N files at a time\n"
    "  -q, --quiet               print only diagnostics and the verdict of invalid files\n"
    "  --werror                  warnings make a file invalid (valid elements of a format never warn)\n"
    "  --explain                 also list, as notes, what is kept but not interpreted (<material>,\n"
    "                            <sensor>, plugins, custom elements); -v does too\n"
    "  --ignore CODE, --only CODE   drop diagnostics of a code / keep only these codes (repeatable)\n"
    "  --exclude GLOB            leave out of a walked directory the files and directories whose path\n"
    "                            (relative to it) or name matches GLOB (repeatable)\n"
    "  In a directory, files no format plugin reads (package.xml, launch files) are skipped and counted.\n"
    "  A run over several files ends with a summary line; a terminal shows progress on stderr.\n"
    "  exit status: 0 all valid, 1 some file invalid, 2 usage or I/O error (the worst of all files)\n";

namespace {

namespace fs = std::filesystem;

/// The verdict on one input.
struct Checked {
  std::string input;  // as given or found while walking ("-" for standard input)
  Diagnostics diagnostics;
  int status = 0;     // 0 valid, 1 invalid, 2 unreadable
};

const char* statusName(int status) { return status == 0 ? "valid" : status == 1 ? "invalid" : "unreadable"; }

std::size_t countOf(const Diagnostics& diagnostics, Severity severity) {
  return static_cast<std::size_t>(std::count_if(diagnostics.begin(), diagnostics.end(),
                                                [&](const Diagnostic& d) { return d.severity == severity; }));
}

/// What walking the directories found.
struct Expanded {
  std::vector<std::string> files;    // to check, in order
  std::vector<std::string> skipped;  // found under a directory, but no plugin claims their content
  bool emptyDirectory = false;       // a directory held no model file at all
};

/// True when `path` (relative to the walked directory) or its file name matches one of `globs`.
bool excluded(const fs::path& relative, const std::vector<std::string>& globs) {
  const std::string path = relative.generic_string();
  const std::string name = relative.filename().string();
  for (const auto& glob : globs) {
    if (::fnmatch(glob.c_str(), path.c_str(), 0) == 0 || ::fnmatch(glob.c_str(), name.c_str(), 0) == 0) return true;
  }
  return false;
}

/// Whether a plugin reads `file`, whose extension a plugin claims, by its first bytes, as a load
/// would choose (`.xml` is MJCF's, URDF's and others', a ROS package.xml nobody's).
bool someFormatClaims(const std::string& file, const PluginRegistry& registry) {
  char head[4096];
  std::size_t size = 0;
  if (FILE* in = std::fopen(file.c_str(), "rb")) {
    size = std::fread(head, 1, sizeof head, in);
    std::fclose(in);
  }
  return static_cast<bool>(registry.formatFor(file, std::string_view(head, size)));
}

/// Expands directories into the model files under them (sorted): files no plugin claims by
/// content (a package.xml, a launch file) are skipped and counted, --exclude globs left out.
/// Other inputs stay as given.
Expanded expandInputs(const std::vector<std::string>& inputs, const std::vector<std::string>& exclude,
                      const PluginRegistry& registry) {
  Expanded expanded;
  for (const auto& input : inputs) {
    std::error_code ec;
    if (input == "-" || !fs::is_directory(input, ec)) {
      expanded.files.push_back(input);
      continue;
    }
    std::vector<std::string> found;
    const std::size_t skippedBefore = expanded.skipped.size();
    fs::recursive_directory_iterator it(input, fs::directory_options::none, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
      const fs::path relative = it->path().lexically_relative(input);
      if (!exclude.empty() && excluded(relative, exclude)) {
        if (it->is_directory(ec)) it.disable_recursion_pending();
        continue;
      }
      if (!fs::is_regular_file(it->path(), ec)) continue;
      const std::string file = it->path().string();
      if (!registry.claimsExtension(file)) continue;  // meshes, READMEs: not model candidates
      (someFormatClaims(file, registry) ? found : expanded.skipped).push_back(file);
    }
    if (ec && found.empty()) {
      std::cerr << "interlink: cannot walk '" << input << "': " << ec.message() << "\n";
    }
    if (found.empty()) {
      std::cerr << "interlink: no model file under '" << input << "'";
      const std::size_t skipped = expanded.skipped.size() - skippedBefore;
      if (skipped > 0) std::cerr << " (" << skipped << " file" << (skipped == 1 ? "" : "s") << " skipped: no format)";
      std::cerr << "\n";
      expanded.emptyDirectory = true;
    }
    std::sort(found.begin(), found.end());
    expanded.files.insert(expanded.files.end(), found.begin(), found.end());
  }
  return expanded;
}

/// Applies --ignore / --only / --werror and decides the verdict.
void judge(Checked& checked, const CheckOptions& options) {
  std::set<ErrorCode> ignore, only;
  for (const auto& name : options.ignore) ignore.insert(codeFromName(name));
  for (const auto& name : options.only) only.insert(codeFromName(name));
  const bool ioOnly = onlyIoErrors(checked.diagnostics, checked.input);
  if (ioOnly) {  // a file that could not be read has nothing to judge: no filter makes it pass
    checked.status = 2;
    return;
  }
  Diagnostics kept;
  for (const Diagnostic& d : checked.diagnostics) {
    if (ignore.count(d.code) || (!only.empty() && !only.count(d.code))) continue;
    kept.add(d);
  }
  checked.diagnostics = std::move(kept);
  const bool failing = checked.diagnostics.hasErrors() ||
                       (options.werror && countOf(checked.diagnostics, Severity::Warning) > 0);
  checked.status = failing ? 1 : 0;
}

/// The `--format json` document: {"schema":"interlink-check","version":1,"files":[...],"summary":{...}}.
std::string jsonReport(const std::vector<Checked>& results, std::size_t skipped) {
  std::ostringstream out;
  out << "{\"schema\":\"interlink-check\",\"version\":1,\"tool\":{\"name\":\"interlink\",\"version\":\""
      << INTERLINK_VERSION_STRING << "\"},\"files\":[";
  std::size_t valid = 0, errors = 0, warnings = 0;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const Checked& c = results[i];
    const std::string name = displayName(c.input);
    out << (i ? "," : "") << "{\"file\":" << convert::jsonQuoted(name) << ",\"status\":\"" << statusName(c.status)
        << "\",\"diagnostics\":" << diagnosticsJson(c.diagnostics, name) << "}";
    valid += c.status == 0;
    errors += countOf(c.diagnostics, Severity::Error);
    warnings += countOf(c.diagnostics, Severity::Warning);
  }
  out << "],\"summary\":{\"files\":" << results.size() << ",\"valid\":" << valid << ",\"invalid\":" << results.size() - valid
      << ",\"errors\":" << errors << ",\"warnings\":" << warnings << ",\"skipped\":" << skipped << "}}\n";
  return out.str();
}

/// A path as a URI reference (RFC 3986): bytes outside the unreserved set and '/' escaped.
std::string uriEscaped(const std::string& path) {
  static const char* const kHex = "0123456789ABCDEF";
  std::string out;
  for (const char c : path) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) || c == '/' || c == '-' || c == '.' || c == '_' || c == '~') {
      out += c;
    } else {
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    }
  }
  return out;
}

/// SARIF's artifactLocation: a relative name (as the user gave it) against the base SRCROOT (the
/// working directory), an absolute one as a file URI.
std::string sarifLocation(const std::string& file) {
  if (!file.empty() && file.front() == '/') return "{\"uri\":" + convert::jsonQuoted("file://" + uriEscaped(file)) + "}";
  return "{\"uri\":" + convert::jsonQuoted(uriEscaped(file)) + ",\"uriBaseId\":\"SRCROOT\"}";
}

/// SARIF 2.1.0 (OASIS): one run, one rule per error code, one result per diagnostic.
std::string sarifReport(const std::vector<Checked>& results) {
  std::set<std::string> rules;
  std::ostringstream found;
  bool first = true;
  for (const Checked& c : results) {
    for (const Diagnostic& d : c.diagnostics) {
      const std::string rule(codeName(d.code));
      rules.insert(rule);
      const std::string file = d.where.file.empty() ? displayName(c.input) : d.where.file.str();
      found << (first ? "" : ",") << "{\"ruleId\":\"" << rule << "\",\"level\":\""
            << severityName(d.severity)
            << "\",\"message\":{\"text\":" << convert::jsonQuoted(d.message) << "},\"locations\":[{\"physicalLocation\":{"
            << "\"artifactLocation\":" << sarifLocation(file);
      if (d.where.line > 0) {
        found << ",\"region\":{\"startLine\":" << d.where.line;
        if (d.where.column > 0) found << ",\"startColumn\":" << d.where.column;
        found << "}";
      }
      found << "}}]}";
      first = false;
    }
  }
  std::ostringstream out;
  out << "{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\",\"runs\":[{\"tool\":{"
      << "\"driver\":{\"name\":\"interlink\",\"version\":\"" << INTERLINK_VERSION_STRING
      << "\",\"informationUri\":\"https://github.com/interlink-robotics/interlink\",\"rules\":[";
  first = true;
  for (const auto& rule : rules) {
    out << (first ? "" : ",") << "{\"id\":\"" << rule << "\"}";
    first = false;
  }
  std::error_code ec;
  std::string base = fs::current_path(ec).string();
  if (base.empty() || base.back() != '/') base += '/';
  out << "]}},\"originalUriBaseIds\":{\"SRCROOT\":{\"uri\":" << convert::jsonQuoted("file://" + uriEscaped(base))
      << "}},\"results\":[" << found.str() << "]}]}\n";
  return out.str();
}

}  // namespace

int runCheck(const CheckOptions& options) {
  for (const auto& lists : {options.ignore, options.only}) {
    for (const auto& name : lists) {
      if (codeFromName(name) == ErrorCode::NONE) return usageError("unknown error code '" + name + "'", kCheckUsage);
    }
  }
  Loader loader;
  const Expanded expanded = expandInputs(options.inputs, options.exclude, loader.plugins());
  const std::vector<std::string>& files = expanded.files;
  std::vector<Checked> results(files.size());
  const bool text = options.format == "text";
  const bool progress = text && files.size() > 1 && colourOn(STDERR_FILENO);  // a terminal, not a log
  std::atomic<std::size_t> next{0}, done{0};
  auto work = [&] {
    for (std::size_t i = next++; i < files.size(); i = next++) {
      results[i].input = files[i];
      results[i].diagnostics = loadInput(loader, files[i], options.input).diagnostics;
      judge(results[i], options);
      ++done;
    }
  };
  // Standard input is read once, by the calling thread: no parallelism with '-' among inputs.
  const bool readsStdin = std::find(files.begin(), files.end(), "-") != files.end();
  const unsigned jobs = readsStdin ? 1u : std::min<unsigned>(options.jobs, static_cast<unsigned>(files.size()));
  std::vector<std::thread> workers;
  for (unsigned j = 1; j < jobs; ++j) workers.emplace_back(work);
  if (!progress) {
    work();
  } else {
    // Progress without slowing the run: the main thread also checks files and redraws between them.
    std::thread own(work);
    while (done < files.size()) {
      std::cerr << "\rchecking " << done << "/" << files.size() << std::flush;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    own.join();
    std::cerr << "\r\033[K" << std::flush;
  }
  for (auto& w : workers) w.join();

  int status = expanded.emptyDirectory ? 2 : 0;  // a directory without a model file does not pass as "0 files"
  for (const auto& c : results) status = std::max(status, c.status);
  if (options.format == "json") {
    std::cout << jsonReport(results, expanded.skipped.size());
    return status;
  }
  if (options.format == "sarif") {
    std::cout << sarifReport(results);
    return status;
  }
  std::size_t valid = 0, errors = 0, warnings = 0;
  for (const auto& c : results) {
    const std::string name = displayName(c.input);
    printDiagnostics(c.diagnostics, name);
    const std::size_t e = countOf(c.diagnostics, Severity::Error), w = countOf(c.diagnostics, Severity::Warning);
    valid += c.status == 0;
    errors += e;
    warnings += w;
    if (c.status == 0 && !options.quiet) std::cout << name << ": valid\n";
    if (c.status == 1) {
      std::cout << name << ": invalid (" << e << " error" << (e == 1 ? "" : "s");
      if (options.werror && w > 0) std::cout << ", " << w << " warning" << (w == 1 ? "" : "s") << " with --werror";
      std::cout << ")\n";
    }
    if (c.status == 2) std::cout << name << ": unreadable\n";
  }
  if (results.size() > 1 || results.empty() || !expanded.skipped.empty()) {
    std::cout << results.size() << " file" << (results.size() == 1 ? "" : "s") << ": " << valid << " valid, "
              << results.size() - valid << " invalid; " << errors << " error" << (errors == 1 ? "" : "s") << ", "
              << warnings << " warning" << (warnings == 1 ? "" : "s");
    if (!expanded.skipped.empty()) {
      std::cout << "; " << expanded.skipped.size() << " file" << (expanded.skipped.size() == 1 ? "" : "s")
                << " skipped: no format" << (options.input.verbose ? "" : " (-v lists them)");
    }
    std::cout << "\n";
    if (options.input.verbose) {
      for (const auto& file : expanded.skipped) std::cout << file << ": skipped, no format plugin reads it\n";
    }
  }
  return status;
}

}  // namespace interlink::cli
