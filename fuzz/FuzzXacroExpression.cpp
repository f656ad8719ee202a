// libFuzzer harness for xacro's expression language (plugins/xacro/src/grammar): the bytes as the
// text of a `${...}`. The shortcut for references and the full grammar must give the same tree or
// the same error (else abort); then the expression is evaluated among a few names under a value
// budget, as an expansion evaluates it: a value or an ExpressionError, within the limits.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "XacroExpression.hpp"
#include "XacroSyntax.hpp"

namespace {

namespace xacro = interlink::xacro;

class Names : public xacro::Environment {
 public:
  bool lookup(const std::string& name, xacro::Value& out) override {
    if (name == "x") {
      out = 0.5;
    } else if (name == "n") {
      out = std::int64_t{3};
    } else if (name == "s") {
      out = std::string("left_");
    } else if (name == "d") {
      out = xacro::Dict{{xacro::Value("a"), xacro::Value(xacro::List{xacro::Value(1.5), xacro::Value("b")})}};
    } else {
      return xacro::builtinGlobal(name, out);
    }
    return true;
  }
};

std::string treeOrError(std::unique_ptr<xacro::ExpressionNode> (*parse)(std::string_view), std::string_view text) {
  try {
    return xacro::describeTree(parse(text).get());
  } catch (const xacro::ExpressionError& e) {
    return std::string("error: ") + e.what();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (treeOrError(xacro::parseExpression, text) != treeOrError(xacro::parseExpressionByGrammar, text)) std::abort();
  Names names;
  xacro::ValueBudget budget(std::size_t{64} << 20);
  try {
    (void)xacro::evaluate(text, names);
  } catch (const xacro::ExpressionError&) {
  }
  return 0;
}
