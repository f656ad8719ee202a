// Include bombs: files that each include the next one twice pass the cycle and depth checks but
// grow exponentially. The number of included models and of the elements they bring is capped
// per load (LoadOptions), with an INCLUDE_LIMIT error naming the include chain.
#include "HostileInputs.hpp"
#include "HostileSupport.hpp"

namespace interlink::test {
namespace {

namespace hostile = interlink::test::hostile;

constexpr int kLevels = 30;

/// f0.sdf ... f29.sdf in `scratch`: each includes the next twice.
std::string writeSdformatBomb(const Scratch& scratch) {
  for (const auto& [name, text] : hostile::sdformatIncludeBomb(kLevels)) scratch.write(name, text);
  return scratch.path("f0.sdf");
}

TEST(IncludeLimit, SdformatBombEndsWithTheChain) {
  Scratch scratch;
  const std::string top = writeSdformatBomb(scratch);
  LoadOptions options;
  options.maxIncludedModels = 300;
  const LoadResult result = hostileLoader().loadFile(top, options);
  const Diagnostic* d = findCode(result.diagnostics, ErrorCode::INCLUDE_LIMIT);
  ASSERT_NE(d, nullptr) << dump(result.diagnostics);
  EXPECT_TRUE(mentions(d, "maxIncludedModels")) << d->message;
  EXPECT_TRUE(mentions(d, "f0.sdf -> ")) << d->message;
  EXPECT_TRUE(mentions(d, "f1.sdf -> ")) << d->message;
  EXPECT_GT(d->where.line, 0);
  // Reported once, not once per refused include.
  std::size_t count = 0;
  for (const auto& item : result.diagnostics) count += item.code == ErrorCode::INCLUDE_LIMIT;
  EXPECT_EQ(count, 1u);
}

TEST(IncludeLimit, ElementLimitCountsWhatIncludesBring) {
  Scratch scratch;
  const std::string top = writeSdformatBomb(scratch);
  LoadOptions options;
  options.maxIncludedElements = 100;
  EXPECT_TRUE(loadReports(top, options, ErrorCode::INCLUDE_LIMIT, "maxIncludedElements"));
}

TEST(IncludeLimit, SdformatBombWithDefaultLimitsEndsThroughTheCli) {
  Scratch scratch;
  const CommandResult result = boundedCli("check '" + writeSdformatBomb(scratch) + "'", 60);
  EXPECT_NE(result.exitCode, kStoppedByBound) << "the include bomb did not end" << result.output;
  EXPECT_NE(result.output.find("INCLUDE_LIMIT"), std::string::npos) << result.output.substr(0, 2000);
}

TEST(IncludeLimit, ModelsWithinTheLimitLoad) {
  Scratch scratch;
  scratch.write("part.sdf", "<sdf version=\"1.9\"><model name=\"p\"><link name=\"l\"/></model></sdf>\n");
  std::string includes;
  for (const char* name : {"a", "b", "c"}) includes += "<include><uri>part.sdf</uri><name>" + std::string(name) + "</name></include>";
  const std::string world = scratch.write("world.sdf", "<sdf version=\"1.9\"><world name=\"w\">" + includes + "</world></sdf>\n");
  LoadOptions options;
  options.maxIncludedModels = 3;
  EXPECT_TRUE(hostileLoader().loadFile(world, options).ok());
  options.maxIncludedModels = 2;
  EXPECT_TRUE(hostileLoader().loadFile(world, options).diagnostics.contains(ErrorCode::INCLUDE_LIMIT));
}

TEST(IncludeLimit, HrdfBombEndsWithTheChain) {
  Scratch scratch;
  for (const auto& [name, text] : hostile::hrdfIncludeBomb(kLevels)) scratch.write(name, text);
  const CommandResult result = boundedCli("check '" + scratch.path("h0.hrdf") + "'", 60);
  EXPECT_NE(result.exitCode, kStoppedByBound) << "the HRDF include bomb did not end" << result.output;
  EXPECT_NE(result.output.find("INCLUDE_LIMIT"), std::string::npos) << result.output.substr(0, 2000);
  EXPECT_NE(result.output.find("h0.hrdf -> "), std::string::npos) << result.output.substr(0, 2000);

  LoadOptions options;
  options.maxIncludedModels = 100;
  const LoadResult limited = hostileLoader().loadFile(scratch.path("h0.hrdf"), options);
  const Diagnostic* d = findCode(limited.diagnostics, ErrorCode::INCLUDE_LIMIT);
  ASSERT_NE(d, nullptr) << dump(limited.diagnostics);
  EXPECT_TRUE(mentions(d, "more than 100 includes")) << d->message;
}

}  // namespace
}  // namespace interlink::test
