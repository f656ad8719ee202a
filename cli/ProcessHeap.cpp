// The interlink command's heap: mimalloc (Debian's libmimalloc), which the command is linked with
// and which then serves every allocation of the process (its plugins' too), with its memory in
// 2 MiB pages when the command is given a big file.
//
// Why huge pages: a load writes its memory once, front to back, and every fresh 4 KiB page costs
// a page fault, a trip into the kernel that zeroes the page. On the VMs this project was measured
// on, a fault cost 12 µs, and faults were a third to a half of a big load's time
// (docs/dev/benchmarks.md, "The command's heap"): a 4 000-link chain made 3 600 of them, a
// 20 000-link URDF 14 000. With the heap in huge pages, one fault serves 2 MiB: 83 → 34 ms and
// 402 → 178 ms. Only this program asks: the library leaves the heap to its host.
//
// Why only for a big file: a small command's heap fits in a few hundred KiB, but mimalloc spreads
// it over the first two 2 MiB pages of its segment, and the kernel clears each whole, 100-200 µs
// apiece. On a VM where faults are cheap that made `check` of a small URDF 0.2-0.4 ms slower than
// in 4 KiB pages (docs/dev/benchmarks.md, "Huge pages for big files only"); where a fault costs
// 12 µs, the 66 faults more of small pages would cost about as much as they save. Which files
// are big is known before the first allocation: the command line names them. A file named on it
// (an input, or an option's value) of kHugePagesFrom bytes or more, or standard input when it is
// not a file (its size unknown), turns huge pages on; a smaller file's includes are not looked at.
//
// mimalloc reads its options when it makes its first allocation, which the shared libraries'
// initialisers make (libstdc++'s exception pool) before any code of this program runs. A
// function in the executable's .preinit_array runs before those, so that the first segment is
// in large pages too. It sets the default only: MIMALLOC_LARGE_OS_PAGES=0 or 1 in the environment
// still decides. Where the kernel gives no transparent huge pages, mimalloc uses small pages,
// silently.
#include <mimalloc.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>

namespace {

// A file this big wants the heap in huge pages. Where 4 KiB pages and 2 MiB pages cost the same
// for `check` on a generated chain, measured (docs/dev/benchmarks.md): 30 KB.
constexpr off_t kHugePagesFrom = 32 * 1024;

/// A file named on the command line is big, or standard input is not a file.
bool heapWantsHugePages(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (argv[i] == nullptr) continue;
    struct stat status {};
    if (std::strcmp(argv[i], "-") == 0) {
      // Standard input: a redirected file has a size; a pipe's input may be of any size.
      if (::fstat(STDIN_FILENO, &status) != 0 || !S_ISREG(status.st_mode)) return true;
    } else if (argv[i][0] == '-' || ::stat(argv[i], &status) != 0 || !S_ISREG(status.st_mode)) {
      continue;  // an option, a name of nothing, a directory (an -I root, or `check DIR`: one file at a time)
    }
    if (status.st_size >= kHugePagesFrom) return true;
  }
  return false;
}

// Runs before anything allocates (below): system calls only, no allocation.
void heapInHugePagesForBigFiles(int argc, char** argv, char**) {
  if (heapWantsHugePages(argc, argv)) mi_option_set_default(mi_option_large_os_pages, 1);
}

}  // namespace

// Not referenced: the dynamic loader calls it (ELF's pre-initialisation array of the executable).
__attribute__((section(".preinit_array"), used)) static void (*const kHeapInHugePages)(int, char**, char**) =
    heapInHugePagesForBigFiles;
