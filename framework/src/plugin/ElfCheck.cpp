// ELF header checks before dlopen: see ElfCheck.hpp.
#include "plugin/ElfCheck.hpp"

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <vector>

namespace interlink::detail {
namespace {

#if UINTPTR_MAX == 0xFFFFFFFFFFFFFFFFu
using ElfHeader = Elf64_Ehdr;
using ProgramHeader = Elf64_Phdr;
using SectionHeader = Elf64_Shdr;
constexpr unsigned char kElfClass = ELFCLASS64;
#else
using ElfHeader = Elf32_Ehdr;
using ProgramHeader = Elf32_Phdr;
using SectionHeader = Elf32_Shdr;
constexpr unsigned char kElfClass = ELFCLASS32;
#endif

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
constexpr unsigned char kElfData = ELFDATA2LSB;
#else
constexpr unsigned char kElfData = ELFDATA2MSB;
#endif

struct FileDescriptor {
  int fd = -1;
  ~FileDescriptor() {
    if (fd >= 0) ::close(fd);
  }
};

/// Reads exactly `size` bytes at `offset`.
bool readAt(int fd, void* out, std::size_t size, std::uint64_t offset) {
  auto* bytes = static_cast<char*>(out);
  while (size > 0) {
    const ssize_t got = ::pread(fd, bytes, size, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    bytes += got;
    size -= static_cast<std::size_t>(got);
    offset += static_cast<std::uint64_t>(got);
  }
  return true;
}

/// True when [offset, offset + count * entrySize) lies within `fileSize`, without overflow.
bool fits(std::uint64_t offset, std::uint64_t count, std::uint64_t entrySize, std::uint64_t fileSize) {
  if (count == 0) return true;
  if (entrySize != 0 && count > fileSize / entrySize) return false;
  return offset <= fileSize && count * entrySize <= fileSize - offset;
}

}  // namespace

std::string checkSharedLibraryFile(const std::string& path) {
  FileDescriptor file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (file.fd < 0) return std::string("cannot open: ") + std::strerror(errno);
  struct stat info {};
  if (::fstat(file.fd, &info) != 0) return std::string("cannot stat: ") + std::strerror(errno);
  if (!S_ISREG(info.st_mode)) return "not a shared library: not a regular file";
  const auto fileSize = static_cast<std::uint64_t>(info.st_size);

  ElfHeader header{};
  if (fileSize < sizeof header || !readAt(file.fd, &header, sizeof header, 0) ||
      std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) {
    return "not a shared library: no ELF header (" + std::to_string(fileSize) + " bytes)";
  }
  if (header.e_ident[EI_CLASS] != kElfClass || header.e_ident[EI_DATA] != kElfData) {
    return "not a shared library for this machine: another ELF class or byte order";
  }
  if (header.e_type != ET_DYN) return "not a shared library: ELF type " + std::to_string(header.e_type) + " is not ET_DYN";
  if (header.e_phnum == 0 || header.e_phentsize != sizeof(ProgramHeader)) {
    return "not a shared library: no program headers of the expected size";
  }
  const std::string truncated = "truncated or damaged ELF file (" + std::to_string(fileSize) + " bytes): ";
  if (!fits(header.e_phoff, header.e_phnum, sizeof(ProgramHeader), fileSize)) {
    return truncated + "the program headers lie past its end";
  }
  if (header.e_shnum != 0 &&
      (header.e_shentsize != sizeof(SectionHeader) || !fits(header.e_shoff, header.e_shnum, sizeof(SectionHeader), fileSize))) {
    return truncated + "the section headers lie past its end";
  }
  std::vector<ProgramHeader> segments(header.e_phnum);
  if (!readAt(file.fd, segments.data(), segments.size() * sizeof(ProgramHeader), header.e_phoff)) {
    return truncated + "cannot read the program headers";
  }
  for (const ProgramHeader& segment : segments) {
    if (segment.p_type == PT_NULL || segment.p_filesz == 0) continue;
    if (!fits(segment.p_offset, 1, segment.p_filesz, fileSize)) {
      return truncated + "a segment of " + std::to_string(segment.p_filesz) + " bytes at offset " +
             std::to_string(segment.p_offset) + " lies past its end";
    }
  }
  return {};
}

}  // namespace interlink::detail
