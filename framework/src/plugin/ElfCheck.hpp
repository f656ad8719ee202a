#pragma once
// Checks a plugin file before the dynamic loader maps it: dlopen trusts the ELF headers, and a
// truncated library (a copy cut short, a full disk) makes it touch pages past the end of the file,
// which kills the process with SIGBUS.
#include <string>

namespace interlink::detail {

/// Empty when `path` is an ELF shared object for this machine whose headers, program headers and
/// loadable segments all lie within the file; otherwise why not ("not a shared library: ...",
/// "truncated: ...").
std::string checkSharedLibraryFile(const std::string& path);

}  // namespace interlink::detail
