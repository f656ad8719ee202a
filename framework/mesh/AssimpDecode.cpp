// The Assimp decoder, a library of its own (libinterlink_mesh_assimp.so, loaded by AssimpModule.cpp
// when a mesh first needs Assimp): Assimp and what it loads (Draco, minizip, zlib) cost every process
// about 6 ms of CPU to load and relocate, a model without meshes more than MuJoCo's whole load.
#include "AssimpDecode.hpp"
#include "IsolatedRun.hpp"

#include <assimp/Exporter.hpp>
#include <assimp/IOStream.hpp>
#include <assimp/IOSystem.hpp>
#include <sys/stat.h>
#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <pthread.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>
#include <limits>
#include <new>
#include <vector>

namespace interlink::mesh::detail {
namespace {

/// A file held in memory, read by Assimp as if from disk.
class MemoryStream : public Assimp::IOStream {
 public:
  explicit MemoryStream(std::shared_ptr<const std::string> bytes) : bytes_(std::move(bytes)) {}
  size_t Read(void* buffer, size_t size, size_t count) override {
    if (size == 0 || count == 0) return 0;
    const size_t available = (bytes_->size() - position_) / size;
    const size_t items = std::min(count, available);
    std::memcpy(buffer, bytes_->data() + position_, items * size);
    position_ += items * size;
    return items;
  }
  size_t Write(const void*, size_t, size_t) override { return 0; }
  aiReturn Seek(size_t offset, aiOrigin origin) override {
    size_t target = offset;
    if (origin == aiOrigin_CUR) target = position_ + offset;
    if (origin == aiOrigin_END) {
      if (offset > bytes_->size()) return aiReturn_FAILURE;
      target = bytes_->size() - offset;
    }
    if (target > bytes_->size()) return aiReturn_FAILURE;
    position_ = target;
    return aiReturn_SUCCESS;
  }
  size_t Tell() const override { return position_; }
  size_t FileSize() const override { return bytes_->size(); }
  void Flush() override {}

 private:
  std::shared_ptr<const std::string> bytes_;
  size_t position_ = 0;
};

/// Assimp's only way to files: the main mesh from memory, its parts through the gate (MeshPartSource).
class GuardedIOSystem : public Assimp::IOSystem {
 public:
  GuardedIOSystem(MeshPartSource& access, std::string mainFile, std::shared_ptr<const std::string> mainBytes,
                  MeshFormat format, MeshError& refusal)
      : access_(access), mainFile_(normalisedPath(mainFile)), format_(format), refusal_(refusal), main_(std::move(mainBytes)) {}

  bool Exists(const char* file) const override {
    const std::string path = normalisedPath(file);
    if (path != mainFile_ && !mayOpenAsPart(format_, path)) return false;
    struct stat status {};
    return ::stat(path.c_str(), &status) == 0 && S_ISREG(status.st_mode);
  }
  char getOsSeparator() const override { return '/'; }

  Assimp::IOStream* Open(const char* file, const char* mode) override {
    if (std::strpbrk(mode, "wa+") != nullptr) return nullptr;  // decoding never writes
    const std::string path = normalisedPath(file);
    if (path == mainFile_ && main_) return new MemoryStream(main_);
    if (path != mainFile_ && !mayOpenAsPart(format_, path)) {
      refuse({ErrorCode::FILE_READ, "it names '" + path + "', which a mesh of this format may not open (only " +
                                        (format_ == MeshFormat::Obj ? std::string(".mtl") : std::string(".bin")) +
                                        " files)"});
      return nullptr;
    }
    // A part that is not there is Assimp's to handle (an OBJ without its .mtl loads without
    // materials); one that is there but refused is the mesh's error.
    struct stat status {};
    if (path != mainFile_ && ::lstat(path.c_str(), &status) != 0 && errno == ENOENT) return nullptr;
    MeshError error;
    auto bytes = access_.read(path, error);
    if (!bytes) {
      refuse(error);
      return nullptr;
    }
    auto shared = std::make_shared<const std::string>(std::move(*bytes));
    if (path == mainFile_) main_ = shared;
    return new MemoryStream(std::move(shared));
  }
  void Close(Assimp::IOStream* stream) override { delete stream; }

 private:
  void refuse(MeshError error) {
    if (refusal_.code == ErrorCode::NONE) refusal_ = std::move(error);
  }

  MeshPartSource& access_;
  std::string mainFile_;
  MeshFormat format_;
  MeshError& refusal_;
  std::shared_ptr<const std::string> main_;
};


/// The stack of the decoding thread: reserved, not committed, so it costs memory only as deep as
/// Assimp goes (at most MeshLimits::maxNodeDepth levels of its recursion).
constexpr std::size_t kDecoderStackBytes = std::size_t{256} << 20;

/// Assimp triangulates a polygon by ear clipping, in time quadratic in its corners (a face of
/// 25 000 corners took 2.7 s): a measurement that triangulates refuses larger faces.
constexpr unsigned kMaxTriangulatedCorners = 1024;

/// Runs `work` on a thread with a large stack and waits for it; runs it here when no such thread
/// can be made. Exceptions stay inside `work`.
void onLargeStack(const std::function<void()>& work) {
  pthread_attr_t attributes;
  pthread_t thread;
  bool started = false;
  if (pthread_attr_init(&attributes) == 0) {
    auto* job = const_cast<std::function<void()>*>(&work);
    started = pthread_attr_setstacksize(&attributes, kDecoderStackBytes) == 0 &&
              pthread_create(
                  &thread, &attributes,
                  [](void* argument) -> void* {
                    (*static_cast<std::function<void()>*>(argument))();
                    return nullptr;
                  },
                  job) == 0;
    pthread_attr_destroy(&attributes);
  }
  if (started) {
    pthread_join(thread, nullptr);
  } else {
    work();
  }
}

std::uint64_t sceneBytes(const aiScene& scene) {
  std::uint64_t bytes = 0;
  for (unsigned m = 0; m < scene.mNumMeshes; ++m) {
    const aiMesh* mesh = scene.mMeshes[m];
    if (!mesh) continue;
    bytes += 12ull * mesh->mNumVertices + 8ull * mesh->mNumFaces;
    for (unsigned f = 0; f < mesh->mNumFaces; ++f) bytes += 4ull * mesh->mFaces[f].mNumIndices;
  }
  return bytes;
}

std::string limitMessage(std::uint64_t maxDecodedBytes) {
  return "the mesh decodes to more than " + std::to_string(maxDecodedBytes) + " bytes (LoadOptions::meshLimits)";
}

/// Reads `path` with Assimp through the gate and hands the scene to `use`; false with `error` set
/// when Assimp fails, a file was refused or the scene is larger than allowed.
bool withScene(MeshPartSource& access, const std::string& path, MeshFormat format, std::shared_ptr<const std::string> bytes,
               std::uint64_t maxDecodedBytes, MeshError& error,
               const std::function<bool(Assimp::Importer&, const aiScene&, MeshError&)>& use,
               const std::function<void(Assimp::Importer&)>& prepare = {}) {
  bool ok = false;
  onLargeStack([&] {
    try {
      MeshError refusal;
      Assimp::Importer importer;
      importer.SetIOHandler(new GuardedIOSystem(access, path, std::move(bytes), format, refusal));
      if (prepare) prepare(importer);
      const aiScene* scene = importer.ReadFile(path, 0);
      if (refusal.code != ErrorCode::NONE) {
        error = refusal;
        error.message = "the mesh names a file that may not be read: " + error.message;
      } else if (!scene) {
        const std::string reason = importer.GetErrorString();
        error = {ErrorCode::FILE_READ, reason.empty() ? "Assimp returned no scene" : "Assimp: " + quotable(reason)};
      } else if (sceneBytes(*scene) > maxDecodedBytes) {
        error = {ErrorCode::MESH_LIMIT, limitMessage(maxDecodedBytes)};
      } else {
        ok = use(importer, *scene, error);
      }
    } catch (const std::bad_alloc&) {
      error = {ErrorCode::MESH_LIMIT, "out of memory while decoding the mesh"};
    } catch (const std::exception& e) {
      error = {ErrorCode::FILE_READ, "Assimp: " + quotable(e.what())};
    }
  });
  return ok;
}

struct Accumulator {
  std::size_t vertices = 0;
  std::size_t faces = 0;
  Vector3 lower = Vector3::Constant(std::numeric_limits<double>::infinity());
  Vector3 upper = Vector3::Constant(-std::numeric_limits<double>::infinity());
  void add(const aiVector3D& p) {
    const Vector3 point(p.x, p.y, p.z);
    lower = lower.cwiseMin(point);
    upper = upper.cwiseMax(point);
  }
  MeshInfo info() const {
    MeshInfo out;
    out.vertexCount = vertices;
    out.faceCount = faces;
    if (vertices > 0) {
      out.boundsMin = lower;
      out.boundsMax = upper;
    }
    return out;
  }
};

// Meshes placed by the node hierarchy; the precheck bounds the depth of this recursion.
void visit(const aiScene& scene, const aiNode& node, const aiMatrix4x4& parent, Accumulator& out) {
  const aiMatrix4x4 transform = parent * node.mTransformation;
  for (unsigned i = 0; i < node.mNumMeshes; ++i) {
    const aiMesh* mesh = node.mMeshes[i] < scene.mNumMeshes ? scene.mMeshes[node.mMeshes[i]] : nullptr;
    if (!mesh) continue;
    out.vertices += mesh->mNumVertices;
    out.faces += mesh->mNumFaces;
    for (unsigned v = 0; v < mesh->mNumVertices; ++v) out.add(transform * mesh->mVertices[v]);
  }
  for (unsigned c = 0; c < node.mNumChildren; ++c)
    if (node.mChildren[c]) visit(scene, *node.mChildren[c], transform, out);
}

std::optional<MeshPolygons> polygonsHere(MeshPartSource& access, const std::string& path, MeshFormat format,
                                           std::shared_ptr<const std::string> bytes, std::uint64_t maxDecodedBytes,
                                           MeshError& error) {
  MeshPolygons out;
  const bool ok = withScene(access, path, format, std::move(bytes), maxDecodedBytes, error,
                            [&](Assimp::Importer&, const aiScene& scene, MeshError&) {
                              for (unsigned m = 0; m < scene.mNumMeshes; ++m) {
                                const aiMesh* mesh = scene.mMeshes[m];
                                if (!mesh) continue;
                                const auto first = static_cast<std::uint32_t>(out.vertices.size() / 3);
                                for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
                                  out.vertices.insert(out.vertices.end(), {mesh->mVertices[v].x, mesh->mVertices[v].y,
                                                                           mesh->mVertices[v].z});
                                }
                                for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
                                  const aiFace& face = mesh->mFaces[f];
                                  out.cornerCounts.push_back(face.mNumIndices);
                                  for (unsigned k = 0; k < face.mNumIndices; ++k) out.corners.push_back(first + face.mIndices[k]);
                                }
                              }
                              return true;
                            });
  if (!ok) return std::nullopt;
  return out;
}

std::optional<MeshInfo> measureHere(MeshPartSource& access, const std::string& path, MeshFormat format,
                                      std::shared_ptr<const std::string> bytes, MeshMeasure how,
                                      std::uint64_t maxDecodedBytes, std::uint64_t& decodedBytes, MeshError& error) {
  MeshInfo info;
  const bool ok = withScene(
      access, path, format, std::move(bytes), maxDecodedBytes, error,
      [&](Assimp::Importer& importer, const aiScene& imported, MeshError& problem) {
        decodedBytes = sceneBytes(imported);
        const aiScene* scene = &imported;
        if (how == MeshMeasure::JoinedVertices) {
          // Shared corners count once; polygons are counted as written (not triangulated).
          scene = importer.ApplyPostProcessing(aiProcess_JoinIdenticalVertices);
        } else {
          for (unsigned m = 0; m < imported.mNumMeshes; ++m) {
            const aiMesh* mesh = imported.mMeshes[m];
            for (unsigned f = 0; mesh && f < mesh->mNumFaces; ++f) {
              if (mesh->mFaces[f].mNumIndices <= kMaxTriangulatedCorners) continue;
              problem = {ErrorCode::MESH_LIMIT, "a face has " + std::to_string(mesh->mFaces[f].mNumIndices) +
                                                    " corners; triangulating more than " +
                                                    std::to_string(kMaxTriangulatedCorners) + " takes quadratic time"};
              return false;
            }
          }
          // DART drops points and lines and imports with these steps.
          importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
          scene = importer.ApplyPostProcessing(aiProcess_GenNormals | aiProcess_Triangulate |
                                               aiProcess_JoinIdenticalVertices | aiProcess_SortByPType |
                                               aiProcess_OptimizeMeshes);
          // Assimp turns COLLADA's up axis into a root rotation; DART undoes it before pre-transforming.
          if (scene && format == MeshFormat::Collada && scene->mRootNode) scene->mRootNode->mTransformation = aiMatrix4x4();
          if (scene) scene = importer.ApplyPostProcessing(aiProcess_PreTransformVertices);
        }
        if (!scene || !scene->mRootNode) {
          const std::string reason = importer.GetErrorString();
          problem = {ErrorCode::FILE_READ, reason.empty() ? "Assimp returned no scene" : "Assimp: " + quotable(reason)};
          return false;
        }
        Accumulator sum;
        if (how == MeshMeasure::JoinedVertices) {
          visit(*scene, *scene->mRootNode, aiMatrix4x4(), sum);
        } else {
          for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
            const aiMesh* mesh = scene->mMeshes[m];
            sum.vertices += mesh->mNumVertices;
            sum.faces += mesh->mNumFaces;
            for (unsigned v = 0; v < mesh->mNumVertices; ++v) sum.add(mesh->mVertices[v]);
          }
        }
        info = sum.info();
        return true;
      });
  if (!ok) return std::nullopt;
  return info;
}

/// The mesh as one glTF binary in metres, as Gazebo and RViz draw it: triangles only, COLLADA's
/// <unit> applied and its <up_axis> ignored (gz-common's ColladaLoader does not turn meshes), node
/// transforms baked into the vertices, materials as plain colours.
std::optional<std::string> displayHere(MeshPartSource& access, const std::string& path, MeshFormat format,
                                       std::shared_ptr<const std::string> bytes, std::uint64_t maxDecodedBytes,
                                       MeshError& error) {
  std::optional<std::string> glb;
  withScene(
      access, path, format, std::move(bytes), maxDecodedBytes, error,
      [&](Assimp::Importer& importer, const aiScene&, MeshError& problem) {
        const aiScene* scene = importer.ApplyPostProcessing(aiProcess_Triangulate | aiProcess_JoinIdenticalVertices |
                                                            aiProcess_GenSmoothNormals | aiProcess_SortByPType |
                                                            aiProcess_PreTransformVertices | aiProcess_ValidateDataStructure);
        if (!scene || !scene->mRootNode || scene->mNumMeshes == 0) {
          problem = {ErrorCode::FILE_READ, scene ? std::string("no triangles") : "Assimp: " + quotable(importer.GetErrorString())};
          return false;
        }
        // Without a specular colour or glossiness the exporter writes plain metallic-roughness
        // materials (base colour = the file's diffuse colour), which every glTF viewer draws alike;
        // the specular-glossiness extension it writes otherwise washes colours out in three.js.
        for (unsigned m = 0; m < scene->mNumMaterials; ++m) {
          aiMaterial* material = scene->mMaterials[m];
          material->RemoveProperty(AI_MATKEY_COLOR_SPECULAR);
          material->RemoveProperty(AI_MATKEY_GLOSSINESS_FACTOR);
          // Textures are files beside the mesh that the exporter would only name; the page loads
          // nothing from outside itself, so meshes are drawn in their materials' colours.
          std::vector<std::pair<std::string, std::pair<unsigned, unsigned>>> textures;
          for (unsigned p = 0; p < material->mNumProperties; ++p) {
            const aiMaterialProperty* property = material->mProperties[p];
            if (std::string(property->mKey.C_Str()).rfind("$tex.", 0) == 0) {
              textures.push_back({property->mKey.C_Str(), {property->mSemantic, property->mIndex}});
            }
          }
          for (const auto& [key, where] : textures) material->RemoveProperty(key.c_str(), where.first, where.second);
        }
        Assimp::Exporter exporter;
        const aiExportDataBlob* blob = exporter.ExportToBlob(scene, "glb2");
        if (!blob || !blob->data) {
          problem = {ErrorCode::FILE_READ, "glTF export failed: " + quotable(exporter.GetErrorString())};
          return false;
        }
        glb = std::string(static_cast<const char*>(blob->data), blob->size);
        return true;
      },
      [](Assimp::Importer& importer) {
        // Lines and points are dropped (SortByPType + the removal flag): robots draw triangles.
        importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_LINE | aiPrimitiveType_POINT);
        importer.SetPropertyBool(AI_CONFIG_IMPORT_COLLADA_IGNORE_UP_DIRECTION, true);
      });
  return glb;
}

/// The decoder's answer as bytes on the pipe from the child: integers little-endian as the host
/// writes them (parent and child are the same program), arrays with their length first.
class WireWriter {
 public:
  void number(std::uint64_t value) { raw(&value, sizeof value); }
  void real(double value) { raw(&value, sizeof value); }
  void text(const std::string& value) {
    number(value.size());
    raw(value.data(), value.size());
  }
  template <typename T>
  void array(const std::vector<T>& values) {
    number(values.size());
    raw(values.data(), values.size() * sizeof(T));
  }
  void raw(const void* data, std::size_t size) {
    if (size > 0) bytes_.append(static_cast<const char*>(data), size);
  }
  std::string take() { return std::move(bytes_); }

 private:
  std::string bytes_;
};

class WireReader {
 public:
  explicit WireReader(const std::string& bytes) : bytes_(bytes) {}
  bool ok() const { return ok_; }
  std::uint64_t number() {
    std::uint64_t value = 0;
    raw(&value, sizeof value);
    return value;
  }
  double real() {
    double value = 0;
    raw(&value, sizeof value);
    return value;
  }
  std::string text() {
    const std::uint64_t size = number();
    if (!ok_ || size > bytes_.size() - position_) return fail<std::string>();
    std::string value = bytes_.substr(position_, size);
    position_ += size;
    return value;
  }
  template <typename T>
  std::vector<T> array() {
    const std::uint64_t count = number();
    if (!ok_ || count > (bytes_.size() - position_) / sizeof(T)) return fail<std::vector<T>>();
    std::vector<T> values(count);
    raw(values.data(), count * sizeof(T));
    return values;
  }

 private:
  void raw(void* data, std::size_t size) {
    if (size == 0) return;
    if (!ok_ || size > bytes_.size() - position_) {
      ok_ = false;
      return;
    }
    std::memcpy(data, bytes_.data() + position_, size);
    position_ += size;
  }
  template <typename T>
  T fail() {
    ok_ = false;
    return T{};
  }
  const std::string& bytes_;
  std::size_t position_ = 0;
  bool ok_ = true;
};

/// Bounds of one decoding: CPU time grows with the file (Assimp reads tens of MB a second).
IsolationLimits isolationFor(const std::string& bytes, std::uint64_t maxDecodedBytes) {
  IsolationLimits limits;
  limits.cpuSeconds = 2 + static_cast<unsigned>(bytes.size() >> 23);
  limits.extraAddressSpace = (std::uint64_t{2} << 30) + 8 * maxDecodedBytes;
  limits.maxOutputBytes = maxDecodedBytes + (std::uint64_t{1} << 20);
  return limits;
}

/// Runs `decode` (an in-process decoding reading the mesh's parts through the source it is given)
/// in a child process: `write` puts its value on the wire there, `read` takes it off here. The
/// child's error and the files it read come first; the files are counted again in the parent.
template <typename T>
std::optional<T> decodeInChild(MeshPartSource& access, const IsolationLimits& limits, MeshError& error,
                               const std::function<std::optional<T>(MeshPartSource&, MeshError&)>& decode,
                               const std::function<void(WireWriter&, const T&)>& write,
                               const std::function<T(WireReader&)>& read) {
  RecordingSource recording(access);
  const IsolatedOutcome outcome = runIsolated(
      [&] {
        MeshError problem;
        const std::optional<T> value = decode(recording, problem);
        WireWriter wire;
        wire.number(static_cast<std::uint64_t>(problem.code));
        wire.text(problem.message);
        wire.number(recording.paths.size());
        for (const std::string& part : recording.paths) wire.text(part);
        wire.number(value ? 1 : 0);
        if (value) write(wire, *value);
        return wire.take();
      },
      limits);
  if (!outcome.completed) {
    error = outcome.failure;
    return std::nullopt;
  }
  WireReader wire(outcome.output);
  MeshError reported;
  reported.code = static_cast<ErrorCode>(wire.number());
  reported.message = wire.text();
  const std::uint64_t parts = wire.number();
  for (std::uint64_t p = 0; wire.ok() && p < parts; ++p) {
    const std::string part = wire.text();
    MeshError refusal;
    if (wire.ok() && !access.read(part, refusal)) {
      error = refusal;
      error.message = "the mesh names a file that may not be read: " + error.message;
      return std::nullopt;
    }
  }
  const bool decoded = wire.number() != 0;
  std::optional<T> value;
  if (decoded) value = read(wire);
  if (!wire.ok()) {
    error = {ErrorCode::FILE_READ, "the mesh decoder sent a truncated answer"};
    return std::nullopt;
  }
  if (reported.code != ErrorCode::NONE) error = reported;
  if (!decoded && error.code == ErrorCode::NONE) error = {ErrorCode::FILE_READ, "Assimp returned no scene"};
  return value;
}

/// A measurement and the bytes the import took.
struct Measured {
  MeshInfo info;
  std::uint64_t decodedBytes = 0;
};

}  // namespace

std::optional<MeshPolygons> decodePolygons(MeshPartSource& access, const std::string& path, MeshFormat format,
                                           std::shared_ptr<const std::string> bytes, std::uint64_t maxDecodedBytes,
                                           MeshError& error) {
  return decodeInChild<MeshPolygons>(
      access, isolationFor(*bytes, maxDecodedBytes), error,
      [&](MeshPartSource& parts, MeshError& problem) {
        return polygonsHere(parts, path, format, bytes, maxDecodedBytes, problem);
      },
      [](WireWriter& wire, const MeshPolygons& polygons) {
        wire.array(polygons.vertices);
        wire.array(polygons.cornerCounts);
        wire.array(polygons.corners);
      },
      [](WireReader& wire) {
        MeshPolygons polygons;
        polygons.vertices = wire.array<float>();
        polygons.cornerCounts = wire.array<std::uint32_t>();
        polygons.corners = wire.array<std::uint32_t>();
        return polygons;
      });
}

std::optional<MeshInfo> decodeMeasure(MeshPartSource& access, const std::string& path, MeshFormat format,
                                      std::shared_ptr<const std::string> bytes, MeshMeasure how,
                                      std::uint64_t maxDecodedBytes, std::uint64_t& decodedBytes, MeshError& error) {
  const auto measured = decodeInChild<Measured>(
      access, isolationFor(*bytes, maxDecodedBytes), error,
      [&](MeshPartSource& parts, MeshError& problem) -> std::optional<Measured> {
        Measured out;
        auto info = measureHere(parts, path, format, bytes, how, maxDecodedBytes, out.decodedBytes, problem);
        if (!info) return std::nullopt;
        out.info = *info;
        return out;
      },
      [](WireWriter& wire, const Measured& value) {
        wire.number(value.decodedBytes);
        wire.number(value.info.vertexCount);
        wire.number(value.info.faceCount);
        for (int k = 0; k < 3; ++k) wire.real(value.info.boundsMin[k]);
        for (int k = 0; k < 3; ++k) wire.real(value.info.boundsMax[k]);
      },
      [](WireReader& wire) {
        Measured value;
        value.decodedBytes = wire.number();
        value.info.vertexCount = wire.number();
        value.info.faceCount = wire.number();
        for (int k = 0; k < 3; ++k) value.info.boundsMin[k] = wire.real();
        for (int k = 0; k < 3; ++k) value.info.boundsMax[k] = wire.real();
        return value;
      });
  if (!measured) return std::nullopt;
  decodedBytes = measured->decodedBytes;
  return measured->info;
}

std::optional<std::string> decodeDisplayGlb(MeshPartSource& access, const std::string& path, MeshFormat format,
                                            std::shared_ptr<const std::string> bytes, std::uint64_t maxDecodedBytes,
                                            MeshError& error) {
  IsolationLimits limits = isolationFor(*bytes, maxDecodedBytes);
  limits.maxOutputBytes = 4 * maxDecodedBytes + (std::uint64_t{1} << 20);  // normals and glTF framing
  return decodeInChild<std::string>(
      access, limits, error,
      [&](MeshPartSource& parts, MeshError& problem) {
        return displayHere(parts, path, format, bytes, maxDecodedBytes, problem);
      },
      [](WireWriter& wire, const std::string& glb) { wire.text(glb); },
      [](WireReader& wire) { return wire.text(); });
}

}  // namespace interlink::mesh::detail

extern "C" __attribute__((visibility("default"))) const interlink::mesh::detail::AssimpDecoder* interlink_mesh_assimp_decoder() {
  static const interlink::mesh::detail::AssimpDecoder decoder{&interlink::mesh::detail::decodePolygons,
                                                               &interlink::mesh::detail::decodeMeasure,
                                                               &interlink::mesh::detail::decodeDisplayGlb};
  return &decoder;
}
