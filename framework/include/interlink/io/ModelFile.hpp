#pragma once
// Reading model files from untrusted places: only regular files, never blocking, never more than a
// size limit, and text checked (NUL bytes, UTF-16/32, invalid UTF-8) before any parser sees it.
// The core uses it for every file it loads (top level and includes); plugins that read further
// files themselves (HRDF <include>) use it too, so every format refuses the same things the same way.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "interlink/Diagnostics.hpp"
#include "interlink/Export.hpp"

namespace interlink::io {

/// The default LoadOptions::maxFileBytes: 256 MiB.
inline constexpr std::uint64_t kDefaultMaxFileBytes = std::uint64_t{256} << 20;

/// The bytes of the regular file `path`, or nothing after a FILE_READ error that says why: missing,
/// a symbolic link loop, a directory, a FIFO, a device or a socket (refused without opening it, so
/// a FIFO never blocks), unreadable, or larger than `maxFileBytes` (also when it grows while read).
/// Errors are located at `requestedAt` when known (the include that names the file), else at the file.
INTERLINK_API std::optional<std::string> readRegularFile(const std::string& path, std::uint64_t maxFileBytes,
                                                         const SourceLocation& requestedAt, Diagnostics& diagnostics);

/// Checks that `content` is text a model parser may read, adding every problem found: empty
/// (FILE_EMPTY), a NUL byte anywhere (FILE_BINARY, at its line and column), a UTF-16 or UTF-32
/// byte-order mark or layout (FILE_ENCODING: not supported, convert to UTF-8), invalid UTF-8
/// sequences (FILE_ENCODING at line:column, the bytes shown as \xNN, never echoed raw). XML
/// files that declare another encoding (encoding="ISO-8859-1") are left to the XML reader.
/// Linear in the size of `content`. True when nothing was found.
INTERLINK_API bool checkModelText(std::string_view content, const std::string& fileName, Diagnostics& diagnostics);

}  // namespace interlink::io
