// The MJCF plugin as a host sees it: files loaded through interlink::Loader.
#include <gtest/gtest.h>

#include "TestSupport.hpp"
#include "interlink/Loader.hpp"

namespace interlink {
namespace {

TEST(MjcfPlugin, ClaimsXmlWithAMujocoRoot) {
  Loader loader;
  LoadResult result = loader.loadString("<mujoco><worldbody><body name='b'><geom size='1'/></body></worldbody></mujoco>",
                                        "/tmp/model.xml");
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  EXPECT_EQ(result.document.format, "mjcf");
}

}  // namespace
}  // namespace interlink
