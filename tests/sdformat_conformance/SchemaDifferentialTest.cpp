// Issue 12 class 9, differential: generated schema violations (and their valid neighbours) loaded
// by Interlink and by libsdformat 12.3 must get the same verdict, and for an invalid file
// libsdformat's root-cause error code must be among Interlink's. libsdformat 12.3 reads up to
// SDFormat 1.9 (older files are converted to 1.9 first), so the cases use 1.4-1.9.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "ReferenceSdformat.hpp"
#include "TestSupport.hpp"
#include "interlink/Loader.hpp"

namespace interlink::conformance {
namespace {

struct SchemaCase {
  const char* name;
  const char* version;
  const char* linkContent;  // written inside <model name='m'><link name='l'>
  bool valid;               // what the schema says (Interlink's verdict)
  /// Set when libsdformat 12.3 deliberately gives the other verdict: why Interlink differs.
  const char* exception = nullptr;
};

const std::vector<SchemaCase>& schemaCases() {
  static const std::vector<SchemaCase> cases = {
      {"friction_mu_negative", "1.9",
       "<collision name='c'><geometry><sphere><radius>1</radius></sphere></geometry>"
       "<surface><friction><ode><mu>-0.5</mu></ode></friction></surface></collision>",
       false},
      {"friction_mu_zero", "1.9",
       "<collision name='c'><geometry><sphere><radius>1</radius></sphere></geometry>"
       "<surface><friction><ode><mu>0</mu></ode></friction></surface></collision>",
       true},
      {"friction_mu_not_a_number", "1.6",
       "<collision name='c'><geometry><sphere><radius>1</radius></sphere></geometry>"
       "<surface><friction><ode><mu>high</mu></ode></friction></surface></collision>",
       false},
      {"sensor_unknown_type", "1.9", "<sensor name='s' type='laser_pointer'/>", false},
      {"sensor_known_type", "1.9", "<sensor name='s' type='gpu_lidar'/>", true},
      {"sensor_without_name", "1.9", "<sensor type='imu'/>", false},
      {"sensor_without_type", "1.8", "<sensor name='s'/>", false},
      {"sensor_always_on_not_bool", "1.9", "<sensor name='s' type='imu'><always_on>yes</always_on></sensor>", false},
      {"sensor_update_rate_not_number", "1.7", "<sensor name='s' type='imu'><update_rate>fast</update_rate></sensor>",
       false},
      {"camera_width_not_integer", "1.9",
       "<sensor name='s' type='camera'><camera><image><width>64.5</width></image></camera></sensor>", true},
      {"colour_component_above_one", "1.9",
       "<visual name='v'><geometry><sphere><radius>1</radius></sphere></geometry>"
       "<material><diffuse>1 0.5 2 1</diffuse></material></visual>",
       false},
      {"colour_of_two_numbers", "1.9",
       "<visual name='v'><geometry><sphere><radius>1</radius></sphere></geometry>"
       "<material><ambient>1 0</ambient></material></visual>",
       false},
      {"camera_width_integer", "1.9",
       "<sensor name='s' type='camera'><camera><image><width>64</width></image></camera></sensor>", true},
      {"plugin_without_filename", "1.9", "<sensor name='s' type='imu'><plugin name='p'/></sensor>", false},
      {"plugin_free_content", "1.9",
       "<sensor name='s' type='imu'><plugin name='p' filename='libp.so'><anything>x</anything></plugin></sensor>", true},
      {"unknown_element_is_copied", "1.9", "<sensr name='typo'/>", true},
      {"unknown_attribute_is_ignored", "1.9", "<sensor name='s' type='imu' colour='red'/>", true},
      {"light_attenuation_not_number", "1.9",
       "<light name='lamp' type='point'><attenuation><range>far</range></attenuation></light>", false},
      {"velocity_decay_not_number", "1.5", "<velocity_decay><linear>slow</linear></velocity_decay>", false},
      {"kinematic_not_bool", "1.9", "<kinematic>maybe</kinematic>", false},
      {"visual_transparency_not_number", "1.9",
       "<visual name='v'><geometry><sphere><radius>1</radius></sphere></geometry><transparency>half"
       "</transparency></visual>",
       false},
      {"visual_cast_shadows_bool", "1.4",
       "<visual name='v'><geometry><sphere><radius>1</radius></sphere></geometry><cast_shadows>false"
       "</cast_shadows></visual>",
       true},
  };
  return cases;
}

std::string caseName(const testing::TestParamInfo<SchemaCase>& info) { return info.param.name; }

class SchemaDifferential : public testing::TestWithParam<SchemaCase> {};

TEST_P(SchemaDifferential, SameVerdictAndKindOfErrorAsLibsdformat) {
  const SchemaCase& c = GetParam();
  const std::filesystem::path dir = std::filesystem::path(testing::TempDir()) / "interlink_schema_differential";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / (std::string(c.name) + ".sdf")).string();
  {
    std::ofstream out(path);
    out << "<?xml version='1.0'?>\n<sdf version='" << c.version << "'>\n<model name='m'>\n<link name='l'>\n"
        << c.linkContent << "\n</link>\n</model>\n</sdf>\n";
  }
  const ReferenceResult theirs = loadWithLibsdformat(path, dir.string());
  static const Loader loader;
  const LoadResult ours = loader.loadFile(path);
  std::set<std::string> ourCodes;
  for (const Diagnostic& d : ours.diagnostics) {
    if (d.isError() && isLibsdformatCodeName(std::string(codeName(d.code)))) ourCodes.insert(std::string(codeName(d.code)));
  }
  std::string theirMessages;
  for (const std::string& m : theirs.messages) theirMessages += "  " + m + "\n";
  const std::string details = "Interlink:\n" + test::dump(ours.diagnostics) + "libsdformat:\n" + theirMessages;

  EXPECT_EQ(ours.ok(), c.valid) << c.name << ": Interlink's verdict is not the schema's\n" << details;
  if (c.exception) {
    // A listed exception stays true: libsdformat still gives the other verdict.
    EXPECT_NE(theirs.valid, c.valid) << c.name << ": listed as an exception (" << c.exception
                                     << ") but libsdformat now agrees; remove the exception\n" << details;
    return;
  }
  EXPECT_EQ(theirs.valid, c.valid) << c.name << ": libsdformat's verdict is not the expected one\n" << details;
  ASSERT_EQ(ours.ok(), theirs.valid) << c.name << ": verdicts differ\n" << details;
  if (!theirs.valid) {
    EXPECT_TRUE(ourCodes.count(theirs.firstCode))
        << c.name << ": libsdformat's root cause " << theirs.firstCode << " is not among Interlink's errors\n"
        << details;
  }
}

INSTANTIATE_TEST_SUITE_P(Generated, SchemaDifferential, testing::ValuesIn(schemaCases()), caseName);

}  // namespace
}  // namespace interlink::conformance
