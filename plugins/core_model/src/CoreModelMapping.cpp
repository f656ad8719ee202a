#include "CoreModelMapping.hpp"

namespace interlink::core_model {

void mapCoreModel(const CoreModelFile& file, const plugin::LoadRequest& request, Document& document,
                  Diagnostics& /*diagnostics*/) {
  document = file.document;
  // A model recorded without its source (text written without a file) was read from this file.
  if (document.sourceFile.empty()) document.sourceFile = request.path;
}

}  // namespace interlink::core_model
