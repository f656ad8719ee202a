#pragma once
// Live mode of `interlink view`: serves the page on 127.0.0.1 and reloads the model when one of
// its files changes.
#include <string>

#include "CommandSupport.hpp"

namespace interlink::cli::view {

struct LiveOptions {
  std::string file;
  InputOptions input;
  int port = 0;        // 0: any free port
  bool open = false;   // start the desktop's browser on the URL
};

/// Serves until the process is stopped; returns an exit status when it cannot start.
int serveLive(const LiveOptions& options);

}  // namespace interlink::cli::view
