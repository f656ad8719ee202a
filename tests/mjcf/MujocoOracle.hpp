#pragma once
// MuJoCo 2.2.2 as the reference for MJCF: loads a file, and compares its forward kinematics and
// mass properties with Interlink's for the same model. Shared by the reader differential and the
// writer round trip.
#include <gtest/gtest.h>
#include <mujoco/mujoco.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "interlink/Loader.hpp"
#include "interlink/PoseMath.hpp"
#include "interlink/QposLayout.hpp"
#include "TestSupport.hpp"

namespace interlink::test {

struct MujocoModelDeleter {
  void operator()(mjModel* m) const { mj_deleteModel(m); }
};
struct MujocoDataDeleter {
  void operator()(mjData* d) const { mj_deleteData(d); }
};
using MujocoModel = std::unique_ptr<mjModel, MujocoModelDeleter>;
using MujocoData = std::unique_ptr<mjData, MujocoDataDeleter>;

/// The model, or nothing with MuJoCo's error in `error`.
inline MujocoModel loadMujoco(const std::string& path, std::string& error) {
  char buffer[1024] = "";
  mjModel* m = mj_loadXML(path.c_str(), nullptr, buffer, sizeof buffer);
  error = buffer;
  return MujocoModel(m);
}

/// Whether MuJoCo refuses `path`, with its error, asked in a child process: MuJoCo 2.2.2 reads
/// and writes past its buffers on some broken meshes (valgrind: an invalid write in mj_loadXML
/// for a face index out of range), and that corruption must not crash the test that asked. A
/// child killed by a signal produced no model: a refusal, reported as such.
inline bool mujocoRefuses(const std::string& path, std::string& error) {
  int channel[2];
  if (pipe(channel) != 0) {
    ADD_FAILURE() << "pipe() failed";
    return false;
  }
  const pid_t child = fork();
  if (child == 0) {
    close(channel[0]);
    std::string message;
    const bool loaded = static_cast<bool>(loadMujoco(path, message));
    const std::string reply = (loaded ? "L" : "R") + message;
    ssize_t written = write(channel[1], reply.data(), reply.size());
    _exit(written == static_cast<ssize_t>(reply.size()) ? 0 : 1);
  }
  close(channel[1]);
  std::string reply;
  char buffer[512];
  for (ssize_t n; (n = read(channel[0], buffer, sizeof buffer)) > 0;) reply.append(buffer, static_cast<std::size_t>(n));
  close(channel[0]);
  int status = 0;
  waitpid(child, &status, 0);
  if (WIFSIGNALED(status)) {
    error = "MuJoCo crashed (signal " + std::to_string(WTERMSIG(status)) + ")";
    return true;
  }
  if (reply.empty()) {
    ADD_FAILURE() << "the MuJoCo child process gave no answer (exit status " << status << ")";
    return false;
  }
  error = reply.substr(1);
  return reply[0] == 'R';
}

/// A model MuJoCo refuses: Interlink must refuse it too, with at least one located error.
inline void expectBothRefuse(Loader& loader, const std::string& path) {
  std::string error;
  EXPECT_TRUE(mujocoRefuses(path, error)) << "MuJoCo was expected to refuse this model";
  LoadResult loaded = loader.loadFile(path);
  EXPECT_FALSE(loaded.ok()) << "MuJoCo refuses it (" << error << ") but Interlink loads it";
  bool located = false;
  for (const Diagnostic& d : loaded.diagnostics) located = located || (d.isError() && d.where.line > 0);
  EXPECT_TRUE(located) << dump(loaded.diagnostics);
}

/// The name Interlink gives MuJoCo object `id` of `type` (docs/mjcf.md: "<kind>_<id>" when unnamed).
inline std::string mujocoName(const mjModel* m, mjtObj type, int id, const char* kind) {
  const char* name = mj_id2name(m, type, id);
  return name && *name ? std::string(name) : std::string(kind) + "_" + std::to_string(id);
}

struct Comparison {
  int configurations = 0;
  int framesCompared = 0;  // body and site poses compared, summed over configurations
  int bodiesWeighed = 0;
  int meshBodiesWeighed = 0;  // of those, bodies with mesh geoms (mass from the mesh's volume)
  std::vector<std::string> failures;
};

class MujocoDifferential {
 public:
  MujocoDifferential(const mjModel* m, const LoadResult& loaded) : m_(m), loaded_(loaded), d_(mj_makeData(m)) {
    for (std::size_t i = 0; i < loaded.kinematics.dofs().size(); ++i) {
      const Dof& dof = loaded.kinematics.dofs()[i];
      if (dof.index == 0) firstDof_[localName(dof.joint)] = static_cast<int>(i);
    }
  }

  /// Interlink's configuration from MuJoCo's qpos vector by the core's own mapping
  /// (interlink::configurationFromQpos) instead of joint by joint by name.
  void mapQposByCore(bool byCore) { qposByCore_ = byCore; }

  /// Poses of every body and site at qpos0 and at `randomCount` configurations within the joint
  /// ranges, then masses and inertias.
  Comparison compare(int randomCount, double tolerance, unsigned seed = 18) {
    Comparison result;
    std::mt19937 random(seed);
    for (int k = 0; k <= randomCount; ++k) {
      for (int i = 0; i < m_->nq; ++i) d_->qpos[i] = m_->qpos0[i];
      if (k > 0) randomConfiguration(random);
      comparePoses(result, tolerance, k);
    }
    compareMasses(result, tolerance);
    return result;
  }

 private:
  static std::string localName(const std::string& scoped) {
    const auto at = scoped.rfind("::");
    return at == std::string::npos ? scoped : scoped.substr(at + 2);
  }

  void randomConfiguration(std::mt19937& random) {
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    auto quaternion = [&](mjtNum* q) {
      Quaternion r = Quaternion::UnitRandom();
      q[0] = r.w(); q[1] = r.x(); q[2] = r.y(); q[3] = r.z();
    };
    for (int j = 0; j < m_->njnt; ++j) {
      mjtNum* q = d_->qpos + m_->jnt_qposadr[j];
      const bool limited = m_->jnt_limited[j];
      const double* range = m_->jnt_range + 2 * j;
      switch (m_->jnt_type[j]) {
        case mjJNT_HINGE:
          q[0] = limited ? range[0] + unit(random) * (range[1] - range[0]) : (unit(random) * 2 - 1) * M_PI;
          break;
        case mjJNT_SLIDE:
          q[0] = limited ? range[0] + unit(random) * (range[1] - range[0]) : unit(random) * 2 - 1;
          break;
        case mjJNT_BALL: quaternion(q); break;
        case mjJNT_FREE:
          for (int i = 0; i < 3; ++i) q[i] = unit(random) * 2 - 1;
          quaternion(q + 3);
          break;
      }
    }
  }

  /// MuJoCo's qpos as Interlink's configuration (docs/mjcf.md: hinge and slide alike, a ball's
  /// quaternion as a rotation vector, a free joint's world pose relative to the file's pose).
  std::vector<double> interlinkConfiguration(Comparison& result) const {
    std::vector<double> q(loaded_.kinematics.dofs().size(), 0.0);
    for (int j = 0; j < m_->njnt; ++j) {
      const std::string name = mujocoName(m_, mjOBJ_JOINT, j, "joint");
      // A joint named like a body is renamed "<name>__joint" (docs/mjcf.md).
      auto found = firstDof_.find(name + "__joint");
      if (found == firstDof_.end()) found = firstDof_.find(name);
      if (found == firstDof_.end()) {
        result.failures.push_back("no Interlink DOF for MuJoCo joint '" + name + "'");
        continue;
      }
      const mjtNum* p = d_->qpos + m_->jnt_qposadr[j];
      double* out = q.data() + found->second;
      switch (m_->jnt_type[j]) {
        case mjJNT_HINGE:
        case mjJNT_SLIDE: out[0] = p[0]; break;
        case mjJNT_BALL: {
          const Eigen::AngleAxisd aa(Quaternion(p[0], p[1], p[2], p[3]).normalized());
          const Vector3 v = aa.axis() * aa.angle();
          for (int i = 0; i < 3; ++i) out[i] = v[i];
          break;
        }
        case mjJNT_FREE: {
          const int b = m_->jnt_bodyid[j];
          Pose file = Pose::Identity();
          file.translation() = Vector3(m_->body_pos[3 * b], m_->body_pos[3 * b + 1], m_->body_pos[3 * b + 2]);
          file.linear() = Quaternion(m_->body_quat[4 * b], m_->body_quat[4 * b + 1], m_->body_quat[4 * b + 2],
                                     m_->body_quat[4 * b + 3]).normalized().toRotationMatrix();
          Pose now = Pose::Identity();
          now.translation() = Vector3(p[0], p[1], p[2]);
          now.linear() = Quaternion(p[3], p[4], p[5], p[6]).normalized().toRotationMatrix();
          const Pose motion = file.inverse() * now;
          const Eigen::AngleAxisd aa(motion.linear());
          const Vector3 v = aa.axis() * aa.angle();
          for (int i = 0; i < 3; ++i) {
            out[i] = motion.translation()[i];
            out[3 + i] = v[i];
          }
          break;
        }
      }
    }
    return q;
  }

  void expectPose(Comparison& result, const std::string& what, const Pose& actual, const mjtNum* pos,
                  const Matrix3& rotation, double tolerance) {
    const Vector3 p(pos[0], pos[1], pos[2]);
    const double dp = (actual.translation() - p).norm();
    const double dr = (actual.linear() - rotation).norm();
    if (!(dp <= tolerance * std::max(1.0, p.norm())) || !(dr <= tolerance)) {
      result.failures.push_back(what + ": position off by " + std::to_string(dp) + ", rotation off by " + std::to_string(dr));
    }
    ++result.framesCompared;
  }

  void comparePoses(Comparison& result, double tolerance, int configuration) {
    mj_kinematics(m_, d_.get());
    Diagnostics diagnostics;
    std::vector<double> q;
    if (qposByCore_) {
      auto mapped = configurationFromQpos(loaded_.kinematics, loaded_.graph, std::vector<double>(d_->qpos, d_->qpos + m_->nq), diagnostics);
      if (!mapped) {
        result.failures.push_back("configurationFromQpos failed: " + dump(diagnostics));
        return;
      }
      q = *mapped;
    } else {
      q = interlinkConfiguration(result);
    }
    auto poses = loaded_.kinematics.framePoses(q, diagnostics);
    ++result.configurations;
    if (!poses) {
      result.failures.push_back("Interlink forward kinematics failed");
      return;
    }
    const std::string at = " at configuration " + std::to_string(configuration);
    for (int b = 1; b < m_->nbody; ++b) {
      const std::string name = mujocoName(m_, mjOBJ_BODY, b, "body");
      auto index = loaded_.graph.find(name);
      if (!index) {
        result.failures.push_back("no Interlink frame for MuJoCo body '" + name + "'");
        continue;
      }
      const mjtNum* xq = d_->xquat + 4 * b;
      const Matrix3 r = Quaternion(xq[0], xq[1], xq[2], xq[3]).toRotationMatrix();
      expectPose(result, "body '" + name + "'" + at, (*poses)[*index], d_->xpos + 3 * b, r, tolerance);
    }
    for (int s = 0; s < m_->nsite; ++s) {
      const std::string name = mujocoName(m_, mjOBJ_SITE, s, "site");
      // A site named like a body or joint is renamed "<name>__site" (docs/mjcf.md).
      auto index = loaded_.graph.find(name + "__site");
      if (!index) index = loaded_.graph.find(name);
      if (!index) {
        result.failures.push_back("no Interlink frame for MuJoCo site '" + name + "'");
        continue;
      }
      Matrix3 r;
      for (int i = 0; i < 9; ++i) r(i / 3, i % 3) = d_->site_xmat[9 * s + i];
      expectPose(result, "site '" + name + "'" + at, (*poses)[*index], d_->site_xpos + 3 * s, r, tolerance);
    }
  }

  void compareMasses(Comparison& result, double tolerance) {
    std::map<std::string, const Link*> links;
    if (loaded_.document.model) {
      for (const Link& link : loaded_.document.model->links) links[link.name] = &link;
    }
    for (int b = 1; b < m_->nbody; ++b) {
      const std::string name = mujocoName(m_, mjOBJ_BODY, b, "body");
      auto found = links.find(name);
      if (found == links.end()) {
        result.failures.push_back("no Interlink link for MuJoCo body '" + name + "'");
        continue;
      }
      if (hasMeshGeom(b)) ++result.meshBodiesWeighed;
      const Inertial& inertial = found->second->inertial;
      const double mass = m_->body_mass[b];
      const double scale = std::max(1.0, mass);
      ++result.bodiesWeighed;
      if (!(std::abs(inertial.mass - mass) <= tolerance * scale)) {
        result.failures.push_back("mass of '" + name + "': Interlink " + std::to_string(inertial.mass) + ", MuJoCo " +
                                  std::to_string(mass));
        continue;
      }
      if (mass <= 0) continue;  // a massless body's inertial frame means nothing
      const Vector3 ipos(m_->body_ipos[3 * b], m_->body_ipos[3 * b + 1], m_->body_ipos[3 * b + 2]);
      const mjtNum* iq = m_->body_iquat + 4 * b;
      const Matrix3 R = Quaternion(iq[0], iq[1], iq[2], iq[3]).toRotationMatrix();
      const Vector3 moments(m_->body_inertia[3 * b], m_->body_inertia[3 * b + 1], m_->body_inertia[3 * b + 2]);
      const Matrix3 expected = R * moments.asDiagonal() * R.transpose();
      const Matrix3 C = inertial.centerOfMass.linear();
      const Matrix3 actual = C * inertial.inertia * C.transpose();
      const double dp = (inertial.centerOfMass.translation() - ipos).norm();
      const double di = (actual - expected).norm();
      if (!(dp <= tolerance * std::max(1.0, ipos.norm())) || !(di <= tolerance * std::max(1e-3, expected.norm()))) {
        std::ostringstream text;
        text << "inertia of '" << name << "': centre off by " << dp << ", tensor off by " << di << " (of "
             << expected.norm() << ")";
        result.failures.push_back(text.str());
      }
    }
  }

  bool hasMeshGeom(int body) const {
    for (int g = 0; g < m_->ngeom; ++g) {
      if (m_->geom_bodyid[g] == body && m_->geom_type[g] == mjGEOM_MESH) return true;
    }
    return false;
  }

  const mjModel* m_;
  const LoadResult& loaded_;
  MujocoData d_;
  bool qposByCore_ = false;
  std::map<std::string, int> firstDof_;
};

}  // namespace interlink::test
