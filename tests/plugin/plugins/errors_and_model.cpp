// A parser that reports errors and still returns a model: the errors must surface and the
// partial model must not be taken as valid.
#include "OneLinkModel.hpp"
#include "interlink/plugin/Register.hpp"

namespace {

void loadWithErrors(const interlink::plugin::LoadRequest& request, interlink::Document& document,
                    interlink::Diagnostics& diagnostics) {
  document.model = interlink::test::oneLinkModel("partial", "only");
  diagnostics.error(interlink::ErrorCode::ELEMENT_INVALID, "the second half of the file is nonsense", {request.path, 2, 5});
}

}  // namespace

INTERLINK_REGISTER_FORMAT_PLUGIN("partial", "0.1", loadWithErrors, nullptr, ".partial")
