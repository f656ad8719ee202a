// framework/src/graph/FrameIndexes.hpp: the frame graph's tables of frames by name and of elements'
// frames, against std::unordered_map on the same operations (internal: compiled from the header).
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "graph/FrameIndexes.hpp"

namespace interlink::detail {
namespace {

struct Named {
  std::string name;
};

TEST(FrameNameIndex, FindsEveryNameTheFirstHolderKeepsItAndGrowthLosesNothing) {
  std::vector<Named> frames;
  FrameNameIndex index;
  std::unordered_map<std::string, std::size_t> expected;
  std::mt19937 random(31);
  // Names that collide often (few distinct ones), long ones, empty ones; inserted while the list
  // grows and moves its strings, as the builder adds frames.
  for (std::size_t i = 0; i < 20000; ++i) {
    std::string name = "m" + std::to_string(random() % 15000) + "::link";
    if (i % 97 == 0) name += std::string(40, 'x');
    if (i % 1001 == 0) name.clear();
    frames.push_back({name});
    const auto [holder, inserted] = index.insert(i, frames);
    const auto [it, added] = expected.emplace(name, i);
    ASSERT_EQ(inserted, added) << name;
    ASSERT_EQ(holder, it->second) << name;
  }
  EXPECT_EQ(index.size(), expected.size());
  for (const auto& [name, frame] : expected) {
    const std::optional<std::size_t> found = index.find(name, frames);
    ASSERT_TRUE(found) << name;
    EXPECT_EQ(*found, frame) << name;
  }
  EXPECT_FALSE(index.find("m15000::link", frames));
  EXPECT_FALSE(index.find("m1::lin", frames));
  EXPECT_FALSE(FrameNameIndex().find("anything", frames));

  index.clear();
  EXPECT_EQ(index.size(), 0u);
  EXPECT_FALSE(index.find(frames[5].name, frames));
  index.insert(5, frames);
  EXPECT_EQ(index.find(frames[5].name, frames), std::optional<std::size_t>(5));
}

TEST(ElementFrameIndex, AssignsFindsAndRenumbersLikeAMap) {
  std::vector<double> elements(5000);
  ElementFrameIndex index;
  index.reserve(100);  // smaller than what comes: it grows
  for (std::size_t i = 0; i < elements.size(); ++i) index.assign(&elements[i], i * 2);
  index.assign(&elements[7], 1);  // replaces
  EXPECT_EQ(index.size(), elements.size());
  EXPECT_EQ(index.find(&elements[7]), std::optional<std::size_t>(1));
  for (std::size_t i = 0; i < elements.size(); ++i) {
    if (i != 7) {
      ASSERT_EQ(index.find(&elements[i]), std::optional<std::size_t>(i * 2));
    }
  }
  double other = 0;
  EXPECT_FALSE(index.find(&other));
  EXPECT_FALSE(index.find(nullptr));

  // Frames dropped after errors: every third element loses its frame, the others are renumbered.
  index.renumber([](std::size_t frame) -> std::optional<std::size_t> {
    if (frame % 3 == 0) return std::nullopt;
    return frame + 100000;
  });
  std::size_t kept = 0;
  for (std::size_t i = 0; i < elements.size(); ++i) {
    const std::size_t frame = i == 7 ? 1 : i * 2;
    const std::optional<std::size_t> found = index.find(&elements[i]);
    if (frame % 3 == 0) {
      EXPECT_FALSE(found) << i;
    } else {
      ++kept;
      ASSERT_EQ(found, std::optional<std::size_t>(frame + 100000)) << i;
    }
  }
  EXPECT_EQ(index.size(), kept);
}

// The elements of a big model sit in vectors, a fixed stride apart (sizeof Link, Joint, Frame): the
// hash must spread such runs of addresses over the table. Taking the product's middle bits, it
// put them in long runs of neighbouring slots: at 16 000 links a find searched 54 slots on
// average (and the graph's joints cost 4 times as many instructions a link as at 1 000).
TEST(ElementFrameIndex, SpreadsTheElementsOfVectorsOverTheTable) {
  struct Sized528 { char bytes[528]; };
  struct Sized496 { char bytes[496]; };
  struct Sized256 { char bytes[256]; };
  for (const std::size_t n : {std::size_t{1000}, std::size_t{16000}}) {
    std::vector<Sized528> links(n);
    std::vector<Sized496> joints(n);
    std::vector<Sized256> frames(n);
    ElementFrameIndex index;
    index.reserve(3 * n);
    for (std::size_t i = 0; i < n; ++i) {
      index.assign(&links[i], 3 * i);
      index.assign(&joints[i], 3 * i + 1);
      index.assign(&frames[i], 3 * i + 2);
    }
    ASSERT_EQ(index.size(), 3 * n);
    ASSERT_EQ(index.find(&joints[n / 2]), std::optional<std::size_t>(3 * (n / 2) + 1));
    const ElementFrameIndex::Displacement d = index.displacement();
    // Random keys at this load (at most 3/4) are displaced ~1.5 slots on average.
    EXPECT_LT(d.mean, 4.0) << n << " elements";
    EXPECT_LT(d.longest, 64u) << n << " elements";
  }
}

}  // namespace
}  // namespace interlink::detail
