// bench_xml_parse_file <parse|floor|read> <file>: one interlink::xml::parse (and the destruction of
// its tree), or one expat-only scan, or nothing but reading the file; for callgrind and
// /usr/bin/time. bench_xml_parse_file generate <links> <file> writes the chain bench_xml parses
// (4000 links: the foundation issue's 1.9 MB file). E.g.
//   valgrind --tool=callgrind --toggle-collect='interlink::bench::parseAndDestroy*'
//            bench_xml_parse_file parse /tmp/chain4000.sdf
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

#include "XmlBenchSupport.hpp"

int main(int argc, char** argv) {
  if (argc == 4 && std::strcmp(argv[1], "generate") == 0) {
    const std::string chain = interlink::bench::chainSdf(std::atoi(argv[2]));
    std::ofstream out(argv[3], std::ios::binary);
    out << chain;
    return out ? 0 : 2;
  }
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <parse|floor|read> <file> | generate <links> <file>\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[2], std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", argv[2]);
    return 2;
  }
  const std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string fileName = argv[2];
  std::size_t elements = 0;
  if (std::strcmp(argv[1], "parse") == 0) {
    elements = interlink::bench::parseAndDestroy(content, fileName);
  } else if (std::strcmp(argv[1], "floor") == 0) {
    elements = interlink::bench::expatFloor(content, fileName);
  } else if (std::strcmp(argv[1], "read") != 0) {
    std::fprintf(stderr, "unknown mode %s\n", argv[1]);
    return 2;
  }
  std::printf("%zu elements\n", elements);
  return 0;
}
