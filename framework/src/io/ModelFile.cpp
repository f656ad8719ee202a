// Reading model files without trusting them: see interlink/io/ModelFile.hpp.
#include "interlink/io/ModelFile.hpp"
#include "io/FileContentCache.hpp"
#include "io/LargeText.hpp"
#include "interlink/Utf8.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <vector>

namespace interlink::io {
namespace {

SourceLocation at(const SourceLocation& requestedAt, const std::string& path) {
  return requestedAt.known() ? requestedAt : SourceLocation{path, 0, 0};
}

/// "a FIFO (named pipe)", ... for what is not a regular file.
std::string kindOf(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

std::string whyNotOpened(int error) {
  switch (error) {
    case ENOENT: return "no such file";
    case ELOOP: return "too many levels of symbolic links (a symbolic link loop?)";
    case ENOTDIR: return "a component of the path is not a directory";
    case EACCES: return "permission denied";
    default: return std::strerror(error);
  }
}

/// The file descriptor closes on every path out.
struct FileDescriptor {
  int fd = -1;
  ~FileDescriptor() {
    if (fd >= 0) ::close(fd);
  }
};

std::string hexBytes(std::string_view bytes) {
  static const char digits[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : bytes) {
    out += "\\x";
    out += digits[c >> 4];
    out += digits[c & 0xF];
  }
  return out;
}

/// The encoding an XML declaration names, lower-cased, or empty.
std::string declaredXmlEncoding(std::string_view content) {
  content.remove_prefix(byteOrderMarkLength(content));
  if (content.substr(0, 5) != "<?xml") return {};
  const std::string_view declaration = content.substr(0, content.find("?>", 0));
  const std::size_t key = declaration.find("encoding");
  if (key == std::string_view::npos) return {};
  const std::size_t open = declaration.find_first_of("\"'", key);
  if (open == std::string_view::npos) return {};
  const std::size_t close = declaration.find(declaration[open], open + 1);
  if (close == std::string_view::npos) return {};
  std::string name(declaration.substr(open + 1, close - open - 1));
  for (char& c : name) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return name;
}

/// "UTF-16LE" and so on when the text starts with a UTF-16/32 byte-order mark or looks like
/// UTF-16/32 without one (an ASCII character followed or preceded by NUL bytes).
std::string wideEncodingOf(std::string_view content) {
  auto starts = [&](std::string_view prefix) { return content.substr(0, prefix.size()) == prefix; };
  using namespace std::string_view_literals;
  if (starts("\xFF\xFE\x00\x00"sv)) return "UTF-32LE (byte-order mark FF FE 00 00)";
  if (starts("\x00\x00\xFE\xFF"sv)) return "UTF-32BE (byte-order mark 00 00 FE FF)";
  if (starts("\xFF\xFE"sv)) return "UTF-16LE (byte-order mark FF FE)";
  if (starts("\xFE\xFF"sv)) return "UTF-16BE (byte-order mark FE FF)";
  if (content.size() >= 4) {
    const auto b = [&](std::size_t i) { return static_cast<unsigned char>(content[i]); };
    if (b(0) != 0 && b(0) < 0x80 && b(1) == 0 && b(2) == 0 && b(3) == 0) return "UTF-32LE (no byte-order mark)";
    if (b(0) == 0 && b(1) == 0 && b(2) == 0 && b(3) != 0 && b(3) < 0x80) return "UTF-32BE (no byte-order mark)";
    if (b(0) != 0 && b(0) < 0x80 && b(1) == 0 && b(2) != 0 && b(3) == 0) return "UTF-16LE (no byte-order mark)";
    if (b(0) == 0 && b(1) != 0 && b(1) < 0x80 && b(2) == 0) return "UTF-16BE (no byte-order mark)";
  }
  return {};
}

/// readRegularFile into any string type (std::string, or the loader's LargeText). `statted`: the
/// stat(2) of `path` the caller made just before (null: made here); `opened`: the fstat of what was
/// read, for the caller.
template <class Text>
std::optional<Text> readRegularFileAs(const std::string& path, std::uint64_t maxFileBytes, const SourceLocation& requestedAt,
                                      Diagnostics& diagnostics, const struct stat* statted = nullptr,
                                      struct stat* openedOut = nullptr) {
  const SourceLocation where = at(requestedAt, path);
  auto refuse = [&](const std::string& why) {
    diagnostics.error(ErrorCode::FILE_READ, "cannot read '" + path + "': " + why, where);
    return std::nullopt;
  };
  // stat first: a FIFO or a device is refused without being opened (opening may block or have
  // side effects); fstat after opening closes the race with a file replaced in between.
  struct stat before {};
  if (statted) {
    before = *statted;
  } else if (::stat(path.c_str(), &before) != 0) {
    return refuse(whyNotOpened(errno));
  }
  if (!S_ISREG(before.st_mode)) return refuse(kindOf(before.st_mode) + ", expected a regular file");
  const std::string limit = "the limit of " + std::to_string(maxFileBytes) + " bytes (LoadOptions::maxFileBytes)";
  if (static_cast<std::uint64_t>(before.st_size) > maxFileBytes) {
    return refuse("the file has " + std::to_string(before.st_size) + " bytes, more than " + limit);
  }
  FileDescriptor file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)};
  if (file.fd < 0) return refuse(whyNotOpened(errno));
  struct stat opened {};
  if (::fstat(file.fd, &opened) != 0) return refuse(std::strerror(errno));
  if (!S_ISREG(opened.st_mode)) return refuse(kindOf(opened.st_mode) + ", expected a regular file");

  // Read what fstat reported (a file that grows after it is read as it was then: one read(2),
  // not a second one to find the end); a size of 0 (/proc) or a shorter file is read to its end.
  // Never past the limit, whatever the file says of itself.
  Text content;
  content.resize(static_cast<std::size_t>(std::min<std::uint64_t>(static_cast<std::uint64_t>(opened.st_size), maxFileBytes)) + 1);
  const auto reported = static_cast<std::size_t>(opened.st_size);
  std::size_t used = 0;
  while (reported == 0 || used < reported) {
    if (used == content.size()) {
      if (used > maxFileBytes) return refuse("the file grew past " + limit);
      content.resize(static_cast<std::size_t>(std::min<std::uint64_t>(content.size() * 2, maxFileBytes + 1)));
    }
    const std::size_t wanted = (reported == 0 ? content.size() : std::min(content.size(), reported)) - used;
    const ssize_t got = ::read(file.fd, content.data() + used, wanted);
    if (got < 0) {
      if (errno == EINTR) continue;
      return refuse(std::strerror(errno));
    }
    if (got == 0) break;
    used += static_cast<std::size_t>(got);
  }
  if (used > maxFileBytes) return refuse("the file grew past " + limit);
  content.resize(used);
  if (openedOut) *openedOut = opened;
  return content;
}

}  // namespace

std::optional<FileText> readLargeRegularFile(const std::string& path, std::uint64_t maxFileBytes,
                                             const SourceLocation& requestedAt, Diagnostics& diagnostics,
                                             FileContentCache& cache) {
  // The stat every read begins with decides whether the kept bytes are still the file's. When it
  // fails, the read makes its own and says why.
  struct stat status {};
  const bool statted = ::stat(path.c_str(), &status) == 0;
  if (statted && S_ISREG(status.st_mode) && static_cast<std::uint64_t>(status.st_size) <= maxFileBytes) {
    if (std::optional<FileText> kept = cache.find(path, FileVersion::of(status))) return kept;
  }
  struct stat opened {};
  std::optional<LargeText> content =
      readRegularFileAs<LargeText>(path, maxFileBytes, requestedAt, diagnostics, statted ? &status : nullptr, &opened);
  if (!content) return std::nullopt;
  timespec now{};
  ::clock_gettime(CLOCK_REALTIME, &now);
  cache.keep(path, FileVersion::of(opened), *content, now);
  // This load reads its own buffer, given back when the load ends, as without the cache.
  auto buffer = std::make_shared<const LargeText>(std::move(*content));
  const std::string_view text(*buffer);
  return FileText{text, std::move(buffer)};
}

std::optional<std::string> readRegularFile(const std::string& path, std::uint64_t maxFileBytes,
                                           const SourceLocation& requestedAt, Diagnostics& diagnostics) {
  return readRegularFileAs<std::string>(path, maxFileBytes, requestedAt, diagnostics);
}


bool checkModelText(std::string_view content, const std::string& fileName, Diagnostics& diagnostics) {
  const std::size_t errorsBefore = diagnostics.errorCount();
  if (content.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    diagnostics.error(ErrorCode::FILE_EMPTY, "file is empty; expected a model description", SourceLocation{fileName, 1, 1});
    return false;
  }
  if (const std::string wide = wideEncodingOf(content); !wide.empty()) {
    diagnostics.error(ErrorCode::FILE_ENCODING,
                      "the file is encoded as " + wide + "; only UTF-8 (or ASCII) is supported: convert it to UTF-8",
                      SourceLocation{fileName, 1, 1});
    return false;
  }
  const std::string declared = declaredXmlEncoding(content);
  const bool utf8 = declared.empty() || declared == "utf-8" || declared == "utf8" || declared == "us-ascii" ||
                    declared == "ascii";

  // A fast pass finds the problems (NUL bytes, invalid UTF-8 sequences); only when there are
  // some does a second pass turn their offsets into lines and columns (one per character).
  constexpr std::size_t kMaxReported = 20;
  struct Problem {
    std::size_t offset;
    std::size_t length;  // bytes shown for an invalid sequence; 0 for the first NUL
  };
  std::vector<Problem> problems;
  std::size_t invalidCount = 0;
  std::size_t nulCount = 0;
  const auto* const begin = reinterpret_cast<const unsigned char*>(content.data());
  const auto* const end = begin + content.size();
  for (const unsigned char* p = begin; p < end;) {
    // Eight bytes at a time while they are all ASCII and none is NUL (nearly every model file):
    // the byte loop below then only sees the exceptions.
    constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
    constexpr std::uint64_t kHighBits = 0x8080808080808080ULL;
    std::uint64_t word = 0;
    while (end - p >= 8 && (std::memcpy(&word, p, 8), ((word | ((word - kOnes) & ~word)) & kHighBits) == 0)) p += 8;
    if (p == end) break;
    if (*p != 0 && *p < 0x80) {
      ++p;
      continue;
    }
    if (*p == 0) {
      if (nulCount++ == 0) problems.push_back({static_cast<std::size_t>(p - begin), 0});
      ++p;
      continue;
    }
    const std::size_t length = utf8 ? validUtf8SequenceLength(p, end) : 1;
    if (length > 0) {
      p += length;
      continue;
    }
    // One problem: the offending byte and the continuation bytes after it (at most 4 bytes).
    std::size_t shown = 1;
    while (shown < 4 && p + shown < end && (p[shown] & 0xC0) == 0x80) ++shown;
    if (invalidCount++ < kMaxReported) problems.push_back({static_cast<std::size_t>(p - begin), shown});
    p += shown;
  }
  if (problems.empty()) return true;

  int line = 1;
  int column = 1;
  const unsigned char* p = begin;
  for (const Problem& problem : problems) {
    for (const unsigned char* target = begin + problem.offset; p < target; ++p) {
      if (*p == '\n' || (*p == '\r' && (p + 1 == end || p[1] != '\n'))) {
        ++line;
        column = 1;
      } else if (*p < 0x80 || *p >= 0xC0 || !utf8) {
        ++column;  // continuation bytes do not start a character
      }
    }
    const SourceLocation where{fileName, line, column};
    if (problem.length == 0) {
      diagnostics.error(ErrorCode::FILE_BINARY,
                        "file contains binary data (" + std::to_string(nulCount) +
                            " NUL byte(s), the first here); expected a text model description",
                        where);
    } else {
      diagnostics.error(ErrorCode::FILE_ENCODING,
                        "invalid UTF-8 byte sequence " +
                            hexBytes(std::string_view(reinterpret_cast<const char*>(p), problem.length)) +
                            "; expected UTF-8 text (declare another encoding in the XML declaration, or convert the file)",
                        where);
    }
  }
  if (invalidCount > kMaxReported) {
    diagnostics.error(ErrorCode::FILE_ENCODING,
                      "and " + std::to_string(invalidCount - kMaxReported) + " more invalid UTF-8 byte sequences",
                      SourceLocation{fileName, 0, 0});
  }
  return diagnostics.errorCount() == errorsBefore;
}

}  // namespace interlink::io
