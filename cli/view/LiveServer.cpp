#include "view/LiveServer.hpp"

#include <httplib.h>
#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <iostream>
#include <memory>
#include <mutex>
#include <thread>

#include "view/FileWatcher.hpp"
#include "view/Scene.hpp"
#include "view/ViewPage.hpp"

extern char** environ;

namespace interlink::cli::view {

namespace {

/// What the server hands out; replaced as a whole on every successful reload.
struct LiveState {
  int version = 0;                   // counts reloads, failed ones too
  int sceneVersion = 0;              // the reload that made sceneJson
  std::string sceneJson;             // the last scene that loaded
  /// Its glTF binaries, shared: every request takes a snapshot of the state, and a page may ask
  /// for the meshes of a scene that a reload has replaced since (kept in LiveModel::recent_).
  std::shared_ptr<const std::vector<std::string>> meshes = std::make_shared<const std::vector<std::string>>();
  std::string failure = "[]";        // diagnostics of a failed reload (JSON), "[]" when the last one loaded
  std::vector<std::string> files;    // the files of the model (watched)
};

class LiveModel {
 public:
  explicit LiveModel(const LiveOptions& options) : options_(options), title_(std::filesystem::path(options.file).filename().string()) {}

  /// Loads the model; a failed load after a good one keeps the good scene and records the failure.
  void reload() {
    LoadResult result = loadInput(loader_, options_.file, options_.input);
    printDiagnostics(result.diagnostics, options_.file);
    std::vector<std::string> files = modelFiles(result, options_.file);
    std::lock_guard<std::mutex> lock(mutex_);
    ++state_.version;
    changed_.notify_all();  // the waiters run once the lock is released, on the new state
    // The watched files of a failed load are added to the good ones: the fix may be in either.
    if (!result.ok() && !state_.sceneJson.empty()) {
      state_.failure = diagnosticsJson(result.diagnostics, options_.file);
      for (std::string& file : files) {
        if (std::find(state_.files.begin(), state_.files.end(), file) == state_.files.end()) state_.files.push_back(file);
      }
      return;
    }
    ViewScene scene = buildViewScene(result, title_);
    state_.sceneVersion = state_.version;
    state_.sceneJson = std::move(scene.json);
    state_.meshes = std::make_shared<const std::vector<std::string>>(std::move(scene.meshes.glb));
    recent_.emplace_back(state_.sceneVersion, state_.meshes);
    if (recent_.size() > kKeptScenes) recent_.pop_front();
    state_.failure = result.ok() ? "[]" : diagnosticsJson(result.diagnostics, options_.file);
    state_.files = std::move(files);
  }

  /// Waits (up to `timeout`) for a version newer than `known`: a page asks again as soon as it is
  /// answered, so it hears of a reload at once instead of at its next poll.
  LiveState newerThan(int known, std::chrono::milliseconds timeout) const {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait_for(lock, timeout, [&] { return state_.version > known; });
    return state_;
  }

  LiveState snapshot() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return state_;
  }

  /// The meshes of the current scene (without copying the rest of the state).
  std::shared_ptr<const std::vector<std::string>> currentMeshes() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return state_.meshes;
  }

  /// The meshes of the scene made by reload `sceneVersion`, if it is one of the last few scenes;
  /// else null. A page fetches a scene, then its meshes: a reload in between (an editor writing a
  /// file in two steps makes two) must not give it another scene's meshes, or none.
  std::shared_ptr<const std::vector<std::string>> meshesOf(int sceneVersion) const {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [version, meshes] : recent_) {
      if (version == sceneVersion) return meshes;
    }
    return nullptr;
  }

  const std::string& title() const { return title_; }

 private:
  const LiveOptions& options_;
  std::string title_;
  Loader loader_;
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  LiveState state_;
  static constexpr std::size_t kKeptScenes = 4;
  std::deque<std::pair<int, std::shared_ptr<const std::vector<std::string>>>> recent_;  // sceneVersion, meshes
};

/// The integer query parameter `name` of `request` (?after=N, ?scene=V), or `fallback`.
int integerParameter(const httplib::Request& request, const char* name, int fallback) {
  if (!request.has_param(name)) return fallback;
  const std::string text = request.get_param_value(name);
  int value = fallback;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

void openBrowser(const std::string& url) {
  const char* argv[] = {"xdg-open", url.c_str(), nullptr};
  pid_t pid = 0;
  if (::posix_spawnp(&pid, "xdg-open", nullptr, nullptr, const_cast<char* const*>(argv), environ) != 0) {
    std::cerr << "interlink view: could not start xdg-open; open " << url << " yourself\n";
  }
}

}  // namespace

int serveLive(const LiveOptions& options) {
  LiveModel model(options);
  // File times come from a coarse clock (a few milliseconds behind): the margin keeps an edit
  // made just after a load began from looking older than it.
  constexpr auto kClockMargin = std::chrono::milliseconds(10);
  auto loadBegan = std::chrono::system_clock::now() - kClockMargin;
  model.reload();

  httplib::Server server;
  const std::string page = livePage(model.title());
  server.Get("/", [&](const httplib::Request&, httplib::Response& response) { response.set_content(page, "text/html; charset=utf-8"); });
  // /state?after=N answers when the version passes N (long polling), or after 10 s.
  server.Get("/state", [&](const httplib::Request& request, httplib::Response& response) {
    const int after = integerParameter(request, "after", -1);
    const LiveState state = model.newerThan(after, std::chrono::seconds(10));
    response.set_header("Cache-Control", "no-store");
    response.set_content("{\"version\":" + std::to_string(state.version) + ",\"scene_version\":" +
                             std::to_string(state.sceneVersion) + ",\"failure\":" + state.failure + "}",
                         "application/json");
  });
  server.Get("/scene.json", [&](const httplib::Request&, httplib::Response& response) {
    const LiveState state = model.snapshot();
    response.set_header("Cache-Control", "no-store");
    response.set_header("X-Interlink-Version", std::to_string(state.sceneVersion));
    response.set_content(state.sceneJson, "application/json");
  });
  // Only what the model references is served: its meshes, converted, by index in the scene;
  // /mesh/N?scene=V those of the scene made by reload V (what the page asks for), /mesh/N the
  // current scene's.
  server.Get(R"(/mesh/(\d{1,9}))", [&](const httplib::Request& request, httplib::Response& response) {
    const std::shared_ptr<const std::vector<std::string>> meshes =
        request.has_param("scene") ? model.meshesOf(integerParameter(request, "scene", -1)) : model.currentMeshes();
    const std::size_t index = std::stoul(request.matches[1].str());
    if (!meshes || index >= meshes->size()) {
      response.status = 404;
      return;
    }
    response.set_header("Cache-Control", "no-store");
    response.set_content((*meshes)[index], "model/gltf-binary");
  });

  const int port = options.port > 0 ? (server.bind_to_port("127.0.0.1", options.port) ? options.port : -1)
                                    : server.bind_to_any_port("127.0.0.1");
  if (port <= 0) {
    std::cerr << "interlink view: cannot listen on 127.0.0.1" << (options.port > 0 ? ":" + std::to_string(options.port) : "") << "\n";
    return 2;
  }
  const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/";
  std::cout << "interlink view: serving " << url << " (Ctrl-C stops)" << std::endl;
  if (options.open) openBrowser(url);

  std::atomic<bool> serving{true};
  std::thread watcher([&] {
    // One watcher for the whole session: a file it knew keeps the version seen before a reload
    // read it, so an edit made while the model was loading triggers the next reload.
    FileWatcher files(model.snapshot().files, FileWatcher::Method::Inotify, loadBegan);
    while (serving) {
      if (!files.waitForChange(std::chrono::milliseconds(500))) continue;
      loadBegan = std::chrono::system_clock::now() - kClockMargin;
      model.reload();
      files.watch(model.snapshot().files, loadBegan);
    }
  });
  const bool listened = server.listen_after_bind();
  serving = false;
  watcher.join();
  return listened ? 0 : 2;
}

}  // namespace interlink::cli::view
