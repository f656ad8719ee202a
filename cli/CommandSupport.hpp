#pragma once
// What the subcommands share: loading an input (a file or `-` for standard input, the format by
// extension, sniffing or --from), printing diagnostics, usage errors.
#include <string>
#include <vector>

#include "interlink/Diagnostics.hpp"
#include "interlink/Loader.hpp"

namespace interlink::cli {

/// The name diagnostics use for standard input.
inline const std::string kStdinName = "<stdin>";

/// Options of every command that loads a model.
struct InputOptions {
  std::vector<std::string> resourcePaths;  // -I DIR
  std::string from;                        // --from NAME
  bool verbose = false;                    // -v: every warning on its own line, not grouped by kind
  std::string world;                       // --world NAME (frames, tree): the world shown
  bool strict = false;                     // --strict: refuse what only the reference tool tolerates
  bool confine = false;                    // --confine: LoadOptions::confineToRoots
  bool explain = false;                    // check --explain: list what is kept but not interpreted
  std::vector<std::string> arguments;      // --arg NAME:=VALUE (LoadOptions::arguments), as written
  bool keepExpandedText = false;           // convert: writes a xacro file's expansion as it is
  LoadOptions loadOptions() const;
};

/// Splits `NAME:=VALUE` (xacro's form; `NAME=VALUE` is accepted too); false when it has no name.
bool splitArgument(const std::string& text, std::string& name, std::string& value);

/// Loads `input` (`-` reads standard input; includes then resolve from the working directory).
LoadResult loadInput(const Loader& loader, const std::string& input, const InputOptions& options);

/// "world 'NAME' (2 of 3)" for the world `result` shows, or "" for a model file.
std::string shownWorld(const LoadResult& result);

/// The name to print for an input.
inline std::string displayName(const std::string& input) { return input == "-" ? kStdinName : input; }

/// True when colour may be used on `fd`: a terminal, and NO_COLOR unset (https://no-color.org).
bool colourOn(int fd);

/// One diagnostic as `file:line:col: error[CODE]: message` (coloured severity when asked).
std::string formatDiagnostic(Diagnostic d, const std::string& file, bool colour);

/// Every diagnostic on stderr (`file` when it has none).
void printDiagnostics(const Diagnostics& diagnostics, const std::string& file);

/// True when the errors are about reading the top-level input itself or a usage error (exit status 2).
bool onlyIoErrors(const Diagnostics& diagnostics, const std::string& file);

/// Prints "interlink: message" and the command's usage on stderr; returns exit status 2.
int usageError(const std::string& message, const char* usage);

/// The lower-case extension of a path's file name ("" when it has none).
std::string extensionOf(const std::string& path);

/// Writes `text` to `output` (`-` = standard output); false (with a message) on failure.
bool writeOutput(const std::string& output, const std::string& text);

/// True when `a` and `b` name the same existing file.
bool sameFile(const std::string& a, const std::string& b);

}  // namespace interlink::cli

namespace interlink::cli {

/// Diagnostics as a JSON array of {"severity","code","message","file","line","column"}
/// (the objects of the versioned check report, docs/cli.md).
std::string diagnosticsJson(const Diagnostics& diagnostics, const std::string& file);
/// One diagnostic as a JSON object {severity, code, message, file, line, column}: the one writer of
/// diagnostic JSON (check, frames, view). `file` stands where the diagnostic names none.
std::string diagnosticJson(const Diagnostic& diagnostic, const std::string& file);

}  // namespace interlink::cli
