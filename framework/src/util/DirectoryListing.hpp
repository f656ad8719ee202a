#pragma once
// The entries of one directory with the type the listing already knows, for plugin discovery.
#include <string>
#include <system_error>
#include <vector>

namespace interlink::detail {

struct ListedFile {
  std::string name;
  bool symbolicLink = false;  // the name is a link (to a regular file)
};

/// The regular files in `directory` (links to regular files included, marked), unsorted; an
/// error in `error` when the directory cannot be listed.
///
/// Why not std::filesystem::directory_iterator: the C library's directory stream allocates a
/// 32 KiB buffer, which at start-up becomes new heap pages to fault in (about eight, 0.1 ms of
/// a 6 ms `interlink check`), and each entry costs a path object. This reads the listing with
/// getdents64 into a small buffer and stats only the entries whose type the listing leaves open.
std::vector<ListedFile> listRegularFiles(const std::string& directory, std::error_code& error);

}  // namespace interlink::detail
