// Fingerprints of file contents, which process-wide caches compare instead of keeping the files.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "interlink/io/ContentFingerprint.hpp"

namespace interlink::io {
namespace {

TEST(ContentFingerprint, SameBytesSameFingerprintAnyEditAnother) {
  const std::string text = "<robot name='r'><link name='l1'/></robot>\n";
  EXPECT_EQ(fingerprintOf(text), fingerprintOf(std::string(text)));
  EXPECT_EQ(fingerprintOf(text).size, text.size());
  // One byte changed anywhere (the tail past the last whole 8-byte word too), a byte added or
  // removed, and the empty text: all different from the original and from each other.
  std::set<ContentFingerprint> seen{fingerprintOf(text)};
  for (std::size_t i = 0; i < text.size(); ++i) {
    std::string edited = text;
    edited[i] = static_cast<char>(edited[i] ^ 1);
    EXPECT_TRUE(seen.insert(fingerprintOf(edited)).second) << "byte " << i;
  }
  EXPECT_TRUE(seen.insert(fingerprintOf(text + " ")).second);
  EXPECT_TRUE(seen.insert(fingerprintOf(text.substr(1))).second);
  EXPECT_TRUE(seen.insert(fingerprintOf("")).second);
  // The two hashes are independent: bytes swapped between words change both.
  const ContentFingerprint a = fingerprintOf("abcdefgh12345678");
  const ContentFingerprint b = fingerprintOf("12345678abcdefgh");
  EXPECT_NE(a.hash, b.hash);
  EXPECT_NE(a.check, b.check);
}

}  // namespace
}  // namespace interlink::io
