#pragma once
// The parsed form of an expression (XacroParser.cpp builds it, XacroExpression.cpp evaluates it).
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "XacroValue.hpp"

namespace interlink::xacro {

enum class NodeKind {
  Literal, Name, List, Tuple, Dict, Attribute, Call, Index, Slice, Unary, Binary, Compare, And, Or, Not,
  Conditional, Comprehension
};

struct ExpressionNode {
  NodeKind kind = NodeKind::Literal;
  Value literal;
  std::string name;                                   // Name, Attribute, operator, comprehension variable
  std::vector<std::unique_ptr<ExpressionNode>> kids;  // operands (null for an omitted slice bound)
  std::vector<std::string> operators;                 // Compare: one per pair; Call: keyword names ("" positional)
};

/// Parses `text`; ExpressionError ("invalid syntax at column N: ...") when it is not an expression.
/// A reference to a value (`name`, `a.b`, `a['key'][0]`) is read without the full grammar.
std::unique_ptr<ExpressionNode> parseExpression(std::string_view text);

/// The grammar alone, for every text: the tree parseExpression() must give (tests compare them).
std::unique_ptr<ExpressionNode> parseExpressionByGrammar(std::string_view text);

/// A tree as text, every field of every node (kind, literal's type and repr, name, operators,
/// operands, null ones too), for comparing two trees.
std::string describeTree(const ExpressionNode* node);

}  // namespace interlink::xacro
