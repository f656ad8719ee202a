// Claims ".good" too, without a sniffer: registered after "good", it must lose to good's sniffer
// on files that sniffer recognises, and win (with a warning) otherwise.
#include "OneLinkModel.hpp"
#include "interlink/plugin/Register.hpp"

namespace {

void loadRival(const interlink::plugin::LoadRequest&, interlink::Document& document, interlink::Diagnostics&) {
  document.model = interlink::test::oneLinkModel("rival", "rival_link");
}

}  // namespace

INTERLINK_REGISTER_FORMAT_PLUGIN("rival", "9.9", loadRival, nullptr, ".good")
