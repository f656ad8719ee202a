#pragma once
// The records of a core-model JSON file: the core model types themselves (the file is their
// serialisation), with the schema version and the file they were recorded from.
#include <string>

#include "interlink/model/Document.hpp"

namespace interlink::core_model {

/// The schema version this reader reads; `"interlink_model"` in the file must equal it.
inline constexpr int kSchemaVersion = 1;

struct CoreModelFile {
  int schemaVersion = 0;
  /// The document as recorded: its source file, format and version are those of the file the
  /// model was first read from, and each model keeps its recorded ModelSource.
  Document document;
};

}  // namespace interlink::core_model
