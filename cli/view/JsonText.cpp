#include "view/JsonText.hpp"

#include <cmath>

#include "interlink/PoseMath.hpp"
#include "interlink/convert/Writers.hpp"

namespace interlink::cli::view {

void JsonText::separate() {
  if (needComma_) text_ += ',';
  needComma_ = true;
}

JsonText& JsonText::open(char bracket) {
  separate();
  text_ += bracket;
  needComma_ = false;
  return *this;
}

JsonText& JsonText::close(char bracket) {
  text_ += bracket;
  needComma_ = true;
  return *this;
}

JsonText& JsonText::beginObject() { return open('{'); }
JsonText& JsonText::endObject() { return close('}'); }
JsonText& JsonText::beginArray() { return open('['); }
JsonText& JsonText::endArray() { return close(']'); }

JsonText& JsonText::key(std::string_view name) {
  separate();
  text_ += convert::jsonQuoted(name);
  text_ += ':';
  needComma_ = false;
  return *this;
}

JsonText& JsonText::value(std::string_view text) {
  separate();
  // "</" would end the <script> element the scene is embedded in; "<\/" means the same in JSON.
  std::string quoted = convert::jsonQuoted(text);
  for (std::size_t at = quoted.find("</"); at != std::string::npos; at = quoted.find("</", at + 3)) quoted.insert(at + 1, "\\");
  text_ += quoted;
  return *this;
}

JsonText& JsonText::value(double number) {
  separate();
  text_ += std::isfinite(number) ? formatNumber(number) : std::string("null");
  return *this;
}

JsonText& JsonText::value(bool flag) {
  separate();
  text_ += flag ? "true" : "false";
  return *this;
}

JsonText& JsonText::null() {
  separate();
  text_ += "null";
  return *this;
}

JsonText& JsonText::raw(std::string_view json) {
  separate();
  text_ += json;
  return *this;
}

JsonText& JsonText::vector(const Vector3& v) {
  beginArray();
  for (int i = 0; i < 3; ++i) value(v[i]);
  return endArray();
}

JsonText& JsonText::pose(const Pose& pose) {
  beginObject();
  key("t").vector(pose.translation());
  key("R").beginArray();
  const Matrix3 r = pose.linear();
  for (int row = 0; row < 3; ++row) {
    for (int col = 0; col < 3; ++col) value(r(row, col));
  }
  endArray();
  return endObject();
}

}  // namespace interlink::cli::view
