#pragma once
// The one shape of a format plugin's load: read the file into the format's own records (with
// diagnostics), then map the records onto the core model. A plugin states its two steps and
// registers the composed load:
//
//   bool readMyFormat(const interlink::plugin::LoadRequest&, MyRecords&, interlink::Diagnostics&);
//   void mapMyFormat(const MyRecords&, const interlink::plugin::LoadRequest&, interlink::Document&,
//                    interlink::Diagnostics&);
//   INTERLINK_REGISTER_FORMAT_PLUGIN("myformat", "1.0.0",
//       (interlink::plugin::readThenMap<MyRecords, readMyFormat, mapMyFormat>), nullptr, ".my")
//
// The mapping runs only when reading gave usable records; a file with errors in some elements
// still maps the rest (the reader returns false only when there is nothing to map).
#include "interlink/Diagnostics.hpp"
#include "interlink/model/Document.hpp"
#include "interlink/plugin/PluginAbi.hpp"

namespace interlink::plugin {

template <typename Records>
using ReadFunction = bool (*)(const LoadRequest&, Records&, Diagnostics&);
template <typename Records>
using MapFunction = void (*)(const Records&, const LoadRequest&, Document&, Diagnostics&);

template <typename Records, ReadFunction<Records> Read, MapFunction<Records> Map>
void readThenMap(const LoadRequest& request, Document& document, Diagnostics& diagnostics) {
  Records records;
  if (!Read(request, records, diagnostics)) return;
  Map(records, request, document, diagnostics);
}

}  // namespace interlink::plugin
