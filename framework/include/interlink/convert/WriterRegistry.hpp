#pragma once
// The one list of output formats: each writer's name, file extensions and function. The CLI
// (`interlink convert`), Python (`Model.convert`, `interlink.convert`) and C++ hosts all pick and
// run writers here, so a format added here is added everywhere. Rules: docs/convert.md.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "interlink/Diagnostics.hpp"
#include "interlink/Export.hpp"
#include "interlink/Loader.hpp"
#include "interlink/convert/WriteOptions.hpp"

namespace interlink::convert {

class INTERLINK_API WriterRegistry {
 public:
  using WriteFunction =
      std::function<std::optional<std::string>(const LoadResult&, const WriteOptions&, Diagnostics&)>;

  /// One output format.
  struct Writer {
    std::string name;                     // "sdformat": what --to and Python's `format=` take
    std::vector<std::string> extensions;  // lower case with the dot, the first one preferred
    std::string description;              // one line for usage texts
    /// The format plugin that reads this output back ("" when Interlink does not read it: DOT).
    std::string readerPlugin;
    /// Returns the text, or nothing after errors in the diagnostics.
    WriteFunction write;
  };

  /// The writers built into the framework: sdformat, urdf, mjcf, json, dot.
  static const WriterRegistry& builtIn();

  WriterRegistry() = default;
  /// Adds a writer (a later one with the same name replaces the earlier).
  void add(Writer writer);

  const std::vector<Writer>& writers() const { return writers_; }

  /// The writer named `nameOrExtension`: its name or one of its extensions, with or without the
  /// dot, in any case. Null when none.
  const Writer* find(std::string_view nameOrExtension) const;

  /// The writer whose extension ends `path` (in any case). Null when none.
  const Writer* forPath(std::string_view path) const;

  /// The writers' names ("sdformat", "urdf", ...), in registration order.
  std::vector<std::string> names() const;
  /// "sdformat (.sdf), urdf (.urdf), ..." for messages.
  std::string describe() const;

  /// Writes `loaded` with `writer` to the file `path`, checked: the text goes to a temporary file
  /// beside `path`, is read back by `loader` (see readBack) and only then renamed to `path`. On any
  /// error (the writer's, the read-back's, I/O) nothing is left at `path` (an existing file there is
  /// untouched) and the errors are in `diagnostics`, the read-back's prefixed with what was
  /// written. Returns true when `path` holds the checked output. Writers Interlink cannot read
  /// (DOT) are written without the read-back. `options.outputPath` is set to `path`.
  bool writeFile(const Writer& writer, const LoadResult& loaded, const std::string& path, WriteOptions options,
                 const Loader& loader, const LoadOptions& readBackOptions, Diagnostics& diagnostics) const;

  /// Reads `text` (what `writer` wrote of `loaded`, as if from the file `path`) back with `loader`;
  /// appends its errors to `diagnostics` (prefixed) and returns false when it does not load.
  /// `readBackOptions` should be the load's own (resource paths, so that package:// and model://
  /// URIs resolve again); the directory of `loaded`'s source file is added as a resource path, so
  /// that the meshes the load was allowed to read pass the path policy again wherever the output
  /// is. Its warnings are not reported: the writer's say what the output lacks.
  bool readBack(const Writer& writer, const LoadResult& loaded, const std::string& text, const std::string& path,
                const Loader& loader, const LoadOptions& readBackOptions, Diagnostics& diagnostics) const;

 private:
  std::vector<Writer> writers_;
};

}  // namespace interlink::convert
