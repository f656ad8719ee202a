// MJCF -> MJCF keeps what MuJoCo reads beyond the kinematics: each geom's contact parameters
// (friction, condim, solref, solimp, margin, material, ...), each joint's armature and solver
// settings, the <texture> and <material> assets, and lights and cameras placed by a <frame>.
// Checked in MuJoCo 2.2.2 against the source; a second conversion changes nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "ConversionText.hpp"
#include "MujocoModel.hpp"
#include "TestSupport.hpp"

namespace interlink {
namespace {

// MuJoCo's humanoid (Apache-2.0): a default class with condim, friction, solimp, solref, a
// material, joint armature and limit solver settings; textures (skybox, cube, 2d) and materials.
const std::string kHumanoid = test::sourceDir() + "/tests/data/mujoco/model/humanoid/humanoid.xml";

std::string tempDir() {
  static const std::string dir = test::makeTempDir("interlink-mjcf-parameters");
  return dir;
}

/// Converts `input` with the CLI; returns the CLI's output after asserting it succeeded.
std::string convert(const std::string& input, const std::string& output, const std::string& extra = {}) {
  const test::CommandResult result = test::run(test::cliPath() + " convert " + input + " -o " + output + " " + extra);
  EXPECT_EQ(result.exitCode, 0) << input << " -> " << output << "\n" << result.output;
  return result.output;
}

using test::expectSameUpToRounding;

using test::Mujoco;

std::string nameOf(const mjModel* m, int type, int id) {
  const char* name = id < 0 ? nullptr : mj_id2name(m, type, id);
  return name ? name : "";
}

TEST(MjcfParametersConversion, GeomJointAndAssetParametersSurviveMjcfToMjcfInMujoco) {
  const std::string output = tempDir() + "/humanoid.mjcf";
  convert(kHumanoid, output);
  Mujoco source(kHumanoid), converted(output);
  ASSERT_NE(source.model, nullptr) << source.error;
  ASSERT_NE(converted.model, nullptr) << converted.error;
  const mjModel* a = source.model;
  const mjModel* b = converted.model;

  // Geoms by name (every geom of the humanoid is named).
  ASSERT_EQ(b->ngeom, a->ngeom);
  int geoms = 0;
  for (int i = 0; i < a->ngeom; ++i) {
    const std::string name = nameOf(a, mjOBJ_GEOM, i);
    ASSERT_FALSE(name.empty()) << "geom " << i;
    const int j = mj_name2id(b, mjOBJ_GEOM, name.c_str());
    ASSERT_GE(j, 0) << name;
    for (int k = 0; k < 3; ++k) EXPECT_EQ(b->geom_friction[3 * j + k], a->geom_friction[3 * i + k]) << name;
    EXPECT_EQ(b->geom_condim[j], a->geom_condim[i]) << name;
    for (int k = 0; k < mjNIMP; ++k) EXPECT_EQ(b->geom_solimp[mjNIMP * j + k], a->geom_solimp[mjNIMP * i + k]) << name;
    for (int k = 0; k < mjNREF; ++k) EXPECT_EQ(b->geom_solref[mjNREF * j + k], a->geom_solref[mjNREF * i + k]) << name;
    EXPECT_EQ(b->geom_margin[j], a->geom_margin[i]) << name;
    EXPECT_EQ(b->geom_gap[j], a->geom_gap[i]) << name;
    EXPECT_EQ(b->geom_contype[j], a->geom_contype[i]) << name;
    EXPECT_EQ(b->geom_conaffinity[j], a->geom_conaffinity[i]) << name;
    EXPECT_EQ(nameOf(b, mjOBJ_MATERIAL, b->geom_matid[j]), nameOf(a, mjOBJ_MATERIAL, a->geom_matid[i])) << name;
    for (int k = 0; k < 4; ++k) EXPECT_EQ(b->geom_rgba[4 * j + k], a->geom_rgba[4 * i + k]) << name;
    ++geoms;
  }
  EXPECT_GT(geoms, 10);
  // The source's values are not MuJoCo's defaults (the test would otherwise prove nothing).
  const int thigh = mj_name2id(a, mjOBJ_GEOM, "right_thigh");
  ASSERT_GE(thigh, 0);
  EXPECT_EQ(a->geom_condim[thigh], 1);
  EXPECT_EQ(a->geom_friction[3 * thigh], 0.7);
  EXPECT_EQ(a->geom_solref[mjNREF * thigh], 0.015);

  // Joints: armature, damping, stiffness and the limit's solver settings.
  ASSERT_EQ(b->njnt, a->njnt);
  ASSERT_EQ(b->nv, a->nv);
  bool armature = false;
  for (int i = 0; i < a->njnt; ++i) {
    const std::string name = nameOf(a, mjOBJ_JOINT, i);
    const int j = mj_name2id(b, mjOBJ_JOINT, name.c_str());
    ASSERT_GE(j, 0) << name;
    const int da = a->jnt_dofadr[i], db = b->jnt_dofadr[j];
    EXPECT_EQ(b->dof_armature[db], a->dof_armature[da]) << name;
    EXPECT_EQ(b->dof_damping[db], a->dof_damping[da]) << name;
    EXPECT_EQ(b->jnt_stiffness[j], a->jnt_stiffness[i]) << name;
    for (int k = 0; k < mjNIMP; ++k) EXPECT_EQ(b->jnt_solimp[mjNIMP * j + k], a->jnt_solimp[mjNIMP * i + k]) << name;
    for (int k = 0; k < mjNREF; ++k) EXPECT_EQ(b->jnt_solref[mjNREF * j + k], a->jnt_solref[mjNREF * i + k]) << name;
    armature = armature || a->dof_armature[da] != 0;
  }
  EXPECT_TRUE(armature);

  // Materials and textures by name, with their colours, reflectance and texture.
  ASSERT_EQ(b->nmat, a->nmat);
  ASSERT_EQ(b->ntex, a->ntex);
  ASSERT_GT(a->nmat, 0);
  for (int i = 0; i < a->nmat; ++i) {
    const std::string name = nameOf(a, mjOBJ_MATERIAL, i);
    const int j = mj_name2id(b, mjOBJ_MATERIAL, name.c_str());
    ASSERT_GE(j, 0) << name;
    for (int k = 0; k < 4; ++k) EXPECT_EQ(b->mat_rgba[4 * j + k], a->mat_rgba[4 * i + k]) << name;
    EXPECT_EQ(b->mat_reflectance[j], a->mat_reflectance[i]) << name;
    EXPECT_EQ(b->mat_texuniform[j], a->mat_texuniform[i]) << name;
    EXPECT_EQ(nameOf(b, mjOBJ_TEXTURE, b->mat_texid[j]), nameOf(a, mjOBJ_TEXTURE, a->mat_texid[i])) << name;
  }
  for (int i = 0; i < a->ntex; ++i) {
    EXPECT_EQ(b->tex_type[i], a->tex_type[i]) << "texture " << i;
    EXPECT_EQ(b->tex_width[i], a->tex_width[i]) << "texture " << i;
    EXPECT_EQ(b->tex_height[i], a->tex_height[i]) << "texture " << i;
  }

  // Body poses at the same non-zero hinge angles.
  mjData* dataA = mj_makeData(a);
  mjData* dataB = mj_makeData(b);
  for (int i = 0; i < a->njnt; ++i) {
    if (a->jnt_type[i] != mjJNT_HINGE) continue;
    const int j = mj_name2id(b, mjOBJ_JOINT, mj_id2name(a, mjOBJ_JOINT, i));
    dataA->qpos[a->jnt_qposadr[i]] = dataB->qpos[b->jnt_qposadr[j]] = 0.3 - 0.02 * i;
  }
  mj_kinematics(a, dataA);
  mj_kinematics(b, dataB);
  for (int i = 1; i < a->nbody; ++i) {
    const int j = mj_name2id(b, mjOBJ_BODY, mj_id2name(a, mjOBJ_BODY, i));
    ASSERT_GE(j, 0) << mj_id2name(a, mjOBJ_BODY, i);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(dataB->xpos[3 * j + k], dataA->xpos[3 * i + k], 1e-9) << mj_id2name(a, mjOBJ_BODY, i);
  }
  mj_deleteData(dataA);
  mj_deleteData(dataB);

  // A second conversion writes the same text (but for the last digit of recomputed rotations).
  convert(output, tempDir() + "/humanoid_2.mjcf");
  expectSameUpToRounding(test::readFile(output), test::readFile(tempDir() + "/humanoid_2.mjcf"), output);
}

TEST(MjcfParametersConversion, MocapBodiesAndTheKeysMocapPosesSurviveMjcfToMjcf) {
  // MuJoCo's own keyframe test model: a mocap body, and keys with its positions and orientations.
  const std::string source = test::sourceDir() + "/tests/data/mujoco/test/user/testdata/keyframe.xml";
  const std::string output = tempDir() + "/keyframe.mjcf";
  convert(source, output);
  Mujoco a(source), b(output);
  ASSERT_NE(a.model, nullptr) << a.error;
  ASSERT_NE(b.model, nullptr) << b.error << "\n" << test::readFile(output);
  ASSERT_GT(a.model->nmocap, 0);
  ASSERT_EQ(b.model->nmocap, a.model->nmocap);
  ASSERT_EQ(b.model->nkey, a.model->nkey);
  for (int i = 0; i < 3 * a.model->nkey * a.model->nmocap; ++i) EXPECT_EQ(b.model->key_mpos[i], a.model->key_mpos[i]) << i;
  for (int i = 0; i < 4 * a.model->nkey * a.model->nmocap; ++i) EXPECT_EQ(b.model->key_mquat[i], a.model->key_mquat[i]) << i;
  convert(output, tempDir() + "/keyframe_2.mjcf");
  expectSameUpToRounding(test::readFile(output), test::readFile(tempDir() + "/keyframe_2.mjcf"), output);
}

TEST(MjcfParametersConversion, OtherTargetsNameTheMujocoParametersTheyDropInOneWarning) {
  const std::string output = convert(kHumanoid, tempDir() + "/humanoid.urdf");
  const std::string geomWarning = "URDF has no place for MuJoCo geom parameters";
  const std::size_t first = output.find(geomWarning);
  EXPECT_NE(first, std::string::npos) << output;
  EXPECT_EQ(output.find(geomWarning, first + 1), std::string::npos) << "one warning\n" << output;
  EXPECT_NE(output.find("URDF has no place for MuJoCo joint parameters"), std::string::npos) << output;
}

TEST(MjcfParametersConversion, LightsAndCamerasInAFrameKeepTheFrameOffsetAndSitesTheirShape) {
  // <frame> is MuJoCo 3.1's, so MuJoCo 2.2.2 loads the conversion, compared with the same model
  // written with the frame applied by hand (a quarter turn about z, then 0.5 m along x).
  const std::string framed = tempDir() + "/framed.xml";
  const std::string flat = tempDir() + "/flat.xml";
  // With two sites whose shape, size and colour MuJoCo reads (one sized by fromto).
  const std::string body = "<geom type=\"sphere\" size=\"0.1\"/><joint name=\"hinge\" axis=\"0 1 0\"/>"
                           "<site name=\"box\" type=\"box\" size=\"0.1 0.2 0.3\" rgba=\"1 0 0 1\" group=\"3\"/>"
                           "<site name=\"rod\" type=\"capsule\" fromto=\"0 0 0 0 0 0.4\" size=\"0.02\"/>";
  // The main class's light default stays with the lights, which are written as read.
  const std::string defaults = "<default><light castshadow=\"false\"/></default>";
  std::ofstream(framed) << "<mujoco model=\"framed\">" << defaults << "<worldbody><body name=\"b\" pos=\"0 0 1\">" << body
                        << "<frame pos=\"0.5 0 0\" euler=\"0 0 90\">"
                           "<light name=\"lamp\" pos=\"0.1 0 0\" dir=\"1 0 0\"/>"
                           "<camera name=\"eye\" pos=\"0 0.2 0\" fovy=\"30\"/></frame></body></worldbody></mujoco>\n";
  std::ofstream(flat) << "<mujoco model=\"flat\">" << defaults << "<worldbody><body name=\"b\" pos=\"0 0 1\">" << body
                      << "<light name=\"lamp\" pos=\"0.5 0.1 0\" dir=\"0 1 0\"/>"
                         "<camera name=\"eye\" pos=\"0.3 0 0\" euler=\"0 0 90\" fovy=\"30\"/></body></worldbody></mujoco>\n";
  const std::string output = tempDir() + "/framed.mjcf";
  convert(framed, output);
  Mujoco expected(flat), converted(output);
  ASSERT_NE(expected.model, nullptr) << expected.error;
  ASSERT_NE(converted.model, nullptr) << converted.error << "\n" << test::readFile(output);
  const mjModel* a = expected.model;
  const mjModel* b = converted.model;
  ASSERT_EQ(b->nlight, 1);
  ASSERT_EQ(b->ncam, 1);
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(b->light_pos[k], a->light_pos[k], 1e-12) << k;
    EXPECT_NEAR(b->light_dir[k], a->light_dir[k], 1e-12) << k;
    EXPECT_NEAR(b->cam_pos[k], a->cam_pos[k], 1e-12) << k;
  }
  for (int k = 0; k < 4; ++k) EXPECT_NEAR(b->cam_quat[k], a->cam_quat[k], 1e-12) << k;
  EXPECT_EQ(b->cam_fovy[0], a->cam_fovy[0]);
  EXPECT_EQ(a->light_castshadow[0], 0);
  EXPECT_EQ(b->light_castshadow[0], a->light_castshadow[0]);
  ASSERT_EQ(b->nsite, a->nsite);
  for (const char* name : {"box", "rod"}) {
    const int i = mj_name2id(a, mjOBJ_SITE, name), j = mj_name2id(b, mjOBJ_SITE, name);
    ASSERT_GE(j, 0) << name;
    EXPECT_EQ(b->site_type[j], a->site_type[i]) << name;
    EXPECT_EQ(b->site_group[j], a->site_group[i]) << name;
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(b->site_size[3 * j + k], a->site_size[3 * i + k], 1e-12) << name;
      EXPECT_NEAR(b->site_pos[3 * j + k], a->site_pos[3 * i + k], 1e-12) << name;
    }
    for (int k = 0; k < 4; ++k) EXPECT_EQ(b->site_rgba[4 * j + k], a->site_rgba[4 * i + k]) << name;
  }
  EXPECT_EQ(a->site_type[mj_name2id(a, mjOBJ_SITE, "box")], mjGEOM_BOX);
  EXPECT_EQ(b->light_bodyid[0], mj_name2id(b, mjOBJ_BODY, "b"));
  EXPECT_EQ(b->cam_bodyid[0], mj_name2id(b, mjOBJ_BODY, "b"));
  // A second conversion changes nothing.
  convert(output, tempDir() + "/framed_2.mjcf");
  expectSameUpToRounding(test::readFile(output), test::readFile(tempDir() + "/framed_2.mjcf"), output);
}

TEST(MjcfParametersConversion, MeshesWrittenInlineSurviveMjcfToMjcf) {
  // A mesh given by its vertices and faces in the file (no file to name), scaled by its class.
  const std::string source = tempDir() + "/inline.xml";
  std::ofstream(source) << "<mujoco model=\"inline\"><default><default class=\"big\"><mesh scale=\"2 2 2\"/></default>"
                           "</default><asset><mesh name=\"tet\" class=\"big\" vertex=\"0 0 0 1 0 0 0 1 0 0 0 1\" "
                           "face=\"0 2 1 0 1 3 0 3 2 1 2 3\"/></asset><worldbody><body name=\"b\" pos=\"0 0 1\">"
                           "<freejoint/><geom name=\"g\" type=\"mesh\" mesh=\"tet\" friction=\"0.5 0.01 0.001\"/>"
                           "</body></worldbody></mujoco>\n";
  const std::string output = tempDir() + "/inline.mjcf";
  const std::string said = convert(source, output);
  EXPECT_EQ(said.find("cannot hold"), std::string::npos) << said;
  Mujoco expected(source), converted(output);
  ASSERT_NE(expected.model, nullptr) << expected.error;
  ASSERT_NE(converted.model, nullptr) << converted.error << "\n" << test::readFile(output);
  const mjModel* a = expected.model;
  const mjModel* b = converted.model;
  ASSERT_EQ(b->nmesh, 1);
  ASSERT_EQ(b->mesh_vertnum[0], a->mesh_vertnum[0]);
  ASSERT_EQ(b->mesh_facenum[0], a->mesh_facenum[0]);
  for (int i = 0; i < 3 * a->mesh_vertnum[0]; ++i) EXPECT_NEAR(b->mesh_vert[i], a->mesh_vert[i], 1e-6) << i;
  const int i = mj_name2id(a, mjOBJ_GEOM, "g"), j = mj_name2id(b, mjOBJ_GEOM, "g");
  ASSERT_GE(j, 0);
  EXPECT_EQ(b->geom_type[j], mjGEOM_MESH);
  EXPECT_EQ(b->geom_friction[3 * j], a->geom_friction[3 * i]);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(b->geom_size[3 * j + k], a->geom_size[3 * i + k], 1e-9) << k;
  EXPECT_NEAR(b->body_mass[1], a->body_mass[1], 1e-9 * a->body_mass[1]);
  convert(output, tempDir() + "/inline_2.mjcf");
  expectSameUpToRounding(test::readFile(output), test::readFile(tempDir() + "/inline_2.mjcf"), output);
  // URDF and SDFormat have no place for the vertices: the shapes are dropped with a warning that
  // says so, and the output reads back.
  for (const char* target : {"urdf", "sdf"}) {
    const std::string elsewhere = convert(source, tempDir() + "/inline." + target);
    EXPECT_NE(elsewhere.find("has no place for a mesh given inline in its source"), std::string::npos) << elsewhere;
  }
}

}  // namespace
}  // namespace interlink
