// libFuzzer harness for the HRDF attribute value grammars (formula, rotation, translation,
// float): any input must give a value or an error with an offset inside the text.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "HrdfGrammar.hpp"

namespace {

template <class Result>
void check(const Result& result, std::string_view text) {
  if (!result.ok() && result.error.offset > text.size()) std::abort();  // an offset the caller cannot map
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace grammar = interlink::hrdf::grammar;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  check(grammar::parseFloat(text), text);
  check(grammar::parseFormula(text), text);
  check(grammar::parseRotation(text), text);
  check(grammar::parseTranslation(text), text);
  return 0;
}
