#include "XacroExpression.hpp"

#include <cmath>
#include <limits>
#include <vector>

namespace interlink::xacro {

namespace {

enum class TokenKind { End, Name, Number, String, Operator };

struct Token {
  TokenKind kind = TokenKind::End;
  std::string text;  // name, operator, or the string's decoded value
  Value number;
  std::size_t offset = 0;
};

bool isNameStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (c & 0x80); }
bool isDigit(char c) { return c >= '0' && c <= '9'; }

std::vector<Token> tokenize(std::string_view text) {
  std::vector<Token> tokens;
  std::size_t i = 0;
  const auto fail = [&](const std::string& what) {
    throw ExpressionError("invalid syntax at column " + std::to_string(i + 1) + ": " + what);
  };
  while (i < text.size()) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
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
      std::string literal;
      for (char d : text.substr(i, end - i)) {
        if (d != '_') literal += d;
      }
      token.kind = TokenKind::Number;
      if (isFloat) {
        double d = 0;
        if (!parsePythonFloat(literal, d)) fail("bad number '" + literal + "'");
        token.number = d;
      } else {
        std::int64_t n = 0;
        if (!parsePythonInt(literal, n)) {
          double d = 0;
          if (!parsePythonFloat(literal, d)) fail("bad number '" + literal + "'");
          throw ExpressionError("integer literal too large: " + literal);
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
        const std::string_view o(op);
        if (text.substr(i, o.size()) == o) {
          token.kind = TokenKind::Operator;
          token.text = std::string(o);
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
  Token next() { return tokens_[index_ < tokens_.size() - 1 ? index_++ : index_]; }
  bool isOperator(const char* op, std::size_t ahead = 0) const {
    return peek(ahead).kind == TokenKind::Operator && peek(ahead).text == op;
  }
  bool isKeyword(const char* word, std::size_t ahead = 0) const {
    return peek(ahead).kind == TokenKind::Name && peek(ahead).text == word;
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
    if (t.kind == TokenKind::Operator) return t.text == "(" || t.text == "[" || t.text == "{" || t.text == "-" ||
                                              t.text == "+" || t.text == "~";
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
      if (peek().kind == TokenKind::Operator &&
          (peek().text == "<" || peek().text == ">" || peek().text == "==" || peek().text == "!=" ||
           peek().text == "<=" || peek().text == ">=")) {
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
    const Token token = next();
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
        if (token.text == "True") node->literal = true;
        else if (token.text == "False") node->literal = false;
        else if (token.text == "None") node->literal = Value();
        else {
          static const char* const kReserved[] = {"and", "or", "not", "if", "else", "in", "is", "for", "lambda"};
          for (const char* word : kReserved) {
            if (token.text == word) {
              --index_;
              fail("unexpected '" + token.text + "'");
            }
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

// Values and operators ------------------------------------------------------------------------

namespace {

void checkSize(std::size_t size, std::size_t limit = kMaxValueSize) {
  if (size > limit) {
    throw ExpressionError("value too large (" + std::to_string(size) + " items or bytes; the limit is " +
                          std::to_string(limit) + ")");
  }
}

Value intResult(long double exact, std::int64_t result) {
  if (exact > static_cast<long double>(std::numeric_limits<std::int64_t>::max()) ||
      exact < static_cast<long double>(std::numeric_limits<std::int64_t>::min())) {
    throw ExpressionError("integer result out of the 64-bit range Interlink's xacro supports");
  }
  return result;
}

Value repeat(const Value& sequence, const Value& count) {
  const std::int64_t n = std::max<std::int64_t>(0, toInt(count, "an integer"));
  if (sequence.isString()) {
    checkSize(sequence.string().size() * static_cast<std::size_t>(n));
    std::string out;
    for (std::int64_t i = 0; i < n; ++i) out += sequence.string();
    return out;
  }
  checkSize(sequence.sequence().size() * static_cast<std::size_t>(n), kMaxListItems);
  List out;
  for (std::int64_t i = 0; i < n; ++i) out.insert(out.end(), sequence.sequence().begin(), sequence.sequence().end());
  if (sequence.isTuple()) return Tuple{std::move(out)};
  return out;
}

[[noreturn]] void unsupported(const std::string& op, const Value& a, const Value& b) {
  throw ExpressionError("unsupported operand type(s) for " + op + ": '" + typeName(a) + "' and '" + typeName(b) + "'");
}

double floorMod(double a, double b) {
  double m = std::fmod(a, b);
  if (m != 0 && ((m < 0) != (b < 0))) m += b;
  return m;
}

Value binaryOperation(const std::string& op, const Value& a, const Value& b) {
  const bool numbers = a.isNumber() && b.isNumber();
  const bool integers = numbers && !a.isFloat() && !b.isFloat();
  if (op == "+") {
    if (integers) {
      const std::int64_t x = toInt(a), y = toInt(b);
      return intResult(static_cast<long double>(x) + y, static_cast<std::int64_t>(static_cast<std::uint64_t>(x) + static_cast<std::uint64_t>(y)));
    }
    if (numbers) return toDouble(a) + toDouble(b);
    if (a.isString() && b.isString()) {
      checkSize(a.string().size() + b.string().size());
      return a.string() + b.string();
    }
    if ((a.isList() && b.isList()) || (a.isTuple() && b.isTuple())) {
      List out = a.sequence();
      out.insert(out.end(), b.sequence().begin(), b.sequence().end());
      checkSize(out.size(), kMaxListItems);
      if (a.isTuple()) return Tuple{std::move(out)};
      return out;
    }
    if (a.isString() || b.isString()) {
      throw ExpressionError("can only concatenate str (not \"" + typeName(a.isString() ? b : a) + "\") to str");
    }
    unsupported(op, a, b);
  }
  if (op == "-") {
    if (integers) {
      const std::int64_t x = toInt(a), y = toInt(b);
      return intResult(static_cast<long double>(x) - y, static_cast<std::int64_t>(static_cast<std::uint64_t>(x) - static_cast<std::uint64_t>(y)));
    }
    if (numbers) return toDouble(a) - toDouble(b);
    unsupported(op, a, b);
  }
  if (op == "*") {
    if (integers) {
      const std::int64_t x = toInt(a), y = toInt(b);
      return intResult(static_cast<long double>(x) * y, static_cast<std::int64_t>(static_cast<std::uint64_t>(x) * static_cast<std::uint64_t>(y)));
    }
    if (numbers) return toDouble(a) * toDouble(b);
    if ((a.isString() || a.isList() || a.isTuple()) && (b.isInt() || b.isBool())) return repeat(a, b);
    if ((b.isString() || b.isList() || b.isTuple()) && (a.isInt() || a.isBool())) return repeat(b, a);
    unsupported(op, a, b);
  }
  if (op == "/") {
    if (!numbers) unsupported(op, a, b);
    if (toDouble(b) == 0.0) throw ExpressionError(integers ? "division by zero" : "float division by zero");
    return toDouble(a) / toDouble(b);
  }
  if (op == "//" || op == "%") {
    if (a.isString() && op == "%") throw ExpressionError("printf-style formatting ('%') is not supported");
    if (!numbers) unsupported(op, a, b);
    if (toDouble(b) == 0.0) {
      throw ExpressionError(integers ? "integer division or modulo by zero" : "float modulo");
    }
    if (integers) {
      const std::int64_t x = toInt(a), y = toInt(b);
      std::int64_t q = x / y;
      std::int64_t r = x % y;
      if (r != 0 && ((r < 0) != (y < 0))) {
        --q;
        r += y;
      }
      return op == "//" ? Value(q) : Value(r);
    }
    const double x = toDouble(a), y = toDouble(b);
    return op == "//" ? Value(std::floor(x / y)) : Value(floorMod(x, y));
  }
  if (op == "**") {
    if (!numbers) unsupported(op, a, b);
    if (integers && toInt(b) >= 0) {
      const long double exact = std::pow(static_cast<long double>(toInt(a)), static_cast<long double>(toInt(b)));
      std::int64_t result = 1;
      const std::int64_t base = toInt(a);
      std::int64_t exponent = toInt(b);
      intResult(exact, 0);
      while (exponent-- > 0) result *= base;
      return result;
    }
    const double x = toDouble(a), y = toDouble(b);
    if (x == 0.0 && y < 0) throw ExpressionError("0.0 cannot be raised to a negative power");
    if (x < 0 && std::floor(y) != y) throw ExpressionError("complex results are not supported");
    return std::pow(x, y);
  }
  throw ExpressionError("unknown operator " + op);
}

bool contains(const Value& container, const Value& item) {
  if (container.isString()) {
    if (!item.isString()) throw ExpressionError("'in <string>' requires string as left operand, not " + typeName(item));
    return container.string().find(item.string()) != std::string::npos;
  }
  if (container.isList() || container.isTuple()) {
    for (const Value& v : container.sequence()) {
      if (equal(v, item)) return true;
    }
    return false;
  }
  if (container.isDict()) return dictFind(container.dict(), item) != nullptr;
  if (container.isNamespace()) {
    Value ignored;
    return item.isString() && container.nameSpace().member(item.string(), ignored);
  }
  throw ExpressionError("argument of type '" + typeName(container) + "' is not iterable");
}

bool compare(const std::string& op, const Value& a, const Value& b) {
  if (op == "==") return equal(a, b);
  if (op == "!=") return !equal(a, b);
  if (op == "<") return less(a, b);
  if (op == ">") return less(b, a);
  if (op == "<=") return !less(b, a);
  if (op == ">=") return !less(a, b);
  if (op == "in") return contains(b, a);
  if (op == "not in") return !contains(b, a);
  const bool same = (a.isNone() && b.isNone()) || (a.isBool() && b.isBool() && equal(a, b)) ||
                    (a.v.index() == b.v.index() && a.v.index() >= 5 && equal(a, b));
  return op == "is" ? same : !same;
}

std::int64_t normalisedIndex(std::int64_t index, std::size_t size) {
  const auto n = static_cast<std::int64_t>(size);
  if (index < 0) index += n;
  if (index < 0 || index >= n) throw ExpressionError("index out of range");
  return index;
}

Value indexValue(const Value& object, const Value& key) {
  if (object.isDict()) {
    if (const Value* found = dictFind(object.dict(), key)) return *found;
    throw ExpressionError("KeyError: " + repr(key));
  }
  if (object.isList() || object.isTuple()) {
    return object.sequence()[static_cast<std::size_t>(normalisedIndex(toInt(key, "an integer index"), object.sequence().size()))];
  }
  if (object.isString()) {
    const auto i = normalisedIndex(toInt(key, "an integer index"), object.string().size());
    return std::string(1, object.string()[static_cast<std::size_t>(i)]);
  }
  if (object.isNamespace() && key.isString()) return attributeOf(object, key.string());
  throw ExpressionError("'" + typeName(object) + "' object is not subscriptable");
}

Value sliceValue(const Value& object, const Value* start, const Value* stop, const Value* step) {
  const std::size_t size = object.isString() ? object.string().size()
                           : (object.isList() || object.isTuple()) ? object.sequence().size()
                                                                    : throw ExpressionError("'" + typeName(object) + "' object is not subscriptable");
  const auto n = static_cast<std::int64_t>(size);
  const std::int64_t by = step && !step->isNone() ? toInt(*step) : 1;
  if (by == 0) throw ExpressionError("slice step cannot be zero");
  const auto bound = [&](const Value* v, std::int64_t fallback) {
    if (!v || v->isNone()) return fallback;
    std::int64_t i = toInt(*v);
    if (i < 0) i += n;
    return by > 0 ? std::clamp<std::int64_t>(i, 0, n) : std::clamp<std::int64_t>(i, -1, n - 1);
  };
  const std::int64_t from = bound(start, by > 0 ? 0 : n - 1);
  const std::int64_t to = bound(stop, by > 0 ? n : -1);
  std::vector<std::size_t> picked;
  for (std::int64_t i = from; by > 0 ? i < to : i > to; i += by) picked.push_back(static_cast<std::size_t>(i));
  if (object.isString()) {
    std::string out;
    for (std::size_t i : picked) out += object.string()[i];
    return out;
  }
  List out;
  for (std::size_t i : picked) out.push_back(object.sequence()[i]);
  if (object.isTuple()) return Tuple{std::move(out)};
  return out;
}

/// The items a `for` runs over.
List iterate(const Value& v) {
  if (v.isList() || v.isTuple()) return v.sequence();
  if (v.isString()) {
    List out;
    for (char c : v.string()) out.emplace_back(std::string(1, c));
    return out;
  }
  if (v.isDict()) {
    List out;
    for (const auto& entry : v.dict()) out.push_back(entry.first);
    return out;
  }
  throw ExpressionError("'" + typeName(v) + "' object is not iterable");
}

/// The environment of a comprehension: its variable, then the enclosing names.
class ComprehensionScope : public Environment {
 public:
  ComprehensionScope(Environment& outer, std::string name) : outer_(outer), name_(std::move(name)) {}
  bool lookup(const std::string& name, Value& out) override {
    if (name == name_) {
      out = value;
      return true;
    }
    return outer_.lookup(name, out);
  }
  Value value;

 private:
  Environment& outer_;
  std::string name_;
};

Value evaluateNode(const ExpressionNode& node, Environment& env) {
  switch (node.kind) {
    case NodeKind::Literal: return node.literal;
    case NodeKind::Name: {
      if (node.name.rfind("__", 0) == 0) throw ExpressionError("Use of invalid name(s): " + node.name);
      Value out;
      if (env.lookup(node.name, out)) return out;
      throw ExpressionError("name '" + node.name + "' is not defined");
    }
    case NodeKind::List:
    case NodeKind::Tuple: {
      List items;
      for (const auto& kid : node.kids) items.push_back(evaluateNode(*kid, env));
      if (node.kind == NodeKind::Tuple) return Tuple{std::move(items)};
      return items;
    }
    case NodeKind::Dict: {
      Dict items;
      for (std::size_t i = 0; i + 1 < node.kids.size(); i += 2) {
        Value key = evaluateNode(*node.kids[i], env);
        Value value = evaluateNode(*node.kids[i + 1], env);
        bool replaced = false;
        for (auto& entry : items) {
          if (equal(entry.first, key)) {
            entry.second = value;
            replaced = true;
          }
        }
        if (!replaced) items.emplace_back(std::move(key), std::move(value));
      }
      return items;
    }
    case NodeKind::Attribute: {
      if (node.name.rfind("__", 0) == 0) throw ExpressionError("Use of invalid name(s): " + node.name);
      return attributeOf(evaluateNode(*node.kids[0], env), node.name);
    }
    case NodeKind::Call: {
      const Value function = evaluateNode(*node.kids[0], env);
      if (!function.isFunction()) throw ExpressionError("'" + typeName(function) + "' object is not callable");
      Arguments positional;
      KeywordArguments keywords;
      for (std::size_t i = 1; i < node.kids.size(); ++i) {
        Value v = evaluateNode(*node.kids[i], env);
        if (node.operators[i - 1].empty()) positional.push_back(std::move(v));
        else keywords.emplace_back(node.operators[i - 1], std::move(v));
      }
      return function.function().call(positional, keywords);
    }
    case NodeKind::Index: return indexValue(evaluateNode(*node.kids[0], env), evaluateNode(*node.kids[1], env));
    case NodeKind::Slice: {
      const Value object = evaluateNode(*node.kids[0], env);
      Value bounds[3];
      for (int i = 0; i < 3; ++i) {
        if (node.kids[static_cast<std::size_t>(i) + 1]) bounds[i] = evaluateNode(*node.kids[static_cast<std::size_t>(i) + 1], env);
      }
      return sliceValue(object, &bounds[0], &bounds[1], &bounds[2]);
    }
    case NodeKind::Unary: {
      const Value operand = evaluateNode(*node.kids[0], env);
      if (!operand.isNumber()) throw ExpressionError("bad operand type for unary " + node.name + ": '" + typeName(operand) + "'");
      if (node.name == "~") return ~toInt(operand);
      if (node.name == "+") return operand.isBool() ? Value(toInt(operand)) : operand;
      if (operand.isFloat()) return -toDouble(operand);
      return binaryOperation("-", Value(0), operand);
    }
    case NodeKind::Binary:
      return binaryOperation(node.name, evaluateNode(*node.kids[0], env), evaluateNode(*node.kids[1], env));
    case NodeKind::Compare: {
      Value left = evaluateNode(*node.kids[0], env);
      for (std::size_t i = 0; i < node.operators.size(); ++i) {
        Value right = evaluateNode(*node.kids[i + 1], env);
        if (!compare(node.operators[i], left, right)) return false;
        left = std::move(right);
      }
      return true;
    }
    case NodeKind::And: {
      Value left = evaluateNode(*node.kids[0], env);
      return truthy(left) ? evaluateNode(*node.kids[1], env) : left;
    }
    case NodeKind::Or: {
      Value left = evaluateNode(*node.kids[0], env);
      return truthy(left) ? left : evaluateNode(*node.kids[1], env);
    }
    case NodeKind::Not: return !truthy(evaluateNode(*node.kids[0], env));
    case NodeKind::Conditional:
      return truthy(evaluateNode(*node.kids[0], env)) ? evaluateNode(*node.kids[1], env) : evaluateNode(*node.kids[2], env);
    case NodeKind::Comprehension: {
      ComprehensionScope scope(env, node.name);
      List out;
      for (Value& item : iterate(evaluateNode(*node.kids[1], env))) {
        scope.value = std::move(item);
        if (node.kids.size() > 2 && !truthy(evaluateNode(*node.kids[2], scope))) continue;
        out.push_back(evaluateNode(*node.kids[0], scope));
        checkSize(out.size(), kMaxListItems);
      }
      return out;
    }
  }
  throw ExpressionError("unknown expression");
}

}  // namespace

Expression::Expression(std::string_view text) {
  Parser parser(text);
  root_ = parser.parseAll();
}
Expression::~Expression() = default;
Expression::Expression(Expression&&) noexcept = default;
Expression& Expression::operator=(Expression&&) noexcept = default;

Value Expression::evaluate(Environment& environment) const { return evaluateNode(*root_, environment); }

Value evaluate(std::string_view text, Environment& environment) { return Expression(text).evaluate(environment); }

}  // namespace interlink::xacro
