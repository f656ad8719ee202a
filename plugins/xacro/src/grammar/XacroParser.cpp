// The tokenizer and the recursive-descent parser of xacro's expression language (Python's
// expression grammar, the part xacro files use).
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "XacroExpression.hpp"
#include "XacroSyntax.hpp"

namespace interlink::xacro {

namespace {

enum class TokenKind { End, Name, Number, String, Operator };

struct Token {
  TokenKind kind = TokenKind::End;
  std::string text;  // name, operator, or the string's decoded value
  Value number;
  std::size_t offset = 0;
  unsigned code = 0;  // an operator's characters packed (operatorCode), compared instead of the text
};

/// An operator of one or two characters as one number.
constexpr unsigned operatorCode(const char* op) {
  return static_cast<unsigned char>(op[0]) | (op[0] && op[1] ? static_cast<unsigned>(static_cast<unsigned char>(op[1])) << 8 : 0u);
}

bool isNameStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (c & 0x80); }
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/// Words that cannot name a value (an error where a name is expected).
bool isReservedWord(std::string_view name) {
  static constexpr std::string_view kReserved[] = {"and", "or", "not", "if", "else", "in", "is", "for", "lambda"};
  return std::find(std::begin(kReserved), std::end(kReserved), name) != std::end(kReserved);
}

/// Names that are literals: True, False, None.
bool isConstantName(std::string_view name) { return name == "True" || name == "False" || name == "None"; }

std::vector<Token> tokenize(std::string_view text) {
  std::vector<Token> tokens;
  tokens.reserve(text.size() / 3 + 2);
  std::size_t i = 0;
  const auto fail = [&](const std::string& what) {
    throw ExpressionError("invalid syntax at column " + std::to_string(i + 1) + ": " + what);
  };
  while (i < text.size()) {
    const char c = text[i];
    if (isBlank(c)) {
      ++i;
      continue;
    }
    Token token;
    token.offset = i;
    if (isNameStart(c)) {
      std::size_t end = i;
      while (end < text.size() && (isNameStart(text[end]) || isDigit(text[end]))) ++end;
      token.kind = TokenKind::Name;
      token.text = std::string(text.substr(i, end - i));
      i = end;
    } else if (isDigit(c) || (c == '.' && i + 1 < text.size() && isDigit(text[i + 1]))) {
      std::size_t end = i;
      bool isFloat = false;
      while (end < text.size() && (isDigit(text[end]) || text[end] == '_')) ++end;
      if (end < text.size() && text[end] == '.') {
        isFloat = true;
        ++end;
        while (end < text.size() && (isDigit(text[end]) || text[end] == '_')) ++end;
      }
      if (end < text.size() && (text[end] == 'e' || text[end] == 'E')) {
        std::size_t e = end + 1;
        if (e < text.size() && (text[e] == '+' || text[e] == '-')) ++e;
        if (e < text.size() && isDigit(text[e])) {
          isFloat = true;
          end = e;
          while (end < text.size() && isDigit(text[end])) ++end;
        }
      }
      std::string separatorsRemoved;
      const std::string_view literal = withoutDigitSeparators(text.substr(i, end - i), separatorsRemoved);
      token.kind = TokenKind::Number;
      if (isFloat) {
        double d = 0;
        if (!parsePythonFloat(literal, d)) fail("bad number '" + std::string(literal) + "'");
        token.number = d;
      } else {
        std::int64_t n = 0;
        if (!parsePythonInt(literal, n)) {
          double d = 0;
          if (!parsePythonFloat(literal, d)) fail("bad number '" + std::string(literal) + "'");
          throw ExpressionError("integer literal too large: " + std::string(literal));
        }
        token.number = n;
      }
      i = end;
    } else if (c == '\'' || c == '"') {
      const bool triple = text.substr(i, 3) == std::string(3, c);
      const std::size_t quoteLength = triple ? 3 : 1;
      std::size_t j = i + quoteLength;
      std::string value;
      bool closed = false;
      while (j < text.size()) {
        if (text.substr(j, quoteLength) == std::string(quoteLength, c)) {
          closed = true;
          j += quoteLength;
          break;
        }
        if (text[j] == '\\' && j + 1 < text.size()) {
          const char e = text[j + 1];
          switch (e) {
            case 'n': value += '\n'; break;
            case 't': value += '\t'; break;
            case 'r': value += '\r'; break;
            case '\\': value += '\\'; break;
            case '\'': value += '\''; break;
            case '"': value += '"'; break;
            case '\n': break;
            default: value += '\\'; value += e;
          }
          j += 2;
          continue;
        }
        value += text[j++];
      }
      if (!closed) fail("unterminated string");
      token.kind = TokenKind::String;
      token.text = std::move(value);
      i = j;
    } else {
      static const char* const kOperators[] = {"**", "//", "==", "!=", "<=", ">=", "(", ")", "[", "]", "{", "}", ",",
                                               ":",  ".",  "+",  "-",  "*",  "/",  "%", "<", ">", "~", "="};
      bool found = false;
      for (const char* op : kOperators) {
        if (op[0] != c) continue;
        const std::string_view o(op);
        if (text.substr(i, o.size()) == o) {
          token.kind = TokenKind::Operator;
          token.text = std::string(o);
          token.code = operatorCode(op);
          i += o.size();
          found = true;
          break;
        }
      }
      if (!found) fail(std::string("unexpected character '") + c + "'");
    }
    tokens.push_back(std::move(token));
  }
  Token end;
  end.offset = text.size();
  tokens.push_back(end);
  return tokens;
}

}  // namespace

namespace {

using NodePtr = std::unique_ptr<ExpressionNode>;

NodePtr makeNode(NodeKind kind) {
  auto node = std::make_unique<ExpressionNode>();
  node->kind = kind;
  return node;
}

/// Recursive descent over Python's expression grammar, one function per precedence level.
class Parser {
 public:
  explicit Parser(std::string_view text) : tokens_(tokenize(text)) {}

  NodePtr parseAll() {
    NodePtr node = tupleOrTest();
    if (peek().kind != TokenKind::End) fail("unexpected '" + describe(peek()) + "'");
    return node;
  }

 private:
  static constexpr int kMaxNesting = 200;

  const Token& peek(std::size_t ahead = 0) const { return tokens_[std::min(index_ + ahead, tokens_.size() - 1)]; }
  const Token& next() { return tokens_[index_ < tokens_.size() - 1 ? index_++ : index_]; }
  bool isOperator(const char* op, std::size_t ahead = 0) const {
    const Token& t = peek(ahead);
    return t.kind == TokenKind::Operator && t.code == operatorCode(op);
  }
  bool isKeyword(const char* word, std::size_t ahead = 0) const {
    const Token& t = peek(ahead);
    return t.kind == TokenKind::Name && t.text[0] == word[0] && t.text == word;
  }
  static std::string describe(const Token& t) { return t.kind == TokenKind::End ? "end of expression" : t.text; }
  [[noreturn]] void fail(const std::string& what) const {
    throw ExpressionError("invalid syntax at column " + std::to_string(peek().offset + 1) + ": " + what);
  }
  void expect(const char* op) {
    if (!isOperator(op)) fail(std::string("expected '") + op + "', got '" + describe(peek()) + "'");
    next();
  }
  struct Depth {
    explicit Depth(Parser& p) : parser(p) {
      if (++parser.depth_ > kMaxNesting) parser.fail("expression nested too deeply");
    }
    ~Depth() { --parser.depth_; }
    Parser& parser;
  };

  bool startsExpression() const {
    const Token& t = peek();
    if (t.kind == TokenKind::End) return false;
    if (t.kind == TokenKind::Operator) {
      return t.code == operatorCode("(") || t.code == operatorCode("[") || t.code == operatorCode("{") ||
             t.code == operatorCode("-") || t.code == operatorCode("+") || t.code == operatorCode("~");
    }
    if (t.kind == TokenKind::Name) return t.text != "for" && t.text != "if" && t.text != "else" && t.text != "in";
    return true;
  }

  NodePtr tupleOrTest() {
    NodePtr first = test();
    if (!isOperator(",")) return first;
    NodePtr tuple = makeNode(NodeKind::Tuple);
    tuple->kids.push_back(std::move(first));
    while (isOperator(",")) {
      next();
      if (!startsExpression()) break;
      tuple->kids.push_back(test());
    }
    return tuple;
  }

  NodePtr test() {
    Depth depth(*this);
    if (isKeyword("lambda")) fail("lambda is not supported");
    NodePtr value = orTest();
    if (!isKeyword("if")) return value;
    next();
    NodePtr condition = orTest();
    if (!isKeyword("else")) fail("expected 'else' in a conditional expression");
    next();
    NodePtr otherwise = test();
    NodePtr node = makeNode(NodeKind::Conditional);
    node->kids.push_back(std::move(condition));
    node->kids.push_back(std::move(value));
    node->kids.push_back(std::move(otherwise));
    return node;
  }

  NodePtr orTest() {
    NodePtr left = andTest();
    while (isKeyword("or")) {
      next();
      NodePtr node = makeNode(NodeKind::Or);
      node->kids.push_back(std::move(left));
      node->kids.push_back(andTest());
      left = std::move(node);
    }
    return left;
  }

  NodePtr andTest() {
    NodePtr left = notTest();
    while (isKeyword("and")) {
      next();
      NodePtr node = makeNode(NodeKind::And);
      node->kids.push_back(std::move(left));
      node->kids.push_back(notTest());
      left = std::move(node);
    }
    return left;
  }

  NodePtr notTest() {
    if (isKeyword("not")) {
      Depth depth(*this);
      next();
      NodePtr node = makeNode(NodeKind::Not);
      node->kids.push_back(notTest());
      return node;
    }
    return comparison();
  }

  NodePtr comparison() {
    NodePtr first = arithmetic();
    NodePtr node;
    for (;;) {
      std::string op;
      if (isOperator("<") || isOperator(">") || isOperator("==") || isOperator("!=") || isOperator("<=") ||
          isOperator(">=")) {
        op = next().text;
      } else if (isKeyword("in")) {
        next();
        op = "in";
      } else if (isKeyword("not") && isKeyword("in", 1)) {
        next();
        next();
        op = "not in";
      } else if (isKeyword("is")) {
        next();
        op = "is";
        if (isKeyword("not")) {
          next();
          op = "is not";
        }
      } else {
        break;
      }
      if (!node) {
        node = makeNode(NodeKind::Compare);
        node->kids.push_back(std::move(first));
      }
      node->operators.push_back(op);
      node->kids.push_back(arithmetic());
    }
    return node ? std::move(node) : std::move(first);
  }

  NodePtr binary(NodePtr left, std::string op, NodePtr right) {
    NodePtr node = makeNode(NodeKind::Binary);
    node->kids.reserve(2);
    node->name = std::move(op);
    node->kids.push_back(std::move(left));
    node->kids.push_back(std::move(right));
    return node;
  }

  NodePtr arithmetic() {
    NodePtr left = term();
    while (isOperator("+") || isOperator("-")) {
      std::string op = next().text;
      left = binary(std::move(left), op, term());
    }
    return left;
  }

  NodePtr term() {
    NodePtr left = factor();
    while (isOperator("*") || isOperator("/") || isOperator("//") || isOperator("%")) {
      std::string op = next().text;
      left = binary(std::move(left), op, factor());
    }
    return left;
  }

  NodePtr factor() {
    if (isOperator("-") || isOperator("+") || isOperator("~")) {
      Depth depth(*this);
      NodePtr node = makeNode(NodeKind::Unary);
      node->name = next().text;
      node->kids.push_back(factor());
      return node;
    }
    return power();
  }

  NodePtr power() {
    NodePtr base = trailers(atom());
    if (!isOperator("**")) return base;
    next();
    Depth depth(*this);
    return binary(std::move(base), "**", factor());  // right-associative, binds tighter than unary on its left
  }

  NodePtr trailers(NodePtr node) {
    for (;;) {
      if (isOperator(".")) {
        next();
        if (peek().kind != TokenKind::Name) fail("expected a name after '.'");
        NodePtr attribute = makeNode(NodeKind::Attribute);
        attribute->name = next().text;
        attribute->kids.push_back(std::move(node));
        node = std::move(attribute);
      } else if (isOperator("(")) {
        next();
        NodePtr call = makeNode(NodeKind::Call);
        call->kids.push_back(std::move(node));
        while (!isOperator(")")) {
          std::string keyword;
          if (peek().kind == TokenKind::Name && isOperator("=", 1)) {
            keyword = next().text;
            next();
          }
          call->operators.push_back(keyword);
          call->kids.push_back(test());
          if (!isOperator(",")) break;
          next();
        }
        expect(")");
        node = std::move(call);
      } else if (isOperator("[")) {
        next();
        node = subscript(std::move(node));
        expect("]");
      } else {
        return node;
      }
    }
  }

  NodePtr subscript(NodePtr object) {
    NodePtr bounds[3];
    bool isSlice = false;
    if (!isOperator(":")) bounds[0] = test();
    if (isOperator(":")) {
      isSlice = true;
      next();
      if (!isOperator(":") && !isOperator("]")) bounds[1] = test();
      if (isOperator(":")) {
        next();
        if (!isOperator("]")) bounds[2] = test();
      }
    }
    NodePtr node = makeNode(isSlice ? NodeKind::Slice : NodeKind::Index);
    node->kids.reserve(isSlice ? 4 : 2);
    node->kids.push_back(std::move(object));
    if (isSlice) {
      for (auto& b : bounds) node->kids.push_back(std::move(b));
    } else {
      node->kids.push_back(std::move(bounds[0]));
    }
    return node;
  }

  /// `[element for name in iterable if condition]` after the element was read.
  NodePtr comprehension(NodePtr element) {
    next();  // for
    if (peek().kind != TokenKind::Name) fail("expected a name after 'for'");
    NodePtr node = makeNode(NodeKind::Comprehension);
    node->name = next().text;
    if (!isKeyword("in")) fail("expected 'in'");
    next();
    node->kids.push_back(std::move(element));
    node->kids.push_back(orTest());
    if (isKeyword("if")) {
      next();
      node->kids.push_back(orTest());
    }
    return node;
  }

  NodePtr atom() {
    Depth depth(*this);
    const Token& token = next();
    switch (token.kind) {
      case TokenKind::Number: {
        NodePtr node = makeNode(NodeKind::Literal);
        node->literal = token.number;
        return node;
      }
      case TokenKind::String: {
        std::string value = token.text;
        while (peek().kind == TokenKind::String) value += next().text;  // 'a' 'b' is 'ab'
        NodePtr node = makeNode(NodeKind::Literal);
        node->literal = value;
        return node;
      }
      case TokenKind::Name: {
        NodePtr node = makeNode(NodeKind::Literal);
        // Names compared as string views (sizes first): every name of every expression passes here.
        const std::string_view name = token.text;
        if (name == "True") node->literal = true;
        else if (name == "False") node->literal = false;
        else if (name == "None") node->literal = Value();
        else {
          if (isReservedWord(name)) {
            --index_;
            fail("unexpected '" + token.text + "'");
          }
          node->kind = NodeKind::Name;
          node->name = token.text;
        }
        return node;
      }
      case TokenKind::Operator:
        if (token.text == "(") {
          if (isOperator(")")) {
            next();
            return makeNode(NodeKind::Tuple);
          }
          NodePtr inner = test();
          if (isKeyword("for")) {
            inner = comprehension(std::move(inner));
            expect(")");
            return inner;
          }
          if (isOperator(",")) {
            NodePtr tuple = makeNode(NodeKind::Tuple);
            tuple->kids.push_back(std::move(inner));
            while (isOperator(",")) {
              next();
              if (isOperator(")")) break;
              tuple->kids.push_back(test());
            }
            inner = std::move(tuple);
          }
          expect(")");
          return inner;
        }
        if (token.text == "[") {
          NodePtr list = makeNode(NodeKind::List);
          if (!isOperator("]")) {
            NodePtr first = test();
            if (isKeyword("for")) {
              NodePtr c = comprehension(std::move(first));
              expect("]");
              return c;
            }
            list->kids.push_back(std::move(first));
            while (isOperator(",")) {
              next();
              if (isOperator("]")) break;
              list->kids.push_back(test());
            }
          }
          expect("]");
          return list;
        }
        if (token.text == "{") {
          NodePtr dict = makeNode(NodeKind::Dict);
          while (!isOperator("}")) {
            dict->kids.push_back(test());
            expect(":");
            dict->kids.push_back(test());
            if (!isOperator(",")) break;
            next();
          }
          expect("}");
          return dict;
        }
        break;
      case TokenKind::End:
        break;
    }
    --index_;
    fail("unexpected '" + describe(token) + "'");
  }

  std::vector<Token> tokens_;
  std::size_t index_ = 0;
  int depth_ = 0;
};

}  // namespace

namespace {

/// The tokenizer's name characters without the non-ASCII bytes (which the grammar reads).
bool isAsciiNameStart(char c) { return isNameStart(c) && (static_cast<unsigned char>(c) & 0x80) == 0; }

/// Names the grammar reads otherwise: constants (literals) and reserved words (an error).
bool isConstantOrKeyword(std::string_view name) { return isConstantName(name) || isReservedWord(name); }

/// Most of a description's expressions refer to a value: `prefix`, `xacro.arg`,
/// `sec_limits['shoulder_pan']['max']`, `joints[0]`. Such a text is read here into the tree the
/// grammar builds for it (a Name with Attribute and Index nodes over it), without tokens or the
/// descent through every precedence level (5 600 instructions for each of UR5e's 347
/// expressions); null for anything else, which the grammar reads.
NodePtr parseReference(std::string_view text) {
  while (!text.empty() && isBlank(text.front())) text.remove_prefix(1);
  while (!text.empty() && isBlank(text.back())) text.remove_suffix(1);
  std::size_t i = 0;
  const auto name = [&]() -> std::string_view {
    if (i >= text.size() || !isAsciiNameStart(text[i])) return {};
    const std::size_t begin = i;
    while (i < text.size() && (isAsciiNameStart(text[i]) || isDigit(text[i]))) ++i;
    return text.substr(begin, i - begin);
  };
  const std::string_view first = name();
  if (first.empty() || isConstantOrKeyword(first)) return nullptr;
  NodePtr node = makeNode(NodeKind::Name);
  node->name = std::string(first);
  while (i < text.size()) {
    if (text[i] == '.') {
      ++i;
      const std::string_view attributeName = name();
      if (attributeName.empty() || isConstantOrKeyword(attributeName)) return nullptr;
      NodePtr attribute = makeNode(NodeKind::Attribute);
      attribute->name = std::string(attributeName);
      attribute->kids.push_back(std::move(node));
      node = std::move(attribute);
      continue;
    }
    if (text[i] != '[' || i + 1 >= text.size()) return nullptr;
    ++i;
    NodePtr key = makeNode(NodeKind::Literal);
    const char c = text[i];
    if (c == '\'' || c == '"') {
      // A quoted key without escapes, followed by ']' (so not a triple quote or 'a' 'b').
      const std::size_t close = text.find(c, i + 1);
      if (close == std::string_view::npos || close + 1 >= text.size() || text[close + 1] != ']') return nullptr;
      const std::string_view keyText = text.substr(i + 1, close - i - 1);
      if (keyText.find('\\') != std::string_view::npos) return nullptr;
      key->literal = std::string(keyText);
      i = close + 1;
    } else if (isDigit(c)) {
      const std::size_t begin = i;
      while (i < text.size() && isDigit(text[i])) ++i;
      std::int64_t index = 0;
      if (i >= text.size() || text[i] != ']' || !parsePythonInt(text.substr(begin, i - begin), index)) return nullptr;
      key->literal = index;
    } else {
      return nullptr;
    }
    ++i;  // ']'
    NodePtr indexed = makeNode(NodeKind::Index);
    indexed->kids.reserve(2);
    indexed->kids.push_back(std::move(node));
    indexed->kids.push_back(std::move(key));
    node = std::move(indexed);
  }
  return node;
}

}  // namespace

std::string describeTree(const ExpressionNode* node) {
  if (!node) return "null";
  std::string out = "(" + std::to_string(static_cast<int>(node->kind)) + " " + std::to_string(node->literal.v.index()) +
                    ":" + repr(node->literal) + " '" + node->name + "'";
  for (const std::string& op : node->operators) out += " op:" + op;
  for (const auto& kid : node->kids) out += " " + describeTree(kid.get());
  return out + ")";
}

std::unique_ptr<ExpressionNode> parseExpressionByGrammar(std::string_view text) {
  Parser parser(text);
  return parser.parseAll();
}

std::unique_ptr<ExpressionNode> parseExpression(std::string_view text) {
  if (NodePtr reference = parseReference(text)) return reference;
  return parseExpressionByGrammar(text);
}

}  // namespace interlink::xacro
