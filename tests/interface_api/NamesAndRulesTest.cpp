// The contract's one module for scoped names (interlink/model/Names.hpp) and the format rules a
// plugin declares as data (interlink/model/FormatRules.hpp).
#include <gtest/gtest.h>

#include <cstddef>
#include <string>

#include "interlink/model/FormatRules.hpp"
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

TEST(FormatRules, VersionsAreReadAsNumbers) {
  FormatRules rules;
  ASSERT_TRUE(rules.setVersion("1.10"));  // issue 30: not 1.1
  EXPECT_EQ(rules.versionMajor, 1u);
  EXPECT_EQ(rules.versionMinor, 10u);
  EXPECT_EQ(rules.versionPatch, 0u);
  ASSERT_TRUE(rules.setVersion("2.2.2"));
  EXPECT_EQ(rules.versionMinor, 2u);
  EXPECT_EQ(rules.versionPatch, 2u);
  ASSERT_TRUE(rules.setVersion("0.2-beta"));
  EXPECT_EQ(rules.versionMajor, 0u);
  EXPECT_EQ(rules.versionMinor, 2u);
  EXPECT_FALSE(rules.setVersion("beta"));
  EXPECT_EQ(rules.versionMinor, 2u);  // unchanged
}

TEST(FormatRules, DefaultsAreTheSharedNamespaceAndNoInertiaCheck) {
  const FormatRules rules;
  EXPECT_EQ(rules.size, sizeof(FormatRules));
  EXPECT_TRUE(rules.has(offsetof(FormatRules, readerReportsMissingMeshes)));
  EXPECT_TRUE(rules.jointsShareLinkNamespace);
  EXPECT_TRUE(rules.delimiterInNameIsReserved);
  EXPECT_FALSE(rules.inertia.checked);
  FormatRules older;
  older.size = static_cast<std::uint32_t>(offsetof(FormatRules, inertia));  // written before `inertia`
  EXPECT_FALSE(older.has(offsetof(FormatRules, inertia)));
  FormatRules named;
  named.setInertiaVerdict(std::string(100, 'x'));  // cut to fit, terminated
  EXPECT_EQ(std::string(named.inertia.verdict).size(), sizeof(named.inertia.verdict) - 1);
}

}  // namespace
}  // namespace interlink
