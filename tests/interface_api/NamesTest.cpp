// The contract's one module for scoped names (interlink/model/Names.hpp).
#include <gtest/gtest.h>

#include <string>

#include "interlink/model/Names.hpp"

namespace interlink {
namespace {

TEST(Names, JoinAndSplitAtTheScopeDelimiter) {
  EXPECT_EQ(names::join("arm", "forearm"), "arm::forearm");
  EXPECT_EQ(names::join("", "forearm"), "forearm");  // the root scope has no prefix
  EXPECT_EQ(names::scopePrefix("arm"), "arm::");
  EXPECT_EQ(names::splitLast("a::b::c").scope, "a::b");
  EXPECT_EQ(names::splitLast("a::b::c").local, "c");
  EXPECT_EQ(names::splitFirst("a::b::c").scope, "a");
  EXPECT_EQ(names::splitFirst("a::b::c").local, "b::c");
  EXPECT_EQ(names::splitLast("c").scope, "");
  EXPECT_EQ(names::localName("a::b::c"), "c");
  EXPECT_EQ(names::localName("c"), "c");
  EXPECT_EQ(names::replaceDelimiters("a::b::c", "__"), "a__b__c");
  EXPECT_EQ(names::replaceDelimiters("a:b", "__"), "a:b");
  EXPECT_TRUE(names::containsDelimiter("a::b"));
  EXPECT_FALSE(names::containsDelimiter("a:b"));
}

TEST(Names, ReservedNamesAreTheWorldAndDoubleUnderscoredOnes) {
  EXPECT_TRUE(names::isReserved("world"));
  EXPECT_TRUE(names::isReserved("__model__"));
  EXPECT_TRUE(names::isReserved("____"));
  EXPECT_FALSE(names::isReserved("__"));        // too short to start and end with "__"
  EXPECT_FALSE(names::isReserved("__private"));  // SKEL once refused this; no format does now
  EXPECT_FALSE(names::isReserved("World"));
  EXPECT_EQ(names::checkName(""), names::NameProblem::Empty);
  EXPECT_EQ(names::checkName("world"), names::NameProblem::Reserved);
  EXPECT_EQ(names::checkName("a::b"), names::NameProblem::Delimiter);
  EXPECT_EQ(names::checkName("base_link"), names::NameProblem::None);
}

}  // namespace
}  // namespace interlink
