// The interlink command's heap: mimalloc (Debian's libmimalloc), which the command is linked with
// and which then serves every allocation of the process (its plugins' too), with its memory in
// 2 MiB pages.
//
// Why: a load writes its memory once, front to back, and every fresh 4 KiB page costs a page
// fault, a trip into the kernel that zeroes the page. On the VMs this project is measured on, a
// fault costs 12 µs, and faults were a third to a half of a big load's time (docs/dev/benchmarks.md,
// "The command's heap"): a 4 000-link chain made 3 600 of them, a 20 000-link URDF 14 000. With
// the heap in huge pages, one fault serves 2 MiB: 83 → 34 ms and 402 → 178 ms, a `check` of
// Franka's xacro 17% less. Only this program asks: the library leaves the heap to its host.
//
// mimalloc reads its options when it makes its first allocation, which the shared libraries'
// initialisers make (libstdc++'s exception pool) before any code of this program runs. A
// function in the executable's .preinit_array runs before those, so that the first segment is
// in large pages too. It sets the default only: MIMALLOC_LARGE_OS_PAGES=0 in the environment
// still turns it off. Where the kernel gives no transparent huge pages, mimalloc uses small
// pages, silently.
#include <mimalloc.h>

namespace {

void heapInHugePages(int, char**, char**) { mi_option_set_default(mi_option_large_os_pages, 1); }

}  // namespace

// Not referenced: the dynamic loader calls it (ELF's pre-initialisation array of the executable).
__attribute__((section(".preinit_array"), used)) static void (*const kHeapInHugePages)(int, char**, char**) =
    heapInHugePages;
