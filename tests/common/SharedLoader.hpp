#pragma once
// One Loader per test program, discovering the build tree's plugins once: a Loader is
// thread-safe and keeps no state between loads, so the tests of a program share it.
#include "interlink/Loader.hpp"

namespace interlink::test {

inline const Loader& sharedLoader() {
  static const Loader shared;
  return shared;
}

}  // namespace interlink::test
